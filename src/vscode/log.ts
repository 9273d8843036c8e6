import * as vscode from 'vscode';
import type { Settings } from './settings';

/**
 * The "Instruction Lens" output channel (Output panel, and Developer: Set Log Level): what the
 * extension found at start, one line per refresh with its timing, and every error. Something
 * to look at when a view seems wrong.
 */
export function createLog(context: vscode.ExtensionContext, settings: Settings): vscode.LogOutputChannel {
  const log = vscode.window.createOutputChannel('Instruction Lens', { log: true });
  const version = (context.extension.packageJSON as { version?: string }).version ?? '?';
  const folders = vscode.workspace.workspaceFolders?.map((f) => f.uri.fsPath) ?? [];
  log.info(`Instruction Lens ${version} in VS Code ${vscode.version} (${vscode.env.remoteName ? `remote: ${vscode.env.remoteName}` : 'local'}, ${vscode.workspace.isTrusted ? 'trusted' : 'Restricted Mode'})`);
  log.info(`Workspace folders: ${folders.length ? folders.join(', ') : 'none'}`);
  // Once detection has listed the folders (asynchronously, after activation).
  void settings.ready().then(() => log.info(`Agents enabled: ${settings.enabledProfiles().map((p) => `${p.agent} (${p.id}, models ${p.agentVersion})`).join('; ')}`));
  return log;
}
