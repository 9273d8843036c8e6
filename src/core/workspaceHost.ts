import type { Host } from './chain';
import type { FileSystem } from './fs';
import { CliGitIndex, findGitRoot, NoGitIndex } from './git';
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

