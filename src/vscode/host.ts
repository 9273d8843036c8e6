import * as vscode from 'vscode';
import type { Host } from '../core/chain';
import { ProcessFreeGit, workspaceHost } from '../core/workspaceHost';
import { unsavedTexts } from './overlayFs';

/**
 * What the core reads through, for one resolve: the disk with unsaved editor text on top, and
 * git unless the workspace is untrusted (see `workspaceHost`).
 */
export function coreHost(): Host {
  return workspaceHost(unsavedTexts(), vscode.workspace.isTrusted);
}

/**
 * `coreHost` without git's processes (`ProcessFreeGit`): for a chain this thread must not wait
 * for a process to resolve, dropped when the chain wanted one.
 */
export function processFreeHost(): { host: Host; git: ProcessFreeGit } {
  const host = coreHost();
  const git = new ProcessFreeGit(host.git);
  return { host: { fs: host.fs, git }, git };
}
