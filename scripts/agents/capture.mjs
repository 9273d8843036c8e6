#!/usr/bin/env node
// Capture what each real agent sends for one scenario, at start and on read, into a folder.
//
//   node scripts/agents/capture.mjs [scenarioFile] [--out /tmp/captures] [--agents a,b]
//
// Writes <out>/<agent>-start.json and <out>/<agent>-read.json (request bodies, pretty JSON),
// <out>/<agent>-calls-<phase>.json (every HTTP call with URL and answer) and
// <out>/fixture-<phase>.txt naming the temp directories used.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { installAgents, pinnedAgent, repoRoot } from './install.mjs';
import { materialize, runAgent, RUNNABLE_AGENTS as AGENTS } from './harness.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const scenarioFile = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')) ?? path.join(repoRoot, 'test/agents/scenarios/basic.mjs');
const out = opt('--out', '/tmp/captures');
const agents = opt('--agents', AGENTS.join(',')).split(',');
mkdirSync(out, { recursive: true });
installAgents();
const mod = await import(pathToFileURL(path.resolve(scenarioFile)).href);
const scenario = mod.default ?? mod;

for (const agent of agents) {
  for (const phase of ['start', 'read']) {
    const fx = materialize(scenario);
    const r = await runAgent({ agent, ...pinnedAgent(agent), repoDir: fx.repoDir, launchDir: fx.launchDir, home: fx.home, readFile: phase === 'read' ? fx.readFile : undefined });
    writeFileSync(path.join(out, `${agent}-${phase}.json`), JSON.stringify(r.requests, null, 2) + '\n');
    writeFileSync(path.join(out, `${agent}-calls-${phase}.json`), JSON.stringify({ fixture: fx, argv: r.argv, exitCode: r.exitCode, timedOut: r.timedOut, ms: r.ms, toolCalls: r.toolCalls, stderr: r.stderr, stdout: r.stdout, calls: r.calls }, null, 2) + '\n');
    console.log(`${agent} ${phase}: exit ${r.exitCode}${r.timedOut ? ' TIMED OUT' : ''}, ${r.ms} ms, ${r.requests.length} model calls, tool calls ${JSON.stringify(r.toolCalls.map((t) => t.name))}, repo ${fx.repoDir}`);
  }
}
