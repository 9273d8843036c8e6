import type { FileSystem } from '../../../src/core/fs';
import { findGitRoot, type CommittedPaths, type GitIndex } from '../../../src/core/git';
import { isInside } from '../../../src/core/paths';

/**
 * A fixed index for unit tests: tracked paths and committed texts given up front. The committed
 * texts are the default branch's tree; `refs` names that branch and its commit.
 */
export class MemoryGitIndex implements GitIndex {
  constructor(
    private readonly fs: FileSystem,
    private readonly tracked: ReadonlySet<string> = new Set(),
    private readonly committed: ReadonlyMap<string, string> = new Map(),
    private readonly refs: { defaultBranch?: string; commit?: string } = {},
  ) {}

  get rootsFrom(): FileSystem {
    return this.fs;
  }

  root(dir: string): string | undefined {
    return findGitRoot(this.fs, dir);
  }

  trackedFiles(root: string): string[] | undefined {
    return [...this.tracked].filter((p) => p !== root && isInside(p, root, this.fs));
  }

  committedText(_root: string, file: string): string | undefined {
    return this.committed.get(file);
  }

  defaultBranch(): string {
    return this.refs.defaultBranch ?? 'main';
  }

  committedPaths(root: string): CommittedPaths | undefined {
    // Relative with `/`, in the order git lists a tree: by the paths' UTF-8 bytes.
    const rel = [...this.committed.keys()].filter((p) => p !== root && isInside(p, root, this.fs)).map((p) => this.fs.path.relative(root, p).split(this.fs.path.sep).join('/'));
    const sorted = rel.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    return { has: (f) => sorted.includes(f), named: (names) => sorted.filter((f) => names.includes(f.slice(f.lastIndexOf('/') + 1))) };
  }

  commitOf(): string | undefined {
    return this.refs.commit;
  }
}
