import picomatch from 'picomatch';
import { ParseCache } from './parseCache';
import { isInside, type PathRules } from './paths';

/** Glob matching for conditional rules (`paths:`, `applyTo`, `globs`), on `/` paths. */

export interface GlobOptions {
  /** A pattern without `/` matches a file name at any depth (gitignore style). */
  basenameAnywhere?: boolean;
  nocase?: boolean;
  /** A pattern that matches a folder matches everything in it (gitignore style). */
  folders?: boolean;
}

/**
 * `target` relative to `base` with `/` separators, or undefined when it is outside `base`; on a
 * file system that ignores case, `base` may be written in another case than the target's start.
 */
export function relativeInside(base: string, target: string, fs: PathRules): string | undefined {
  const path = fs.path;
  if (path.sep === '/') {
    // Fast path for the common case (normalized absolute paths), used on every file of large trees.
    if (target.startsWith(base) && target.charCodeAt(base.length) === 47 && !target.includes('/..')) return target.slice(base.length + 1);
    if (base === '/' && target.startsWith('/') && !target.includes('/..')) return target.slice(1);
    // And for a file outside a folder (a pass over one folder asks it of every file of the
    // repository): two normalized absolute paths, the target not starting with the folder.
    if (!fs.caseInsensitive && !target.startsWith(base) && isNormalAbsolute(target) && isNormalAbsolute(base)) return undefined;
    // path.posix.relative compares case; path.win32.relative already ignores it.
    if (fs.caseInsensitive && isInside(target, base, fs)) target = base + target.slice(base.length);
  }
  const rel = path.relative(base, target);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return rel === '' ? '' : undefined;
  return rel.split(path.sep).join('/');
}

/** Whether a POSIX path is absolute with no `.` or `..` part, no doubled `/` and no `/` at its end (what `relative` would change). */
function isNormalAbsolute(p: string): boolean {
  return p.charCodeAt(0) === 47 && !p.includes('//') && !p.includes('/./') && !p.includes('/../') && !p.endsWith('/.') && !p.endsWith('/..') && (p.length === 1 || !p.endsWith('/'));
}

function expand(glob: string, opts: GlobOptions): string {
  let g = glob.startsWith('/') ? glob.slice(1) : glob;
  if (g.endsWith('/')) g += '**';
  if (opts.basenameAnywhere && !glob.startsWith('/') && !g.includes('/')) g = `**/${g}`;
  return g;
}

/** Whether a relative path matches any of the globs. */
export function matchesAny(rel: string, globs: readonly string[], opts: GlobOptions = {}): boolean {
  const cache = cacheFor(opts);
  // By index: `check` runs in V8's baseline tier, where each step of a `for...of` allocates.
  for (let i = 0; i < globs.length; i++) {
    const g = globs[i];
    const re = compiled(cache, g, opts);
    if (re === undefined) continue;
    if (re.test(rel)) return true;
    if (opts.folders) for (let i = rel.lastIndexOf('/'); i > 0; i = rel.lastIndexOf('/', i - 1)) if (re.test(rel.slice(0, i))) return true;
  }
  return false;
}

/**
 * Compiled globs, kept by the options that change the expression (`folders` does not): the same
 * few patterns are tested against every file of a `check` pass.
 */
const caches = [new Map<string, RegExp | undefined>(), new Map<string, RegExp | undefined>(), new Map<string, RegExp | undefined>(), new Map<string, RegExp | undefined>()];

function cacheFor(opts: GlobOptions): Map<string, RegExp | undefined> {
  return caches[(opts.basenameAnywhere ? 1 : 0) + (opts.nocase ? 2 : 0)];
}

function compiled(cache: Map<string, RegExp | undefined>, glob: string, opts: GlobOptions): RegExp | undefined {
  const known = cache.get(glob);
  if (known !== undefined || cache.has(glob)) return known;
  let re: RegExp | undefined;
  try {
    re = picomatch.makeRe(expand(glob, opts), { dot: true, nocase: opts.nocase });
  } catch {
    re = undefined;
  }
  if (cache.size > 5000) cache.clear();
  cache.set(glob, re);
  return re;
}

/**
 * A test of `/` paths against one glob (dot files included), compiled once: the agents' patterns
 * are asked for again at every start of the watcher and every detection.
 */
export function globMatcher(glob: string): (rel: string) => boolean {
  let test = matchers.get(glob);
  if (!test) matchers.set(glob, (test = picomatch(glob, { dot: true })));
  return test;
}

const matchers = new Map<string, (rel: string) => boolean>();

/**
 * Values kept by the last literal folder or file name of their glob (`**\/.cursor/rules/*` under
 * `rules`), so a pass over every file of a repository tries a glob only on the paths that hold
 * that name as one of their segments (one look-up per segment), as a path the glob matches must.
 * A glob without a literal name is in `always`, to be tried on every path.
 */
export class SegmentIndex<T> {
  readonly always: { glob: string; value: T }[] = [];
  private readonly byLiteral = new Map<string, T[]>();
  /**
   * Length and first character of every literal (case kept only): most segments of a path differ
   * in one of them, and are then not cut out of it (tens of thousands of paths, several segments each).
   */
  private readonly shapes = new Set<number>();
  /** A path segment equal to one of the literals (made at the first `some`, after every `add`). */
  private anyLiteral: RegExp | undefined;

  /** `nocase`: segments are compared ignoring case, as the globs are then matched. */
  constructor(private readonly nocase = false) {}

  add(glob: string, value: T): void {
    const literal = glob
      .split('/')
      .reverse()
      .find((seg) => /^[\w.@-]+$/.test(seg) && !/^\.+$/.test(seg));
    if (literal === undefined) this.always.push({ glob, value });
    else {
      const key = this.fold(literal);
      this.shapes.add(shape(literal, 0, literal.length));
      this.anyLiteral = undefined;
      const list = this.byLiteral.get(key);
      if (list) list.push(value);
      else this.byLiteral.set(key, [value]);
    }
  }

  /**
   * Whether `test` holds for a value kept under one of the segments of `rel` (the `always` ones
   * aside), tried in the order of the segments; a value may be tried twice when its name is twice
   * in the path.
   */
  some(rel: string, test: (value: T) => boolean): boolean {
    // Most paths hold none of the literals: one regular expression, run as machine code, says so
    // before the walk over the path's segments (ignoring case, folding decides: no shortcut).
    if (!this.nocase && !(this.anyLiteral ??= literalsRe(this.byLiteral.keys())).test(rel)) return false;
    for (let from = 0; from <= rel.length; ) {
      const slash = rel.indexOf('/', from);
      const end = slash < 0 ? rel.length : slash;
      // Ignoring case, a segment may fold to a literal of another length or first character.
      const candidates = !this.nocase && !this.shapes.has(shape(rel, from, end)) ? undefined : this.byLiteral.get(this.fold(rel.slice(from, end)));
      if (candidates) for (const v of candidates) if (test(v)) return true;
      from = end + 1;
    }
    return false;
  }

  private fold(t: string): string {
    return this.nocase ? t.toLowerCase() : t;
  }
}

/** Whether a path has a segment equal to one of `literals` (made of letters, digits, `_`, `.`, `@`, `-`). */
function literalsRe(literals: Iterable<string>): RegExp {
  const alternatives = [...literals].map((l) => l.replace(/[.]/g, '\\.'));
  // None: anchored, so that it fails at once rather than at each offset of the path.
  return alternatives.length ? new RegExp(`(?:^|/)(?:${alternatives.join('|')})(?:/|$)`) : /^(?!)/;
}

/** The length and first UTF-16 unit of `text.slice(from, end)`, as one number. */
function shape(text: string, from: number, end: number): number {
  return (end - from) * 65536 + (end > from ? text.charCodeAt(from) : 0);
}

/** Why a glob is invalid, or undefined when it is fine. */
export function globProblem(glob: string): string | undefined {
  return problems.get(glob);
}

/** Kept by pattern: agents test a rule's few patterns against every file of a `check` pass. */
const problems = new ParseCache(findGlobProblem);

function findGlobProblem(glob: string): string | undefined {
  if (glob.trim() === '') return 'the pattern is empty';
  let depth = 0;
  let bracket = false;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (bracket) {
      if (c === ']') bracket = false;
      continue;
    }
    if (c === '[') bracket = true;
    if (c === '{') depth++;
    if (c === '}') depth--;
    if (depth < 0) return 'a `}` has no matching `{`';
  }
  if (depth > 0) return 'a `{` is never closed';
  if (bracket) return 'a `[` is never closed';
  try {
    picomatch.makeRe(glob);
  } catch (e) {
    return (e as Error).message;
  }
  return undefined;
}
