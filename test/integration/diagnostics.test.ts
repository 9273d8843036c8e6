import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { api, closeEditors, codeOf, diagnosticsOf, open, remove, setting, sleep, until, write, ws } from './helpers';
import { screenshot } from './screenshot';

const LIB = 'packages/lib/CLAUDE.md';
const LIB_TEXT = '# Lib\n\nBefore changing anything, read @./stup.md first.\n\nRelease notes: @./release-notes.md\n\nRun `@./setup.md` once.\n';

/** This extension's diagnostics of a file as `line:column code`, sorted. */
function summary(file: string): string[] {
  return diagnosticsOf(file)
    .map((d) => `${d.range.start.line}:${d.range.start.character} ${codeOf(d)}`)
    .sort();
}

async function fixes(file: string, line: number): Promise<vscode.CodeAction[]> {
  const doc = await vscode.workspace.openTextDocument(ws(file));
  // The workbench learns of a new diagnostic a moment after the extension host: ask until it offers something.
  let found: vscode.CodeAction[] = [];
  for (const stop = Date.now() + 3000; !found.length && Date.now() < stop; await sleep(100)) {
    const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>('vscode.executeCodeActionProvider', doc.uri, doc.lineAt(line).range, vscode.CodeActionKind.QuickFix.value);
    found = actions.filter((a): a is vscode.CodeAction => 'kind' in a || 'edit' in a);
  }
  return found;
}

async function apply(action: vscode.CodeAction): Promise<void> {
  if (action.edit) assert.ok(await vscode.workspace.applyEdit(action.edit), `${action.title} applied`);
  if (action.command) await vscode.commands.executeCommand(action.command.command, ...(action.command.arguments ?? []));
}

describe('diagnostics and quick fixes', () => {
  before(async () => {
    await api();
  });

  afterEach(async () => {
    await closeEditors();
    write(LIB, LIB_TEXT);
    remove('packages/lib/release-notes.md');
    remove('fence');
    remove('big');
    remove('headless');
    await setting('diagnostics.disabledCodes', undefined);
    await setting('diagnostics.enabled', undefined);
  });

  it('reports broken imports in every instruction file of the workspace, linked to the rule', async () => {
    await until(() => summary(LIB).filter((s) => s.includes('import-')).length === 3, 'the import diagnostics of packages/lib/CLAUDE.md');
    assert.deepEqual(summary(LIB).filter((s) => s.includes('import-')), ['2:31 import-missing', '4:15 import-missing', '6:5 import-in-code']);
    const missing = diagnosticsOf(LIB).find((d) => d.range.start.line === 2)!;
    assert.equal(missing.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(missing.source, 'instruction-lens');
    // Claude Code and Copilot CLI both miss it: one diagnostic naming both, the path from the workspace folder.
    assert.equal(
      missing.message,
      'Claude Code, GitHub Copilot CLI: @./stup.md points to packages/lib/stup.md, which does not exist; the agent silently ignores it. Did you mean setup.md?',
    );
    const code = missing.code as { value: string; target: vscode.Uri };
    assert.equal(code.target.toString(true), 'https://github.com/instruction-lens/instruction-lens#import-missing');
    assert.equal(diagnosticsOf(LIB).find((d) => codeOf(d) === 'import-in-code')!.severity, vscode.DiagnosticSeverity.Information);
    // A file nobody opened is checked too: Claude Code does not read this AGENTS.md.
    assert.ok(summary('packages/web/AGENTS.md').includes('0:0 not-loaded'));
  });

  it('an import of a file just made outside the editor is found, though its folder was listed before', async function () {
    this.timeout(30_000);
    const dir = ws('packages/made');
    const claude = `${dir}/CLAUDE.md`;
    const missing = () => diagnosticsOf(claude).filter((d) => codeOf(d) === 'import-missing').map((d) => d.message);
    try {
      // A missing import: its nearest-file suggestion lists the folder, and that listing is kept.
      write(claude, 'Made here.\n\nSee @gone.md\n');
      await until(() => missing().length === 1, 'the missing import');
      await sleep(500);
      // A file no agent reads by its name is made, then imported: only the edit is an instruction file's.
      write(`${dir}/notes.md`, 'Notes.\n');
      write(claude, 'Made here.\n\nSee @notes.md\n');
      await until(() => missing().length === 0, 'the import of the new file found', 10_000).catch(() => assert.deepEqual(missing(), []));
    } finally {
      remove(dir);
    }
  });

  it('replaces a broken path with the nearest existing file', async () => {
    await until(() => summary(LIB).includes('2:31 import-missing'), 'the broken import');
    const editor = await open(LIB);
    editor.selection = new vscode.Selection(2, 34, 2, 34);
    await vscode.commands.executeCommand('editor.action.quickFix');
    await sleep(800);
    await screenshot('diagnostic-quick-fix');
    await vscode.commands.executeCommand('hideCodeActionWidget');

    const fix = (await fixes(LIB, 2)).find((a) => a.title === 'Change to @setup.md');
    assert.ok(fix, 'the quick fix is offered');
    assert.equal(fix.isPreferred, true);
    assert.equal(fs.readFileSync(ws(LIB), 'utf8'), LIB_TEXT, 'offering a fix changes nothing');
    await apply(fix);
    assert.equal(editor.document.lineAt(2).text, 'Before changing anything, read @setup.md first.');
    // Unsaved, yet the diagnostic goes: the agents would read the edited text once saved.
    await until(() => !summary(LIB).includes('2:31 import-missing'), 'the diagnostic to go');
    assert.deepEqual(summary(LIB).filter((s) => s.includes('import-')), ['4:15 import-missing', '6:5 import-in-code']);
  });

  it('creates a missing import target and opens it', async () => {
    await until(() => summary(LIB).includes('4:15 import-missing'), 'the missing import');
    const fix = (await fixes(LIB, 4)).find((a) => a.title === 'Create release-notes.md');
    assert.ok(fix, 'the quick fix is offered');
    await apply(fix);
    const file = ws('packages/lib/release-notes.md');
    assert.ok(fs.existsSync(file), 'the file exists');
    await until(() => vscode.window.activeTextEditor?.document.uri.fsPath === file, 'the new file to open');
    await until(() => !summary(LIB).includes('4:15 import-missing'), 'the diagnostic to go');
  });

  it('takes an import out of a code span', async () => {
    await until(() => summary(LIB).includes('6:5 import-in-code'), 'the import in code');
    const editor = await open(LIB);
    const fix = (await fixes(LIB, 6)).find((a) => a.title === 'Remove the backticks so the agent imports @./setup.md');
    assert.ok(fix, 'the quick fix is offered');
    await apply(fix);
    assert.equal(editor.document.lineAt(6).text, 'Run @./setup.md once.');
    await until(() => !summary(LIB).includes('6:5 import-in-code'), 'the diagnostic to go');
  });

  it('adds the opening line a rule\'s header lacks', async () => {
    const rule = 'headless/.claude/rules/api.md';
    write('headless/CLAUDE.md', '# Headless\n');
    write(rule, 'paths:\n  - "src/**"\n---\nValidate input.\n');
    await until(() => summary(rule).includes('0:0 frontmatter-invalid'), 'the header without its opening line');
    assert.match(diagnosticsOf(rule)[0].message, /Claude Code.*: The header has no opening "---" line, so it is read as text and its paths is ignored/);
    const fix = (await fixes(rule, 0)).find((a) => a.title === 'Add the opening "---" line');
    assert.ok(fix, 'the quick fix is offered');
    assert.equal(fix.isPreferred, true);
    await apply(fix);
    const editor = await open(rule);
    assert.equal(editor.document.getText(), '---\npaths:\n  - "src/**"\n---\nValidate input.\n');
    await editor.document.save();
    await until(() => !summary(rule).includes('0:0 frontmatter-invalid'), 'the diagnostic to go');
  });

  it('imports the AGENTS.md a GEMINI.md only names', async () => {
    write('pointer/AGENTS.md', '# Pointer\n\nRun the tests before a commit.\n');
    write('pointer/GEMINI.md', "See [AGENTS.md](./AGENTS.md) for the project's rules.\n");
    await until(() => summary('pointer/GEMINI.md').includes('0:5 not-loaded'), 'the name that loads nothing');
    assert.match(diagnosticsOf('pointer/GEMINI.md').find((d) => codeOf(d) === 'not-loaded')!.message, /^Gemini CLI never reads AGENTS\.md: this file only names it/);
    const fix = (await fixes('pointer/GEMINI.md', 0)).find((a) => a.title === 'Add @AGENTS.md to GEMINI.md');
    assert.ok(fix, 'the quick fix is offered');
    await apply(fix);
    const editor = await open('pointer/GEMINI.md');
    assert.equal(editor.document.getText(), "See [AGENTS.md](./AGENTS.md) for the project's rules.\n@AGENTS.md\n");
    await editor.document.save();
    await until(() => !summary('pointer/GEMINI.md').includes('0:5 not-loaded'), 'the diagnostic to go');
  });

  it('moves an import out of a fenced code block', async () => {
    write('fence/guide.md', 'Read the guide.\n');
    write('fence/CLAUDE.md', '# Fence\n\n```text\n@./guide.md\n```\n');
    await until(() => summary('fence/CLAUDE.md').includes('3:0 import-in-code'), 'the import in the code block');
    const editor = await open('fence/CLAUDE.md');
    const fix = (await fixes('fence/CLAUDE.md', 3)).find((a) => a.title === 'Move @./guide.md out of the code block so the agent imports it');
    assert.ok(fix, 'the quick fix is offered');
    await apply(fix);
    assert.equal(editor.document.getText(), '# Fence\n\n```text\n```\n@./guide.md\n');
    await until(() => !summary('fence/CLAUDE.md').includes('3:0 import-in-code'), 'the diagnostic to go');
  });

  it('selects what an agent cuts off a file over its budget', async () => {
    write('big/CLAUDE.md', 'x'.repeat(3990) + '\nThe last words.\n');
    await setting('launchDirectory', 'fileFolder');
    const lens = await api();
    await lens.model.selectAgent('claw-code');
    try {
      const editor = await open('big/CLAUDE.md');
      const cut = await until(() => diagnosticsOf('big/CLAUDE.md').find((d) => codeOf(d) === 'file-truncated'), 'the truncation');
      assert.deepEqual([cut.range.start.line, cut.range.start.character], [1, 9], 'claw-code keeps 4,000 characters: the cut falls in the last line');
      assert.match(cut.message, /^claw-code keeps the first 4,000 characters of this file; the last 6 characters, from here on, are dropped\.$/);
      const fix = (await fixes('big/CLAUDE.md', 1)).find((a) => a.title === 'Select the text the agent cuts off');
      assert.ok(fix, 'the quick fix is offered');
      await apply(fix);
      await until(() => editor.document.getText(vscode.window.activeTextEditor?.selection) === 'words.\n', 'the dropped text selected');
    } finally {
      await lens.model.selectAgent('claude-code');
      await setting('launchDirectory', undefined);
    }
  });

  it('honours the settings: codes turned off, and diagnostics off', async () => {
    await until(() => summary(LIB).includes('6:5 import-in-code'), 'the import in code');
    await setting('diagnostics.disabledCodes', ['import-in-code']);
    await until(() => !summary(LIB).includes('6:5 import-in-code'), 'import-in-code to go');
    assert.ok(summary(LIB).includes('2:31 import-missing'), 'other codes stay');
    await setting('diagnostics.enabled', false);
    await until(() => diagnosticsOf(LIB).length === 0, 'every diagnostic to go');
    await setting('diagnostics.enabled', undefined);
    await until(() => summary(LIB).includes('2:31 import-missing'), 'the diagnostics back');
  });
});
