import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { InstructionLensApi } from '../../src/extension';
import { api, closeEditors, open, restoreSetting, setting, sleep, until, ws } from './helpers';
import { screenshot } from './screenshot';

/** The CodeLenses of a file that show something. */
async function codeLenses(file: string): Promise<vscode.CodeLens[]> {
  // The command needs the document loaded, as it is once a user opens it.
  const { uri } = await vscode.workspace.openTextDocument(ws(file));
  const found = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 100);
  return found.filter((l) => l.command?.title);
}

/** The CodeLens titles of a file, each as `line: title`. */
async function lenses(file: string): Promise<string[]> {
  return (await codeLenses(file)).map((l) => `${l.range.start.line}: ${l.command!.title}`);
}

describe('CodeLens, links and hovers on instruction files', () => {
  let lens: InstructionLensApi;

  before(async () => {
    lens = await api();
    await lens.model.selectAgent('claude-code');
    // A fixed set of agents, so the counts below do not change as profiles are added.
    await setting('agents', ['claude-code', 'claw-code', 'codex']);
  });

  after(async () => {
    await restoreSetting('agents');
  });

  afterEach(async () => {
    await closeEditors();
    await setting('codeLens.enabled', undefined);
  });

  it('says what the root CLAUDE.md governs, when it loads, who reads it, and where its import leads', async () => {
    await open('CLAUDE.md');
    const titles = await until(async () => {
      const t = await lenses('CLAUDE.md');
      return t.length >= 2 && t;
    }, 'the lenses of CLAUDE.md');
    assert.deepEqual(titles, ['0: Claude Code, claw-code · loads at start · applies everywhere', '4: → docs/conventions.md · loaded']);
    // Every enabled agent, and what it does with the file.
    const [top] = await codeLenses('CLAUDE.md');
    assert.match(top.command!.tooltip!, /^Claude Code: loads at start, 69 chars, applies everywhere — .+\nclaw-code: loads at start, 69 chars, applies everywhere — .+\nCodex CLI: does not read it here\.\n\nClick to show it in the chain view\.$/);
    await sleep(500);
    await screenshot('codelens', { x: 0, y: 0, width: 1100, height: 360 });
  });

  it('shows the file in the chain view when clicked', async () => {
    await open('packages/api/CLAUDE.md');
    const [top] = await until(async () => {
      const found = await codeLenses('packages/api/CLAUDE.md');
      return found.length > 0 && found;
    }, 'the lens of packages/api/CLAUDE.md');
    await vscode.commands.executeCommand(top.command!.command, ...(top.command!.arguments ?? []));
    await until(() => lens.chainView.view.visible, 'the chain view');
    const selected = await until(() => lens.chainView.view.selection[0], 'a row selected');
    assert.equal(selected.type === 'source' && selected.source.path, ws('packages/api/CLAUDE.md'));
  });

  it('shows the scope of a nested file and of a path-scoped rule', async () => {
    assert.deepEqual(await lenses('packages/api/CLAUDE.md'), ['0: Claude Code · loads on read here · applies to packages/api/**']);
    assert.deepEqual(await lenses('packages/api/.claude/rules/tests.md'), ['0: Claude Code · loads on a matching read · applies to **/*.test.ts']);
  });

  it('marks an import that leads nowhere', async () => {
    const titles = await lenses('packages/lib/CLAUDE.md');
    // A no-break space, which the lens keeps after its icon.
    assert.ok(titles.includes('4: $(error)\u00a0not found: packages/lib/release-notes.md'), titles.join('\n'));
  });

  it('leaves the hover of an import that leads nowhere to its problem, which says it', async () => {
    const doc = await vscode.workspace.openTextDocument(ws('packages/lib/CLAUDE.md'));
    const at = new vscode.Position(4, 20);
    await until(() => vscode.languages.getDiagnostics(doc.uri).some((d) => d.range.contains(at)), 'the problem on the import');
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, at);
    const texts = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)));
    assert.equal(texts.filter((t) => t.startsWith('**Import**')).length, 0, texts.join('\n---\n'));
  });

  it('says when no enabled agent reads a file', async () => {
    // Claude Code skips an AGENTS.md beside a CLAUDE.md; claw-code and Codex (launched at the root) do not read it either.
    await until(async () => (await lenses('packages/web/AGENTS.md'))[0] === '0: $(circle-slash)\u00a0no enabled agent reads this file here', 'the lens on AGENTS.md');
  });

  it('links each followed import to its file and explains it on hover', async () => {
    const doc = await vscode.workspace.openTextDocument(ws('CLAUDE.md'));
    const links = await vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', doc.uri);
    const ours = links.filter((l) => l.target?.fsPath === ws('docs/conventions.md'));
    assert.equal(ours.length, 1);
    assert.equal(doc.getText(ours[0].range), '@docs/conventions.md');

    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, new vscode.Position(4, 20));
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.match(text, /docs\/conventions\.md/);
    assert.match(text, /\*\*Claude Code\*\* — loaded: Imported by CLAUDE\\\.md; loaded at start right after it\\\./);
  });

  it('goes away when turned off, and comes back', async () => {
    await until(async () => (await lenses('CLAUDE.md')).length > 0, 'lenses');
    await setting('codeLens.enabled', false);
    await until(async () => (await lenses('CLAUDE.md')).length === 0, 'no lenses');
    await setting('codeLens.enabled', true);
    await until(async () => (await lenses('CLAUDE.md')).length > 0, 'lenses again');
  });
});
