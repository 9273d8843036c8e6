import type { DirEntry, FileStat, FileSystem, PathApi } from './fs';

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
  private readonly stats = new Map<string, FileStat | undefined>();
  private readonly links = new Map<string, boolean>();
  private readonly reads = new Map<string, { bytes: Uint8Array } | { error: unknown }>();
  private readonly prefixes = new Map<string, { bytes: Uint8Array } | { error: unknown }>();
  private readonly dirs = new Map<string, DirEntry[]>();
  private readonly names = new Map<string, string[]>();
  /** The names of each folder listed, for `absent`. */
  private readonly listed = new Map<string, Set<string>>();
  private readonly reals = new Map<string, string>();
  private readonly memos = new Map<string, unknown>();
  private readonly byPath = new Map<string, Map<string, unknown>>();

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
   * (`memo`) are not, since they may read any file.
   */
  carry(written: ReadonlySet<string>): CachedFileSystem {
    // A link to a written file was read through its own path: it goes too.
    const changed = new Set(written);
    for (const [p, real] of this.reals) if (written.has(real)) changed.add(p);
    const next = new CachedFileSystem(this.inner);
    const copy = <V>(from: Map<string, V>, to: Map<string, V>) => {
      for (const [p, v] of from) if (!changed.has(p)) to.set(p, v);
    };
    copy(this.stats, next.stats);
    copy(this.links, next.links);
    copy(this.reads, next.reads);
    copy(this.dirs, next.dirs);
    copy(this.listed, next.listed);
    copy(this.reals, next.reals);
    for (const [kind, answers] of this.byPath) copy(answers, next.byPath.set(kind, new Map()).get(kind)!);
    return next;
  }

  /** `fs` itself when it already caches, else a new cache over it. */
  static of(fs: FileSystem): CachedFileSystem {
    return fs instanceof CachedFileSystem ? fs : new CachedFileSystem(fs);
  }

  stat(p: string): FileStat | undefined {
    if (this.stats.has(p)) return this.stats.get(p);
    const st = this.absent(p) ? undefined : this.inner.stat(p);
    this.stats.set(p, st);
    return st;
  }

  /**
   * Whether what this refresh knows already says nothing is at `p`: its folder is not one, or was
   * listed without its name. Most paths the profiles ask about do not exist (AGENTS.md, CLAUDE.md,
   * GEMINI.md, .github, .claude in every folder of every chain), and each would cost a system
   * call. Not on a disk that ignores case, where a listing's `claude.md` opens as CLAUDE.md.
   */
  private absent(p: string): boolean {
    const path = this.path;
    const parent = path.dirname(p);
    if (parent === p) return false;
    const known = this.stats.get(parent);
    if (known ? known.type !== 'dir' : this.stats.has(parent)) return true;
    if (this.inner.caseInsensitive) return false;
    const names = this.listed.get(parent);
    const name = path.basename(p);
    // `.`, `..` and a trailing separator name no entry of the listing; a name beyond ASCII may be
    // listed in another Unicode normalization than asked (macOS), and still open.
    return !!names && name !== '.' && name !== '..' && /^[\x20-\x7e]+$/.test(name) && path.join(parent, name) === p && !names.has(name);
  }

  /** Remember a folder's names, for `absent`. */
  private list(p: string, names: readonly string[]): void {
    this.listed.set(p, new Set(names));
  }

  isSymlink(p: string): boolean {
    let link = this.links.get(p);
    if (link === undefined) this.links.set(p, (link = this.inner.isSymlink(p)));
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

  realPath(p: string): string {
    let real = this.reals.get(p);
    if (real !== undefined) return real;
    const path = this.path;
    const parent = path.dirname(p);
    if (parent === p) real = this.inner.realPath(p);
    // Nothing there (or a dangling link): the path itself, as FileSystem.realPath says. Most
    // paths a profile asks about do not exist, and their `stat` is usually known already.
    else if (!this.stat(p)) real = p;
    else {
      const candidate = path.join(this.realPath(parent), path.basename(p));
      real = this.isSymlink(candidate) ? this.inner.realPath(p) : candidate; // one call resolves a link
    }
    this.reals.set(p, real);
    return real;
  }

  /**
   * What `compute` makes of one path, once for this refresh (`kind` names the question: a
   * decoded read, a parse). Keyed by the path itself, without building a key per call.
   */
  perPath<T>(kind: string, p: string, compute: () => T): T {
    let answers = this.byPath.get(kind);
    if (!answers) this.byPath.set(kind, (answers = new Map()));
    if (answers.has(p)) return answers.get(p) as T;
    const value = compute();
    answers.set(p, value);
    return value;
  }

  /** The answer to a whole-workspace question, computed once for this refresh. */
  memo<T>(key: string, compute: () => T): T {
    if (this.memos.has(key)) return this.memos.get(key) as T;
    const value = compute();
    this.memos.set(key, value);
    return value;
  }
}
