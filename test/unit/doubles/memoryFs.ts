import * as path from 'node:path';
import { DirEntry, FileStat, FileSystem, fsError } from '../../../src/core/fs';

/**
 * An in-memory tree: the unit tests' disk. Paths are absolute POSIX paths. Insertion order is the listing
 * order, like a file system that lists in creation order.
 */
export class MemoryFileSystem implements FileSystem {
  private readonly files = new Map<string, Uint8Array>();
  private readonly dirs = new Set<string>(['/']);
  private readonly links = new Map<string, string>();
  private readonly unreadable = new Set<string>();
  /** Every path ever created, in creation order: the listing order of `readDir`. */
  private readonly order = new Map<string, true>();

  constructor(files: Record<string, string | Uint8Array> = {}) {
    for (const [p, content] of Object.entries(files)) this.write(p, content);
  }

  write(p: string, content: string | Uint8Array): this {
    p = path.resolve(p);
    this.mkdir(path.dirname(p));
    this.files.set(p, typeof content === 'string' ? new TextEncoder().encode(content) : content);
    this.order.set(p, true);
    return this;
  }

  mkdir(p: string): this {
    p = path.resolve(p);
    const created: string[] = [];
    for (let d = p; !this.dirs.has(d); d = path.dirname(d)) created.unshift(d);
    for (const d of created) {
      this.dirs.add(d);
      this.order.set(d, true);
    }
    return this;
  }

  symlink(linkPath: string, target: string): this {
    linkPath = path.resolve(linkPath);
    this.mkdir(path.dirname(linkPath));
    this.links.set(linkPath, path.resolve(path.dirname(linkPath), target));
    this.order.set(linkPath, true);
    return this;
  }

  /** Mark a file as present but unreadable (EACCES). */
  deny(p: string): this {
    this.unreadable.add(path.resolve(p));
    return this;
  }

  remove(p: string): this {
    p = path.resolve(p);
    this.files.delete(p);
    this.links.delete(p);
    return this;
  }

  private resolveLinks(p: string, depth = 0): string {
    p = path.resolve(p);
    if (depth > 40) return p;
    // Resolve links on every segment, not just the last one.
    const parts = p.split('/').filter(Boolean);
    let cur = '/';
    for (const part of parts) {
      cur = path.join(cur, part);
      const target = this.links.get(cur);
      if (target) cur = this.resolveLinks(target, depth + 1);
    }
    return cur;
  }

  stat(p: string): FileStat | undefined {
    const real = this.resolveLinks(p);
    const data = this.files.get(real);
    if (data) return { type: 'file', size: data.byteLength, id: real };
    if (this.dirs.has(real)) return { type: 'dir', size: 0, id: real };
    return undefined;
  }

  isSymlink(p: string): boolean {
    return this.links.has(path.resolve(p));
  }

  readFile(p: string): Uint8Array {
    const real = this.resolveLinks(p);
    if (this.unreadable.has(real)) throw fsError('EACCES', p);
    const data = this.files.get(real);
    if (data) return data;
    if (this.dirs.has(real)) throw fsError('EISDIR', p);
    throw fsError('ENOENT', p);
  }

  readDir(p: string): DirEntry[] {
    const real = this.resolveLinks(p);
    if (!this.dirs.has(real)) return [];
    const out: DirEntry[] = [];
    const seen = new Set<string>();
    const add = (child: string) => {
      if (path.dirname(child) !== real || child === real) return;
      const name = path.basename(child);
      if (seen.has(name)) return;
      seen.add(name);
      out.push({ name, type: this.stat(child)?.type ?? 'other' });
    };
    for (const p of this.order.keys()) if (this.dirs.has(p) || this.files.has(p) || this.links.has(p)) add(p);
    return out;
  }

  realPath(p: string): string {
    return this.resolveLinks(p);
  }
}
