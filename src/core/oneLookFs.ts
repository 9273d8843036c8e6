import * as nodeFs from 'node:fs';
import { joinsBack, NodeFileSystem, type FileStat } from './fs';

/**
 * The disk for one `check` of the CLI, a run that reads it as it is at one moment: nothing is at a
 * path below one that is not a folder, and a folder listed once answers again from its listing,
 * which also says which of its names are links. `CachedFileSystem` asks each path once, but asks
 * `.github/copilot-instructions.md` in every folder Copilot CLI passes after finding no `.github`
 * there, lists again each folder it listed to find missing names, and `lstat`s every folder and
 * file on the way to each real path: 8,100 `stat`, 4,200 `lstat` and 4,100 listings on babel's
 * shape, about half of them answered here. Not the extension's, whose disk changes between
 * refreshes (and whose bundles' bytes are counted).
 */
export class OneLookFileSystem extends NodeFileSystem {
  /** Paths with no folder at them. */
  private readonly notDirs = new Set<string>();
  /** Each folder listed: whether each name in it is a link. */
  private readonly listings = new Map<string, Map<string, boolean>>();

  override stat(p: string): FileStat | undefined {
    const st = this.noFolder(this.path.dirname(p)) ? undefined : super.stat(p);
    if (st?.type !== 'dir') this.notDirs.add(p);
    return st;
  }

  override isSymlink(p: string): boolean {
    const path = this.path;
    const parent = path.dirname(p);
    if (this.noFolder(parent)) return false;
    // From the listing on POSIX only, where its type is `lstat`'s: Windows lists every reparse
    // point as a link (a cloud file's placeholder too), which `lstat` does not.
    const link = path.sep === '/' ? this.listings.get(parent)?.get(path.basename(p)) : undefined;
    return link !== undefined && joinsBack(path, p) ? link : super.isSymlink(p);
  }

  override readDirNames(p: string): string[] {
    let listing = this.listings.get(p);
    if (!listing) {
      listing = new Map();
      try {
        // Sorted as readdirSync's names are (libuv sorts both); a name of unknown type is `lstat`ed by Node.
        for (const d of nodeFs.readdirSync(p, { withFileTypes: true })) listing.set(d.name, d.isSymbolicLink());
      } catch {
        // unreadable: no names, as NodeFileSystem.readDirNames gives
      }
      this.listings.set(p, listing);
    }
    return [...listing.keys()];
  }

  /**
   * Whether this run has seen that no folder is at `p`: a `stat` found none, or the listing of its
   * folder lacks its name (on a disk that keeps case, for a plain ASCII name, as `CachedFileSystem`
   * answers a missing name: that cache answers the `.github` missing from a folder it listed
   * without asking here, but not the files below it).
   */
  private noFolder(p: string): boolean {
    if (this.notDirs.has(p)) return true;
    const path = this.path;
    const parent = path.dirname(p);
    const name = path.basename(p);
    const listing = this.listings.get(parent);
    return !!listing && !listing.has(name) && !this.caseInsensitive && name !== '.' && name !== '..' && /^[\x20-\x7e]+$/.test(name) && joinsBack(path, p);
  }
}
