import * as path from 'node:path';
import type { FileSystem } from './fs';

/** Path helpers every profile needs, on normalized absolute paths. */

/** Whether `p` is `dir` or below it (whole components, like Rust's `Path::starts_with`). */
export function isInside(p: string, dir: string): boolean {
  return p === dir || p.startsWith(dir.endsWith('/') ? dir : dir + '/');
}

/** `dir` and every directory above it, nearest first, ending with the root. */
export function ancestors(dir: string): string[] {
  const out: string[] = [];
  for (let d = dir; ; d = path.dirname(d)) {
    out.push(d);
    if (path.dirname(d) === d) return out;
  }
}

/** Rust's `Path` ordering: component by component, bytewise (so `a/x` sorts before `a-b`). */
export function compareRustPaths(a: string, b: string): number {
  const pa = a.split('/');
  const pb = b.split('/');
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
  const real = fs.realPath(dir);
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
  return fs.stat(target)?.type === 'dir' ? target : path.dirname(target);
}

/** The folders strictly below `top` down to `dir` itself, outermost first; [] when `dir` is not below `top`. */
export function dirsBelow(top: string, dir: string): string[] {
  const out: string[] = [];
  for (let d = dir; d !== top && isInside(d, top) && path.dirname(d) !== d; d = path.dirname(d)) out.push(d);
  return out.reverse();
}

/** Folders no walk of ours enters: version control data and installed packages. */
export const SKIP_DIRS: ReadonlySet<string> = new Set(['.git', 'node_modules', '.hg', '.svn']);

/**
 * Whether an `@token` that names no file still reads as a path: it has a file extension, climbs
 * out (`../`), or starts with a folder that exists beside the importer. `@octocat` (a GitHub
 * handle) and `@acme/cli` (a package name) do not: an agent that leaves the text as written when
 * the file is missing then does what the author meant, so there is nothing to report.
 */
export function readsAsPath(fs: Pick<FileSystem, 'stat'>, importer: string, target: string): boolean {
  if (/\.[A-Za-z0-9]+$/.test(path.basename(target))) return true;
  const rel = path.relative(path.dirname(importer), target);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return true;
  const first = rel.split(path.sep)[0];
  return rel.includes(path.sep) && fs.stat(path.join(path.dirname(importer), first))?.type === 'dir';
}
