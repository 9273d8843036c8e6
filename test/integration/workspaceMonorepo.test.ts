// Runs last (mocha takes files in name order): it adds a workspace folder and turns agent detection on for the window.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, closeEditors, codeOf, setting, sleep, until, workspaceDir } from './helpers';

/**
 * A monorepo set up the way real ones are: a root CLAUDE.md that is `@AGENTS.md`, packages whose
 * CLAUDE.md is a symlink to their AGENTS.md, npm scopes and CSS at-rules in code spans, a
 * 5,000-character AGENTS.md, a skill shared through a committed folder symlink. None of that is a
 * problem. A broken import and a nested AGENTS.md that Claude Code skips are, once each.
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

describe('a monorepo as real ones are set up', () => {
  before(async function () {
    this.timeout(60_000);
    const lens = await api();
    build();
    await setting('agents', 'auto');
    const index = vscode.workspace.workspaceFolders?.length ?? 0;
    assert.ok(vscode.workspace.updateWorkspaceFolders(index, 0, { uri: vscode.Uri.file(root), name: 'monorepo' }), 'the folder is added');
    await until(() => vscode.workspace.workspaceFolders?.some((f) => f.uri.fsPath === root), 'the monorepo folder');
    await lens.detection.ready();
  });

  after(async function () {
    this.timeout(30_000);
    await closeEditors();
    const index = vscode.workspace.workspaceFolders?.findIndex((f) => f.uri.fsPath === root) ?? -1;
    if (index >= 0) vscode.workspace.updateWorkspaceFolders(index, 1);
    await until(() => !vscode.workspace.workspaceFolders?.some((f) => f.uri.fsPath === root), 'the monorepo folder to go');
    await setting('agents', []);
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('detects the agents from the repository: Claude Code and Codex, not claw-code, CAR or hosted sessions', async () => {
    const lens = await api();
    const used = lens.detection.detections(vscode.Uri.file(root)).filter((d) => d.used);
    const ids = used.map((d) => d.profile.id);
    assert.ok(ids.includes('claude-code') && ids.includes('codex'), ids.join(', '));
    for (const off of ['claw-code', 'claw-code@head', 'car', 'scaling']) assert.ok(!ids.includes(off), `${off} is off`);
    assert.ok(used.find((d) => d.profile.id === 'claude-code')!.evidence.some((e) => e === 'CLAUDE.md' || e.startsWith('.claude/')));
  });

  it('reports only the broken import and the AGENTS.md Claude Code skips, once each, naming the agents', async () => {
    const lens = await api();
    const copilotCli = lens.detection.detections(vscode.Uri.file(root)).some((d) => d.used && d.profile.id === 'copilot-cli');
    const expected = ['Error AGENTS.md:4 import-missing', 'Information packages/legacy/AGENTS.md:1 not-loaded'];
    // Where Copilot CLI is in use, its one entry about sending the root AGENTS.md twice may join them.
    const visible = () => problems().filter((p) => !p.startsWith('Hint') && !(copilotCli && p.startsWith('Information AGENTS.md:1 ')));
    await until(() => JSON.stringify(visible()) === JSON.stringify(expected), 'exactly the two problems').catch(() => assert.deepEqual(visible(), expected));
    // Settle: nothing more arrives (the machine's look-up, a second check).
    await sleep(1000);
    assert.deepEqual(visible(), expected);
    assert.match(messageAt('AGENTS.md', 'import-missing')!, /^(Claude Code, GitHub Copilot CLI: )?@docs\/release\.md points to docs\/release\.md, which does not exist; (Claude Code|the agent) silently ignores it\.$/);
    assert.equal(
      messageAt('packages/legacy/AGENTS.md', 'not-loaded'),
      'Claude Code never reads this AGENTS.md: it skips AGENTS.md files when a CLAUDE.md exists higher up; to load it, create a CLAUDE.md beside it containing "@AGENTS.md".',
    );
    // Codex not loading the packages' AGENTS.md below the launch folder is by design: hints only.
    assert.ok(problems().filter((p) => p.startsWith('Hint')).every((p) => p.endsWith(' not-loaded')));
  });
});
