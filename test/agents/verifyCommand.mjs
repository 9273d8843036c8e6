// `instruction-lens verify` against the pinned real agents (part of `npm run test:agents`):
//   - the demo, each agent via --agent-path, traced with strace: a match for all four, and no
//     connection to anything but 127.0.0.1 (or a local socket); no temporary folder left behind;
//   - a deliberately wrong render: the difference is reported, with the file and both lines;
//   - a render whose profile does not know one file the agent loads: reported as sent but not shown.
import assert from 'node:assert/strict';
import { spawnSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { agentBinaries, pinnedAgent, repoRoot } from '../../scripts/agents/install.mjs';
import { CliGitIndex, NodeFileSystem, RUNNABLE_AGENTS, resolveChain, verify } from '../../scripts/agents/harness.mjs';
import { nonLoopbackConnects } from '../../scripts/agents/strace.mjs';

const demo = path.join(repoRoot, 'demo');
const orders = path.join(demo, 'packages/api/src/routes/orders.ts');
const cli = path.join(repoRoot, 'dist', 'cli.js');
const pinned = JSON.parse(readFileSync(path.join(repoRoot, 'test/agents/package.json'), 'utf8')).dependencies;
const pinnedVersion = { 'claude-code': pinned['@anthropic-ai/claude-code'], codex: pinned['@openai/codex'], 'gemini-cli': pinned['@google/gemini-cli'], 'copilot-cli': pinned['@github/copilot'] };

const tempTrees = () => readdirSync(os.tmpdir()).filter((n) => n.startsWith('il-verify-'));
const emptyHome = () => realpathSync(mkdtempSync(path.join(os.tmpdir(), 'il-verify-test-home-')));


describe('instruction-lens verify', { concurrency: false }, () => {
  it('the demo with each pinned agent (--agent-path): a match byte for byte, nothing but 127.0.0.1 (strace), no temporary files left', { timeout: 900_000 }, async () => {
    const strace = spawnSync('strace', ['-V'], { encoding: 'utf8' });
    assert.equal(strace.status, 0, 'strace is needed to trace connections (apt-get install strace)');
    const home = emptyHome();
    const log = path.join(home, '..', `${path.basename(home)}.strace`);
    const before = new Set(tempTrees());
    const bins = agentBinaries();
    const args = ['verify', orders, '--launch-dir', demo, '--home', home, '--json', ...RUNNABLE_AGENTS.flatMap((id) => ['--agent-path', `${id}=${bins[id].cmd}`])];
    const r = await new Promise((resolve) => {
      const child = spawn('strace', ['-f', '-qq', '-e', 'trace=connect', '-o', log, process.execPath, cli, ...args], { cwd: repoRoot, env: { ...process.env, HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => { stdout += d; });
      child.stderr.on('data', (d) => { stderr += d; });
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    const trace = readFileSync(log, 'utf8');
    rmSync(home, { recursive: true, force: true });
    rmSync(log, { force: true });
    assert.equal(r.code, 0, `exit ${r.code}\n${r.stdout.slice(0, 4000)}\n${r.stderr.slice(-2000)}`);
    const report = JSON.parse(r.stdout);
    assert.deepEqual(report.agents.map((a) => [a.agent, a.status, a.versionRun, a.phases.map((p) => `${p.phase}:${p.ok}`).join(' ')]),
      RUNNABLE_AGENTS.map((id) => [id, 'match', pinnedVersion[id], 'start:true read:true']));
    const { others, loopback } = nonLoopbackConnects(trace);
    assert.ok(loopback > 0, 'the trace shows the connections to the fake model');
    assert.deepEqual(others, [], 'a connection left 127.0.0.1');
    assert.deepEqual(tempTrees().filter((n) => !before.has(n)), [], 'temporary trees are removed');
  });

  it('a deliberately wrong render: the difference is reported with the file and both lines', { timeout: 300_000 }, async () => {
    const home = emptyHome();
    const fs = new NodeFileSystem();
    // One character changed in the middle of our longest part.
    const render = (req) => {
      const chain = resolveChain(req, { fs, git: new CliGitIndex(fs) });
      const all = [...chain.start, ...chain.onRead];
      const longest = all.reduce((a, b) => (b.text.length > a.text.length ? b : a));
      const at = longest.text.indexOf('Validate') >= 0 ? longest.text.indexOf('Validate') : Math.floor(longest.text.length / 2);
      const wrong = { ...longest, text: longest.text.slice(0, at) + 'X' + longest.text.slice(at + 1) };
      const swap = (parts) => parts.map((p) => (p === longest ? wrong : p));
      return { ...chain, start: swap(chain.start), onRead: swap(chain.onRead) };
    };
    const report = await verify({ target: orders, launchDir: demo, home, agents: ['claude-code'], locations: { 'claude-code': pinnedAgent('claude-code') }, render });
    rmSync(home, { recursive: true, force: true });
    assert.equal(report.exitCode, 1);
    const a = report.agents[0];
    assert.equal(a.status, 'differs');
    const d = a.phases.flatMap((p) => p.differences).find((x) => x.kind === 'differs');
    assert.ok(d, JSON.stringify(a.phases));
    assert.ok(d.file && d.file.startsWith(demo), `names the file: ${d.file}`);
    assert.notEqual(d.expected, d.sent);
    assert.match(d.expected, /X/);
    assert.ok(readFileSync(d.file, 'utf8').includes(d.sent.trim()), `the sent line is the file's: ${d.sent}`);
    assert.ok(a.expectedText.includes(d.expected) && a.sentText.includes(d.sent), 'the side-by-side texts hold both lines');
  });

  it('a file the profile does not know: reported as sent by the agent but not in our render', { timeout: 300_000 }, async () => {
    const home = emptyHome();
    const hidden = path.join(demo, 'CLAUDE.local.md');
    // Our profile, blind to one file the real agent loads.
    class Blind extends NodeFileSystem {
      stat(p) { return p.endsWith('/CLAUDE.local.md') ? undefined : super.stat(p); }
      readDir(p) { return super.readDir(p).filter((e) => e.name !== 'CLAUDE.local.md'); }
    }
    const fs = new Blind();
    const render = (req) => resolveChain(req, { fs, git: new CliGitIndex(fs) });
    const report = await verify({ target: orders, launchDir: demo, home, agents: ['claude-code'], locations: { 'claude-code': pinnedAgent('claude-code') }, render });
    rmSync(home, { recursive: true, force: true });
    assert.equal(report.exitCode, 1);
    const ds = report.agents[0].phases.flatMap((p) => p.differences);
    const d = ds.find((x) => x.kind === 'not-rendered');
    assert.ok(d, JSON.stringify(ds, null, 2));
    assert.equal(d.file, hidden);
    assert.equal(d.phase, 'start');
    const firstLine = readFileSync(hidden, 'utf8').split('\n').find((l) => l.trim().length > 8);
    assert.ok(d.sent.includes(firstLine), `shows what was sent: ${d.sent}`);
  });
});
