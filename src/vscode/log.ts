import * as vscode from 'vscode';

/**
 * The "Instruction Lens" output channel (Output panel, and Developer: Set Log Level): what the
 * extension found at start, one line per refresh with its timing, and every error. Something
 * to look at when a view seems wrong. Made at activation, so an error loading the rest of the
 * extension has somewhere to go.
 */
export function createLog(context: vscode.ExtensionContext): vscode.LogOutputChannel {
  const log = vscode.window.createOutputChannel('Instruction Lens', { log: true });
  const version = (context.extension.packageJSON as { version?: string }).version ?? '?';
  const folders = vscode.workspace.workspaceFolders?.map((f) => f.uri.fsPath) ?? [];
  log.info(`Instruction Lens ${version} in VS Code ${vscode.version} (${vscode.env.remoteName ? `remote: ${vscode.env.remoteName}` : 'local'}, ${vscode.workspace.isTrusted ? 'trusted' : 'Restricted Mode'})`);
  log.info(`Workspace folders: ${folders.length ? folders.join(', ') : 'none'}`);
  return log;
}
