/** Text measures the agents use: Unicode code points ("chars") and UTF-8 bytes. */

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lossyDecoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/** Count of Unicode code points, the unit Rust's `chars()` and most budgets count. */
export function charCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

export function byteCount(s: string): number {
  return encoder.encode(s).byteLength;
}

export function encode(s: string): Uint8Array {
  return encoder.encode(s);
}

/** The first `n` code points of `s`. */
export function takeChars(s: string, n: number): string {
  if (n <= 0) return '';
  let count = 0;
  for (let i = 0; i < s.length; i++) {
    if (count === n) return s.slice(0, i);
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    count++;
  }
  return s;
}

/** The first `n` bytes of `s`, decoded lossily (a split character becomes U+FFFD), as Rust's `from_utf8_lossy`. */
export function takeBytesLossy(s: string, n: number): string {
  const bytes = encoder.encode(s);
  if (bytes.byteLength <= n) return s;
  return lossyDecoder.decode(bytes.subarray(0, Math.max(0, n)));
}

export type Decoded = { ok: true; text: string } | { ok: false; problem: 'binary' | 'not-utf8' };

/** Decode a file's bytes as strict UTF-8; a NUL byte means binary. */
export function decodeUtf8(bytes: Uint8Array): Decoded {
  if (bytes.includes(0)) return { ok: false, problem: 'binary' };
  try {
    return { ok: true, text: strictDecoder.decode(bytes) };
  } catch {
    return { ok: false, problem: 'not-utf8' };
  }
}

/** Decode lossily (invalid sequences become U+FFFD), as agents written in JS read files. */
export function decodeLossy(bytes: Uint8Array): string {
  return lossyDecoder.decode(bytes);
}

/** 0-based line and column (in UTF-16 units, as editors count) of a string offset. */
export function positionAt(text: string, offset: number): { line: number; column: number } {
  let line = 0;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: Math.min(offset, text.length) - lineStart };
}

/** The offset in UTF-16 units of the `n`th code point. */
export function offsetOfChar(s: string, n: number): number {
  return takeChars(s, n).length;
}

/** The offset in UTF-16 units of the character that contains byte `n`. */
export function offsetOfByte(s: string, n: number): number {
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    if (bytes >= n) return i;
    const cp = s.codePointAt(i)!;
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (cp >= 0x10000) i++;
  }
  return s.length;
}

/** Split as Rust's `str::lines`: on `\n`, dropping one trailing `\r`, no final empty line. */
export function rustLines(s: string): string[] {
  if (s === '') return [];
  const lines = s.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

// Rust's `char::is_whitespace` (Unicode White_Space). Differs from JS `trim()`: U+0085 is
// white space in Rust, U+FEFF is not.
const RUST_WS = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

export function isRustWhitespace(ch: string): boolean {
  return RUST_WS.test(ch);
}

/** Rust's `str::trim_start`. */
export function rustTrimStart(s: string): string {
  let i = 0;
  while (i < s.length && RUST_WS.test(s[i])) i++;
  return s.slice(i);
}

/** Rust's `str::trim_end`. */
export function rustTrimEnd(s: string): string {
  let i = s.length;
  while (i > 0 && RUST_WS.test(s[i - 1])) i--;
  return s.slice(0, i);
}

/** Rust's `str::trim`. */
export function rustTrim(s: string): string {
  return rustTrimEnd(rustTrimStart(s));
}

/** A count as messages print it: `12,000`. */
export function fmt(n: number): string {
  return n.toLocaleString('en-US');
}
