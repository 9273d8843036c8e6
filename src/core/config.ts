import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import { CachedFileSystem, SUPPRESSIONS } from './cachedFs';
import { diag } from './diagnostics';
import type { FileSystem } from './fs';
import type { Diagnostic } from './model';
import { readText } from './readText';
import { positionAt } from './text';

/**
 * The repository's own configuration, read by the CLI and the extension alike: JSON with
 * comments in `.instruction-lens.jsonc` at the folder checked (named as markdownlint's
 * `.markdownlint.jsonc` is), committed so the whole team sees the same problems.
 *
 * ```jsonc
 * {
 *   // The agents this repository is used with (instead of detecting them).
 *   "agents": ["claude-code", "codex"],
 *   // Rule codes never reported here.
 *   "disable": ["not-loaded"]
 * }
 * ```
 */
export const CONFIG_FILE = '.instruction-lens.jsonc';

export interface LensConfig {
  /** The file read, when there is one. */
  file?: string;
  agents?: string[];
  disable: string[];
  /** What is wrong with the file (it is then ignored, in whole or in part). */
  problems: Diagnostic[];
}

/** The configuration of a folder; an empty one when it has no file. Never throws. */
export function readConfig(fs: FileSystem, folder: string, known: { agents: readonly string[]; codes: readonly string[] }): LensConfig {
  const file = fs.path.join(folder, CONFIG_FILE);
  const r = readText(fs, file);
  if (r.state === 'missing' || r.state === 'directory') return { disable: [], problems: [] };
  if (r.state !== 'ok') return { file, disable: [], problems: [diag('lens-config-invalid', file, `${CONFIG_FILE} cannot be read as UTF-8 text; it is ignored.`)] };
  const errors: ParseError[] = [];
  const value: unknown = parse(r.text, errors, { allowTrailingComma: true });
  const at = (offset: number, length: number) => ({ text: r.text, start: offset, end: offset + length });
  if (errors.length) {
    const e = errors[0];
    const { line, column } = positionAt(r.text, e.offset);
    return { file, disable: [], problems: [diag('lens-config-invalid', file, `${CONFIG_FILE} does not parse (${printParseErrorCode(e.error)} at ${line + 1}:${column + 1}); it is ignored.`, at(e.offset, e.length))] };
  }
  const problems: Diagnostic[] = [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { file, disable: [], problems: [diag('lens-config-invalid', file, `${CONFIG_FILE} must hold an object with "agents" and "disable"; it is ignored.`)] };
  }
  const o = value as Record<string, unknown>;
  const list = (key: string, allowed: readonly string[], what: string): string[] | undefined => {
    const v = o[key];
    if (v === undefined) return undefined;
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) {
      problems.push(diag('lens-config-invalid', file, `"${key}" in ${CONFIG_FILE} must be a list of ${what}; it is ignored.`));
      return undefined;
    }
    const unknown = (v as string[]).filter((x) => !allowed.includes(x));
    if (unknown.length) problems.push(diag('lens-config-invalid', file, `"${key}" in ${CONFIG_FILE} names ${unknown.map((u) => `"${u}"`).join(', ')}, not ${what} Instruction Lens knows (${allowed.join(', ')}).`));
    return (v as string[]).filter((x) => allowed.includes(x));
  };
  for (const key of Object.keys(o)) {
    if (key !== 'agents' && key !== 'disable' && key !== '$schema') problems.push(diag('lens-config-invalid', file, `"${key}" in ${CONFIG_FILE} is not a setting Instruction Lens reads (it reads "agents" and "disable").`));
  }
  const agents = list('agents', known.agents, 'agent ids');
  return { file, ...(agents ? { agents } : {}), disable: list('disable', known.codes, 'rule codes') ?? [], problems };
}

/** `<!-- instruction-lens-disable-next-line [codes] -->` and `<!-- instruction-lens-disable-file [codes] -->`. */
const DIRECTIVE = /<!--\s*instruction-lens-disable-(next-line|file)\b([^>]*?)-->/g;

/** What a file's comments turn off: codes in the whole file, and by line (0-based); null when none. */
export type Suppressions = { file: Set<string> | 'all' | undefined; lines: Map<number, Set<string> | 'all'> } | null;

/**
 * What `file`'s comments turn off, read once per refresh through a cache (`perPath`). The
 * extension's worker sends it with each answer's real paths (`Reals`), so the extension host
 * shows the problems without reading their files itself.
 */
export function suppressionsIn(fs: FileSystem, file: string): Suppressions {
  return fs instanceof CachedFileSystem ? fs.perPath(SUPPRESSIONS, file, () => readSuppressions(fs, file)) : readSuppressions(fs, file);
}

function readSuppressions(fs: FileSystem, file: string): Suppressions {
  const r = readText(fs, file);
  if (r.state !== 'ok' || !r.text.includes('instruction-lens-disable')) return null;
  const d: NonNullable<Suppressions> = { file: undefined, lines: new Map() };
  for (const m of r.text.matchAll(DIRECTIVE)) {
    const codes = m[2].trim().split(/[\s,]+/).filter(Boolean);
    const set: Set<string> | 'all' = codes.length ? new Set(codes) : 'all';
    if (m[1] === 'file') d.file = d.file === 'all' || set === 'all' ? 'all' : new Set([...(d.file ?? []), ...set]);
    else {
      // The line after the one the comment ends on.
      const line = positionAt(r.text, (m.index ?? 0) + m[0].length).line + 1;
      const prev = d.lines.get(line);
      d.lines.set(line, prev === 'all' || set === 'all' ? 'all' : new Set([...(prev ?? []), ...set]));
    }
  }
  return d;
}

/**
 * Drops what the configuration disables and what inline comments in the file suppress, as
 * markdownlint's comments do: `disable-next-line` covers the line below the comment,
 * `disable-file` the whole file; with no codes, every code. The agents strip HTML comments, so
 * the model never sees them.
 */
export function suppress(list: readonly Diagnostic[], fs: FileSystem, disabled: readonly string[] = []): Diagnostic[] {
  const off = new Set(disabled);
  const read = new Map<string, Suppressions>();
  const of = (file: string) => (read.has(file) ? read.get(file)! : read.set(file, suppressionsIn(fs, file)).get(file)!);
  const covers = (s: Set<string> | 'all' | undefined, code: string) => s === 'all' || (s !== undefined && s.has(code));
  return list.filter((d) => {
    if (off.has(d.code)) return false;
    const dir = of(d.path);
    return !dir || (!covers(dir.file, d.code) && !covers(dir.lines.get(d.line), d.code));
  });
}
