import { NodeFileSystem, type DirEntry, type FileStat, type FileSystem, type PathApi } from './fs';

/**
 * The disk as the agent would see it once the user saves: open documents with unsaved edits
 * answer with their editor text, everything else comes from the real file system. A snapshot:
 * make a new one for each refresh, so a chain never mixes two versions of a document.
 */
export class OverlayFileSystem implements FileSystem {
  private readonly base = new NodeFileSystem();
  readonly path: PathApi = this.base.path;

  get caseInsensitive(): boolean {
    return this.base.caseInsensitive;
  }

  /** @param unsaved editor text by absolute path */
  constructor(private readonly unsaved: ReadonlyMap<string, Uint8Array>) {}

  stat(p: string): FileStat | undefined {
    const text = this.unsaved.get(p);
    const stat = this.base.stat(p);
    // A dirty document whose file was deleted on disk still counts: saving brings it back.
    return text ? { type: 'file', size: text.byteLength, ...(stat?.id ? { id: stat.id } : { id: p }) } : stat;
  }

  isSymlink(p: string): boolean {
    return this.base.isSymlink(p);
  }

  readFile(p: string): Uint8Array {
    return this.unsaved.get(p) ?? this.base.readFile(p);
  }

  readPrefix(p: string, maxBytes: number): Uint8Array {
    return this.unsaved.get(p)?.subarray(0, maxBytes) ?? this.base.readPrefix(p, maxBytes);
  }

  readDir(p: string): DirEntry[] {
    const entries = this.base.readDir(p);
    const sep = this.path.sep;
    const prefix = p.endsWith(sep) ? p : `${p}${sep}`;
    for (const file of this.unsaved.keys()) {
      const name = file.slice(prefix.length);
      if (file.startsWith(prefix) && !name.includes(sep) && !entries.some((e) => e.name === name)) entries.push({ name, type: 'file' });
    }
    return entries;
  }

  realPath(p: string): string {
    return this.base.realPath(p);
  }
}
