import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { InstructionLensApi } from '../../src/extension';
import { api, closeEditors, showView, expectTree, homeDir, open, remove, treeItem, treeRows, until, untilTree, write, ws, ORDERS_TREE } from './helpers';
import { screenshot } from './screenshot';

describe('the chain view', () => {
  let lens: InstructionLensApi;

  before(async () => {
    lens = await api();
    await lens.model.selectAgent('claude-code');
  });

  afterEach(async () => {
    // Leave the fixture as it was, whatever a failing test left behind.
    await closeEditors();
    await lens.model.selectAgent('claude-code');
    remove('packages/api/src/CLAUDE.md');
    remove('AGENTS.md');
    remove(path.join(homeDir, '.claude'));
    write('CLAUDE.md', '# Shop\n\nUse pnpm for every script.\n\nStyle guide: @docs/conventions.md\n');
    write('docs/conventions.md', 'Prefer small, pure functions.\n');
  });

  it('shows what Claude Code loads for the active file, imports under their importer', async () => {
    await open('packages/api/src/routes/orders.ts');
    await expectTree(lens, ORDERS_TREE);
    const view = lens.chainView.view;
    assert.equal(view.title, 'Claude Code');
    assert.equal(view.description, '98 chars');
    assert.match(String(view.message), /^orders\.ts — launched in workspace/);

    const rule = treeItem(lens, 'packages/api/.claude/rules/tests.md')!;
    assert.equal((rule.iconPath as vscode.ThemeIcon).id, 'eye-closed');
    assert.match((rule.tooltip as vscode.MarkdownString).value, /do not match this file; it loads only when Claude Code reads a file they match/);
    assert.equal((treeItem(lens, 'CLAUDE.md')!.iconPath as vscode.ThemeIcon).id, 'pass');

    await showView(lens);
    await screenshot('sidebar');
  });

  it('follows the active editor: a test file brings in the rule its paths match', async () => {
    await open('packages/api/src/routes/orders.ts');
    await untilTree(lens, (rows) => rows.some((r) => r.includes('not matched')), 'the rule not matched');
    await open('packages/api/src/routes/orders.test.ts');
    await untilTree(lens, (rows) => rows.includes('  packages/api/.claude/rules/tests.md — 34 chars · on read · **/*.test.ts in packages/api'),
      'the rule to load on read',
    );
    assert.equal((treeItem(lens, 'packages/api/.claude/rules/tests.md')!.iconPath as vscode.ThemeIcon).id, 'clock');
  });

  it('opens a source where it is clicked', async () => {
    await open('packages/api/src/routes/orders.ts');
    const item = await until(() => treeItem(lens, 'docs/conventions.md'), 'docs/conventions.md in the tree');
    await vscode.commands.executeCommand(item.command!.command, ...(item.command!.arguments ?? []));
    await until(() => vscode.window.activeTextEditor?.document.uri.fsPath === ws('docs/conventions.md'), 'the import to open');
  });

  it('counts unsaved edits, then saved ones', async () => {
    const editor = await open('CLAUDE.md');
    await untilTree(lens, (rows) => rows[1]?.includes('69 chars'), 'the first size');
    await editor.edit((e) => e.insert(new vscode.Position(2, 0), 'Never commit secrets.\n'));
    await untilTree(lens, (rows) => rows[1]?.startsWith('  CLAUDE.md — 91 chars'), 'the unsaved text to count');
    assert.equal(fs.readFileSync(ws('CLAUDE.md'), 'utf8').includes('secrets'), false, 'nothing was saved yet');
    await editor.document.save();
    await until(() => fs.readFileSync(ws('CLAUDE.md'), 'utf8').includes('secrets'), 'the save');
    assert.match(treeRows(lens)[1], /91 chars/);
    // Restore the fixture, from the disk this time.
    write('CLAUDE.md', '# Shop\n\nUse pnpm for every script.\n\nStyle guide: @docs/conventions.md\n');
    await untilTree(lens, (rows) => rows[1]?.includes('69 chars'), 'the change on disk');
  });

  it('updates when instruction files are created and deleted on disk, inside and outside the workspace', async () => {
    await open('packages/api/src/routes/orders.ts');
    await untilTree(lens, (rows) => rows.length === 6, 'the initial tree');

    write('packages/api/src/CLAUDE.md', 'Routes return JSON.\n');
    await untilTree(lens, (rows) => rows.some((r) => r.startsWith('  packages/api/src/CLAUDE.md — 20 chars · on read · packages/api/src/**')), 'the new nested CLAUDE.md');

    // The user's own file lives outside the workspace (instructionLens.home = ../home).
    write(path.join(homeDir, '.claude', 'CLAUDE.md'), 'Answer in English.\n');
    await untilTree(lens, (rows) => rows[1]?.startsWith('  ~/.claude/CLAUDE.md — 18 chars'), 'the user file first in the chain');

    remove('packages/api/src/CLAUDE.md');
    remove(path.join(homeDir, '.claude'));
    await expectTree(lens, ORDERS_TREE, 'the tree after the deletions');
  });

  it('notices an edit to an imported file', async () => {
    await open('packages/api/src/routes/orders.ts');
    await untilTree(lens, (rows) => rows[2]?.includes('29 chars'), 'the import');
    write('docs/conventions.md', 'Prefer small, pure functions. Name them well.\n');
    await untilTree(lens, (rows) => rows[2]?.includes('45 chars'), 'the new size of the import');
    write('docs/conventions.md', 'Prefer small, pure functions.\n');
    await untilTree(lens, (rows) => rows[2]?.includes('29 chars'), 'the size back');
  });

  it('switches agent from the quick pick and remembers it', async () => {
    await open('packages/api/src/routes/orders.ts');
    await until(() => lens.chainView.view.title === 'Claude Code' && lens.chainView.view.description === '98 chars', 'Claude Code selected');
    const picked = vscode.commands.executeCommand('instructionLens.selectAgent');
    await sleepForQuickPick();
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await picked;
    assert.equal(lens.model.profile.id, 'claw-code');
    await expectTree(lens, ['At start — 1 file', '  CLAUDE.md — 69 chars · 1% · loaded · everywhere']);
    assert.equal(lens.chainView.view.title, 'claw-code');
    assert.equal(lens.chainView.view.description, '69 / 12.0k chars');
  });

  it('models Copilot in VS Code with this window\'s own chat settings', async () => {
    await lens.model.selectAgent('copilot');
    await open('packages/api/src/routes/orders.ts');
    await untilTree(lens, (rows) => rows.includes('  CLAUDE.md — 69 chars · 100% · loaded · everywhere'), 'Copilot to attach CLAUDE.md');
    const chat = vscode.workspace.getConfiguration('chat');
    await chat.update('useClaudeMdFile', false, vscode.ConfigurationTarget.Workspace);
    try {
      await untilTree(lens, (rows) => !rows.some((r) => r.includes('CLAUDE.md — 69 chars')), 'CLAUDE.md to drop out once chat.useClaudeMdFile is off');
    } finally {
      await chat.update('useClaudeMdFile', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  it('offers to create the agent\'s main file when none applies, and never overwrites', async () => {
    await lens.model.selectAgent('codex');
    await open('packages/api/src/routes/orders.ts');
    await until(() => lens.model.current?.profile.id === 'codex', 'Codex selected');
    assert.deepEqual(treeRows(lens), [], 'Codex reads no file here, so the welcome view shows');
    assert.equal(lens.chainView.view.message, undefined, 'a message would hide the welcome view');
    await showView(lens);
    await screenshot('sidebar-welcome');

    const created = vscode.commands.executeCommand('instructionLens.createInstructionFile');
    await sleepForQuickPick();
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await created;
    const file = ws('AGENTS.md');
    await until(() => vscode.window.activeTextEditor?.document.uri.fsPath === file, 'AGENTS.md to open');
    assert.equal(fs.readFileSync(file, 'utf8'), '', 'created empty');

    const editor = vscode.window.activeTextEditor!;
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), 'Run the linter.\n'));
    await untilTree(lens, (rows) => rows.some((r) => r.startsWith('  AGENTS.md — 16 bytes')), 'Codex to load the unsaved AGENTS.md');

    // Asking again opens the file as it is: nothing is written.
    const again = vscode.commands.executeCommand('instructionLens.createInstructionFile');
    await sleepForQuickPick();
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await again;
    assert.equal(vscode.window.activeTextEditor?.document.getText(), 'Run the linter.\n');
    assert.equal(fs.readFileSync(file, 'utf8'), '');

    await closeEditors();
    remove(file);
    await untilTree(lens, (rows) => rows.length === 0, 'AGENTS.md gone');
  });
});

/** Quick picks open asynchronously; give the workbench a moment to show one. */
function sleepForQuickPick(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 400));
}
