import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';

const CLI = path.resolve(__dirname, '../../../dist/cli.js');

function run(args: string[], cwd = process.cwd()) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { ...process.env, HOME: '/nonexistent-home' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function write(root: string, files: Record<string, string>) {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
}

describe('instruction-lens CLI', () => {
  let root: string;
  let home: string;
  before(() => {
    const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'il-cli-')));
    root = path.join(tmp, 'repo');
    home = path.join(tmp, 'home');
    write(root, {
      'CLAUDE.md': '# Repo\n\n@docs/style.md\n@docs/missing.md\n',
      'docs/style.md': 'Use tabs.\n',
      'packages/api/CLAUDE.md': 'API rules.\n',
      'packages/api/src/server.ts': 'export {};\n',
      '.claude/rules/ts.md': '---\npaths: ["**/*.ts"]\n---\nStrict TypeScript.\n',
      '.claude/rules/py.md': '---\npaths: ["**/*.py"]\n---\nNo Python here.\n',
    });
    write(home, { '.claude/CLAUDE.md': 'Be brief.\n' });
    spawnSync('git', ['init', '-q'], { cwd: root });
    spawnSync('git', ['add', '-A'], { cwd: root });
  });
  after(() => fs.rmSync(path.dirname(root), { recursive: true, force: true }));

  it('chain --json: the documented keys, launch dir defaulting to the git root, nested files on read', () => {
    const r = run(['chain', path.join(root, 'packages/api/src/server.ts'), '--home', home, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(j), ['agent', 'agentVersion', 'target', 'launchDir', 'sources', 'budget', 'diagnostics']);
    assert.equal(j.agent, 'claude-code');
    assert.equal(j.launchDir, root);
    assert.deepEqual(Object.keys(j.sources[0]), ['path', 'kind', 'scope', 'loads', 'status', 'chars', 'bytes', 'injectedChars', 'injectedBytes', 'importedBy', 'reason']);
    const rows = j.sources.map((s: { status: string; path: string }) => `${s.status} ${path.relative(root, s.path)}`);
    assert.deepEqual(rows.slice(0, 5), ['loaded ../home/.claude/CLAUDE.md', 'loaded CLAUDE.md', 'loaded docs/style.md', 'missing docs/missing.md', 'on-read packages/api/CLAUDE.md']);
    // Rules come in the file system's listing order, which differs between machines.
    assert.deepEqual(rows.slice(5).sort(), ['not-matched .claude/rules/py.md', 'on-read .claude/rules/ts.md']);
    // Apart: what loads at start, and what reading the file adds (packages/api/CLAUDE.md, 11 chars, and the .ts rule).
    assert.deepEqual(j.budget, { unit: 'chars', limit: null, used: j.budget.used, onRead: j.budget.onRead });
    assert.ok(j.budget.onRead > 11);
    const d = j.diagnostics.find((x: { code: string }) => x.code === 'import-missing');
    assert.deepEqual([d.path, d.line, d.column, d.severity], [path.join(root, 'CLAUDE.md'), 4, 1, 'error']);
  });

  it('chain prints a readable table', () => {
    const r = run(['chain', path.join(root, 'packages/api/src/server.ts'), '--home', home]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /STATUS/);
    assert.match(r.stdout, /on-read +on-read +project .*packages\/api\/CLAUDE\.md/);
    assert.match(r.stdout, /CLAUDE\.md:4:1: error import-missing/);
  });

  it('chain names each file from the current folder, also with --launch-dir below it', () => {
    const r = run(['chain', path.join(root, 'packages/api/src/server.ts'), '--home', home, '--launch-dir', path.join(root, 'packages/api')], root);
    assert.equal(r.code, 0, r.stderr);
    // A path from the launch folder showed packages/api/CLAUDE.md as "CLAUDE.md", beside the root's.
    assert.match(r.stdout, / CLAUDE\.md +In /);
    assert.match(r.stdout, / packages\/api\/CLAUDE\.md /);
    assert.match(r.stdout, /^CLAUDE\.md:3:1: warning import-outside/m);
  });

  it('render prints exactly the injected text, and --on-read what reading the file adds', () => {
    const start = run(['render', path.join(root, 'packages/api/src/server.ts'), '--home', home]);
    assert.equal(start.code, 0, start.stderr);
    assert.ok(start.stdout.startsWith('<system-reminder>\nCodebase and user instructions are shown below.'));
    assert.ok(start.stdout.endsWith(`Contents of ${root}/docs/style.md (project instructions, checked into the codebase):\n\nUse tabs.\n</system-reminder>`));
    const read = run(['render', path.join(root, 'packages/api/src/server.ts'), '--home', home, '--on-read', '--json']);
    const j = JSON.parse(read.stdout);
    assert.deepEqual(j.parts, [
      { where: 'after-tool-result', text: `<system-reminder>\nContents of ${root}/packages/api/CLAUDE.md:\n\nAPI rules.\n\n</system-reminder>\n` },
      { where: 'after-tool-result', text: `<system-reminder>\nContents of ${root}/.claude/rules/ts.md:\n\nStrict TypeScript.\n\n</system-reminder>` },
    ]);
  });

  it('render --agent claw-code --launch-dir below the root', () => {
    const r = run(['render', path.join(root, 'packages/api/src/server.ts'), '--agent', 'claw-code', '--launch-dir', path.join(root, 'packages/api'), '--json']);
    assert.equal(r.code, 0, r.stderr);
    const text = JSON.parse(r.stdout).parts[0].text;
    assert.ok(text.startsWith(`# Claude instructions\n\n## CLAUDE.md (scope: ${root})\n\n# Repo`));
    assert.ok(text.endsWith(`## CLAUDE.md (scope: ${root})\n\nAPI rules.`));
  });

  it('render --agent copilot reads the VS Code settings Copilot reads from the folder\'s .vscode/settings.json', () => {
    const ws = path.join(path.dirname(root), 'vscode-ws');
    write(ws, { 'CLAUDE.md': 'Claude rules.\n', 'AGENTS.md': 'Agent rules.\n', 'x.ts': '' });
    const texts = () => JSON.parse(run(['render', path.join(ws, 'x.ts'), '--agent', 'copilot', '--home', home, '--json']).stdout).parts.map((p: { text: string }) => p.text).join('');
    assert.ok(texts().includes('Claude rules.'));
    // JSONC, as VS Code writes it; a key no profile reads is ignored.
    write(ws, { '.vscode/settings.json': '{\n  // off for this folder\n  "chat.useClaudeMdFile": false,\n  "editor.tabSize": 2,\n}\n' });
    assert.ok(!texts().includes('Claude rules.'));
    assert.ok(texts().includes('Agent rules.'));
    // A file that does not parse sets nothing.
    write(ws, { '.vscode/settings.json': '{ "chat.useClaudeMdFile": false' });
    assert.ok(texts().includes('Claude rules.'));
  });

  it('check: exit 1 on an error, file:line:col lines, json and sarif', () => {
    const r = run(['check', root, '--agent', 'claude-code', '--home', home]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /CLAUDE\.md:4:1: error import-missing: @docs\/missing\.md/);
    assert.match(r.stdout, /py\.md:1:1: warning glob-no-match/);
    assert.match(r.stdout, /found via git/);
    const j = JSON.parse(run(['check', root, '--agent', 'claude-code', '--format', 'json', '--home', home]).stdout);
    assert.ok(j.files.includes(path.join(root, '.claude/rules/ts.md')));
    const s = JSON.parse(run(['check', root, '--format', 'sarif', '--agent', 'claude-code', '--home', home]).stdout);
    assert.equal(s.version, '2.1.0');
    assert.ok(s.runs[0].results.some((x: { ruleId: string; level: string }) => x.ruleId === 'import-missing' && x.level === 'error'));
  });

  it('check: exit 0 on a clean folder found by walking (no git)', () => {
    const clean = fs.mkdtempSync(path.join(os.tmpdir(), 'il-clean-'));
    write(clean, { 'CLAUDE.md': 'fine\n', 'node_modules/x/CLAUDE.md': '@nope.md\n' });
    const r = run(['check', clean, '--agent', 'claude-code', '--home', home]);
    fs.rmSync(clean, { recursive: true, force: true });
    assert.equal(r.code, 0, r.stdout);
    assert.match(r.stdout, /1 instruction file checked \(found via walk\) for Claude Code \(--agent\): 0 errors/);
  });

  it('check: the summary names each agent once, two versions of one agent apart', () => {
    const bare = fs.mkdtempSync(path.join(os.tmpdir(), 'il-bare-'));
    write(bare, { 'README.md': 'no instructions here\n' });
    const defaulted = run(['check', bare, '--home', home]);
    const pinned = run(['check', bare, '--agent', 'claw-code', '--agent', 'claw-code@head', '--agent', 'codex', '--home', home]);
    fs.rmSync(bare, { recursive: true, force: true });
    // Nothing marks an agent: every one is checked, and the reason is said once.
    const summary = defaulted.stdout.trim().split('\n').pop()!;
    assert.match(summary, /for Claude Code, claw-code, claw-code@head, Codex CLI, .* \(no agent marked: checked by default\): 0 errors/);
    assert.equal(summary.split('no agent marked').length, 2, summary);
    assert.match(pinned.stdout, /for claw-code, claw-code@head, Codex CLI \(--agent\): 0 errors/);
  });

  it('agents lists every profile with the version it models', () => {
    const r = run(['agents', '--json']);
    const ids = JSON.parse(r.stdout).map((p: { id: string }) => p.id);
    assert.ok(ids.includes('claude-code') && ids.includes('claw-code') && ids.includes('claw-code@head'));
  });

  it('bad input: one clear line on stderr, no stack trace, non-zero exit', () => {
    const cases: [string[], number, RegExp][] = [
      [['chain', '/does/not/exist'], 1, /^instruction-lens: \/does\/not\/exist: no such file or directory\n$/],
      [['chain', root, '--agent', 'nobody'], 2, /^instruction-lens: unknown agent "nobody"; known agents: claude-code/],
      [['frobnicate'], 2, /^instruction-lens: unknown command "frobnicate"\n$/],
      [['chain', root, '--bogus'], 2, /^instruction-lens: Unknown option '--bogus'/],
      [['check', root, '--format', 'xml'], 2, /^instruction-lens: --format must be text, json or sarif/],
      [['render', root, '--launch-dir', path.join(root, 'CLAUDE.md')], 1, /not a directory\n$/],
      [['chain'], 2, /^instruction-lens: chain needs a path\n$/],
    ];
    for (const [args, code, re] of cases) {
      const r = run(args);
      assert.equal(r.code, code, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, re);
      assert.ok(!/\n\s+at /.test(r.stderr), 'no stack trace');
      assert.equal(r.stderr.trim().split('\n').length, 1);
    }
  });

  it('an unreadable directory is reported, not crashed on', () => {
    if (process.getuid?.() === 0) {
      // root reads everything; use a directory named like an instruction file instead.
      const odd = fs.mkdtempSync(path.join(os.tmpdir(), 'il-odd-'));
      fs.mkdirSync(path.join(odd, 'CLAUDE.md'));
      const r = run(['render', odd, '--agent', 'claw-code', '--launch-dir', odd]);
      fs.rmSync(odd, { recursive: true, force: true });
      assert.equal(r.code, 1);
      assert.match(r.stderr, /^instruction-lens: claw-code cannot build its prompt: .*CLAUDE\.md is a directory\n$/);
      return;
    }
    const locked = fs.mkdtempSync(path.join(os.tmpdir(), 'il-locked-'));
    fs.chmodSync(locked, 0o000);
    const r = run(['check', locked]);
    fs.chmodSync(locked, 0o700);
    fs.rmSync(locked, { recursive: true, force: true });
    assert.ok(r.code === 0 || r.code === 1);
    assert.ok(!/\n\s+at /.test(r.stderr));
  });
  it('verify: agents that cannot run here say why; exit 3 when nothing differs but an agent was not run', () => {
    const target = path.join(root, 'packages/api/src/server.ts');
    const env = { ...process.env, HOME: home, PATH: '/usr/bin:/bin' };
    const r = spawnSync(process.execPath, [CLI, 'verify', target, '--agent', 'cursor', '--agent', 'claude-code', '--launch-dir', root], { encoding: 'utf8', env });
    assert.equal(r.status, 3, r.stderr);
    assert.match(r.stdout, /Cursor \(cursor\): not run — cannot be verified: Cursor's agent runs inside the Cursor editor/);
    assert.match(r.stdout, /Claude Code \(claude-code\): not run — not found: `claude` is not on PATH \(give its location with --agent-path claude-code=<binary>\)/);
    const j = spawnSync(process.execPath, [CLI, 'verify', target, '--agent', 'copilot', '--json'], { encoding: 'utf8', env });
    assert.equal(j.status, 3);
    const report = JSON.parse(j.stdout);
    assert.deepEqual(report.agents.map((a: { agent: string; status: string }) => [a.agent, a.status]), [['copilot', 'not-run']]);
    const missing = spawnSync(process.execPath, [CLI, 'verify', target, '--agent-path', 'codex=/nonexistent/codex', '--agent', 'codex'], { encoding: 'utf8', env });
    assert.equal(missing.status, 3);
    assert.match(missing.stdout, /Codex CLI \(codex\): not run — not found: \/nonexistent\/codex does not exist/);
  });

  it('verify: bad usage is exit 2 with one line', () => {
    for (const args of [['verify', root, '--agent-path', 'codex'], ['verify', root, '--agent-path', 'nope=/x'], ['verify', root, root]]) {
      const r = run(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stderr.trim().split('\n').length, 1);
    }
  });
});
