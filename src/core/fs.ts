import * as nodeFs from 'node:fs';
import * as path from 'node:path';

/**
 * The one door through which the core reads the disk. The CLI and the extension use the
 * real file system (the extension overlays unsaved editor text); unit tests use an
 * in-memory tree.
 */
export interface FileSystem {
  /** What is at `p`, following symlinks; undefined when nothing is there. */
  stat(p: string): FileStat | undefined;
  /** Whether `p` itself is a symbolic link. */
  isSymlink(p: string): boolean;
  /** The bytes of a file; throws with a `code` (ENOENT, EISDIR, EACCES…) when it cannot. */
  readFile(p: string): Uint8Array;
  /**
   * The first `maxBytes` bytes of a file (all of it when shorter), for an agent that sends only
   * the start of a file, however large (Codex); throws as `readFile`, but never `EFBIG`.
   */
  readPrefix(p: string, maxBytes: number): Uint8Array;
  /** Entries of a directory in the order the file system lists them; [] when unreadable. */
  readDir(p: string): DirEntry[];
  /**
   * The names in a directory, in any order, of any type; [] when unreadable. Optional: a far
   * cheaper call than `readDir` on a real disk, for a caller that only asks whether a name is
   * there. Without it, `readDir`'s names.
   */
  readDirNames?(p: string): string[];
  /** Whether none of `names` is known to be in the folder `dir` (false when unsure). Optional: a refresh's cache answers it. */
  lacksAll?(dir: string, names: readonly string[]): boolean;
  /** The path with every symlink resolved; `p` itself when that fails. */
  realPath(p: string): string;
  /**
   * The path rules of this file system: `node:path` itself for the disk the core runs on, or
   * `path.posix` / `path.win32` semantics (separators, drive letters, what is absolute). The core
   * builds and splits paths only through it, never through `node:path` directly.
   */
  readonly path: PathApi;
  /**
   * Whether two names that differ only in case are one file (macOS and Windows by default:
   * `claude.md` opens as `CLAUDE.md`). Comparisons of names and paths go through `sameName` and
   * `pathKey` (paths.ts), which read it.
   */
  readonly caseInsensitive: boolean;
}

/** `node:path`'s interface: `path.posix`, `path.win32`, or `node:path` (the platform's own). */
export type PathApi = path.PlatformPath;

/**
 * The most bytes the core reads of one file: more than any agent's context holds (the largest
 * take about a million tokens, some 4 MB of text). A larger file is reported with its size and
 * never read whole, so a 200 MB log named CLAUDE.md cannot stall a refresh.
 */
export const MAX_READ_BYTES = 4 * 1024 * 1024;

export interface FileStat {
  type: 'file' | 'dir' | 'other';
  size: number;
  /** Device and inode, when the file system has them (used for dedupe by identity). */
  id?: string;
}

export interface DirEntry {
  name: string;
  type: 'file' | 'dir' | 'other';
}

/** A POSIX path in normal form, absolute or relative: no empty, `.` or `..` segment, no trailing separator. */
const SEGMENTS = /^\/?(?!\.\.?(\/|$))[^/]+(\/(?!\.\.?(\/|$))[^/]+)*$/;

/** Whether `p` is an absolute POSIX path in normal form. */
function normal(p: string): boolean {
  return p[0] === '/' && SEGMENTS.test(p);
}

/**
 * The parts from the `i`th joined with `/`, when that is already in normal form (an absolute path
 * in normal form, then relative ones), as are all the paths the core builds; else undefined. The
 * parts are in normal form exactly when the first is absolute and what they join to is (an empty
 * part, a `.` or `..` segment, a `/` at either end of a later one shows in the whole): one test of the whole, where one of
 * each part and the calls around them cost the CLI's `check` about 0.2 s on babel's shape.
 */
function asIs(parts: string[], i: number): string | undefined {
  if (i < 0 || parts[i][0] !== '/') return undefined;
  // From the first part, no copy of the parts (171,000 joins a pass on babel's shape).
  const joined = i === 0 ? parts.join('/') : parts.slice(i).join('/');
  return normal(joined) ? joined : undefined;
}

/**
 * POSIX's `path.join`, answered at once for an absolute path in normal form followed by relative
 * ones, which is how the core builds its candidate paths: normalizing what `join` concatenates
 * then changes nothing (test/unit/fs.test.ts holds the two equal on random paths). Node's `join`
 * walks the whole string, in V8's interpreter at first: the path calls of a chain 12 folders deep
 * cost about 10 ms of a CLI run that way, and made the walk hot enough to be compiled by the optimizer.
 */
export function posixJoin(...parts: string[]): string {
  return asIs(parts, 0) ?? path.posix.join(...parts);
}

/**
 * POSIX's `path.resolve`, answered at once when its last absolute part and the relative ones
 * after it are in normal form, as with every path the core has resolved already: Node's normalizes the
 * whole string each time (`check` resolves each folder's paths for every agent: with `relative`,
 * 0.6 s of a profile on babel's shape).
 */
export function posixResolve(...parts: string[]): string {
  let i = parts.length - 1;
  while (i >= 0 && parts[i][0] !== '/') i--;
  return asIs(parts, i) ?? path.posix.resolve(...parts);
}

/**
 * Whether `path.join(path.dirname(p), path.basename(p))` is `p` itself, as a cache asks before it
 * answers a name from its folder's listing (`.`, `..`, `//` or a trailing separator name no entry
 * of it). For an absolute POSIX path that is whether it is in normal form, tested without making
 * the joined string: `check` asks it about 100,000 times a pass on babel's shape.
 */
export function joinsBack(path: PathApi, p: string): boolean {
  if (path.sep === '/' && p.length > 1 && p[0] === '/') return SEGMENTS.test(p);
  return path.join(path.dirname(p), path.basename(p)) === p;
}

/** POSIX's `path.relative`, answered at once from a path in normal form to one inside it. */
export function posixRelative(from: string, to: string): string {
  return normal(from) && normal(to) && (to === from || to.startsWith(`${from}/`)) ? to.slice(from.length + 1) : path.posix.relative(from, to);
}

const SLASH = 47;

/**
 * POSIX's `path.dirname`, answered at once for an absolute path that does not end in a separator
 * (every path the core builds): the folder is what comes before the last `/`. Node's checks its
 * argument through a wrapper that allocates for each call, then walks the string from its end: a
 * `check` asks it about 210,000 times on babel's shape.
 */
export function posixDirname(p: string): string {
  if (p.charCodeAt(0) === SLASH && p.charCodeAt(p.length - 1) !== SLASH) {
    const i = p.lastIndexOf('/');
    // `//x` is left to Node's, which keeps the two separators.
    if (i === 0) return '/';
    if (i > 1) return p.slice(0, i);
  }
  return path.posix.dirname(p);
}

/** POSIX's `path.basename` without a suffix to cut, answered at once for a path that does not end in a separator. */
export function posixBasename(p: string, suffix?: string): string {
  if (suffix === undefined && p.length && p.charCodeAt(p.length - 1) !== SLASH) return p.slice(p.lastIndexOf('/') + 1);
  return path.posix.basename(p, suffix);
}

/** Node's path functions for this platform, with the quicker `join`, `dirname` and `basename` on POSIX. */
const nodePath: PathApi = process.platform === 'win32' ? path : { ...path.posix, join: posixJoin, dirname: posixDirname, basename: posixBasename };

/**
 * `nodePath` with the quicker `resolve` and `relative` too, on POSIX: the CLI's (`check` asks
 * them of every folder for every agent). Not the extension's, whose bundles' bytes are counted.
 */
export function quickPaths(): PathApi {
  return nodePath === path ? path : { ...nodePath, resolve: posixResolve, relative: posixRelative };
}

export class NodeFileSystem implements FileSystem {
  private insensitive: boolean | undefined;

  /**
   * @param probeDir a folder on the volume the core will read (the workspace folder): whether
   *   names are case-insensitive is asked of that volume once, when first needed (a Mac can hold a
   *   case-sensitive volume, Linux a case-insensitive one). Default: the process's working folder.
   * @param path its path functions (default: Node's for this platform, with the quicker `join`).
   */
  constructor(
    private readonly probeDir?: string,
    readonly path: PathApi = nodePath,
  ) {}

  get caseInsensitive(): boolean {
    return (this.insensitive ??= probeCaseInsensitive(this.probeDir ?? defaultProbeDir ?? process.cwd()));
  }

  stat(p: string): FileStat | undefined {
    try {
      // No exception for a missing path: most paths asked about do not exist, and an error
      // object with its stack costs more than the system call.
      const s = nodeFs.statSync(p, { throwIfNoEntry: false });
      if (!s) return undefined;
      return {
        type: s.isFile() ? 'file' : s.isDirectory() ? 'dir' : 'other',
        size: s.size,
        id: `${s.dev}:${s.ino}`,
      };
    } catch {
      return undefined;
    }
  }

  isSymlink(p: string): boolean {
    try {
      return nodeFs.lstatSync(p, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
    } catch {
      return false;
    }
  }

  /**
   * Only regular files of at most MAX_READ_BYTES: opened without blocking (a FIFO would wait for
   * a writer forever), then `EFTYPE` for anything that is not a regular file and `EFBIG` for a
   * file over the cap.
   */
  readFile(p: string): Uint8Array {
    return this.read(p, (fd, size) => {
      if (size > MAX_READ_BYTES) throw fsError('EFBIG', p);
      return nodeFs.readFileSync(fd);
    });
  }

  readPrefix(p: string, maxBytes: number): Uint8Array {
    return this.read(p, (fd, size) => {
      const out = Buffer.alloc(Math.max(0, Math.min(size, maxBytes)));
      let at = 0;
      // A file may shrink while it is read: stop at its end.
      for (let n = 1; at < out.length && n > 0; at += n) n = nodeFs.readSync(fd, out, at, out.length - at, at);
      return out.subarray(0, at);
    });
  }

  /** Open a regular file without blocking and hand its descriptor and size to `body`. */
  private read(p: string, body: (fd: number, size: number) => Uint8Array): Uint8Array {
    const fd = nodeFs.openSync(p, nodeFs.constants.O_RDONLY | (nodeFs.constants.O_NONBLOCK ?? 0));
    try {
      const st = nodeFs.fstatSync(fd);
      if (st.isDirectory()) throw fsError('EISDIR', p);
      if (!st.isFile()) throw fsError('EFTYPE', p);
      return body(fd, st.size);
    } finally {
      nodeFs.closeSync(fd);
    }
  }

  readDir(p: string): DirEntry[] {
    // opendir yields entries in the file system's own order; readdirSync would sort them,
    // and some agents (Claude Code's rules) load in the unsorted order.
    let dir: nodeFs.Dir | undefined;
    try {
      dir = nodeFs.opendirSync(p);
      const out: DirEntry[] = [];
      for (let d = dir.readSync(); d; d = dir.readSync()) {
        let type: DirEntry['type'] = d.isFile() ? 'file' : d.isDirectory() ? 'dir' : 'other';
        if (d.isSymbolicLink()) type = this.stat(path.join(p, d.name))?.type ?? 'other';
        out.push({ name: d.name, type });
      }
      return out;
    } catch {
      return [];
    } finally {
      dir?.closeSync();
    }
  }

  readDirNames(p: string): string[] {
    try {
      // One call for the whole folder (sorted by libuv, which is why readDir cannot use it).
      return nodeFs.readdirSync(p);
    } catch {
      return [];
    }
  }

  realPath(p: string): string {
    try {
      return nodeFs.realpathSync(p);
    } catch {
      return p;
    }
  }
}

const probed = new Map<string, boolean>();
let defaultProbeDir: string | undefined;

/**
 * The folder whose volume says whether names ignore case, for every NodeFileSystem made without
 * one: the extension's first workspace folder (its process runs elsewhere).
 */
export function probeCaseAt(dir: string | undefined): void {
  defaultProbeDir = dir;
}

/**
 * Whether the volume holding `dir` ignores case in names: the nearest ancestor (itself included)
 * whose name has a cased letter is stat-ed under that name with its case swapped; the same file
 * (device and inode) means case-insensitive. Without such a folder, the platform's default
 * (macOS and Windows format their volumes case-insensitive). Asked once per folder per process.
 */
export function probeCaseInsensitive(dir: string, platform: NodeJS.Platform = process.platform): boolean {
  let answer = probed.get(dir);
  if (answer !== undefined) return answer;
  answer = platform === 'darwin' || platform === 'win32';
  for (let d = path.resolve(dir); path.dirname(d) !== d; d = path.dirname(d)) {
    const name = path.basename(d);
    const swapped = [...name].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
    if (swapped === name) continue;
    try {
      const here = nodeFs.statSync(d, { throwIfNoEntry: false });
      if (!here) continue;
      const other = nodeFs.statSync(path.join(path.dirname(d), swapped), { throwIfNoEntry: false });
      answer = !!other && other.dev === here.dev && other.ino === here.ino;
      break;
    } catch {
      continue;
    }
  }
  probed.set(dir, answer);
  return answer;
}

/** An error shaped like Node's, so callers can switch on `code`. */
export function fsError(code: string, p: string): Error {
  const e = new Error(`${code}: ${p}`) as Error & { code: string };
  e.code = code;
  return e;
}
