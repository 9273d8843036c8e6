import * as nodePath from 'node:path';
import { DirEntry, FileStat, FileSystem, fsError, type PathApi } from '../../../src/core/fs';

export interface MemoryFsOptions {
  /** Path rules: POSIX (`/r/a.md`, the default) or Windows (`C:\r\a.md`, `\` and drive letters). */
  platform?: 'posix' | 'win32';
  /**
   * Names that differ only in case are one entry (macOS and Windows by default): `stat`, reads
   * and listings find `claude.md` under `CLAUDE.md`, and listings keep the case it was created with.
   */
  caseInsensitive?: boolean;
}

/**
 * An in-memory tree: the unit tests' disk. Paths are absolute, with the chosen platform's rules
 * (POSIX by default). Insertion order is the listing order, like a file system that lists in
 * creation order.
 */
export class MemoryFileSystem implements FileSystem {
  readonly path: PathApi;
  readonly caseInsensitive: boolean;
  /** Contents, folders, links and unreadable marks are keyed by `key(path)`. */
  private readonly files = new Map<string, Uint8Array>();
  private readonly dirs = new Set<string>();
  private readonly links = new Map<string, string>();
  private readonly unreadable = new Set<string>();
  /** Every path ever created, by key, as first written, in creation order: the listing order of `readDir`. */
  private readonly order = new Map<string, string>();

  constructor(files: Record<string, string | Uint8Array> = {}, opts: MemoryFsOptions = {}) {
    this.path = opts.platform === 'win32' ? nodePath.win32 : nodePath.posix;
    this.caseInsensitive = opts.caseInsensitive ?? false;
    if (opts.platform !== 'win32') this.dirs.add('/');
    for (const [p, content] of Object.entries(files)) this.write(p, content);
  }

  private key(p: string): string {
    return this.caseInsensitive ? p.toLowerCase() : p;
  }

  private isRoot(p: string): boolean {
    return this.path.dirname(p) === p;
  }

  write(p: string, content: string | Uint8Array): this {
    p = this.path.resolve(p);
    this.mkdir(this.path.dirname(p));
    this.files.set(this.key(p), typeof content === 'string' ? new TextEncoder().encode(content) : content);
    if (!this.order.has(this.key(p))) this.order.set(this.key(p), p);
    return this;
  }

  mkdir(p: string): this {
    p = this.path.resolve(p);
    const created: string[] = [];
    for (let d = p; !this.dirs.has(this.key(d)); d = this.path.dirname(d)) {
      created.unshift(d);
      if (this.isRoot(d)) break;
    }
    for (const d of created) {
      this.dirs.add(this.key(d));
      if (!this.order.has(this.key(d))) this.order.set(this.key(d), d);
    }
    return this;
  }

  symlink(linkPath: string, target: string): this {
    linkPath = this.path.resolve(linkPath);
    this.mkdir(this.path.dirname(linkPath));
    this.links.set(this.key(linkPath), this.path.resolve(this.path.dirname(linkPath), target));
    if (!this.order.has(this.key(linkPath))) this.order.set(this.key(linkPath), linkPath);
    return this;
  }

  /** Mark a file as present but unreadable (EACCES). */
  deny(p: string): this {
    this.unreadable.add(this.key(this.path.resolve(p)));
    return this;
  }

  remove(p: string): this {
    p = this.key(this.path.resolve(p));
    this.files.delete(p);
    this.links.delete(p);
    return this;
  }

  /**
   * `p` with links resolved on every segment, not just the last one. The segments keep the case
   * they are asked in, as Node's `realpath` does on a case-insensitive disk; link targets keep
   * the case they were written with.
   */
  private resolveLinks(p: string, depth = 0): string {
    p = this.path.resolve(p);
    if (depth > 40) return p;
    const { root } = this.path.parse(p);
    const parts = p.slice(root.length).split(this.path.sep).filter(Boolean);
    let cur = root;
    for (const part of parts) {
      cur = this.path.join(cur, part);
      const target = this.links.get(this.key(cur));
      if (target) cur = this.resolveLinks(target, depth + 1);
    }
    return cur;
  }

  stat(p: string): FileStat | undefined {
    const real = this.key(this.resolveLinks(p));
    const data = this.files.get(real);
    if (data) return { type: 'file', size: data.byteLength, id: real };
    if (this.dirs.has(real)) return { type: 'dir', size: 0, id: real };
    return undefined;
  }

  isSymlink(p: string): boolean {
    // As lstat: links in the folders above are followed, only the last name is looked at.
    const abs = this.path.resolve(p);
    const dir = this.path.dirname(abs);
    return this.links.has(this.key(dir === abs ? abs : this.path.join(this.resolveLinks(dir), this.path.basename(abs))));
  }

  readFile(p: string): Uint8Array {
    const real = this.key(this.resolveLinks(p));
    if (this.unreadable.has(real)) throw fsError('EACCES', p);
    const data = this.files.get(real);
    if (data) return data;
    if (this.dirs.has(real)) throw fsError('EISDIR', p);
    throw fsError('ENOENT', p);
  }

  readPrefix(p: string, maxBytes: number): Uint8Array {
    return this.readFile(p).subarray(0, maxBytes);
  }

  readDir(p: string): DirEntry[] {
    const real = this.key(this.resolveLinks(p));
    if (!this.dirs.has(real)) return [];
    const out: DirEntry[] = [];
    const seen = new Set<string>();
    for (const [key, written] of this.order) {
      if (!(this.dirs.has(key) || this.files.has(key) || this.links.has(key))) continue;
      if (this.key(this.path.dirname(written)) !== real || key === real) continue;
      const name = this.path.basename(written);
      if (seen.has(this.key(name))) continue;
      seen.add(this.key(name));
      out.push({ name, type: this.stat(written)?.type ?? 'other' });
    }
    return out;
  }

  realPath(p: string): string {
    return this.resolveLinks(p);
  }
}
