import { CarriedMap, MISSING } from './carriedMap';
import { joinsBack, type DirEntry, type FileStat, type FileSystem, type PathApi } from './fs';

/** The largest folder (its size as `stat` gives it: one block of an ext4 folder, about 100 names) listed to answer `stat`. */
const GLANCE_MAX_BYTES = 4096;

/** `perPath`'s question of what a file's comments suppress (config.ts `suppressionsIn`), which `knowReals` may bring. */
export const SUPPRESSIONS = 'suppressions';

/**
 * One refresh's view of the disk: every `stat`, `lstat`, listing, read and real path asked of
 * the file system it wraps is answered once, for every profile and every chain of the refresh.
 * Make a new one when the disk may have changed (the CLI: one per run; `check`: one per pass;
 * the extension: one per change the watcher reports).
 *
 * Real paths are built one folder at a time from the parent's real path, so resolving every
 * ancestor of a deep file costs one `lstat` per folder, not one per folder per ancestor.
 *
 * It also keeps whole-workspace answers (`memo`): questions a profile would otherwise ask again
 * for every folder of a `check` pass, such as "which nested files does git track, and what does
 * each one give".
 */
export class CachedFileSystem implements FileSystem {
  // The answers a later refresh keeps (`carry`), and the others.
  private stats = new CarriedMap<FileStat | undefined>();
  private links = new CarriedMap<boolean>();
  private reads = new CarriedMap<{ bytes: Uint8Array } | { error: unknown }>();
  private dirs = new CarriedMap<DirEntry[]>();
  /** The names of each folder listed, for `absent`. */
  private listed = new CarriedMap<Set<string>>();
  private reals = new CarriedMap<string>();
  /** The paths whose real path is another one, by that one: a change to it is a change to them. */
  private linksTo = new CarriedMap<string[]>();
  private readonly byPath = new Map<string, CarriedMap<unknown>>();
  private readonly prefixes = new Map<string, { bytes: Uint8Array } | { error: unknown }>();
  private readonly names = new Map<string, string[]>();
  /** Each profile's whole-workspace answers (`memo`), by its id. */
  private readonly memos = new Map<string, Map<string, unknown>>();
  /** Each folder `glance` listed: its names, or false when it did not. */
  private readonly glanced = new Map<string, Set<string> | false>();

  readonly path: PathApi;

  constructor(readonly inner: FileSystem) {
    this.path = inner.path;
  }

  get caseInsensitive(): boolean {
    return this.inner.caseInsensitive;
  }

  /**
   * A new refresh's cache after only the contents of `written` files changed (none created,
   * deleted or renamed): every answer about other paths is kept, the whole-workspace answers
   * (`memo`) are not, since they may read any file. The answers are kept by reference
   * (`CarriedMap`): the cost is the written files', not the cache's size.
   */
  carry(written: ReadonlySet<string>): CachedFileSystem {
    // A link to a written file was read through its own path: it goes too.
    const changed = new Set(written);
    for (const real of written) for (const p of this.linksTo.get(real) ?? []) if (this.reals.get(p) === real) changed.add(p);
    const next = new CachedFileSystem(this.inner);
    next.stats = this.stats.carry(changed);
    next.links = this.links.carry(changed);
    next.reads = this.reads.carry(changed);
    next.dirs = this.dirs.carry(changed);
    next.listed = this.listed.carry(changed);
    next.reals = this.reals.carry(changed);
    // Kept whole: a path it lists is checked against `reals` when it counts.
    next.linksTo = this.linksTo.carry();
    for (const [kind, answers] of this.byPath) next.byPath.set(kind, answers.carry(changed));
    return next;
  }

  /** `fs` itself when it already caches, else a new cache over it. */
  static of(fs: FileSystem): CachedFileSystem {
    return fs instanceof CachedFileSystem ? fs : new CachedFileSystem(fs);
  }

  stat(p: string): FileStat | undefined {
    const known = this.stats.find(p);
    if (known !== MISSING) return known;
    const st = this.absent(p) ? undefined : this.inner.stat(p);
    this.stats.set(p, st);
    return st;
  }

  /**
   * Whether what this refresh knows already says nothing is at `p`: its folder is not one (asked
   * through this cache, so nothing is below a name missing from the listing of the folder above),
   * or was listed without its name. Most paths the profiles ask about do not exist (AGENTS.md,
   * CLAUDE.md, GEMINI.md, .github, .claude in every folder of every chain), and each would cost a
   * system call. Not on a disk that ignores case, where a listing's `claude.md` opens as CLAUDE.md.
   */
  private absent(p: string): boolean {
    const path = this.path;
    const parent = path.dirname(p);
    if (parent === p) return false;
    if (this.stat(parent)?.type !== 'dir') return true;
    if (this.inner.caseInsensitive) return false;
    const name = path.basename(p);
    // `.`, `..` and a trailing separator name no entry of the listing; a name beyond ASCII may be
    // listed in another Unicode normalization than asked (macOS), and still open.
    if (name === '.' || name === '..' || !/^[\x20-\x7e]+$/.test(name) || !joinsBack(path, p)) return false;
    const names = this.listed.get(parent) ?? this.glance(parent);
    return !!names && !names.has(name);
  }

  /**
   * Whether this refresh's listing of the folder `dir` says none of `names` is in it, as `absent`
   * would answer each: a profile's step through a folder without any of the files it looks for
   * then asks nothing else. False when unsure (no listing, a disk that ignores case).
   */
  lacksAll(dir: string, names: readonly string[]): boolean {
    if (this.inner.caseInsensitive) return false;
    // No listing for what is not a folder (`glance`), nor for a large one.
    const listing = this.listed.get(dir) ?? this.glance(dir);
    // A name a listing may not hold as asked (`.`, `..`, a path, beyond ASCII): unsure, as `absent` is.
    return !!listing && names.every((n) => /^(?!\.\.?$)[ -.0-~]+$/.test(n) && !listing.has(n));
  }

  /**
   * The names of a folder listed to answer `absent`, the first time a name in it is asked: the
   * profiles ask several in each folder they pass, most of them missing. Only a small folder
   * (`GLANCE_MAX_BYTES`: listing one costs about what a `stat` per 20 names does). Not carried to
   * the next refresh, nor kept for the next question (`relist`): a file made outside the
   * workspace, where only the paths the agents read are watched, may be named by then.
   */
  private glance(dir: string): Set<string> | undefined {
    let names = this.glanced.get(dir);
    if (names === undefined) {
      const st = this.stat(dir);
      const listed = st?.type !== 'dir' || st.size > GLANCE_MAX_BYTES ? [] : (this.inner.readDirNames?.(dir) ?? this.inner.readDir(dir).map((e) => e.name));
      // Nothing listed may be a folder that can be looked in but not listed (no read permission).
      this.glanced.set(dir, (names = listed.length ? new Set(listed) : false));
    }
    return names || undefined;
  }

  /**
   * Forget the folders `glance` listed, for the next question of a refresh that nothing reported
   * a change to (`carryHost`): a file may have been made since where no watcher looks, outside the
   * workspace. Every answer already given stays.
   */
  relist(): void {
    this.glanced.clear();
  }

  /** Remember a folder's names, for `absent`. */
  private list(p: string, names: readonly string[]): void {
    this.listed.set(p, new Set(names));
  }

  isSymlink(p: string): boolean {
    let link = this.links.get(p);
    if (link === undefined) this.links.set(p, (link = !this.absent(p) && this.inner.isSymlink(p)));
    return link;
  }

  readFile(p: string): Uint8Array {
    let r = this.reads.get(p);
    if (!r) {
      try {
        r = { bytes: this.inner.readFile(p) };
      } catch (error) {
        r = { error };
      }
      this.reads.set(p, r);
    }
    if ('error' in r) throw r.error;
    return r.bytes;
  }

  readPrefix(p: string, maxBytes: number): Uint8Array {
    const whole = this.reads.get(p);
    if (whole && 'bytes' in whole) return whole.bytes.subarray(0, maxBytes);
    const key = `${maxBytes}\0${p}`;
    let r = this.prefixes.get(key);
    if (!r) {
      try {
        r = { bytes: this.inner.readPrefix(p, maxBytes) };
      } catch (error) {
        r = { error };
      }
      this.prefixes.set(key, r);
    }
    if ('error' in r) throw r.error;
    return r.bytes;
  }

  readDir(p: string): DirEntry[] {
    let entries = this.dirs.get(p);
    // Most folders asked about do not exist (`.claude/rules` in every folder of a chain): the
    // cached `stat` answers, where listing would cost a system call and an exception.
    if (!entries) {
      this.dirs.set(p, (entries = this.stat(p)?.type === 'dir' ? this.inner.readDir(p) : []));
      if (!this.listed.has(p) && entries.length) this.list(p, entries.map((e) => e.name));
    }
    // A copy: callers may sort or filter what they get.
    return entries.slice();
  }

  readDirNames(p: string): string[] {
    let names = this.names.get(p);
    if (!names) {
      const listed = this.dirs.get(p);
      names = listed ? listed.map((e) => e.name) : this.stat(p)?.type !== 'dir' ? [] : (this.inner.readDirNames?.(p) ?? this.inner.readDir(p).map((e) => e.name));
      this.names.set(p, names);
      if (!this.listed.has(p) && names.length) this.list(p, names);
    }
    return names.slice();
  }

  /** `there`: `p` is known to exist (a folder above a file that does). */
  realPath(p: string, there = false): string {
    let real = this.reals.get(p);
    if (real !== undefined) return real;
    this.remember(p, (real = this.resolveReal(p, there)));
    return real;
  }

  /**
   * Real paths worked out from the same disk elsewhere (the worker thread's answers, for the
   * files with problems), and what the real file's comments suppress when given: not asked of
   * the disk again here. One known already stays.
   */
  knowReals(reals: readonly (readonly [string, string, unknown?])[]): void {
    for (const [p, real, suppressions] of reals) {
      if (!this.reals.has(p)) this.remember(p, real);
      if (suppressions !== undefined) this.perPath(SUPPRESSIONS, real, () => suppressions);
    }
  }

  private remember(p: string, real: string): void {
    this.reals.set(p, real);
    if (real !== p) {
      const from = this.linksTo.get(real) ?? [];
      if (!from.includes(p)) this.linksTo.set(real, [...from, p]);
    }
  }

  /**
   * Built from the parent's real path: a `stat` of the path, then an `lstat` of it and of each
   * folder above it not resolved yet. Asked of the disk itself, not through `absent`, which
   * would list each small folder on the way: real paths are asked of files that are there (the
   * problems' files), and the folders above an existing file exist.
   */
  private resolveReal(p: string, there: boolean): string {
    const path = this.path;
    const parent = path.dirname(p);
    if (parent === p) return this.inner.realPath(p);
    if (!there) {
      // A separator at its end names the same file to Node's realpath (where `stat` fails, for a file).
      const named = p.endsWith(path.sep) ? p.slice(0, -1) : p;
      let st = this.stats.find(named);
      if (st === MISSING) this.stats.set(named, (st = this.inner.stat(named)));
      // Nothing there (or a dangling link): the path itself, as FileSystem.realPath says.
      if (!st) return p;
    }
    const candidate = path.join(this.realPath(parent, true), path.basename(p));
    let link = this.links.get(candidate);
    if (link === undefined) this.links.set(candidate, (link = this.inner.isSymlink(candidate)));
    return link ? this.inner.realPath(p) : candidate; // one call resolves a link
  }

  /**
   * What `compute` makes of one path, once for this refresh (`kind` names the question: a
   * decoded read, a parse). Keyed by the path itself, without building a key per call.
   */
  perPath<T>(kind: string, p: string, compute: () => T): T {
    let answers = this.byPath.get(kind);
    if (!answers) this.byPath.set(kind, (answers = new CarriedMap()));
    const known = answers.find(p);
    if (known !== MISSING) return known as T;
    const value = compute();
    answers.set(p, value);
    return value;
  }

  /**
   * The answer to one profile's (`owner`) whole-workspace question, computed once for this
   * refresh. A map per profile: `check` asks about 50,000 of them a pass on babel's shape, and a
   * key joined with the profile's id would be built, and hashed, anew for each.
   */
  memo<T>(owner: string, key: string, compute: () => T): T {
    let memos = this.memos.get(owner);
    if (!memos) this.memos.set(owner, (memos = new Map()));
    const known = memos.get(key);
    if (known !== undefined || memos.has(key)) return known as T;
    const value = compute();
    memos.set(key, value);
    return value;
  }
}
