import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { InstructionLensApi } from '../../src/extension';
import { PROFILES } from '../../src/core/profiles';
import { DEFAULTS, SECTION } from '../../src/vscode/settings';
import { api, closeEditors, showView, expectTree, homeDir, open, remove, sleep, tooltipOf, treeItem, treeRows, until, untilTree, write, ws, ORDERS_TREE } from './helpers';
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
    assert.equal(view.description, '98 chars');
    assert.match(String(view.message), /^Claude Code · orders\.ts, launched in workspace/);

    const rule = treeItem(lens, 'tests.md')!;
    assert.equal((rule.iconPath as vscode.ThemeIcon).id, 'eye-closed');
    assert.match(tooltipOf(lens, 'tests.md'), /do not match this file; it loads only when Claude Code reads a file they match/);
    assert.match(tooltipOf(lens, 'tests.md'), /^\*\*packages\/api\/\.claude\/rules\/tests\.md\*\* — not matched\n/, 'the whole path in the tooltip');
    assert.equal((treeItem(lens, 'CLAUDE.md')!.iconPath as vscode.ThemeIcon).id, 'pass');
    // The share says what it is a share of.
    assert.match(tooltipOf(lens, 'CLAUDE.md'), /- sent: 69 chars\n- on disk: 70 chars, 70 bytes\n- share: 70% of the 98 chars loaded at start \(Claude Code sets no limit\)/);
    assert.doesNotMatch(tooltipOf(lens, 'tests.md'), /loads: at start/, 'a file that does not load is not said to load at start');

    await showView(lens);
    await screenshot('sidebar', { x: 0, y: 0, width: 1000, height: 480 });
  });

  it('follows the active editor: a test file brings in the rule its paths match', async () => {
    await open('packages/api/src/routes/orders.ts');
    await untilTree(lens, (rows) => rows.some((r) => r.includes('not matched')), 'the rule not matched');
    await open('packages/api/src/routes/orders.test.ts');
    await untilTree(lens, (rows) => rows.includes('  tests.md — on read'), 'the rule to load on read');
    assert.equal((treeItem(lens, 'tests.md')!.iconPath as vscode.ThemeIcon).id, 'clock');
    assert.match(tooltipOf(lens, 'tests.md'), /- applies to: \*\*\/\*\.test\.ts in packages\/api\n- sent: 34 chars\n- on disk: 68 chars/);
  });

  it('asks for the chain of a file as it opens, and shows it with its editor without asking again', async () => {
    const file = ws(`packages/api/src/routes/opened${Date.now()}.ts`);
    // The file's creation reaches the extension's watcher (the folder's `**/*`) in the same
    // delivery as this one's; a late delivery (over a second under load) would resolve the chains
    // again after they settled.
    const created = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.workspace.workspaceFolders![0], '**/*'), false, true, true);
    let delivered = false;
    created.onDidCreate((uri) => (delivered ||= uri.fsPath === file));
    write(file, 'export {};\n');
    try {
      await open('packages/api/src/routes/orders.ts');
      await until(() => delivered, 'the file\'s creation delivered', 15_000);
      const asked = chainsAsked(lens);
      // The fixture put back after the test before reaches the chains first.
      await until(() => lens.model.current?.uri.fsPath === ws('packages/api/src/routes/orders.ts') && performance.now() - asked.last > 1000, 'the chains to settle', 15_000);
      asked.length = 0;
      const doc = await vscode.workspace.openTextDocument(file);
      await until(() => asked.length, 'its chain asked as it opened');
      await asked[0];
      await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.One });
      await until(() => lens.model.current?.uri.fsPath === file, 'the chain to follow the editor');
      await expectTree(lens, ORDERS_TREE);
      assert.equal(asked.length, 1, 'the editor shown, its chain was not asked again');
    } finally {
      created.dispose();
      Reflect.deleteProperty(lens.model.worker, 'chain');
      remove(file);
    }
  });

  it('does not keep a chain asked as its file opened once the disk changed', async () => {
    const file = ws(`packages/api/src/routes/changed${Date.now()}.ts`);
    write(file, 'export {};\n');
    try {
      await open('packages/api/src/routes/orders.ts');
      await until(() => lens.model.current?.uri.fsPath === ws('packages/api/src/routes/orders.ts'), 'the first file');
      const asked = chainsAsked(lens);
      const doc = await vscode.workspace.openTextDocument(file);
      await until(() => asked.length, 'its chain asked as it opened');
      await asked[0];
      write('packages/api/src/routes/CLAUDE.md', 'Routes return JSON.\n');
      // The change resolves the active chain again.
      await until(() => asked.length > 1, 'the change to reach the chains');
      await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.One });
      await untilTree(lens, (rows) => lens.model.current?.uri.fsPath === file && rows.includes('  CLAUDE.md — on read · routes'), 'the new CLAUDE.md in the chain shown');
    } finally {
      Reflect.deleteProperty(lens.model.worker, 'chain');
      remove(file);
      remove('packages/api/src/routes/CLAUDE.md');
    }
  });

  it('opens a source where it is clicked', async () => {
    await open('packages/api/src/routes/orders.ts');
    const item = await until(() => treeItem(lens, 'conventions.md'), 'docs/conventions.md in the tree');
    await vscode.commands.executeCommand(item.command!.command, ...(item.command!.arguments ?? []));
    await until(() => vscode.window.activeTextEditor?.document.uri.fsPath === ws('docs/conventions.md'), 'the import to open');
  });

  it('counts unsaved edits, then saved ones', async () => {
    const editor = await open('CLAUDE.md');
    const size = () => /- sent: (\d+ chars)/.exec(tooltipOf(lens, 'CLAUDE.md'))?.[1];
    await until(() => size() === '69 chars', 'the first size');
    await editor.edit((e) => e.insert(new vscode.Position(2, 0), 'Never commit secrets.\n'));
    await until(() => size() === '91 chars', 'the unsaved text to count');
    assert.equal(fs.readFileSync(ws('CLAUDE.md'), 'utf8').includes('secrets'), false, 'nothing was saved yet');
    await editor.document.save();
    await until(() => fs.readFileSync(ws('CLAUDE.md'), 'utf8').includes('secrets'), 'the save');
    assert.equal(size(), '91 chars');
    // Restore the fixture, from the disk this time.
    write('CLAUDE.md', '# Shop\n\nUse pnpm for every script.\n\nStyle guide: @docs/conventions.md\n');
    await until(() => size() === '69 chars', 'the change on disk');
  });

  it('updates when instruction files are created and deleted on disk, inside and outside the workspace', async () => {
    await open('packages/api/src/routes/orders.ts');
    await untilTree(lens, (rows) => rows.length === ORDERS_TREE.length, 'the initial tree');

    write('packages/api/src/CLAUDE.md', 'Routes return JSON.\n');
    await untilTree(lens, (rows) => rows.includes('  CLAUDE.md — on read · src'), 'the new nested CLAUDE.md');
    assert.match(tooltipOf(lens, 'CLAUDE.md — on read · src'), /^\*\*packages\/api\/src\/CLAUDE\.md\*\* — on read\n[^]*- sent: 20 chars/);

    // The user's own file lives outside the workspace (instructionLens.home = ../home).
    write(path.join(homeDir, '.claude', 'CLAUDE.md'), 'Answer in English.\n');
    await untilTree(lens, (rows) => rows[1] === '  CLAUDE.md — loaded · ~/.claude', 'the user file first in the chain');

    remove('packages/api/src/CLAUDE.md');
    remove(path.join(homeDir, '.claude'));
    await expectTree(lens, ORDERS_TREE, 'the tree after the deletions');

    // The folder first, its file after the watcher's next poll: a missing path is looked at again
    // when its nearest existing folder changes, and that folder is now the new one.
    fs.mkdirSync(path.join(homeDir, '.claude'));
    await sleep(1500);
    write(path.join(homeDir, '.claude', 'CLAUDE.md'), 'Answer in English.\n');
    await untilTree(lens, (rows) => rows[1] === '  CLAUDE.md — loaded · ~/.claude', 'the user file made in a folder made before it');
    remove(path.join(homeDir, '.claude'));
    await expectTree(lens, ORDERS_TREE, 'the tree after the deletion');
  });

  it('notices an edit to an imported file', async () => {
    await open('packages/api/src/routes/orders.ts');
    const sent = () => /- sent: (\d+ chars)/.exec(tooltipOf(lens, 'conventions.md'))?.[1];
    await until(() => sent() === '29 chars', 'the import');
    write('docs/conventions.md', 'Prefer small, pure functions. Name them well.\n');
    await until(() => sent() === '45 chars', 'the new size of the import');
    write('docs/conventions.md', 'Prefer small, pure functions.\n');
    await until(() => sent() === '29 chars', 'the size back');
  });

  it('redraws its rows only when one changed, its tooltip included', async () => {
    await open('packages/api/src/routes/orders.ts');
    await expectTree(lens, ORDERS_TREE);
    let told = 0;
    const counting = lens.chainView.provider.onDidChangeTreeData(() => told++);
    try {
      // The same chain resolved again: every row as it was, nothing for the workbench to fetch.
      const again = new Promise<void>((resolve) => {
        const once = lens.model.onDidChange(() => (once.dispose(), resolve()));
      });
      await vscode.commands.executeCommand('instructionLens.refresh');
      await again;
      assert.equal(told, 0, 'an unchanged chain redrew the view');
      // An import grows: its row reads the same, its tooltip does not.
      write('docs/conventions.md', 'Prefer small, pure functions. Name them well.\n');
      await until(() => /- sent: 45 chars/.test(tooltipOf(lens, 'conventions.md')), 'the new size of the import');
      assert.ok(told > 0, 'the view kept the old tooltip');
    } finally {
      counting.dispose();
    }
  });

  it('switches agent from the quick pick and remembers it', async () => {
    await open('packages/api/src/routes/orders.ts');
    await until(() => String(lens.chainView.view.message).startsWith('Claude Code · ') && lens.chainView.view.description === '98 chars', 'Claude Code selected');
    const picked = vscode.commands.executeCommand('instructionLens.selectAgent');
    await sleepForQuickPick();
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await picked;
    assert.equal(lens.model.profile.id, 'claw-code');
    await expectTree(lens, ['At start — 1 file', '  CLAUDE.md — loaded']);
    assert.match(tooltipOf(lens, 'CLAUDE.md'), /- share: 1% of claw-code's limit of 12k chars/);
    assert.match(String(lens.chainView.view.message), /^claw-code · orders\.ts/);
    assert.equal(lens.chainView.view.description, '69 / 12.0k chars');
  });

  it('models Copilot in VS Code with this window\'s own chat settings', async () => {
    await lens.model.selectAgent('copilot');
    await open('packages/api/src/routes/orders.ts');
    await untilTree(lens, (rows) => rows.includes('  CLAUDE.md — loaded'), 'Copilot to attach CLAUDE.md');
    const chat = vscode.workspace.getConfiguration('chat');
    await chat.update('useClaudeMdFile', false, vscode.ConfigurationTarget.Workspace);
    try {
      await untilTree(lens, (rows) => !rows.includes('  CLAUDE.md — loaded'), 'CLAUDE.md to drop out once chat.useClaudeMdFile is off');
    } finally {
      await chat.update('useClaudeMdFile', undefined, vscode.ConfigurationTarget.Workspace);
    }
    // An object setting: the folders Copilot lists instruction files from.
    await chat.update('instructionsFilesLocations', { 'packages/api/.claude/rules': true }, vscode.ConfigurationTarget.Workspace);
    try {
      await untilTree(lens, (rows) => rows.some((row) => row.includes('tests.md')), 'the rules folder named in chat.instructionsFilesLocations to be listed');
    } finally {
      await chat.update('instructionsFilesLocations', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  it('reads its settings and the chat settings as VS Code expects: no warning of theirs in the extension host\'s log', async () => {
    // After the chains and checks above have read every setting, Copilot's chat settings among
    // them. VS Code logs a warning for each read of a window-scoped setting for a resource.
    await lens.model.selectAgent('copilot');
    const editor = await open('packages/api/src/routes/orders.ts');
    await untilTree(lens, (rows) => rows.includes('  CLAUDE.md — loaded'), 'Copilot\'s chain');
    const ours = [...PROFILES.flatMap((p) => p.editorSettings ?? []), ...Object.keys(DEFAULTS).map((k) => `${SECTION}.${k}`)];
    const folder = path.dirname(lens.logUri.fsPath);
    const warnings = () =>
      fs.readdirSync(folder).filter((f) => f.endsWith('.log')).flatMap((f) => fs.readFileSync(path.join(folder, f), 'utf8').split('\n')).filter((line) => /Accessing a \w+ scoped configuration/.test(line) && ours.some((key) => line.includes(`'${key}'`)));
    // One such read here, as a marker: the log holds the warnings by the time it holds this one.
    void vscode.workspace.getConfiguration(SECTION, editor.document.uri).get('codeLens.enabled');
    const seen = await until(() => (warnings().some((line) => line.includes(`'${SECTION}.codeLens.enabled'`)) ? warnings() : undefined), 'the marker\'s warning in the extension host\'s log', 15_000);
    assert.deepEqual(
      seen.map((line) => line.match(/'([^']+)'/)?.[1]),
      [`${SECTION}.codeLens.enabled`],
      `only the marker's warning:\n${seen.join('\n')}`,
    );
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
    await untilTree(lens, (rows) => rows.includes('  AGENTS.md — loaded') && tooltipOf(lens, 'AGENTS.md').includes('- sent: 16 bytes'), 'Codex to load the unsaved AGENTS.md');

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

/** The answers of every chain asked of the worker from now on, in order, and when the last was asked (until its `chain` property is deleted). */
function chainsAsked(lens: InstructionLensApi): Promise<unknown>[] & { last: number } {
  const asked = Object.assign([] as Promise<unknown>[], { last: performance.now() });
  const worker = lens.model.worker;
  const chain = worker.chain.bind(worker);
  worker.chain = (job) => {
    const answer = chain(job);
    asked.push(answer);
    asked.last = performance.now();
    return answer;
  };
  return asked;
}

/** Quick picks open asynchronously; give the workbench a moment to show one. */
function sleepForQuickPick(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 400));
}
