import type { Host } from './chain';
import type { FileSystem } from './fs';
import { CliGitIndex, findGitRoot, type GitIndex } from './git';
import { OverlayFileSystem } from './overlayFs';

/** Where the agent most likely starts, per `instructionLens.launchDirectory` (the chain view's rule). */
export type LaunchMode = 'workspaceFolder' | 'fileFolder' | 'repositoryRoot';

/** The launch directory for `dir` (a folder being checked, or a file's folder) in workspace folder `folder`. */
export function launchDirectory(mode: LaunchMode, folder: string | undefined, dir: string, fs: FileSystem): string {
  if (mode === 'fileFolder') return dir;
  if (mode === 'workspaceFolder' && (!folder || findGitRoot(fs, folder))) return folder ?? dir;
  // A workspace folder that holds repositories without being one is not where agents start:
  // a file in one of them is seen from its repository, as in `repositoryRoot`.
  return findGitRoot(fs, dir) ?? folder ?? dir;
}

/**
 * What the core reads through in the extension: the disk with unsaved editor text on top, and
 * git. In an untrusted workspace git is never run: a repository's own config can make git
 * execute commands (core.fsmonitor, hooks), which is why VS Code's git support is off there too.
 * Without the index, `check` walks the folder and committed-only agents see nothing committed.
 */
export function workspaceHost(unsaved: ReadonlyMap<string, Uint8Array>, trusted: boolean): Host {
  const fs = new OverlayFileSystem(unsaved);
  return { fs, git: trusted ? new CliGitIndex(fs) : new NoGitIndex(fs) };
}

/** Finds the repository root from `.git` but never runs git. */
export class NoGitIndex implements GitIndex {
  constructor(private readonly fs: FileSystem) {}

  get rootsFrom(): FileSystem {
    return this.fs;
  }

  root(dir: string): string | undefined {
    return findGitRoot(this.fs, dir);
  }

  trackedFiles(): undefined {
    return undefined;
  }

  committedText(): undefined {
    return undefined;
  }
}

/**
 * `inner`, but no question that would start a git process is asked: each is answered with nothing
 * and noted (`wanted`). The extension resolves its first chain on the extension host's thread
 * through it, and keeps that chain only when nothing was wanted: CAR's, hosted sessions' and
 * Copilot's nested `AGENTS.md` read through git, the other agents find the repository by its
 * `.git` alone, and that thread must not wait for a process.
 */
export class ProcessFreeGit implements GitIndex {
  wanted = false;
  readonly rootsFrom: FileSystem | undefined;
  constructor(private readonly inner: GitIndex) {
    this.rootsFrom = inner.rootsFrom;
  }

  root(dir: string): string | undefined {
    return this.inner.root(dir);
  }

  private want(): undefined {
    this.wanted = true;
    return undefined;
  }

  trackedFiles = this.want;
  workTreeFiles = this.want;
  workTreeRelative = this.want;
  workTreeListing = this.want;
  workTreeUnder = this.want;
  workTreeFilesNamed = this.want;
  committedText = this.want;
  committedFiles = this.want;
  commitOf = this.want;
  committedTexts(): Map<string, string | undefined> {
    this.want();
    return new Map();
  }
  defaultBranch(): string {
    this.want();
    return 'HEAD';
  }
}
