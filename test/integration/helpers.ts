// Shared by the integration tests: the extension's API, the fixture workspace, and waiting for
// what the user would see.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as util from 'node:util';
import * as vscode from 'vscode';
import type { InstructionLensApi } from '../../src/extension';
import type { ChainNode } from '../../src/vscode/chainView';

/** The runner's fresh copy of test/fixtures/workspace. */
export const workspaceDir = vscode.workspace.workspaceFolders![0].uri.fsPath;
/** The agents' home for the tests (`instructionLens.home` is `../home` in the fixture). */
/** The fixture's chain for packages/api/src/routes/orders.ts with Claude Code, as the tree shows it. */
export const ORDERS_TREE = [
  'At start — 2 files',
  '  CLAUDE.md — loaded',
  '    conventions.md — loaded',
  'When the agent reads here — 1 file',
  '  CLAUDE.md — on read · api',
  'Not loaded — 1 file',
  '  tests.md — not matched',
];

export const homeDir = path.resolve(workspaceDir, '..', 'home');

export async function api(): Promise<InstructionLensApi> {
  const extension = vscode.extensions.getExtension<InstructionLensApi>('instruction-lens.instruction-lens');
  assert.ok(extension, 'the extension is not installed');
  return extension.activate();
}

export function ws(rel: string): string {
  return path.join(workspaceDir, rel);
}

export async function open(file: string): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(path.isAbsolute(file) ? file : ws(file));
  return vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.One });
}

export function write(file: string, text: string): void {
  const abs = path.isAbsolute(file) ? file : ws(file);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, text);
}

export function remove(file: string): void {
  fs.rmSync(path.isAbsolute(file) ? file : ws(file), { recursive: true, force: true });
}

/** Polls until `probe` returns something truthy; fails with the last value seen. */
export async function until<T>(probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, what: string, timeoutMs = 8000): Promise<T> {
  const started = Date.now();
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
      last = value;
    } catch (e) {
      last = e;
    }
    if (Date.now() - started > timeoutMs) assert.fail(`timed out waiting for ${what}; last: ${last instanceof Error ? last.message : JSON.stringify(last)}`);
    await sleep(50);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** What the sidebar shows: one line per item, indented by depth, `label — description`. */
export function treeRows(lens: InstructionLensApi): string[] {
  const { provider } = lens.chainView;
  const rows: string[] = [];
  const walk = (nodes: ChainNode[], depth: number) => {
    for (const node of nodes) {
      const item = provider.getTreeItem(node);
      const label = typeof item.label === 'string' ? item.label : item.label?.label;
      rows.push(`${'  '.repeat(depth)}${label} — ${item.description ?? ''}`);
      walk(provider.getChildren(node), depth + 1);
    }
  };
  walk(provider.getChildren(), 0);
  return rows;
}

/** The first tree item shown as `row`: its label (`CLAUDE.md`), or its label and description (`CLAUDE.md — truncated`). */
export function treeItem(lens: InstructionLensApi, row: string): vscode.TreeItem | undefined {
  return treeRow(lens, row)?.item;
}

/** The first row shown as `row` (see `treeItem`), and its node. */
function treeRow(lens: InstructionLensApi, row: string): { item: vscode.TreeItem; node: ChainNode } | undefined {
  const { provider } = lens.chainView;
  const find = (nodes: ChainNode[]): { item: vscode.TreeItem; node: ChainNode } | undefined => {
    for (const node of nodes) {
      const item = provider.getTreeItem(node);
      if (item.label === row || `${String(item.label)} — ${item.description ?? ''}` === row) return { item, node };
      const hit = find(provider.getChildren(node));
      if (hit) return hit;
    }
    return undefined;
  };
  return find(provider.getChildren());
}

/** The tooltip of the first row shown as `row` (see `treeItem`), as plain text: as the view resolves it when the pointer rests on the row. */
export function tooltipOf(lens: InstructionLensApi, row: string): string {
  const found = treeRow(lens, row);
  const tooltip = found && lens.chainView.provider.resolveTreeItem(found.item, found.node).tooltip;
  const text = typeof tooltip === 'string' ? tooltip : (tooltip?.value ?? '');
  return text.replace(/\\(.)/g, '$1');
}

/** Waits until the sidebar's rows satisfy `test`; on timeout, fails showing the rows. */
export async function untilTree(lens: InstructionLensApi, test: (rows: string[]) => unknown, what: string): Promise<string[]> {
  try {
    return await until(() => (test(treeRows(lens)) ? treeRows(lens) : false), what);
  } catch {
    assert.fail(`timed out waiting for ${what}; the tree shows:\n${treeRows(lens).join('\n')}`);
  }
}

/** Waits until the sidebar shows exactly `expected` (a user-visible fact, so poll). */
export async function expectTree(lens: InstructionLensApi, expected: string[], what = 'the chain tree'): Promise<void> {
  const same = () => JSON.stringify(treeRows(lens)) === JSON.stringify(expected);
  try {
    await until(same, what);
  } catch {
    assert.deepEqual(treeRows(lens), expected, what);
  }
}

/** Each setting's workspace value before a test first changed it (the suite's workspace file pins some). */
const original = new Map<string, unknown>();

/**
 * Sets an `instructionLens.*` setting at workspace level, and waits until VS Code reads it back.
 * The write lands in the workspace file, which a folder added or removed rewrites too: a second
 * write before the first is read back can leave VS Code holding the old value while the file
 * holds the new one, and every later test then sees the wrong agents.
 */
export async function setting(key: string, value: unknown): Promise<void> {
  const config = () => vscode.workspace.getConfiguration('instructionLens');
  if (!original.has(key)) original.set(key, config().inspect(key)?.workspaceValue);
  await config().update(key, value, vscode.ConfigurationTarget.Workspace);
  await until(() => util.isDeepStrictEqual(config().inspect(key)?.workspaceValue, value), `instructionLens.${key} to read ${JSON.stringify(value)}`);
}

/** Puts a setting back to what the suite's workspace had before any test changed it. */
export async function restoreSetting(key: string): Promise<void> {
  if (original.has(key)) await setting(key, original.get(key));
}

export async function selectAgent(lens: InstructionLensApi, id: string): Promise<void> {
  await lens.model.selectAgent(id);
}

/** Drops unsaved edits and closes every editor, so each test starts from the same screen. */
export async function closeEditors(): Promise<void> {
  // The documents, not the tabs: a tab's dirty flag can lag an edit just made, and an edit left
  // unsaved would count in every later test's chain. Not VS Code's own user settings file: it is
  // dirty for a moment while VS Code writes a setting a test changed (reverting it would drop the
  // setting, and showing it then fails with "another editor opened in the meantime").
  const userSettings = (d: vscode.TextDocument) => d.uri.fsPath.endsWith(path.join('User', 'settings.json'));
  for (const doc of vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'file' && !userSettings(d))) {
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await until(() => !doc.isDirty, `${path.basename(doc.uri.fsPath)} to be reverted`);
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/** The error-level and other diagnostics of a file from this extension, as `line:col code`. */
export function diagnosticsOf(file: string): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(vscode.Uri.file(path.isAbsolute(file) ? file : ws(file))).filter((d) => d.source === 'instruction-lens');
}

export function codeOf(d: vscode.Diagnostic): string {
  return typeof d.code === 'object' ? String(d.code.value) : String(d.code);
}

/** Shows the Instruction Lens sidebar, at the width it has (the default), and lets it render. */
export async function showView(lens: InstructionLensApi): Promise<void> {
  await vscode.commands.executeCommand('instructionLens.chain.focus');
  await until(() => lens.chainView.view.visible, 'the chain view to show');
  await sleep(600);
}
