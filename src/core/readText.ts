import type { FileSystem } from './fs';
import { byteCount, charCount, decodeUtf8 } from './text';

/** One candidate instruction file as read from disk. */
export type ReadResult =
  | { state: 'ok'; text: string; chars: number; bytes: number }
  | { state: 'missing' }
  | { state: 'directory' }
  | { state: 'unreadable'; code: string }
  | { state: 'binary'; bytes: number }
  | { state: 'not-utf8'; bytes: number };

/** Read a file as strict UTF-8 text, saying precisely why when that is not possible. */
export function readText(fs: FileSystem, p: string): ReadResult {
  const st = fs.stat(p);
  if (!st) return { state: 'missing' };
  if (st.type === 'dir') return { state: 'directory' };
  let bytes: Uint8Array;
  try {
    bytes = fs.readFile(p);
  } catch (e) {
    const code = (e as { code?: string }).code ?? 'EIO';
    if (code === 'ENOENT') return { state: 'missing' };
    if (code === 'EISDIR') return { state: 'directory' };
    return { state: 'unreadable', code };
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
      return `cannot be read (${r.code})`;
    case 'binary':
      return 'is binary (contains NUL bytes)';
    case 'not-utf8':
      return 'is not valid UTF-8 text';
  }
}
