import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { InstructionLensApi } from '../../src/extension';
import { api, closeEditors, codeOf, diagnosticsOf, expectTree, open, remove, tooltipOf, treeRows, until, untilTree, workspaceDir, write, ORDERS_TREE } from './helpers';
import { screenshot } from './screenshot';

const root = path.dirname(workspaceDir);
const second = path.join(root, 'second');
const outside = path.join(root, 'outside', 'notes');

describe('multi-root workspaces and files outside the workspace', () => {
  let lens: InstructionLensApi;

  before(async () => {
    lens = await api();
    await lens.model.selectAgent('claude-code');
    write(path.join(second, 'CLAUDE.md'), 'Second project.\n\nSee @missing.md\n');
    write(path.join(second, 'src', 'main.ts'), 'export {};\n');
    write(path.join(outside, 'CLAUDE.md'), 'Notes rules.\n');
    write(path.join(outside, 'todo.md'), '- one\n');
  });

  after(async () => {
    await closeEditors();
    remove(path.join(root, 'outside'));
  });

  it('gives each folder its own launch dir and diagnostics', async () => {
    // The runner opens the suite in a two-folder workspace: the fixture and `second`.
    assert.equal(vscode.workspace.workspaceFolders?.length, 2);

    await open(path.join(second, 'src', 'main.ts'));
    await expectTree(lens, [
      'At start — 1 file',
      '  CLAUDE.md — loaded',
      'Not loaded — 1 file',
      '  missing.md — missing',
    ]);
    assert.equal(lens.chainView.view.message, 'Claude Code · main.ts, launched in second');
    await until(() => diagnosticsOf(path.join(second, 'CLAUDE.md')).some((d) => codeOf(d) === 'import-missing'), 'the second folder checked too');

    // The first folder still launches in its own root.
    await open('packages/api/src/routes/orders.ts');
    await until(() => lens.chainView.view.message === 'Claude Code · orders.ts, launched in workspace', 'the first folder\'s chain');
    assert.deepEqual(treeRows(lens).slice(0, 3), ORDERS_TREE.slice(0, 3));
    await screenshot('multi-root');
  });

  it('in a folder that holds a repository without being one, a file of the repository launches in the repository', async () => {
    // `second` is no git repository: an agent for its `tools` repository is started in `tools`.
    const repo = path.join(second, 'tools');
    write(path.join(repo, 'CLAUDE.md'), 'Tools.\n');
    write(path.join(repo, 'run.ts'), 'export {};\n');
    execFileSync('git', ['init', '-q'], { cwd: repo });
    try {
      await open(path.join(repo, 'run.ts'));
      await until(() => lens.model.current?.chain.target === path.join(repo, 'run.ts'), 'the chain of run.ts');
      assert.equal(lens.model.current?.chain.launchDir, repo);
      assert.equal(lens.chainView.view.message, 'Claude Code · run.ts, launched in second/tools');
    } finally {
      await closeEditors();
      remove(repo);
    }
  });

  it('launches in the folder of a file outside every workspace folder, and watches it', async () => {
    await open(path.join(outside, 'todo.md'));
    await expectTree(lens, ['At start — 1 file', '  CLAUDE.md — loaded']);
    assert.match(tooltipOf(lens, 'CLAUDE.md'), /- sent: 12 chars/);
    assert.equal(lens.model.current?.chain.launchDir, outside);

    write(path.join(outside, 'CLAUDE.local.md'), 'Private notes.\n');
    await untilTree(lens, (rows) => rows.includes('  CLAUDE.local.md — loaded'), 'the new CLAUDE.local.md next to the file');
    assert.match(tooltipOf(lens, 'CLAUDE.local.md'), /- share: 54% of the 26 chars loaded at start/);
  });
});
