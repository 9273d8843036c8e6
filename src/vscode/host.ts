import * as vscode from 'vscode';
import type { Host } from '../core/chain';
import { workspaceHost } from '../core/workspaceHost';
import { unsavedTexts } from './overlayFs';

/**
 * What the core reads through, for one resolve: the disk with unsaved editor text on top, and
 * git unless the workspace is untrusted (see `workspaceHost`).
 */
export function coreHost(): Host {
  return workspaceHost(unsavedTexts(), vscode.workspace.isTrusted);
}

