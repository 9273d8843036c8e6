import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { InstructionLensApi } from '../../src/extension';
import { api, closeEditors, open, remove, setting, showView, tooltipOf, treeItem, treeRows, until, untilTree, write } from './helpers';
import { screenshot } from './screenshot';

/** `n` characters of distinct text in lines of 50, with no white space at either end. */
function text(n: number, tag: string): string {
  let out = '';
  for (let i = 0; out.length < n; i++) out += `${tag} line ${i} `.padEnd(49, '.') + '\n';
  return out.slice(0, n - 1) + 'x';
}

describe('the budget in the status bar', () => {
  let lens: InstructionLensApi;
  const status = () => lens.budgetStatus.item;
  const background = () => (status().backgroundColor as vscode.ThemeColor | undefined)?.id;
  /** Plain text: a Markdown tooltip would have VS Code's extension host compile its Markdown lexer at start-up. */
  const tooltip = () => {
    assert.equal(typeof status().tooltip, 'string');
    return status().tooltip as string;
  };

  before(async () => {
    lens = await api();
  });

  afterEach(async () => {
    await closeEditors();
    await setting('launchDirectory', undefined);
    await lens.model.selectAgent('claude-code');
    remove('big');
    remove('deep');
  });

  it('shows what Claude Code uses at start, with no limit', async () => {
    await open('packages/api/src/routes/orders.ts');
    await until(() => status().text === '$(book) Claude Code · 98 chars · no limit', 'the Claude Code budget, its name first');
    assert.equal(status().name, 'Instruction Lens Budget');
    assert.equal(background(), undefined);
    assert.match(tooltip(), /^Claude Code \S+ — instructions for orders\.ts\n\nAt start: 98 chars \(the agent sets no limit\), about 25 tokens \(estimated/);
    assert.match(tooltip(), /\nLargest:\n• CLAUDE\.md 69 chars\n• docs\/conventions\.md 29 chars\n/, 'the largest sources, largest first');
    assert.match(tooltip(), /\nClick to show the chain\.$/);
  });

  it('turns red when claw-code truncates a file, and opens the file at the cut', async function () {
    // The suite's first screenshot and side bar resize: slow on a loaded machine, and a test cut off
    // by its timeout keeps running into the next ones.
    this.timeout(60_000);
    write('big/CLAUDE.md', text(5000, 'big'));
    write('big/notes.md', 'Notes.\n');
    await setting('launchDirectory', 'fileFolder');
    await lens.model.selectAgent('claw-code');
    await open('big/notes.md');
    // 69 for the root file, then 4,000 of the big one plus "\n\n[truncated]".
    await until(() => status().text === '$(book) claw-code · 4.1k / 12k chars', 'the claw-code budget');
    assert.equal(background(), 'statusBarItem.errorBackground');
    assert.match(tooltip(), /\n⚠ CLAUDE\.md truncated\n/);

    // The root file, above the launch dir, is told apart by its folder's name, not `..`.
    await untilTree(lens, (rows) => rows.includes('  CLAUDE.md — truncated') && rows.includes('  CLAUDE.md — loaded · workspace'), 'the truncated source');
    assert.match(tooltipOf(lens, 'CLAUDE.md — truncated'), /- sent: 4k chars\n- on disk: 5,000 chars, 5,000 bytes\n- share: 33% of claw-code's limit of 12k chars/);
    const item = treeItem(lens, 'CLAUDE.md — truncated')!;
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'warning');
    await vscode.commands.executeCommand(item.command!.command, ...(item.command!.arguments ?? []));
    const editor = await until(() => vscode.window.activeTextEditor?.document.uri.fsPath.endsWith('big/CLAUDE.md') && vscode.window.activeTextEditor, 'the big file to open');
    const cut = editor.document.offsetAt(editor.selection.active);
    assert.equal(cut, 4000, 'the cursor sits where claw-code cuts');

    await showView(lens);
    await screenshot('status-bar');
    // The click on the item reveals the chain view.
    await vscode.commands.executeCommand((status().command as vscode.Command).command);
    await until(() => lens.chainView.view.visible, 'the chain view to show');
  });

  it('warns from 90 % of the limit', async () => {
    write('deep/CLAUDE.md', text(3700, 'one'));
    write('deep/a/CLAUDE.md', text(3700, 'two'));
    write('deep/a/b/CLAUDE.md', text(3700, 'three'));
    write('deep/a/b/notes.md', 'Notes.\n');
    await setting('launchDirectory', 'fileFolder');
    await lens.model.selectAgent('claw-code');
    await open('deep/a/b/notes.md');
    await until(() => status().text === '$(book) claw-code · 11.2k / 12k chars', 'the claw-code budget at 93 %');
    assert.equal(background(), 'statusBarItem.warningBackground');
    assert.match(tooltip(), /11,169 chars \(93 % of 12k chars\)/);
  });

  it('says Codex\'s budget in binary units, as Codex counts it', async () => {
    await lens.model.selectAgent('codex');
    await open('packages/api/src/routes/orders.ts');
    // Codex's project_doc_max_bytes is 32 KiB (32,768 bytes); the fixture has no AGENTS.md.
    await until(() => status().text === '$(book) Codex CLI · 0 bytes / 32 KiB', 'the Codex budget');
    assert.match(tooltip(), /\(0 % of 32 KiB\)/);
  });

  it('clears when the last editor closes', async () => {
    await open('packages/api/src/routes/orders.ts');
    await until(() => lens.model.current, 'a chain');
    await closeEditors();
    await until(() => !lens.model.current, 'no chain');
    assert.deepEqual(treeRows(lens), [], 'the welcome view asks to open a file');
    assert.equal(lens.chainView.view.message, undefined);
  });
});
