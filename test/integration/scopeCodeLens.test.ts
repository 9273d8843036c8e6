import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, closeEditors, open, setting, sleep, until, ws } from './helpers';
import { screenshot } from './screenshot';

/** The CodeLens titles of a file, each as `line: title`. */
async function lenses(file: string): Promise<string[]> {
  // The command needs the document loaded, as it is once a user opens it.
  const { uri } = await vscode.workspace.openTextDocument(ws(file));
  const found = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 100);
  return found.filter((l) => l.command?.title).map((l) => `${l.range.start.line}: ${l.command!.title}`);
}

describe('CodeLens, links and hovers on instruction files', () => {
  before(async () => {
    const lens = await api();
    await lens.model.selectAgent('claude-code');
    // A fixed set of agents, so the counts below do not change as profiles are added.
    await setting('agents', ['claude-code', 'claw-code', 'codex']);
  });

  after(async () => {
    await setting('agents', undefined);
  });

  afterEach(async () => {
    await closeEditors();
    await setting('codeLens.enabled', undefined);
  });

  it('says what the root CLAUDE.md governs, when it loads, who reads it, and where its import leads', async () => {
    await open('CLAUDE.md');
    const titles = await until(async () => {
      const t = await lenses('CLAUDE.md');
      return t.length >= 5 && t;
    }, 'the lenses of CLAUDE.md');
    assert.deepEqual(titles, [
      '0: applies everywhere',
      '0: loads at start',
      '0: read by Claude Code +1 · not by 1',
      '0: 69 chars',
      '4: → docs/conventions.md · loaded',
    ]);
    await sleep(500);
    await screenshot('codelens');
  });

  it('shows the scope of a nested file and of a path-scoped rule', async () => {
    assert.deepEqual((await lenses('packages/api/CLAUDE.md')).slice(0, 2), ['0: applies to packages/api/**', '0: loads when the agent reads a file here']);
    assert.deepEqual((await lenses('packages/api/.claude/rules/tests.md')).slice(0, 2), [
      '0: applies to files matching **/*.test.ts in packages/api',
      '0: loads when the agent reads a matching file',
    ]);
  });

  it('marks an import that leads nowhere', async () => {
    const titles = await lenses('packages/lib/CLAUDE.md');
    assert.ok(titles.includes('4: $(error) not found: packages/lib/release-notes.md'), titles.join('\n'));
  });

  it('says when no enabled agent reads a file', async () => {
    // Claude Code skips an AGENTS.md beside a CLAUDE.md; claw-code and Codex (launched at the root) do not read it either.
    await until(async () => (await lenses('packages/web/AGENTS.md'))[0] === '0: $(circle-slash) no enabled agent reads this file here', 'the lens on AGENTS.md');
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
