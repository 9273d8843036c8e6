import { diag } from './diagnostics';
import type { FileSystem } from './fs';
import type { Diagnostic, Source } from './model';
import { readText } from './readText';
import { getOrSet } from './profile';

/**
 * A file whose whole text is one relative path to another file is, in practice, a symbolic link
 * that git stored as a plain file: a link made on a checkout with `core.symlinks` off (Windows
 * without developer mode), or copied by a tool that does not keep links. No agent follows it:
 * each reads the file as text and sends that one line as its instructions.
 */

/** The most bytes such a file holds: one path, not a document. */
const MAX_BYTES = 512;
/** One token with no spaces, no `@` (an import), no URL or Markdown punctuation. */
const PATH_LINE = /^[^\s@<>"'`|*?:#()[\]{}]+$/;

/** The statuses of a source whose text the agent sends. */
const SENT = new Set<Source['status']>(['loaded', 'truncated', 'on-read']);

/** One diagnostic per sent source whose text is only a path to an existing file. */
export function linkAsTextDiagnostics(
  fs: FileSystem,
  sources: readonly Source[],
  agent: string,
  memo: <T>(key: string, compute: () => T) => T,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  // Memoized per file and profile: every chain of a `check` pass carries the same root files,
  // and `resolveChain` marks each diagnostic with its profile in place. One map by path, where a
  // key per source (`link-as-text\0<path>`) was made and hashed for every chain.
  let byPath: Map<string, Diagnostic | undefined> | undefined;
  for (let i = 0; i < sources.length; i++) {
    const s = sources[i];
    if (!SENT.has(s.status) || s.bytes > MAX_BYTES || s.bytes === 0) continue;
    byPath ??= memo('link-as-text', () => new Map<string, Diagnostic | undefined>());
    const d = getOrSet(byPath, s.path, () => linkAsText(fs, s.path, agent));
    if (d) out.push(d);
  }
  return out;
}

function linkAsText(fs: FileSystem, file: string, agent: string): Diagnostic | undefined {
  const r = readText(fs, file);
  if (r.state !== 'ok') return undefined;
  const line = r.text.replace(/^\uFEFF/, '').trim();
  if (!line || !PATH_LINE.test(line)) return undefined;
  const target = fs.path.resolve(fs.path.dirname(file), line);
  if (target === file || fs.stat(target)?.type !== 'file') return undefined;
  const start = r.text.indexOf(line);
  return diag(
    'link-as-text',
    file,
    `Its whole text is the path ${line}: ${agent} sends that line as instructions, not the text of ${line}. It looks like a symbolic link that git stored as a plain file (made with core.symlinks off, or copied by a tool that drops links). Make it a real link, or put the text itself here.`,
    { text: r.text, start, end: start + line.length },
    { target },
  );
}
