// The fidelity suite: each REAL agent CLI against a fake model on 127.0.0.1, compared with what
// our CLI says that agent sends. One `describe` per agent, one `it` per scenario × phase.
//
//   node test/agents/run.mjs                 (what `npm run test:agents` runs)
//   IL_AGENTS=codex,gemini-cli IL_SCENARIOS=imports,basic node test/agents/run.mjs
//   IL_AGENTS_PARALLEL=2   agents running at once (default 2)
//   IL_AGENTS_KEEP=1       keep every temp fixture (those of a mismatch or an agent failure are always kept)
//   IL_AGENTS_CLI=path     our CLI (default dist/cli.js; built with `node scripts/build.mjs` if absent)
//   node test/agents/run.mjs --repo <checkout> [--read <file>]   a real repository instead (realRepo.mjs)
//
// Per case: lay the scenario out in a temp dir (src/verify/materialize.ts), run
//   node dist/cli.js render <target> --agent <id> --launch-dir <d> --home <h> --json [--on-read]
// (target = the scenario's readFile, else the launch dir; contract: prints
// {agent, agentVersion, parts: [{where, text}]}), run the real agent at start ("start") or with one
// read of readFile ("on-read"), and compare (src/verify/compare.ts). On read, the expected parts
// are the start parts followed by the on-read parts (duplicates dropped), since the request after
// the tool result still carries the start context.
// Captures go to test-results/agents/<agent>/<scenario>-<phase>.json, also when the check fails.
import assert from 'node:assert/strict';
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync, lstatSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { defineRepoSuite, repoArguments } from './realRepo.mjs';
import { installAgents, pinnedAgent, repoRoot } from '../../scripts/agents/install.mjs';
import { compare, findProfile, materialize, probeLines, runAgent, RUNNABLE_AGENTS } from '../../scripts/agents/harness.mjs';
import { copilotChatVersion, runCopilotChat } from '../../scripts/agents/copilotChat.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const resultsDir = path.join(repoRoot, 'test-results', 'agents');
const cliPath = path.resolve(repoRoot, process.env.IL_AGENTS_CLI || 'dist/cli.js');
const parallel = Math.max(1, Number(process.env.IL_AGENTS_PARALLEL) || 2);
const keepAll = process.env.IL_AGENTS_KEEP === '1';
// The agent CLIs, and Copilot Chat inside the VS Code server of test/host (scripts/agents/copilotChat.mjs).
const AGENTS = [...RUNNABLE_AGENTS, 'copilot'];
const onlyAgents = process.env.IL_AGENTS ? process.env.IL_AGENTS.split(',') : AGENTS;
const onlyScenarios = process.env.IL_SCENARIOS ? process.env.IL_SCENARIOS.split(',') : null;

/** The agent versions pinned in test/agents/package.json (each profile's `localRun.npmPackage`), by profile id. */
const pinned = (() => {
  const deps = JSON.parse(readFileSync(path.join(here, 'package.json'), 'utf8')).dependencies;
  const cli = RUNNABLE_AGENTS.map((id) => [id, deps[findProfile(id).localRun.npmPackage]]);
  return { ...Object.fromEntries(cli), copilot: copilotChatVersion() };
})();

async function loadScenarios() {
  const dir = path.join(here, 'scenarios');
  const out = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.mjs') && !n.startsWith('_')).sort()) {
    const mod = await import(pathToFileURL(path.join(dir, f)).href);
    const s = mod.default ?? mod;
    if (!s.name || !Array.isArray(s.agents)) throw new Error(`scenario ${f}: needs name and agents`);
    if (!onlyScenarios || onlyScenarios.includes(s.name)) out.push(s);
  }
  return out;
}

const copilotFixtures = new Map();
// Phases done per scenario, and whether one of them keeps the fixture: the last one deletes it.
const copilotUses = new Map();
const copilotKeep = new Map();
function copilotFixture(scenario) {
  if (!copilotFixtures.has(scenario.name)) copilotFixtures.set(scenario.name, materialize(scenario));
  return copilotFixtures.get(scenario.name);
}

/** A tiny semaphore: at most n agent runs at once. */
function limiter(n) {
  let active = 0;
  const queue = [];
  const next = () => {
    if (active >= n || !queue.length) return;
    active++;
    const { fn, resolve, reject } = queue.shift();
    fn().then(resolve, reject).finally(() => { active--; next(); });
  };
  return (fn) => new Promise((resolve, reject) => { queue.push({ fn, resolve, reject }); next(); });
}

let cliState = null;
/** Make sure our CLI exists (build once if not). Returns an error string or null. */
function ensureCli() {
  if (cliState) return cliState.error;
  if (!existsSync(cliPath) && !process.env.IL_AGENTS_CLI && existsSync(path.join(repoRoot, 'scripts', 'build.mjs'))) {
    spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'build.mjs')], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'] });
  }
  cliState = { error: existsSync(cliPath) ? null : `our CLI is missing: ${path.relative(repoRoot, cliPath)} (run npm run build)` };
  return cliState.error;
}

/** Run `render` of our CLI; resolves {parts, agentVersion} or {error}. */
function renderParts({ agent, target, launchDir, home, onRead }) {
  const args = [cliPath, 'render', target, '--agent', agent, '--launch-dir', launchDir, '--home', home, '--json'];
  if (onRead) args.push('--on-read');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: launchDir, env: { ...process.env, HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    child.on('close', (code) => {
      clearTimeout(timer);
      const cmd = `node ${path.relative(repoRoot, cliPath)} ${args.slice(1).join(' ')}`;
      if (code !== 0) return resolve({ error: `${cmd}\n  exited ${code}: ${err.trim().slice(0, 2000)}` });
      try {
        const j = JSON.parse(out);
        if (!Array.isArray(j.parts)) return resolve({ error: `${cmd}\n  printed JSON without a parts array: ${out.slice(0, 500)}` });
        resolve({ parts: j.parts, agentVersion: j.agentVersion, agent: j.agent });
      } catch (e) {
        resolve({ error: `${cmd}\n  printed no JSON (${e.message}): ${out.slice(0, 500)}` });
      }
    });
  });
}

/** The instruction files of a scenario as on disk: [{path, text}] (the read file excluded). */
function realOrSelf(p) {
  try { return realpathSync(p); } catch { return p; }
}

function instructionTextsOf(scenario, fx) {
  const out = [];
  const add = (root, rel, label) => {
    const abs = path.join(root, rel);
    // The file read is not instruction text, also when the scenario reaches it through a link.
    if (fx.readFile && (abs === fx.readFile || realOrSelf(abs) === realOrSelf(fx.readFile))) return;
    try {
      if (lstatSync(abs).isDirectory()) return;
      out.push({ path: label, text: readFileSync(abs, 'utf8') });
    } catch { /* dangling */ }
  };
  for (const rel of Object.keys(scenario.files || {})) add(fx.repoDir, rel, rel);
  for (const rel of Object.keys(scenario.symlinks || {})) add(fx.repoDir, rel, `${rel} (symlink)`);
  for (const rel of Object.keys(scenario.homeFiles || {})) add(fx.home, rel, `~/${rel}`);
  for (const rel of Object.keys(scenario.outsideFiles || {})) add(fx.outside, rel, `<outside>/${rel}`);
  return out;
}

function dedupe(parts) {
  const seen = new Set();
  return parts.filter((p) => {
    const k = `${p.where}\u0000${p.text}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * Copilot Chat: one VS Code server run per scenario serves both phases (a server takes ~30 s to
 * start): "start" is its first turn, "on-read" the turn after the read. The scenario's
 * `copilotSettings` are the user settings of that VS Code.
 */
const copilotRuns = new Map();
async function copilotChatRun(scenario, fx, phase) {
  if (!copilotRuns.has(scenario.name)) {
    copilotRuns.set(scenario.name, runCopilotChat({ launchDir: fx.launchDir, home: fx.home, readFile: fx.readFile, settings: scenario.copilotSettings }));
  }
  const run = await copilotRuns.get(scenario.name);
  return phase === 'start' ? { ...run, requests: run.requests.slice(0, 1), toolCalls: [] } : run;
}

async function runCase(agent, scenario, phase) {
  // Copilot Chat's phases share one run, hence one fixture.
  const fx = agent === 'copilot' ? copilotFixture(scenario) : materialize(scenario);
  const target = fx.readFile ?? fx.launchDir;
  const notes = [];
  let ours = null;
  const cliError = ensureCli();
  if (!cliError) {
    // Our CLI first, on the scenario's files only (the agents write config and state into HOME).
    const start = await renderParts({ agent, target, launchDir: fx.launchDir, home: fx.home, onRead: false });
    const read = phase === 'on-read' && !start.error ? await renderParts({ agent, target, launchDir: fx.launchDir, home: fx.home, onRead: true }) : null;
    ours = start.error ? start : read?.error ? read : { parts: dedupe([...start.parts, ...(read?.parts ?? [])]), agentVersion: start.agentVersion };
    if (ours.agentVersion && ours.agentVersion !== pinned[agent]) notes.push(`note: our profile models ${agent} ${ours.agentVersion}, the oracle is ${pinned[agent]}`);
  }
  const run = agent === 'copilot'
    ? await copilotChatRun(scenario, fx, phase)
    : await runAgent({ agent, ...pinnedAgent(agent), repoDir: fx.repoDir, launchDir: fx.launchDir, home: fx.home, readFile: phase === 'on-read' ? fx.readFile : undefined });

  const instructionTexts = instructionTextsOf(scenario, fx);
  // A known gap (scenario.gaps[agent] = {files, readme}): the agent sends the text of `files`,
  // which the profile does not model. The case then passes only when that is the sole difference,
  // and fails once the profile models it (so the README's known gap gets updated).
  const gap = scenario.gaps?.[agent];
  const check = (parts) => {
    const r = compare({ requests: run.requests, parts, instructionTexts, tmpRoot: fx.tmpRoot, agent });
    const gapOnly = !!gap && r.errors.length > 0 && r.errors.every((e) => e.kind === 'uncovered-text' && gap.files.some((f) => e.message.startsWith(`text of ${f} `)));
    return { ...r, ok: r.ok && !gap, gapOnly };
  };
  const result = ours?.parts ? check(ours.parts) : null;
  const file = path.join(resultsDir, agent, `${scenario.name}-${phase}.json`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({
    agent, scenario: scenario.name, phase, fixture: fx, exitCode: run.exitCode, timedOut: run.timedOut, ms: run.ms,
    toolCalls: run.toolCalls, stderr: run.stderr.slice(-4000), ours: ours ?? { error: cliError }, report: result?.report, requests: run.requests,
  }, null, 2) + '\n');

  // Keep the fixture of a real mismatch or agent failure for debugging; drop the rest.
  const agentFailed = !scenario.sendsNothing?.[agent] && (run.timedOut || run.exitCode !== 0 || !run.requests.length);
  const keep = keepAll || agentFailed || (result && !result.ok && !result.gapOnly);
  if (agent === 'copilot') copilotKeep.set(scenario.name, (copilotKeep.get(scenario.name) ?? false) || keep);
  const lastUse = agent !== 'copilot' || (copilotUses.set(scenario.name, (copilotUses.get(scenario.name) ?? 0) + 1).get(scenario.name) === (scenario.readFile ? 2 : 1));
  if (lastUse && !keep && !copilotKeep.get(scenario.name)) rmSync(fx.tmpRoot, { recursive: true, force: true });
  const where = `\n  ${keep ? 'fixture' : 'fixture (deleted)'}: ${fx.tmpRoot}\n  capture: ${path.relative(repoRoot, file)}`;
  const fail = (msg) => assert.fail([msg, ...notes].join('\n') + where);
  if (run.timedOut) fail(`${agent} timed out after ${run.ms} ms\n  stderr: ${run.stderr.slice(-1500)}`);
  // An agent that sends nothing at all here (scenario.sendsNothing[agent] says why): no model
  // request, and our render holds no part; the case fails once the agent sends something.
  const nothing = scenario.sendsNothing?.[agent];
  if (nothing) {
    if (run.requests.length) fail(`${agent} now sends a request, where it sent nothing (${nothing}): check what it sends and update the profile and the scenario`);
    if (cliError) fail(cliError);
    if (ours.error) fail(ours.error);
    if (ours.parts.length) fail(`${agent} sends nothing here (${nothing}), but our render has ${ours.parts.length} part(s)`);
    return;
  }
  if (run.exitCode !== 0) fail(`${agent} exited ${run.exitCode}\n  stderr: ${run.stderr.slice(-1500)}`);
  if (!run.requests.length) fail(`${agent} sent no model request\n  stderr: ${run.stderr.slice(-1500)}`);
  if (phase === 'on-read' && !run.toolCalls.length) fail(`${agent} was never offered a file-reading tool to answer with (calls: ${run.calls.map((c) => c.url).join(', ')})`);
  if (cliError) fail(cliError);
  if (ours.error) fail(ours.error);
  if (gap && result.errors.length === 0) fail(`known gap closed: the profile now sends what ${agent} sends of ${gap.files.join(', ')}; drop the gap from the scenario and from the README (${gap.readme})`);
  if (!result.ok && !result.gapOnly) fail(result.report);
  // The same real capture must reject a profile that is wrong by one character, or that
  // forgets a part: otherwise this case would prove nothing.
  if (ours.parts.length) {
    const longest = ours.parts.reduce((a, b) => (b.text.length > a.text.length ? b : a));
    const at = Math.floor(longest.text.length / 2);
    const flipped = ours.parts.map((p) => (p === longest ? { ...p, text: p.text.slice(0, at) + (p.text[at] === 'x' ? 'y' : 'x') + p.text.slice(at + 1) } : p));
    // The part left out is the one carrying the most instruction text: a part of fixed text and
    // paths only (Copilot's instructions index) is checked where present, but its absence sends
    // no file text the comparison could find uncovered.
    const fileText = (p) => instructionTexts.flatMap((t) => probeLines(t.text)).filter((l) => p.text.includes(l)).join('').length;
    const carrying = ours.parts.reduce((a, b) => (fileText(b) > fileText(a) ? b : a));
    const mutants = [['one character changed', flipped], ['a part left out', ours.parts.filter((p) => p !== (fileText(carrying) ? carrying : longest))]];
    for (const [what, parts] of mutants) {
      const m = check(parts);
      if (m.ok || m.gapOnly) fail(`the comparison also accepts our render with ${what}: this case cannot catch a wrong profile`);
    }
  }
}

// --- the suite ------------------------------------------------------------------------------

// Ctrl-C or a CI time-out: run the 'exit' hooks that stop the VS Code servers of Copilot Chat runs.
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));

const install = (() => { try { installAgents(); return null; } catch (e) { return e; } })();
const repoMode = repoArguments(process.argv.slice(2));
const scenarios = repoMode ? [] : await loadScenarios();
const limit = limiter(parallel);

if (repoMode) defineRepoSuite({ ...repoMode, agents: onlyAgents, install });
// The verify command against the pinned agents: with the whole suite, or IL_VERIFY=1.
// (Both, not one or the other: the scenarios below run in the whole suite too.)
else if ((!process.env.IL_SCENARIOS && !process.env.IL_AGENTS) || process.env.IL_VERIFY === '1') await import('./verifyCommand.mjs');
if (!repoMode) for (const agent of onlyAgents) {
  describe(agent, { concurrency: true }, () => {
    for (const scenario of scenarios.filter((s) => s.agents.includes(agent))) {
      for (const phase of scenario.readFile ? ['start', 'on-read'] : ['start']) {
        // No test timeout: every case of an agent starts at once and waits its turn in `limit`,
        // so a timeout would count the queue (cases were cancelled on a loaded machine); the agent
        // run and our render have their own time limits (90 s and 60 s).
        it(`${scenario.name} — ${phase}`, async () => {
          if (install) assert.fail(`the agent CLIs could not be installed: ${install.message}`);
          await limit(() => runCase(agent, scenario, phase));
        });
      }
    }
  });
}
