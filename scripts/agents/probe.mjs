#!/usr/bin/env node
// For humans: run one real agent on a fixture directory and print what it sent the model.
//
//   node scripts/agents/probe.mjs <fixtureDir> <agent> [--launch <rel>] [--read <rel>]
//        [--home <dir to copy into the fresh HOME>] [--all] [--out <file>]
//
// <agent>: claude-code | codex | gemini-cli | copilot-cli | all
// Prints the model-call request bodies as pretty JSON (--all: every HTTP call with its URL).
// The fixture is used in place (the agent may write into it, e.g. Codex sessions do not, but
// a CLI might create .gemini/ or similar): copy it first if that matters.
import { cpSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { installAgents, pinnedAgent } from './install.mjs';
import { runAgent, RUNNABLE_AGENTS as AGENTS } from './harness.mjs';

function parse(argv) {
  const o = { positional: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--launch') o.launch = argv[++i];
    else if (a === '--read') o.read = argv[++i];
    else if (a === '--home') o.home = argv[++i];
    else if (a === '--out') o.out = argv[++i];
    else if (a === '--all') o.all = true;
    else if (a === '--keep') o.keep = true;
    else o.positional.push(a);
  }
  return o;
}

const o = parse(process.argv.slice(2));
const [fixture, which] = o.positional;
if (!fixture || !which) {
  console.error('usage: probe.mjs <fixtureDir> <agent|all> [--launch rel] [--read rel] [--home dir] [--all] [--out file]');
  process.exit(2);
}
installAgents();
const agents = which === 'all' ? AGENTS : [which];
const out = {};
for (const agent of agents) {
  const home = mkdtempSync(path.join(os.tmpdir(), `il-home-${agent}-`));
  if (o.home) cpSync(o.home, home, { recursive: true });
  const r = await runAgent({ agent, ...pinnedAgent(agent), repoDir: path.resolve(fixture), launchDir: o.launch, home, readFile: o.read });
  out[agent] = o.all ? r.calls : r.requests;
  console.error(`${agent}: exit ${r.exitCode}${r.timedOut ? ' (TIMED OUT)' : ''} in ${r.ms} ms, ${r.requests.length} model calls, ${r.calls.length} HTTP calls; tool calls: ${JSON.stringify(r.toolCalls)}`);
  if (r.stderr.trim()) console.error(`${agent} stderr:\n${r.stderr.trim().slice(0, 4000)}`);
  if (r.stdout.trim()) console.error(`${agent} stdout:\n${r.stdout.trim().slice(0, 2000)}`);
  if (!o.keep) rmSync(home, { recursive: true, force: true });
  else console.error(`${agent} home kept: ${home}`);
}
const text = JSON.stringify(agents.length === 1 ? out[agents[0]] : out, null, 2);
if (o.out) writeFileSync(o.out, text + '\n');
else console.log(text);
