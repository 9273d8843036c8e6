import * as vscode from 'vscode';
import type { Host } from '../core/chain';
import type { FileSystem } from '../core/fs';
import { CliGitIndex, findGitRoot, type GitIndex } from '../core/git';
import { OverlayFileSystem } from './overlayFs';

/**
 * What the core reads through, for one resolve: the disk with unsaved editor text on top, and
 * git. In an untrusted workspace git is never run: a repository's own config can make git
 * execute commands (core.fsmonitor, hooks), which is why VS Code's git support is off there too.
 * Without the index, `check` walks the folder and committed-only agents see nothing committed.
 */
export function coreHost(): Host {
  const fs = OverlayFileSystem.ofOpenDocuments();
  return { fs, git: vscode.workspace.isTrusted ? new CliGitIndex(fs) : new NoGitIndex(fs) };
}

/** Finds the repository root from `.git` but never runs git. */
class NoGitIndex implements GitIndex {
  constructor(private readonly fs: FileSystem) {}

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
