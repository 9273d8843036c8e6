import { refreshHost, type Host } from './core/chain';
import { listedFolder } from './core/check';
import type { FileSystem } from './core/fs';
import { CliGitIndex, runAsync, type SnapshotGitIndex, treeArgs } from './core/git';
import type { Profile } from './core/profile';

/**
 * The CLI's git for one `check`, which asks git at once, in processes side by side, what the
 * pass asks first: the work tree's listing and, for agents that read the default branch's commit
 * (`Profile.readsCommit`), that commit's files. On a second core the commit's listing then runs
 * while git walks the work tree, where the pass would have asked for it afterwards.
 */
export class AheadGitIndex extends CliGitIndex {
  /** The default branch, its commit and its files, once each: asked ahead, then by the pass. */
  private readonly known = new Map<string, unknown>();

  private once<T>(key: string, get: () => T): T {
    if (!this.known.has(key)) this.known.set(key, get());
    return this.known.get(key) as T;
  }

  override defaultBranch(root: string): string {
    return this.once(`branch\0${root}`, () => super.defaultBranch(root));
  }

  override commitOf(root: string, rev: string): string | undefined {
    return this.once(`commit\0${root}\0${rev}`, () => super.commitOf(root, rev));
  }

  override committedFiles(root: string, rev: string): string[] | undefined {
    return this.once(`files\0${root}\0${rev}`, () => super.committedFiles(root, rev));
  }

  /** The default branch's commit and its files, the files listed without blocking. */
  async commitAhead(root: string): Promise<void> {
    const commit = this.commitOf(root, this.defaultBranch(root));
    const key = `files\0${root}\0${commit}`;
    if (!commit || this.known.has(key)) return;
    const out = await runAsync(root, treeArgs(commit));
    if (!this.known.has(key)) this.known.set(key, this.treeFiles(root, commit, out));
  }
}

/** The host for the CLI's `check` of `root` for `agents` (the pinned ones), git's first answers asked ahead. */
export async function checkHost(disk: FileSystem, root: string, agents: readonly Profile[]): Promise<Host> {
  const git = new AheadGitIndex(disk);
  const host = refreshHost({ fs: disk, git });
  const snapshot = host.git as SnapshotGitIndex;
  const gitRoot = snapshot.root(root);
  if (!gitRoot) return host;
  // What `listFiles` lists: the work tree, or a folder's part of it.
  const folder = gitRoot === root ? undefined : listedFolder(host, gitRoot, root);
  await Promise.all([folder ? snapshot.listUnderAhead(gitRoot, folder) : snapshot.listAhead(gitRoot), agents.some((p) => p.readsCommit) ? git.commitAhead(gitRoot) : undefined]);
  return host;
}
