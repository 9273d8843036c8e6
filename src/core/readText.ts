import { CachedFileSystem } from './cachedFs';
import { diag } from './diagnostics';
import { MAX_READ_BYTES, type FileSystem } from './fs';
import type { Diagnostic, Severity } from './model';
import { byteCount, charCount, decodeLossy, decodeUtf8, encode, fmt } from './text';

/** One candidate instruction file as read from disk. */
export type ReadResult =
  | { state: 'ok'; text: string; chars: number; bytes: number }
  | { state: 'missing' }
  | { state: 'directory' }
  /** `EFBIG`: over MAX_READ_BYTES, never read (`bytes` is its size); `EFTYPE`: a FIFO, socket or device. */
  | { state: 'unreadable'; code: string; bytes?: number }
  | { state: 'binary'; bytes: number }
  | { state: 'not-utf8'; bytes: number };

/** Read a file as strict UTF-8 text, saying precisely why when that is not possible. */
export function readText(fs: FileSystem, p: string): ReadResult {
  // Decoded once per refresh: every chain of a `check` pass reads the files above its folder.
  return fs instanceof CachedFileSystem ? fs.perPath('readText', p, () => read(fs, p)) : read(fs, p);
}

function read(fs: FileSystem, p: string): ReadResult {
  const st = fs.stat(p);
  if (!st) return { state: 'missing' };
  if (st.type === 'dir') return { state: 'directory' };
  if (st.type === 'other') return { state: 'unreadable', code: 'EFTYPE' };
  if (st.size > MAX_READ_BYTES) return { state: 'unreadable', code: 'EFBIG', bytes: st.size };
  let bytes: Uint8Array;
  try {
    bytes = fs.readFile(p);
  } catch (e) {
    const code = (e as { code?: string }).code ?? 'EIO';
    if (code === 'ENOENT') return { state: 'missing' };
    if (code === 'EISDIR') return { state: 'directory' };
    return { state: 'unreadable', code, ...(code === 'EFBIG' ? { bytes: fs.stat(p)?.size ?? st.size } : {}) };
  }
  const decoded = decodeUtf8(bytes);
  if (!decoded.ok) return { state: decoded.problem, bytes: bytes.byteLength };
  return { state: 'ok', text: decoded.text, chars: charCount(decoded.text), bytes: bytes.byteLength };
}

/** Sizes of a text, as a Source reports them. */
export function sizes(text: string): { chars: number; bytes: number } {
  return { chars: charCount(text), bytes: byteCount(text) };
}

/** A short human phrase for a read that failed. */
export function describeReadFailure(r: Exclude<ReadResult, { state: 'ok' }>): string {
  switch (r.state) {
    case 'missing':
      return 'does not exist';
    case 'directory':
      return 'is a directory';
    case 'unreadable':
      if (r.code === 'EFBIG') return `is ${fmt(r.bytes ?? 0)} bytes, more than any agent's context holds (Instruction Lens reads no file over ${fmt(MAX_READ_BYTES)} bytes)`;
      if (r.code === 'EFTYPE') return 'is not a regular file (a FIFO, socket or device)';
      return `cannot be read (${r.code})`;
    case 'binary':
      return 'is binary (contains NUL bytes)';
    case 'not-utf8':
      return 'is not valid UTF-8 text';
  }
}

/**
 * The code for a read that failed: `too-large` for a file over the cap (what the agent would do
 * with it matters less than that no agent could use it), else `unreadable`, `binary` or `not-utf8`.
 */
export function readFailureCode(r: Exclude<ReadResult, { state: 'ok' }>): 'too-large' | 'unreadable' | 'binary' | 'not-utf8' {
  if (r.state === 'binary' || r.state === 'not-utf8') return r.state;
  return r.state === 'unreadable' && r.code === 'EFBIG' ? 'too-large' : 'unreadable';
}

/**
 * The diagnostic for a read that failed, with `message` saying what the agent then does; for a
 * file over the cap only its size is said, since what the agent does with it is not modelled.
 */
export function readFailureDiagnostic(r: Exclude<ReadResult, { state: 'ok' }>, file: string, message: string): Diagnostic {
  const code = readFailureCode(r);
  return diag(code, file, code === 'too-large' ? `This file ${describeReadFailure(r)}: it is left out here, and what the agent would do with it is not shown.` : message);
}

/** A file as an agent that decodes lossily reads it: always text, `problem` set when it was not clean UTF-8. */
export type LossyRead =
  | { state: 'ok'; text: string; chars: number; bytes: number; raw: Uint8Array; problem?: 'binary' | 'not-utf8' }
  | Exclude<ReadResult, { state: 'ok' | 'binary' | 'not-utf8' }>;

/**
 * Read a file as agents written in JavaScript or Rust do (`fs.readFile(p, 'utf8')`,
 * `String::from_utf8_lossy`): invalid sequences become U+FFFD, NUL bytes and a BOM are kept.
 * `raw` is the bytes on disk, for agents that cut by bytes.
 */
export function readLossy(fs: FileSystem, p: string): LossyRead {
  // Once per refresh, as readText: every chain of a pass reads the files above its folder.
  return fs instanceof CachedFileSystem ? fs.perPath('readLossy', p, () => lossy(fs, p)) : lossy(fs, p);
}

function lossy(fs: FileSystem, p: string): LossyRead {
  const r = readText(fs, p);
  // Strict decoding succeeded, so encoding the text gives back the bytes on disk (a BOM included).
  if (r.state === 'ok') return { ...r, raw: encode(r.text) };
  if (r.state !== 'binary' && r.state !== 'not-utf8') return r;
  let raw: Uint8Array;
  try {
    raw = fs.readFile(p);
  } catch (e) {
    const code = (e as { code?: string }).code ?? 'EIO';
    return { state: 'unreadable', code, ...(code === 'EFBIG' ? { bytes: fs.stat(p)?.size ?? 0 } : {}) };
  }
  const text = decodeLossy(raw);
  return { state: 'ok', text, chars: charCount(text), bytes: raw.byteLength, raw, problem: r.state };
}

/**
 * As `readLossy`, but a file over MAX_READ_BYTES gives its first `maxBytes` bytes instead of
 * `EFBIG`, for an agent that sends only the start of a file however large it is (Codex). Then
 * `size` is the file's size on disk, `bytes` and `chars` count only the part read, and `problem`
 * says only what that part holds.
 */
export function readLossyHead(fs: FileSystem, p: string, maxBytes: number): LossyRead & { size?: number } {
  const r = readLossy(fs, p);
  if (r.state !== 'unreadable' || r.code !== 'EFBIG') return r;
  let raw: Uint8Array;
  try {
    raw = fs.readPrefix(p, maxBytes);
  } catch (e) {
    return { state: 'unreadable', code: (e as { code?: string }).code ?? 'EIO' };
  }
  const problem = headProblem(raw);
  const text = decodeLossy(raw);
  return { state: 'ok', text, chars: charCount(text), bytes: raw.byteLength, raw, size: r.bytes ?? raw.byteLength, ...(problem ? { problem } : {}) };
}

/**
 * What is wrong with the first bytes of a file, if anything: NUL bytes, or invalid UTF-8 before
 * the last character (one cut at the end of the part is not a fault of the file).
 */
export function headProblem(raw: Uint8Array): 'binary' | 'not-utf8' | undefined {
  const strict = decodeUtf8(raw);
  if (strict.ok) return undefined;
  return strict.problem === 'binary' ? 'binary' : decodeUtf8(raw.subarray(0, lastWhole(raw))).ok ? undefined : 'not-utf8';
}

/** Where the last whole UTF-8 character of `raw` ends (before a sequence cut at the end). */
function lastWhole(raw: Uint8Array): number {
  let i = raw.length;
  // Back over at most three continuation bytes to the lead byte of the last sequence.
  while (i > 0 && raw.length - i < 3 && (raw[i - 1] & 0xc0) === 0x80) i--;
  if (i === 0) return raw.length;
  const lead = raw[i - 1];
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return raw.length - (i - 1) < need ? i - 1 : raw.length;
}

/** The diagnostic for a file read lossily: `binary` or `not-utf8`, then what the agent does with it. */
export function lossyDiagnostic(file: string, problem: 'binary' | 'not-utf8', whatTheAgentDoes: string, severity?: Severity): Diagnostic {
  return diag(problem, file, `This file ${describeReadFailure({ state: problem, bytes: 0 })}: ${whatTheAgentDoes}`, undefined, undefined, severity);
}
