#!/usr/bin/env node
// For humans: print where instruction text sits in a capture, as JSON string literals.
//
//   node scripts/agents/show.mjs <capture.json> [--all]
//
// <capture.json>: a file of test-results/agents/<agent>/ (or a plain array of request bodies).
// Prints each segment of the compared request (the one src/verify/compare.ts picks) with its
// `where` and index path; long system prompts are cut to the instruction-bearing region
// (from the first marker to the last, with 80 characters around). --all: every segment whole.
import { readFileSync } from 'node:fs';
import { pickRequest, protocolOf, segmentsOf } from './harness.mjs';

const [file, flag] = process.argv.slice(2);
if (!file) {
  console.error('usage: show.mjs <capture.json> [--all]');
  process.exit(2);
}
const data = JSON.parse(readFileSync(file, 'utf8'));
const requests = Array.isArray(data) ? data : data.requests;
const agent = Array.isArray(data) ? undefined : data.agent;
const { index, body } = pickRequest(requests, agent ? protocolOf(null, agent) : undefined);
if (!body) {
  console.log('no request captured');
  process.exit(1);
}
const protocol = protocolOf(body, agent);
const markers = /Contents of |<INSTRUCTIONS>|--- Context from: |<custom_instruction>|<system_reminder>|<loaded_context>|Newly Discovered Project Context|imported_custom_instruction|Custom instructions from|Here is a list of instruction files|tool\.call hook additional context/g;
if (!Array.isArray(data)) {
  console.log(`${data.agent} · ${data.scenario} · ${data.phase} · exit ${data.exitCode} · ${data.ms} ms · fixture ${data.fixture?.tmpRoot}`);
}
console.log(`request ${index} of ${requests.length} (${protocol})`);
for (const seg of segmentsOf(body, protocol).segments) {
  const hits = [...seg.text.matchAll(markers)];
  if (flag !== '--all' && (!hits.length || seg.where === 'other')) continue;
  let text = seg.text;
  let range = '';
  if (flag !== '--all' && text.length > 4000) {
    const a = Math.max(0, hits[0].index - 80);
    const last = hits[hits.length - 1].index;
    // Run to the end of the last marker's block (the next blank-line-free stretch is not enough: take 4,000 chars).
    const z = Math.min(text.length, Math.max(last + 4000, a + 4000));
    range = ` [${a}, ${z}) of ${text.length}`;
    text = text.slice(a, z);
  }
  console.log(`\n${seg.where} · ${seg.path}${range}:\n${JSON.stringify(text)}`);
}
