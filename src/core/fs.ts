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
  /** Entries of a directory in the order the file system lists them; [] when unreadable. */
  readDir(p: string): DirEntry[];
  /** The path with every symlink resolved; `p` itself when that fails. */
  realPath(p: string): string;
}

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

export class NodeFileSystem implements FileSystem {
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

  readFile(p: string): Uint8Array {
    return nodeFs.readFileSync(p);
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

  realPath(p: string): string {
    try {
      return nodeFs.realpathSync(p);
    } catch {
      return p;
    }
  }
}

/** An error shaped like Node's, so callers can switch on `code`. */
export function fsError(code: string, p: string): Error {
  const e = new Error(`${code}: ${p}`) as Error & { code: string };
  e.code = code;
  return e;
}
