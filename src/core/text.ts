/** Text measures the agents use: Unicode code points ("chars") and UTF-8 bytes. */

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lossyDecoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/**
 * Whether a file is short enough to be a pointer to another ("See AGENTS.md.", "Please read
 * `./CLAUDE.md`"): at most 5 non-blank lines and 400 characters once trimmed. A longer file may
 * say more than the pointer.
 */
export function isShortNote(text: string): boolean {
  const body = text.trim();
  return charCount(body) <= 400 && body.split('\n').filter((l) => l.trim()).length <= 5;
}

/** Count of Unicode code points, the unit Rust's `chars()` and most budgets count. */
export function charCount(s: string): number {
  // Most texts hold no surrogate at all: one native scan says so (profiles count every file of
  // every chain).
  if (!HIGH_SURROGATE.test(s)) return s.length;
  // Every UTF-16 unit, less one per surrogate pair; a lone surrogate counts as one.
  let n = s.length;
  for (let i = 0; i + 1 < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) continue;
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) {
      n--;
      i++;
    }
  }
  return n;
}

const HIGH_SURROGATE = /[\uD800-\uDBFF]/;

/** UTF-8 bytes of `s` as sent (a lone surrogate as U+FFFD, three bytes), without encoding it. */
export function byteCount(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

export function encode(s: string): Uint8Array {
  return encoder.encode(s);
}

/** The first `n` code points of `s`. */
export function takeChars(s: string, n: number): string {
  if (n <= 0) return '';
  let count = 0;
  let offset = 0;
  for (const ch of s) {
    if (count === n) return s.slice(0, offset);
    offset += ch.length;
    count++;
  }
  return s;
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
  const at = Math.max(0, Math.min(offset, text.length));
  const starts = lineStarts(text);
  // The last line start at or before `at` (a newline at `at` itself belongs to the line it ends).
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= at) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo, column: at - starts[lo] };
}

/**
 * Offsets where each line of `text` starts, kept for the last few texts: a file with 20,000
 * diagnostics scans its text once, not once per diagnostic.
 */
const lineStartsCache = new Map<string, Uint32Array>();
const LINE_STARTS_KEPT = 8;

function lineStarts(text: string): Uint32Array {
  let starts = lineStartsCache.get(text);
  if (starts) return starts;
  const list: number[] = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) list.push(i + 1);
  starts = Uint32Array.from(list);
  if (lineStartsCache.size >= LINE_STARTS_KEPT) lineStartsCache.delete(lineStartsCache.keys().next().value!);
  lineStartsCache.set(text, starts);
  return starts;
}

/** The offset in UTF-16 units of the `n`th code point. */
export function offsetOfChar(s: string, n: number): number {
  return takeChars(s, n).length;
}

/**
 * The offset in UTF-16 units of the character that holds byte `n` (0-based) of the UTF-8
 * encoding: where a cut after `n` bytes falls, the split character included. In "aé", byte 2
 * is the second byte of "é", so the answer is 1.
 */
export function offsetOfByte(s: string, n: number): number {
  let bytes = 0;
  let offset = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (bytes > n) return offset;
    offset += ch.length;
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

/**
 * A count as messages print it: `12,000`. Whole numbers are grouped here: the first
 * `toLocaleString` of a process loads the ICU's number formats (tens of milliseconds, more on a
 * busy machine), which the extension's first chain would otherwise wait for.
 */
export function fmt(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ',');
  return n < 0 ? `-${digits}` : digits;
}
