import { childProcess } from './childProcess';
import * as path from 'node:path';
import { CarriedMap, MISSING } from './carriedMap';
import type { FileSystem } from './fs';
import { firstNotBelow } from './paths';

/**
 * What the core asks of git: which files are tracked, and what a file holds at a commit.
 * Agents such as CAR and hosted sessions read only committed guidance, and `check` finds
 * instruction files through the index, which is far cheaper than walking a large tree.
 */
export interface GitIndex {
  /** The work tree root containing `dir`, or undefined outside a repository. */
  root(dir: string): string | undefined;
  /**
   * The object that stays the same across refreshes carried over written files
   * (`SnapshotGitIndex.carry`): what depends only on a commit is kept on it.
   */
  readonly lasting?: object;
  /** Tracked paths (absolute) under `root`, optionally filtered by pathspec globs. */
  trackedFiles(root: string, pathspecs?: readonly string[]): string[] | undefined;
  /** Tracked files plus untracked ones git does not ignore: what a user has in the work tree. */
  workTreeFiles?(root: string): string[] | undefined;
  /**
   * `workTreeFiles` relative to `root`, with `/`, as git lists them: `check` wants them so, and
   * making 57,000 absolute paths to cut them back cost more than listing them. Optional.
   */
  workTreeRelative?(root: string): string[] | undefined;
  /**
   * `workTreeRelative` with how many of its paths, at its start, are untracked (git lists those
   * first, then the tracked ones): the rest is `trackedFiles` of `root` without pathspecs, so a
   * pass that lists the work tree never runs git again for it. Optional (added later).
   */
  workTreeListing?(root: string): WorkTreeListing | undefined;
  /**
   * `workTreeRelative` of one folder (`folder`: relative to `root`, with `/`) only, still relative
   * to `root`: git lists that folder alone, so a check of one folder neither holds nor cuts back
   * the repository's every path (57k on a large repository). Optional: without it, the whole list.
   */
  workTreeUnder?(root: string, folder: string): string[] | undefined;
  /**
   * The files of `workTreeFiles` named `name` in any folder (split at `/` or `\`: a caller
   * compares names with its own path rules): git picks them out, so a caller that needs only
   * these never holds the whole list (57k paths on a large repository). Optional (added later):
   * without it, `workTreeFiles` filtered by name.
   */
  workTreeFilesNamed?(root: string, name: string): string[] | undefined;
  /**
   * The files of `trackedFiles` (without pathspecs) named one of `names`, split as
   * `workTreeFilesNamed` splits them: a caller that needs only these (CAR's nested files) then
   * never holds the whole list made absolute (57k paths on test262's shape: about 9 MB kept for
   * the rest of a pass, and a set of them hashed). Optional (added later): without it,
   * `trackedFiles` filtered by name.
   */
  trackedFilesNamed?(root: string, names: readonly string[]): string[] | undefined;
  /** The blob of `file` at `rev` (default HEAD); undefined when it is not there. */
  committedText(root: string, file: string, rev?: string): string | undefined;
  /** `committedText` of many files at once (one git process), by file. Optional. */
  committedTexts?(root: string, files: readonly string[], rev?: string): Map<string, string | undefined>;
  /**
   * The revision of the default branch, for agents that read only what is committed there:
   * `origin/HEAD`'s target, else `main`, else `master`, else `HEAD`. Optional (added later).
   */
  defaultBranch?(root: string): string;
  /**
   * The files in the tree of `rev`, by their paths relative to `root` with `/`; undefined when
   * `rev` cannot be read. Asked by path and by name: a caller wants a few of them, and a list of
   * them all, made absolute, cost more than git's listing (57,000 paths on test262's shape).
   * Optional (added later).
   */
  committedPaths?(root: string, rev: string): CommittedPaths | undefined;
  /** The commit id `rev` points to; undefined when it does not resolve. Optional (added later). */
  commitOf?(root: string, rev: string): string | undefined;
  /**
   * The file system `root` looks for `.git` through, when `root(dir)` is `findGitRoot(rootsFrom, dir)`:
   * a refresh then answers it through its own cache of that file system, one `stat` per folder
   * (`SnapshotGitIndex`). Optional: without it, a refresh asks `root` of each folder.
   */
  readonly rootsFrom?: FileSystem;
}

/** A commit's files, by their paths relative to its root, with `/` (`GitIndex.committedPaths`). */
export interface CommittedPaths {
  has(rel: string): boolean;
  /** The paths whose last part is one of `names`, in git's order (by their UTF-8 bytes). */
  named(names: readonly string[]): string[];
}

/** The work tree's files, relative with `/` as git lists them: the `untracked` first ones untracked, the rest tracked. */
export interface WorkTreeListing {
  files: string[];
  untracked: number;
}

/** Nearest ancestor (or `dir` itself) holding a `.git` file or directory. */
export function findGitRoot(fs: FileSystem, dir: string): string | undefined {
  const path = fs.path;
  for (let d = dir; ; d = path.dirname(d)) {
    if (fs.stat(path.join(d, '.git'))) return d;
    if (path.dirname(d) === d) return undefined;
  }
}

/** Finds the repository root from `.git` but never runs git: the extension's in an untrusted workspace, and `CliGitIndex`'s base. */
export class NoGitIndex implements GitIndex {
  constructor(protected readonly fs: FileSystem) {}

  get rootsFrom(): FileSystem {
    return this.fs;
  }

  root(dir: string): string | undefined {
    return findGitRoot(this.fs, dir);
  }

  trackedFiles(_root: string, _pathspecs?: readonly string[]): string[] | undefined {
    return undefined;
  }

  committedText(_root: string, _file: string, _rev?: string): string | undefined {
    return undefined;
  }
}

/** The git command line, for the CLI and the extension. */
export class CliGitIndex extends NoGitIndex {
  /**
   * The last tree `committedPaths` listed at a commit id, with its blobs' ids: `committedTexts`
   * of that commit asks git for the blobs by id, where `rev:path` has git read every tree on each
   * path again (1,454 files of babel's shape: 0.10 s of git's CPU, against 0.01 by id).
   */
  private tree: { root: string; rev: string; listing: TreeListing } | undefined;

  override trackedFiles(root: string, pathspecs: readonly string[] = []): string[] | undefined {
    return this.list(root, ['ls-files', '-z', '--', ...pathspecs]);
  }

  workTreeFiles(root: string): string[] | undefined {
    const rel = this.workTreeRelative(root);
    return rel && absolute(root, rel);
  }

  workTreeRelative(root: string): string[] | undefined {
    return this.workTreeListing(root)?.files;
  }

  workTreeListing(root: string): WorkTreeListing | undefined {
    return taggedList(run(root, TAGGED_WORK_TREE_ARGS));
  }

  workTreeUnder(root: string, folder: string): string[] | undefined {
    return relativeList(run(root, underArgs(folder)));
  }

  workTreeFilesNamed(root: string, name: string): string[] | undefined {
    const rel = named(relativeList(run(root, namedArgs(name))), name);
    return rel && absolute(root, rel);
  }

  private list(root: string, args: string[]): string[] | undefined {
    const rel = relativeList(run(root, args));
    return rel && absolute(root, rel);
  }

  override committedText(root: string, file: string, rev = 'HEAD'): string | undefined {
    const rel = path.relative(root, file).split(path.sep).join('/');
    return run(root, ['show', `${rev}:${rel}`]);
  }

  committedTexts(root: string, files: readonly string[], rev = 'HEAD'): Map<string, string | undefined> {
    const out = new Map<string, string | undefined>();
    // Node's `relative` normalizes both paths each time (17 ms for babel's shape's 1,454 guidance files).
    const rels = files.map((f) => (f.startsWith(root) && f[root.length] === path.sep ? f.slice(root.length + 1) : path.relative(root, f)).split(path.sep).join('/'));
    const tree = this.tree?.root === root && this.tree.rev === rev ? this.tree.listing : undefined;
    const ids = tree?.blobIds(rels);
    // By blob id where the commit's listing gave one (a file it does not hold as a blob has no
    // text); else `rev:path`, one name a line: a name with a newline cannot be asked.
    const asked: string[] = [];
    const names: string[] = [];
    files.forEach((f, i) => {
      const name = ids ? ids.get(rels[i]) : /[\r\n]/.test(f) ? undefined : `${rev}:${rels[i]}`;
      if (name) {
        asked.push(f);
        names.push(name);
      } else if (ids) out.set(f, undefined);
    });
    if (!asked.length) return out;
    const input = names.join('\n') + '\n';
    const r = childProcess().spawnSync('git', ['cat-file', '--batch'], { cwd: root, input, maxBuffer: 256 * 1024 * 1024, timeout: 30_000 });
    if (r.status !== 0 || !r.stdout) return out;
    const buf = r.stdout;
    let at = 0;
    for (const file of asked) {
      const eol = buf.indexOf(10, at);
      if (eol < 0) break;
      const header = buf.toString('utf8', at, eol);
      at = eol + 1;
      // `<oid> <type> <size>`, or `<name> missing` / `<name> ambiguous` with no content.
      const m = /^[0-9a-f]+ (\w+) (\d+)$/.exec(header);
      if (!m) {
        out.set(file, undefined);
        continue;
      }
      const size = Number(m[2]);
      out.set(file, m[1] === 'blob' ? buf.toString('utf8', at, at + size) : undefined);
      at += size + 1;
    }
    return out;
  }

  defaultBranch(root: string): string {
    const remote = run(root, ['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD'])?.trim();
    if (remote) return remote.replace(/^refs\/remotes\//, '');
    for (const name of ['main', 'master']) if (run(root, ['rev-parse', '--verify', '--quiet', `refs/heads/${name}`]) !== undefined) return name;
    return 'HEAD';
  }

  committedPaths(root: string, rev: string): CommittedPaths | undefined {
    return this.treeFiles(root, rev, run(root, treeArgs(rev)));
  }

  /** `committedPaths` from git's output for `treeArgs(rev)`, however it was run. */
  protected treeFiles(root: string, rev: string, out: string | undefined): CommittedPaths | undefined {
    if (out === undefined) return undefined;
    const listing = new TreeListing(out);
    // Kept for `committedTexts` only when `rev` is an object id, which always names this tree.
    if (OBJECT_ID.test(rev)) this.tree = { root, rev, listing };
    return listing;
  }

  commitOf(root: string, rev: string): string | undefined {
    return run(root, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`])?.trim() || undefined;
  }
}

/** A full object id (SHA-1 or SHA-256), which names one commit for good. */
const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** git's arguments for the files of `rev`'s tree, with their object ids (`CliGitIndex.committedPaths`). */
export function treeArgs(rev: string): string[] {
  return ['ls-tree', '-r', '-z', rev];
}

/**
 * A tree's files as `git ls-tree -r -z` lists them (`<mode> <type> <id>\t<path>` each), kept as
 * git's text: looked up by halving it, picked by name with a search of it, never cut into a
 * string per file (57,000 on test262's shape: 14 ms and their collection, for a few hundred
 * look-ups). git lists a tree by its paths' UTF-8 bytes, JavaScript's order of strings but for a
 * character above U+FFFF against one from U+E000 to U+FFFF; where the text holds one of those,
 * its paths are put in a map instead.
 */
class TreeListing implements CommittedPaths {
  /** Where each entry starts in the text, and one past the text's end. */
  private readonly starts: number[] = [];
  /** Each path's entry, where the text is not in JavaScript's order. */
  private readonly byPath: Map<string, number> | undefined;

  constructor(private readonly out: string) {
    let at = 0;
    for (let end; (end = out.indexOf('\0', at)) >= 0; at = end + 1) this.starts.push(at);
    this.starts.push(at);
    if (/[\uE000-\uFFFF]/.test(out)) this.byPath = new Map(this.starts.slice(0, -1).map((_, i) => [this.path(i), i]));
  }

  /** The path of the `i`th entry: after the first tab (its id's end), up to its `\0`. */
  private path(i: number): string {
    return this.out.slice(this.out.indexOf('\t', this.starts[i]) + 1, this.starts[i + 1] - 1);
  }

  /** The entry of `rel`, or -1. */
  private indexOf(rel: string): number {
    if (this.byPath) return this.byPath.get(rel) ?? -1;
    const i = firstNotBelow(0, this.starts.length - 1, (m) => this.path(m) < rel);
    return i < this.starts.length - 1 && this.path(i) === rel ? i : -1;
  }

  has(rel: string): boolean {
    return this.indexOf(rel) >= 0;
  }

  named(names: readonly string[]): string[] {
    const { out } = this;
    // One search of the text for the ending the names share (`.md`), each path found so tested.
    const tail = commonEnding(names);
    const found: string[] = [];
    for (let end = out.indexOf(`${tail}\0`); end >= 0; end = out.indexOf(`${tail}\0`, end + 1)) {
      end += tail.length;
      const tab = out.indexOf('\t', out.lastIndexOf('\0', end - 1) + 1);
      // The last part of the path: after its last `/`, or after the entry's tab.
      const name = out.slice(Math.max(out.lastIndexOf('/', end), tab) + 1, end);
      if (names.includes(name)) found.push(out.slice(tab + 1, end));
    }
    return found;
  }

  /** The blob ids of the `wanted` paths the listing holds as blobs (a submodule, a folder or a missing path has none). */
  blobIds(wanted: readonly string[]): Map<string, string> {
    const { out } = this;
    const ids = new Map<string, string>();
    for (const w of wanted) {
      const i = this.indexOf(w);
      if (i < 0) continue;
      const start = this.starts[i];
      const tab = out.indexOf('\t', start);
      if (out.startsWith(' blob ', out.indexOf(' ', start))) ids.set(w, out.slice(out.lastIndexOf(' ', tab) + 1, tab));
    }
    return ids;
  }
}

/** `CommittedPaths` of git's output for `treeArgs` (exported for the tests). */
export function committedPathsOf(out: string): CommittedPaths {
  return new TreeListing(out);
}

/** Tracked files and untracked ones git does not ignore. */
const WORK_TREE_ARGS = ['ls-files', '-z', '--cached', '--others', '--exclude-standard'];

/**
 * `WORK_TREE_ARGS` with each path tagged by its status (`-t`): `? ` untracked, listed first, then
 * the tracked ones (`H `, `S ` skip-worktree, `M ` unmerged…), in the same order as untagged.
 */
export const TAGGED_WORK_TREE_ARGS = ['ls-files', '-z', '-t', '--cached', '--others', '--exclude-standard'];

/** A tagged listing's paths, untagged, and how many untracked ones lead it. */
export function taggedList(out: string | undefined): WorkTreeListing | undefined {
  if (out === undefined) return undefined;
  const untracked: string[] = [];
  let at = 0;
  for (let end; out.startsWith('? ', at) && (end = out.indexOf('\0', at)) >= 0; at = end + 1) untracked.push(out.slice(at + 2, end));
  const rest = out.slice(at);
  let tracked: string[];
  // Tracked paths are mostly all `H `: one split at each tag (cutting 57,000 paths one by one
  // cost a parse of the whole listing again); another tag (`S `, `M `) and each path is cut.
  if (rest.startsWith('H ') && rest.endsWith('\0') && !/\0(?!H |$)/.test(rest)) tracked = rest.slice(2, -1).split('\0H ');
  else tracked = (relativeList(rest) ?? []).map((f) => f.slice(2));
  return { files: untracked.length ? untracked.concat(tracked) : tracked, untracked: untracked.length };
}

/** The paths of a `-z` listing, as git writes them (relative, with `/`). */
export function relativeList(out: string | undefined): string[] | undefined {
  return out?.split('\0').filter(Boolean);
}

/** Git's relative paths made absolute under `root`, in the platform's spelling. */
export function absolute(root: string, rel: readonly string[]): string[] {
  // Joined into one string each (`Array.join`), not concatenated: a concatenation is a pair of
  // references that V8 copies into a string of its own when first read, keeping both.
  const parts = [root, ''];
  return rel.map((r) => (path.sep === '/' ? ((parts[1] = r), parts.join('/')) : path.join(root, r)));
}

/** `WORK_TREE_ARGS` with a pathspec for files named `name` in any folder (`**\/` matches the top too). */
function namedArgs(name: string): string[] {
  return [...WORK_TREE_ARGS, '--', `:(glob)**/${name.replace(/[*?[\\]/g, '\\$&')}`];
}

/** `WORK_TREE_ARGS` for one folder: a literal pathspec (a folder may hold `*` or `:`) matches it and what it holds. */
function underArgs(folder: string): string[] {
  return [...WORK_TREE_ARGS, '--', `:(literal)${folder}`];
}

/** The paths of a whole listing inside `folder`, as git lists that folder alone (the same order: git's). */
function under(files: readonly string[], folder: string): string[] {
  const prefix = `${folder}/`;
  return files.filter((f) => f.startsWith(prefix));
}

/** The longest ending every one of `names` has (`.md`). */
function commonEnding(names: readonly string[]): string {
  let tail = names[0] ?? '';
  for (const n of names) while (!n.endsWith(tail)) tail = tail.slice(1);
  return tail;
}

/** `named` for any of `names`, from the `from`th path on, in the listing's order. */
export function namedAny(files: readonly string[], names: readonly string[], from = 0): string[] {
  const ends = names.flatMap((n) => [`/${n}`, `\\${n}`]);
  // The ending the names share (`.md`) first: one test turns away most paths.
  const tail = commonEnding(names);
  const out: string[] = [];
  for (let i = from; i < files.length; i++) if (files[i].endsWith(tail) && (names.includes(files[i]) || ends.some((e) => files[i].endsWith(e)))) out.push(files[i]);
  return out;
}

/**
 * Exactly `name`: a pathspec may match other cases (core.ignoreCase), the name compared here may
 * not. After either separator, whatever the platform: a snapshot may list another platform's
 * paths (a Windows tree read in the tests); a caller splits them with its own path rules.
 */
function named(files: readonly string[] | undefined, name: string): string[] | undefined {
  return files && namedAny(files, [name]);
}

/** git's output, asynchronously (its start still holds the calling thread); undefined when it fails. */
export function runAsync(cwd: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    childProcess().execFile('git', args, { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: 30_000 }, (error, stdout) => resolve(error ? undefined : stdout));
  });
}

function run(cwd: string, args: string[]): string | undefined {
  const r = childProcess().spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: 30_000 });
  return r.status === 0 ? r.stdout : undefined;
}

/**
 * A view of another index that answers each question once: for one pass over many folders
 * (`check`), where the repository does not change and every profile asks the same things.
 */
export class SnapshotGitIndex implements GitIndex {
  private answers = new CarriedMap<unknown>();
  /** Each folder's `root`, once asked or passed on the way up from a folder below. */
  private roots = new CarriedMap<string | undefined>();
  /** The listings asked ahead (`listNamedAhead`) and not answered yet, each with its answer to come. */
  private readonly ahead = new Map<string, Promise<unknown>>();

  /**
   * `rootsVia`: the refresh's cache of the file system the inner index finds roots through
   * (`GitIndex.rootsFrom`), which `root` then walks up itself: a `check` asks the root of every
   * folder for every agent, and the inner index would stat `.git` in every ancestor of each
   * (28,815 uncached `stat` calls for one agent on a 12,600-folder repository).
   */
  constructor(
    private readonly inner: GitIndex,
    private readonly rootsVia?: FileSystem,
  ) {}

  /**
   * A new refresh's view after a change that created, deleted or renamed nothing: the lists of
   * files and every other answer stand (git's index and commits are not what the change touched),
   * and so do the roots, kept by reference; `rootsVia` is the new refresh's cache.
   */
  carry(rootsVia?: FileSystem): SnapshotGitIndex {
    const next = new SnapshotGitIndex(this.inner, this.rootsVia && rootsVia);
    next.answers = this.answers.carry();
    next.roots = this.roots.carry();
    // A listing still under way (`listNamedAhead`) lands in both: it is not asked again.
    for (const [key, listing] of this.ahead) void next.land(key, listing);
    return next;
  }

  get rootsFrom(): FileSystem | undefined {
    return this.inner.rootsFrom;
  }

  get lasting(): object {
    return this.inner.lasting ?? this.inner;
  }

  private once<T>(key: string, get: () => T): T {
    const known = this.answers.find(key);
    if (known !== MISSING) return known as T;
    const value = get();
    this.answers.set(key, value);
    return value;
  }

  root(dir: string): string | undefined {
    const roots = this.roots;
    const known = roots.find(dir);
    if (known !== MISSING) return known;
    const fs = this.rootsVia;
    if (!fs) {
      const root = this.inner.root(dir);
      roots.set(dir, root);
      return root;
    }
    // `findGitRoot`, where a folder's answer is its parent's unless it holds `.git`: the walk
    // stops at the first folder answered already, and every folder passed gets the answer.
    const path = fs.path;
    const passed: string[] = [];
    let root: string | undefined;
    for (let d = dir; ; ) {
      const answered = roots.find(d);
      if (answered !== MISSING) {
        root = answered;
        break;
      }
      passed.push(d);
      if (fs.stat(path.join(d, '.git'))) {
        root = d;
        break;
      }
      const up = path.dirname(d);
      if (up === d) break;
      d = up;
    }
    for (const d of passed) roots.set(d, root);
    return root;
  }

  trackedFiles(root: string, pathspecs: readonly string[] = []): string[] | undefined {
    return this.once(`tracked\0${root}\0${pathspecs.join('\0')}`, () => {
      // The work tree's listing, when this refresh has it, holds the tracked files after the
      // untracked ones: git is not run again (CAR asks, after \`check\` has listed the work tree).
      const whole = this.answers.get(`workrel\0${root}`) as string[] | undefined;
      const untracked = this.answers.get(`untracked\0${root}`) as number | undefined;
      if (!pathspecs.length && whole && untracked !== undefined) return absolute(root, whole.slice(untracked));
      return this.inner.trackedFiles(root, pathspecs);
    });
  }

  workTreeFiles(root: string): string[] | undefined {
    return this.once(`work\0${root}`, () => {
      // One git run for both lists: made absolute from the relative one when the index gives it.
      const rel = this.workTreeRelative(root);
      return rel ? absolute(root, rel) : (this.inner.workTreeFiles?.(root) ?? this.inner.trackedFiles(root));
    });
  }

  workTreeRelative(root: string): string[] | undefined {
    return this.once(`workrel\0${root}`, () => {
      const listing = this.inner.workTreeListing?.(root);
      if (!listing) return this.inner.workTreeRelative?.(root);
      this.answers.set(`untracked\0${root}`, listing.untracked);
      return listing.files;
    });
  }

  workTreeUnder(root: string, folder: string): string[] | undefined {
    // The whole list, when this refresh has it, answers without git.
    const whole = this.answers.get(`workrel\0${root}`) as string[] | undefined;
    if (whole) return under(whole, folder);
    const inner = this.inner;
    return inner.workTreeUnder ? this.once(`under\0${root}\0${folder}`, () => inner.workTreeUnder!(root, folder)) : undefined;
  }

  workTreeFilesNamed(root: string, name: string): string[] | undefined {
    // The whole list, when this refresh has it, answers without git.
    const whole = this.answers.get(`workrel\0${root}`) as string[] | undefined;
    if (whole) return absolute(root, named(whole, name)!);
    if (this.answers.has(`work\0${root}`) || !this.inner.workTreeFilesNamed) return named(this.workTreeFiles(root), name);
    return this.once(`named\0${root}\0${name}`, () => this.inner.workTreeFilesNamed!(root, name));
  }

  trackedFilesNamed(root: string, names: readonly string[]): string[] | undefined {
    return this.once(`trackedNamed\0${root}\0${names.join('\0')}`, () => {
      // The work tree's listing, when this refresh has it, holds the tracked files after the
      // untracked ones: picked out as git wrote them, only those named made absolute.
      const whole = this.answers.get(`workrel\0${root}`) as string[] | undefined;
      const untracked = this.answers.get(`untracked\0${root}`) as number | undefined;
      if (whole && untracked !== undefined) return absolute(root, namedAny(whole, names, untracked));
      const tracked = this.trackedFiles(root);
      return tracked && namedAny(tracked, names);
    });
  }

  /**
   * `workTreeFilesNamed` of `root` asked ahead without blocking (git runs in its own process), as
   * `listAhead` does for the whole list; settles once the answer is here. Only for an index that
   * runs git (`CliGitIndex`).
   */
  listNamedAhead(root: string, name: string): Promise<void> {
    const key = `named\0${root}\0${name}`;
    if (!(this.inner instanceof CliGitIndex) || this.answers.has(key) || this.answers.has(`workrel\0${root}`) || this.answers.has(`work\0${root}`)) return Promise.resolve();
    const pending = this.ahead.get(key);
    if (pending) return pending.then(() => undefined);
    return this.land(
      key,
      runAsync(root, namedArgs(name)).then((out) => {
        const rel = named(relativeList(out), name);
        return rel && absolute(root, rel);
      }),
    );
  }

  /** A listing under way (`listNamedAhead`): its answer kept under `key` once in, unless answered meanwhile. */
  private land(key: string, listing: Promise<unknown>): Promise<void> {
    this.ahead.set(key, listing);
    return listing.then((answer) => {
      if (!this.answers.has(key)) this.answers.set(key, answer);
      this.ahead.delete(key);
    });
  }

  /**
   * The work tree's listing of `root` asked ahead, without blocking: a caller that must keep its
   * thread free (a worker that answers cancels meanwhile) lets git list the work tree while it
   * waits, and the pass then finds the answer here. The tracked-only list is not asked ahead:
   * only CAR reads it, and it is one more list of every path to hold. Only for an index that runs
   * git (`CliGitIndex`); others answer as they are asked.
   */
  async listAhead(root: string): Promise<void> {
    if (!(this.inner instanceof CliGitIndex) || this.answers.has(`workrel\0${root}`)) return;
    const listing = taggedList(await runAsync(root, TAGGED_WORK_TREE_ARGS));
    if (this.answers.has(`workrel\0${root}`)) return;
    this.answers.set(`workrel\0${root}`, listing?.files);
    if (listing) this.answers.set(`untracked\0${root}`, listing.untracked);
  }

  /** `listAhead` of one folder's listing (`workTreeUnder`), for a check of that folder only. */
  async listUnderAhead(root: string, folder: string): Promise<void> {
    const key = `under\0${root}\0${folder}`;
    if (!(this.inner instanceof CliGitIndex) || this.answers.has(key) || this.answers.has(`workrel\0${root}`)) return;
    const listed = await runAsync(root, underArgs(folder));
    if (!this.answers.has(key)) this.answers.set(key, relativeList(listed));
  }

  committedText(root: string, file: string, rev?: string): string | undefined {
    return this.once(`text\0${root}\0${file}\0${rev ?? ''}`, () => this.inner.committedText(root, file, rev));
  }

  committedTexts(root: string, files: readonly string[], rev?: string): Map<string, string | undefined> {
    const out = new Map<string, string | undefined>();
    const missing = files.filter((f) => !this.answers.has(`text\0${root}\0${f}\0${rev ?? ''}`));
    const got = missing.length && this.inner.committedTexts ? this.inner.committedTexts(root, missing, rev) : new Map<string, string | undefined>();
    for (const [f, text] of got) this.answers.set(`text\0${root}\0${f}\0${rev ?? ''}`, text);
    for (const f of files) out.set(f, this.committedText(root, f, rev));
    return out;
  }

  defaultBranch(root: string): string {
    return this.once(`branch\0${root}`, () => this.inner.defaultBranch?.(root) ?? 'HEAD');
  }

  committedPaths(root: string, rev: string): CommittedPaths | undefined {
    return this.once(`committed\0${root}\0${rev}`, () => this.inner.committedPaths?.(root, rev));
  }

  commitOf(root: string, rev: string): string | undefined {
    return this.once(`commit\0${root}\0${rev}`, () => this.inner.commitOf?.(root, rev));
  }
}
