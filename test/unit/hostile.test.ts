import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';

// The hostile tree (scripts/hostileTree.mjs, built here at test time: a 200 MB file, binary and
// invalid UTF-8 files, a 2,000-deep import chain, a cycle, a FIFO, a folder named CLAUDE.md, link
// loops and a link out, a file without read permission, bad and deep frontmatter, markdown nested
// 20,000 deep, 500 nested folders, 5,000 instruction files). Every CLI command must end within
// the cut-off, exit 0 or 1 with no stack trace, report each planted problem and write nothing.

const REPO = path.resolve(__dirname, '../../..');
const CLI = path.join(REPO, 'dist/cli.js');
/** Generous: a hang, not a slow run, is what fails (the bench measures speed). */
const CUT_OFF_MS = 120_000;
const AGENTS = ['claude-code', 'claw-code', 'claw-code@head', 'codex', 'gemini-cli', 'cursor', 'car', 'scaling', 'copilot-cli', 'copilot'];

/** Root reads every file whatever its mode: the unreadable case runs as `nobody` through setpriv. */
const asNobody = process.getuid?.() === 0 && spawnSync('setpriv', ['--version']).status === 0 ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] : [];

function run(args: string[]) {
  const [cmd, ...pre] = asNobody.length ? asNobody : [process.execPath];
  const argv = asNobody.length ? [...pre, process.execPath, CLI, ...args] : [CLI, ...args];
  const started = Date.now();
  const r = spawnSync(cmd, argv, { encoding: 'utf8', timeout: CUT_OFF_MS, maxBuffer: 256 * 1024 * 1024, env: { ...process.env, HOME: '/nonexistent-home' } });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, ms: Date.now() - started };
}

function assertEnded(r: ReturnType<typeof run>, what: string) {
  assert.equal(r.signal, null, `${what}: killed by ${r.signal} after ${r.ms} ms (the cut-off is ${CUT_OFF_MS} ms)`);
  assert.ok(r.code === 0 || r.code === 1, `${what}: exit ${r.code}\n${r.stderr.slice(0, 2000)}`);
  assert.doesNotMatch(r.stderr, /\n\s+at /, `${what}: a stack trace\n${r.stderr.slice(0, 2000)}`);
}

/** Every path below `root` (links not followed) with its type, size, mode and modification time. */
function snapshot(root: string): string {
  const out: string[] = [];
  const stack = [root];
  while (stack.length) {
    const dir = stack.pop()!;
    for (const name of fs.readdirSync(dir)) {
      const p = path.join(dir, name);
      const st = fs.lstatSync(p);
      out.push(`${p} ${st.mode} ${st.size} ${st.mtimeMs}`);
      if (st.isDirectory()) stack.push(p);
    }
  }
  return out.sort().join('\n');
}

describe('the hostile tree: every CLI command ends, exits 0 or 1, reports each problem, writes nothing', { skip: process.platform === 'win32' }, () => {
  let tmp: string;
  let root: string;
  let deepest: string;
  let before_: string;
  before(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'il-hostile-')));
    fs.chmodSync(tmp, 0o755); // for `nobody`
    root = path.join(tmp, 'tree');
    const built = spawnSync(process.execPath, [path.join(REPO, 'scripts/hostileTree.mjs'), root], { encoding: 'utf8' });
    assert.equal(built.status, 0, built.stderr);
    deepest = built.stdout.trim().replace(/^.*deepest file /, '');
    before_ = snapshot(root);
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('check (agents detected, JSON) reports each planted problem at its file', { timeout: CUT_OFF_MS + 10_000 }, () => {
    const r = run(['check', root, '--format', 'json']);
    assertEnded(r, 'check');
    const result = JSON.parse(r.stdout) as { diagnostics: { code: string; path: string }[] };
    const got = new Set(result.diagnostics.map((d) => `${d.code} ${path.relative(root, d.path)}`));
    const planted = [
      'too-large huge/CLAUDE.md',
      'binary binary/CLAUDE.md',
      'not-utf8 latin1/CLAUDE.md',
      'import-depth chain/c/3.md',
      'import-cycle cycle/b.md',
      'unreadable fifo/CLAUDE.md',
      'symlink-loop loop',
      'symlink-loop chain/up',
      'frontmatter-invalid frontmatter/.claude/rules/bad.md',
      // Too deep for YAML, then read as Claude Code reads it again, the value quoted: a glob whose `[` never closes.
      'glob-invalid frontmatter/.claude/rules/deep.md',
      'too-deep quotes/CLAUDE.md',
      'too-deep stairs/CLAUDE.md',
      'import-missing many/p0/CLAUDE.md',
      'not-loaded folder/CLAUDE.md/AGENTS.md',
      ...(asNobody.length || process.getuid?.() !== 0 ? ['unreadable secret/CLAUDE.md'] : []),
    ];
    assert.deepEqual(planted.filter((p) => !got.has(p)), [], [...got].filter((g) => !g.includes('many/')).join('\n'));
    assert.ok(!result.diagnostics.some((d) => d.code === 'internal-error'));
    assert.ok(!result.diagnostics.some((d) => d.path.includes('/loop/')), 'a file listed again through the loop');
  });

  it('chain and render of the deepest file (500 folders down) for every agent', { timeout: 20 * CUT_OFF_MS }, () => {
    for (const agent of AGENTS) {
      const chain = run(['chain', deepest, '--agent', agent, '--launch-dir', root, '--json']);
      assertEnded(chain, `chain --agent ${agent}`);
      const c = JSON.parse(chain.stdout) as { sources: { path: string; status: string }[] };
      if (agent === 'claude-code') assert.ok(c.sources.some((s) => s.path === path.join(path.dirname(deepest), 'CLAUDE.md') && s.status === 'on-read'), chain.stdout.slice(0, 2000));
      for (const extra of [[], ['--on-read']]) assertEnded(run(['render', deepest, '--agent', agent, '--launch-dir', root, ...extra]), `render ${extra.join(' ')} --agent ${agent}`);
    }
  });

  it('chain and render where every planted problem is on the way (the root, the 2,000-deep chain)', { timeout: 10 * CUT_OFF_MS }, () => {
    for (const agent of ['claude-code', 'gemini-cli', 'copilot-cli', 'codex']) {
      for (const target of [path.join(root, 'x.ts'), path.join(root, 'chain/x.ts'), path.join(root, 'huge/x.ts'), path.join(root, 'fifo/x.ts')]) {
        assertEnded(run(['chain', target, '--agent', agent, '--json']), `chain ${path.relative(root, target)} --agent ${agent}`);
        assertEnded(run(['render', target, '--agent', agent]), `render ${path.relative(root, target)} --agent ${agent}`);
      }
    }
  });

  it('agents and agents --detect', () => {
    assertEnded(run(['agents']), 'agents');
    const detect = run(['agents', '--detect', root]);
    assertEnded(detect, 'agents --detect');
    assert.match(detect.stdout, /claude-code/);
  });

  it('wrote nothing', () => {
    assert.equal(snapshot(root), before_);
  });
});
