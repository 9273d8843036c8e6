import * as nodePath from 'node:path';
import type { FileSystem, PathApi } from './fs';

/**
 * Path helpers every profile needs, on normalized absolute paths. Each takes the path rules of
 * the file system it works on (`PathRules`): its separators and drive letters (`fs.path`) and
 * whether it ignores case in names (`fs.caseInsensitive`), never the platform the core runs on.
 */

/** What a path helper needs to know of a file system. */
export type PathRules = Pick<FileSystem, 'path' | 'caseInsensitive'>;

/**
 * The path rules of a platform, for paths named before any file system is at hand (an agent's
 * files in the home folder, which `Profile.globalPaths` lists for watching).
 */
export function platformPath(platform: NodeJS.Platform): PathApi {
  return platform === 'win32' ? nodePath.win32 : nodePath.posix;
}

/**
 * Whether two names or paths name the same entry on this file system: equal, or equal but for
 * case where it ignores case (`claude.md` and `CLAUDE.md` on macOS and Windows by default).
 */
export function sameName(fs: PathRules, a: string, b: string): boolean {
  return a === b || (fs.caseInsensitive && a.length === b.length && a.toLowerCase() === b.toLowerCase());
}

/** A key for sets and maps of paths: two paths have one key when they name one entry (see `sameName`). */
export function pathKey(fs: PathRules, p: string): string {
  return fs.caseInsensitive ? p.toLowerCase() : p;
}

/**
 * Whether a file is there under exactly this name, as a program that lists the folder and compares
 * names sees it (git's index, a readdir match): on a case-insensitive disk `stat` of `CLAUDE.md`
 * also finds `claude.md`, which such a program does not take for it.
 */
export function hasExactName(fs: Pick<FileSystem, 'stat' | 'readDir' | 'path' | 'caseInsensitive'>, file: string): boolean {
  if (!fs.stat(file)) return false;
  if (!fs.caseInsensitive) return true;
  const name = fs.path.basename(file);
  return fs.readDir(fs.path.dirname(file)).some((e) => e.name === name);
}

/** Whether `p` is `dir` or below it (whole components, like Rust's `Path::starts_with`). */
export function isInside(p: string, dir: string, fs: PathRules): boolean {
  if (p === dir) return true;
  const sep = fs.path.sep;
  // `p.startsWith(dir + sep)` without making that string (asked for every folder of every chain).
  if (!fs.caseInsensitive) return p.startsWith(dir) && (dir.endsWith(sep) || (p.length > dir.length && p.charCodeAt(dir.length) === sep.charCodeAt(0)));
  const prefix = dir.endsWith(sep) ? dir : dir + sep;
  if (p.length <= prefix.length) return sameName(fs, p, dir);
  return sameName(fs, p.slice(0, prefix.length), prefix);
}

/** `dir` and every directory above it, nearest first, ending with the root. */
export function ancestors(dir: string, fs: PathRules): string[] {
  const path = fs.path;
  const out: string[] = [];
  for (let d = dir; ; d = path.dirname(d)) {
    out.push(d);
    if (path.dirname(d) === d) return out;
  }
}

/**
 * Rust's `Path` ordering: component by component, bytewise (so `a/x` sorts before `a-b`); the
 * components split at the file system's separator.
 */
export function compareRustPaths(a: string, b: string, sep = '/'): number {
  const pa = a.split(sep);
  const pb = b.split(sep);
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    if (pa[i] !== pb[i]) return Buffer.compare(Buffer.from(pa[i]), Buffer.from(pb[i]));
  }
  return pa.length - pb.length;
}

/**
 * Files below `dir` whose name `accept`s, in the file system's listing order with sub-folders
 * expanded in place; a folder reached twice through links is read once.
 */
export function filesBelow(fs: FileSystem, dir: string, accept: (name: string) => boolean, seen = new Set<string>()): string[] {
  const path = fs.path;
  // Most folders asked do not exist (`.claude/rules`, `.cursor/rules` in every folder of a chain):
  // a cached `stat` answers from the listing above, where a real path asks the disk.
  if (fs.stat(dir)?.type !== 'dir') return [];
  const real = pathKey(fs, fs.realPath(dir));
  if (seen.has(real)) return [];
  seen.add(real);
  const out: string[] = [];
  for (const e of fs.readDir(dir)) {
    const p = path.join(dir, e.name);
    if (e.type === 'dir') out.push(...filesBelow(fs, p, accept, seen));
    else if (e.type === 'file' && accept(e.name)) out.push(p);
  }
  return out;
}

/** The folder of the target: the target itself when it is a folder, else the folder holding it. */
export function folderOf(fs: FileSystem, target: string): string {
  return fs.stat(target)?.type === 'dir' ? target : fs.path.dirname(target);
}

/** The folders strictly below `top` down to `dir` itself, outermost first; [] when `dir` is not below `top`. */
export function dirsBelow(top: string, dir: string, fs: PathRules): string[] {
  const path = fs.path;
  const out: string[] = [];
  // `isInside(d, top)` with its prefix made once, and each folder's parent once: every chain asks
  // this of its folder (a profile's walk down from the launch folder).
  const prefix = top.endsWith(path.sep) ? top : top + path.sep;
  for (let d = dir; !sameName(fs, d, top) && (fs.caseInsensitive ? isInside(d, top, fs) : d.startsWith(prefix)); ) {
    const up = path.dirname(d);
    if (up === d) break;
    out.push(d);
    d = up;
  }
  return out.reverse();
}

/** Folders no walk of ours enters: version control data and installed packages. */
export const SKIP_DIRS: ReadonlySet<string> = new Set(['.git', 'node_modules', '.hg', '.svn']);

/**
 * File types people name after an `@`. A dotted name ending in none of them is a decorator, a
 * member or a domain (`@app.cell`, `@pytest.fixture`, `@example.com`), not a file.
 */
const FILE_TYPES = new Set(
  ('md mdx mdc txt text rst adoc org json jsonc jsonl json5 yaml yml toml xml csv tsv html htm css scss sass less js jsx ts tsx mjs cjs ' +
    'mts cts py pyi ipynb rb go rs java kt kts scala swift c h cc cpp cxx hpp cs fs vb php pl lua r dart ex exs erl clj hs elm ' +
    'ml sh bash zsh fish ps1 bat cmd env ini cfg conf config properties sql prisma graphql gql proto vue svelte astro tf hcl ' +
    'nix gradle cmake make mk lock log diff patch tex png jpg jpeg gif svg webp ico bmp pdf docx xlsx pptx zip gz tar tgz mp4').split(' '),
);

/**
 * Whether an `@token` that names no file still reads as a path: it ends in a file type, climbs
 * out (`../`), or starts with a folder that exists beside the importer. `@octocat` (a GitHub
 * handle), `@acme/cli` (a package name) and `@app.cell` (a decorator) do not: an agent that
 * leaves the text as written when the file is missing then does what the author meant, so there
 * is nothing to report.
 */
export function readsAsPath(fs: Pick<FileSystem, 'stat' | 'path'>, importer: string, target: string): boolean {
  const path = fs.path;
  if (FILE_TYPES.has(/\.([A-Za-z0-9]+)$/.exec(path.basename(target))?.[1].toLowerCase() ?? '')) return true;
  const rel = path.relative(path.dirname(importer), target);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return true;
  const first = rel.split(path.sep)[0];
  return rel.includes(path.sep) && fs.stat(path.join(path.dirname(importer), first))?.type === 'dir';
}

/**
 * The first index from `lo` to `hi` not `below` what is sought, in a stretch ascending by it,
 * found by halving; `hi` when every one is below (a sorted listing's range, a path's entry).
 */
export function firstNotBelow(lo: number, hi: number, below: (i: number) => boolean): number {
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (below(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
