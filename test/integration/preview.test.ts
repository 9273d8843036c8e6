import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { resolveChain } from '../../src/core/chain';
import { NodeFileSystem } from '../../src/core/fs';
import { CliGitIndex } from '../../src/core/git';
import { findProfile } from '../../src/core/profiles';
import type { InstructionLensApi } from '../../src/extension';
import { api, closeEditors, homeDir, open, sleep, until, workspaceDir, ws } from './helpers';
import { screenshot } from './screenshot';

const HEADING = /^──── (.*) ────$/;

/** The preview split into its sections: each heading line and the text under it. */
function sections(text: string): { heading: string; text: string }[] {
  const lines = text.split('\n');
  const out: { heading: string; text: string[] }[] = [];
  for (const line of lines) {
    const m = HEADING.exec(line);
    if (m) out.push({ heading: m[1], text: [] });
    else out[out.length - 1].text.push(line);
  }
  return out.map((s) => ({ heading: s.heading, text: s.text.join('\n') }));
}

/** What the core renders for the same file, agent, launch dir and home, without the extension. */
function coreParts(agent: string, file: string) {
  const fs = new NodeFileSystem();
  const chain = resolveChain({ profile: findProfile(agent)!, target: ws(file), launchDir: workspaceDir, home: homeDir, env: process.env }, { fs, git: new CliGitIndex(fs) });
  return [
    ...chain.start.map((p) => ({ loads: 'at start', ...p })),
    ...chain.onRead.map((p) => ({ loads: 'on read', ...p })),
  ];
}

/** The open preview of `agent`'s prompt. */
function previewDocument(agent = 'claude-code'): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'instruction-lens' && new URLSearchParams(d.uri.query).get('agent') === agent);
}

describe('the rendered prompt preview', () => {
  let lens: InstructionLensApi;

  before(async () => {
    lens = await api();
  });

  afterEach(async () => {
    await closeEditors();
    await lens.model.selectAgent('claude-code');
  });

  it('shows, part by part and verbatim, what Claude Code injects for the active file', async () => {
    await open('packages/api/src/routes/orders.test.ts');
    await vscode.commands.executeCommand('instructionLens.previewPrompt');
    const doc = await until(() => previewDocument(), 'the preview');
    // In the active editor group, its tab naming the file and the agent.
    await until(() => vscode.window.activeTextEditor?.document === doc, 'the preview to be the active editor');
    assert.equal(vscode.window.tabGroups.all.length, 1, 'no new editor group');
    assert.equal(vscode.window.tabGroups.activeTabGroup.activeTab?.label, 'orders.test.ts · Claude Code prompt');
    assert.equal(doc.languageId, 'markdown');

    const [title, ...parts] = sections(doc.getText());
    assert.equal(title.heading, 'Claude Code 2.1.332 · workspace/packages/api/src/routes/orders.test.ts · launched in workspace');
    const expected = coreParts('claude-code', 'packages/api/src/routes/orders.test.ts');
    assert.deepEqual(
      parts.map((p) => p.heading),
      ['at start · first user message', 'on read · after the tool result', 'on read · after the tool result'],
    );
    assert.deepEqual(parts.map((p) => p.text), expected.map((p) => p.text), 'each part is the core\'s text, verbatim');
    assert.match(parts[0].text, /^<system-reminder>\nCodebase and user instructions are shown below\./);
    assert.match(parts[2].text, /Tests use the in-memory database\./);
    await sleep(300);
    await screenshot('preview');
  });

  it('matches a known prompt exactly (claw-code)', async () => {
    await lens.model.selectAgent('claw-code');
    await open('packages/api/src/routes/orders.ts');
    await vscode.commands.executeCommand('instructionLens.previewPrompt');
    const doc = await until(() => previewDocument('claw-code'), 'the preview');
    await until(() => doc.getText().startsWith('──── claw-code'), 'the claw-code preview');
    assert.equal(
      doc.getText(),
      [
        '──── claw-code 6b533157 (spring 2026) · workspace/packages/api/src/routes/orders.ts · launched in workspace ────',
        '──── at start · system prompt ────',
        '# Claude instructions',
        '',
        `## CLAUDE.md (scope: ${workspaceDir})`,
        '',
        '# Shop',
        '',
        'Use pnpm for every script.',
        '',
        'Style guide: @docs/conventions.md',
        '──── on read · nothing more is injected when the agent reads this file ────',
      ].join('\n'),
    );
  });

  it('follows unsaved edits, and stays on its agent when another is selected', async () => {
    const editor = await open('CLAUDE.md');
    await vscode.commands.executeCommand('instructionLens.previewPrompt');
    const doc = await until(() => previewDocument(), 'the preview');
    await until(() => doc.getText().startsWith('──── Claude Code'), 'the Claude Code preview');

    const edit = new vscode.WorkspaceEdit();
    edit.insert(editor.document.uri, new vscode.Position(3, 0), 'Keep commits small.\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    // Taken out again at the end, whatever happens: the tests after this one read CLAUDE.md.
    const undo = new vscode.WorkspaceEdit();
    undo.delete(editor.document.uri, new vscode.Range(3, 0, 4, 0));
    await until(() => doc.getText().includes('Use pnpm for every script.\nKeep commits small.\n'), 'the unsaved line in the preview');

    // Its tab says Claude Code: selecting another agent does not change what it shows.
    await lens.model.selectAgent('claw-code');
    await sleep(300);
    assert.ok(doc.getText().startsWith('──── Claude Code'));
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('instructionLens.previewPrompt');
    const other = await until(() => previewDocument('claw-code'), 'the claw-code preview');
    assert.ok(other.getText().startsWith('──── claw-code'));
    assert.ok(await vscode.workspace.applyEdit(undo));
    assert.ok(!editor.document.getText().includes('Keep commits small.'));
  });

  it('compares two agents side by side', async () => {
    await open('packages/api/src/routes/orders.test.ts');
    await vscode.commands.executeCommand('instructionLens.compareAgents', 'claude-code', 'claw-code');
    const tab = await until(() => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputTextDiff && input;
    }, 'the diff');
    assert.equal(vscode.window.tabGroups.activeTabGroup.activeTab?.label, 'Claude Code ↔ claw-code (orders.test.ts)');
    const left = await vscode.workspace.openTextDocument(tab.original);
    const right = await vscode.workspace.openTextDocument(tab.modified);
    assert.deepEqual(sections(left.getText()).slice(1).map((s) => s.text), coreParts('claude-code', 'packages/api/src/routes/orders.test.ts').map((p) => p.text));
    assert.deepEqual(sections(right.getText()).slice(1, 2).map((s) => s.text), coreParts('claw-code', 'packages/api/src/routes/orders.test.ts').map((p) => p.text));
    await sleep(500);
    await screenshot('compare-agents');
  });
});
