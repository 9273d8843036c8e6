import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'jsonc-parser/lib/esm/main.js';
import * as vscode from 'vscode';
import { api, closeEditors, codeOf, restoreSetting, setting, sleep, until, workspaceDir } from './helpers';

/**
 * A monorepo set up the way real ones are: a root CLAUDE.md that is `@AGENTS.md`, packages whose
 * CLAUDE.md is a symlink to their AGENTS.md, npm scopes and CSS at-rules in code spans, a
 * 5,000-character AGENTS.md, a skill shared through a committed folder symlink. None of that is a
 * problem. A broken import and a nested AGENTS.md that Claude Code skips are, once each; and since
 * Copilot is used here too, so is the root AGENTS.md that Copilot CLI sends twice.
 */
const root = path.resolve(workspaceDir, '..', 'monorepo');

const AGENTS = [
  '# Monorepo',
  '',
  'Install with `npm i @scope/pkg`; styles use `@apply` and `@media (min-width: 40rem)`.',
  'The release checklist: @docs/release.md',
  '',
  '## Conventions',
  '',
].join('\n');

function files(): Record<string, string> {
  const pad = 'Keep functions small and name them for what they do.\n';
  let agents = AGENTS;
  while (agents.length + pad.length <= 5000) agents += pad;
  agents += 'x'.repeat(5000 - agents.length);
  return {
    'CLAUDE.md': '@AGENTS.md\n',
    'AGENTS.md': agents,
    'packages/api/AGENTS.md': '# API\n\nValidate input with `@Body()` decorators.\n',
    'packages/api/src/server.ts': 'export {};\n',
    'packages/web/AGENTS.md': '# Web\n\nUse `@tailwind base` once.\n',
    'packages/web/src/app.ts': 'export {};\n',
    'packages/legacy/AGENTS.md': '# Legacy\n\nDo not add features here.\n',
    'packages/legacy/index.ts': 'export {};\n',
    '.agents/skills/deploy/SKILL.md': '---\nname: deploy\ndescription: Deploy the app\n---\nSteps.\n',
    // Copilot is used here too: Copilot CLI sends the root AGENTS.md twice (its own block, and inside CLAUDE.md).
    '.github/copilot-instructions.md': 'Use strict TypeScript.\n',
  };
}

function build(): void {
  fs.rmSync(root, { recursive: true, force: true });
  for (const [rel, text] of Object.entries(files())) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  fs.symlinkSync('AGENTS.md', path.join(root, 'packages/api/CLAUDE.md'));
  fs.symlinkSync('AGENTS.md', path.join(root, 'packages/web/CLAUDE.md'));
  fs.mkdirSync(path.join(root, '.claude/skills'), { recursive: true });
  fs.symlinkSync('../../.agents/skills/deploy', path.join(root, '.claude/skills/deploy'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'init');
}

/** This extension's diagnostics under the monorepo, as `severity path:line code`. */
function problems(): string[] {
  return vscode.languages
    .getDiagnostics()
    .filter(([uri]) => uri.fsPath.startsWith(root + path.sep))
    .flatMap(([uri, ds]) =>
      ds.filter((d) => d.source === 'instruction-lens').map((d) => `${vscode.DiagnosticSeverity[d.severity]} ${path.relative(root, uri.fsPath)}:${d.range.start.line + 1} ${codeOf(d)}`),
    )
    .sort();
}

function messageAt(rel: string, code: string): string | undefined {
  return vscode.languages.getDiagnostics(vscode.Uri.file(path.join(root, rel))).find((d) => codeOf(d) === code)?.message;
}

/**
 * Whether the window's workspace file lists `folder` (undefined without a workspace file). VS Code
 * announces a folder added or removed before it writes the file; a setting written in between
 * races that write and VS Code can keep the old value, so each test waits for the file.
 */
function workspaceFileNames(folder: string): boolean | undefined {
  const file = vscode.workspace.workspaceFile;
  if (file?.scheme !== 'file') return undefined;
  const folders = (parse(fs.readFileSync(file.fsPath, 'utf8')) as { folders?: { path?: string }[] } | undefined)?.folders ?? [];
  return folders.some((f) => f.path !== undefined && path.resolve(path.dirname(file.fsPath), f.path) === folder);
}

describe('a monorepo as real ones are set up', () => {
  before(async function () {
    this.timeout(60_000);
    const lens = await api();
    build();
    await setting('agents', 'auto');
    const index = vscode.workspace.workspaceFolders?.length ?? 0;
    assert.ok(vscode.workspace.updateWorkspaceFolders(index, 0, { uri: vscode.Uri.file(root), name: 'monorepo' }), 'the folder is added');
    await until(() => vscode.workspace.workspaceFolders?.some((f) => f.uri.fsPath === root), 'the monorepo folder');
    await until(() => workspaceFileNames(root) !== false, 'the workspace file to list the monorepo folder');
    await lens.detection.ready();
  });

  after(async function () {
    this.timeout(30_000);
    await closeEditors();
    // One write to the workspace file at a time (see `setting`): the window's agents back first, then the folder.
    await restoreSetting('agents');
    const index = vscode.workspace.workspaceFolders?.findIndex((f) => f.uri.fsPath === root) ?? -1;
    if (index >= 0) vscode.workspace.updateWorkspaceFolders(index, 1);
    await until(() => !vscode.workspace.workspaceFolders?.some((f) => f.uri.fsPath === root), 'the monorepo folder to go');
    await until(() => workspaceFileNames(root) !== true, 'the workspace file to drop the monorepo folder');
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('detects the agents from the repository: Claude Code, Codex and Copilot, not claw-code, CAR or hosted sessions', async () => {
    const lens = await api();
    // Once git has listed the folder and the machine's look-up is over: until then detection
    // answers from nothing found yet.
    await lens.detection.ready();
    const used = lens.detection.detections(vscode.Uri.file(root)).filter((d) => d.used);
    const ids = used.map((d) => d.profile.id);
    for (const on of ['claude-code', 'codex', 'copilot-cli', 'copilot']) assert.ok(ids.includes(on), `${on} is used: ${ids.join(', ')}`);
    for (const off of ['claw-code', 'claw-code@head', 'car', 'scaling']) assert.ok(!ids.includes(off), `${off} is off`);
    assert.ok(used.find((d) => d.profile.id === 'claude-code')!.evidence.some((e) => e === 'CLAUDE.md' || e.startsWith('.claude/')));
    // And the machine's, looked up on the worker thread at the start: Codex's folder in the agents' home (scripts/runIntegrationTests.mjs).
    assert.deepEqual(used.find((d) => d.profile.id === 'codex')!.evidence.slice(-1), ['~/.codex']);
  });

  it('reports only the broken import, the AGENTS.md Claude Code skips and the AGENTS.md Copilot CLI sends twice, once each, naming the agents', async () => {
    const expected = ['Error AGENTS.md:4 import-missing', 'Information CLAUDE.md:1 duplicate-injection', 'Information packages/legacy/AGENTS.md:1 not-loaded'];
    const visible = () => problems().filter((p) => !p.startsWith('Hint'));
    await until(() => JSON.stringify(visible()) === JSON.stringify(expected), 'exactly the three problems').catch(() => assert.deepEqual(visible(), expected));
    // Settle: nothing more arrives (the machine's look-up, a second check).
    await sleep(1000);
    assert.deepEqual(visible(), expected);
    assert.equal(messageAt('AGENTS.md', 'import-missing'), 'Claude Code, GitHub Copilot CLI: @docs/release.md points to docs/release.md, which does not exist; the agent silently ignores it.');
    assert.match(messageAt('CLAUDE.md', 'duplicate-injection')!, /^Copilot CLI sends AGENTS\.md twice: as its own block at start, and again inlined into CLAUDE\.md by its @AGENTS\.md\./);
    assert.equal(
      messageAt('packages/legacy/AGENTS.md', 'not-loaded'),
      'Claude Code never reads this AGENTS.md: it skips AGENTS.md files when a CLAUDE.md exists higher up; to load it, create a CLAUDE.md beside it containing "@AGENTS.md".',
    );
    // Codex not loading the packages' AGENTS.md below the launch folder is by design: hints only.
    assert.ok(problems().filter((p) => p.startsWith('Hint')).every((p) => p.endsWith(' not-loaded')));
  });

  it('applies the advice as a quick fix, and Claude Code then loads the AGENTS.md', async () => {
    const lens = await api();
    const legacy = vscode.Uri.file(path.join(root, 'packages/legacy/AGENTS.md'));
    const doc = await vscode.workspace.openTextDocument(legacy);
    let fix: vscode.CodeAction | undefined;
    await until(async () => {
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', legacy, doc.lineAt(0).range, vscode.CodeActionKind.QuickFix.value);
      fix = actions.find((a) => a.title === 'Create CLAUDE.md with @AGENTS.md');
      return fix;
    }, 'the quick fix');
    assert.ok(await vscode.workspace.applyEdit(fix!.edit!), 'applied');
    const claudeMd = vscode.Uri.file(path.join(root, 'packages/legacy/CLAUDE.md'));
    // The new file opens with the line in it; the user saves it.
    await (await vscode.workspace.openTextDocument(claudeMd)).save();
    assert.equal(fs.readFileSync(claudeMd.fsPath, 'utf8'), '@AGENTS.md\n');
    await until(() => !problems().includes('Information packages/legacy/AGENTS.md:1 not-loaded'), 'the problem to go');
    await lens.model.selectAgent('claude-code');
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(root, 'packages/legacy/index.ts')));
    const statusOf = () => lens.model.current?.chain.sources.filter((s) => s.path.startsWith(path.join(root, 'packages/legacy'))).map((s) => `${s.status} ${path.relative(root, s.path)}`);
    await until(() => JSON.stringify(statusOf()) === JSON.stringify(['on-read packages/legacy/CLAUDE.md', 'on-read packages/legacy/AGENTS.md']), 'the chain to load it').catch(() =>
      assert.deepEqual(statusOf(), ['on-read packages/legacy/CLAUDE.md', 'on-read packages/legacy/AGENTS.md']),
    );
    // Loaded on read only: the budget says so rather than "0 used".
    assert.ok((lens.model.current?.chain.budget.onRead ?? 0) > 0);
  });

  it('shows a problem read through a link at the file the link leads to, and follows the link when it is changed', async function () {
    // Two re-checks after the watcher's debounce, each up to `until`'s 8 s: near mocha's 20 s under load.
    this.timeout(40_000);
    const lens = await api();
    await lens.model.selectAgent('claude-code');
    const link = path.join(root, 'packages/api/CLAUDE.md');
    const relink = (to: string) => {
      fs.rmSync(link);
      fs.symlinkSync(to, link);
    };
    fs.writeFileSync(path.join(root, 'packages/api/RULES.md'), '# API rules\n\n@gone.md\n');
    fs.writeFileSync(path.join(root, 'packages/api/OTHER.md'), '# Other rules\n@also-gone.md\n');
    // The active chain's problems as well as the workspace's.
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(root, 'packages/api/src/server.ts')));
    const at = () => problems().filter((p) => p.includes('packages/api/') && !p.startsWith('Hint'));
    try {
      // Claude Code now skips the AGENTS.md beside it, which its CLAUDE.md no longer is.
      const skipped = 'Information packages/api/AGENTS.md:1 not-loaded';
      relink('RULES.md');
      const first = ['Error packages/api/RULES.md:3 import-missing', skipped];
      await until(() => JSON.stringify(at()) === JSON.stringify(first), 'the problem at the file the link leads to').catch(() => assert.deepEqual(at(), first));
      relink('OTHER.md');
      const then = ['Error packages/api/OTHER.md:2 import-missing', skipped];
      await until(() => JSON.stringify(at()) === JSON.stringify(then), 'the problem at the file the link leads to now').catch(() => assert.deepEqual(at(), then));
      // And switching editors away and back publishes the chain's problems where the link leads now.
      await vscode.window.showTextDocument(vscode.Uri.file(path.join(root, 'packages/web/src/app.ts')));
      await vscode.window.showTextDocument(vscode.Uri.file(path.join(root, 'packages/api/src/server.ts')));
      await sleep(500);
      assert.deepEqual(at(), then);
    } finally {
      relink('AGENTS.md');
      fs.rmSync(path.join(root, 'packages/api/RULES.md'));
      fs.rmSync(path.join(root, 'packages/api/OTHER.md'));
    }
    await until(() => !at().length, 'no problem once the link leads back');
  });

  it('follows the files that show an agent: a GEMINI.md made in the repository enables Gemini CLI, and deleting it disables it', async () => {
    const lens = await api();
    const used = () => lens.detection.detections(vscode.Uri.file(root)).find((d) => d.profile.id === 'gemini-cli')?.used;
    assert.equal(used(), false);
    const file = path.join(root, 'GEMINI.md');
    fs.writeFileSync(file, 'Gemini rules.\n');
    try {
      await until(() => used() === true, 'Gemini CLI to be detected', 15_000);
    } finally {
      fs.rmSync(file, { force: true });
    }
    await until(() => used() === false, 'Gemini CLI to be gone', 15_000);
  });
});
