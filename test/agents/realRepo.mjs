// The fidelity suite's real-repository mode:
//   npm run test:agents -- --repo <checkout> [--read <file in it>]
// copies the checkout's folders an agent can read (from the root down to --read, the agents'
// dot-folders, what @imports reach; size-capped, no settings or credentials) into a temporary
// folder, appends a marker line to each instruction file, runs each pinned real agent there from
// the checkout's root (reading --read when given) and reports, per agent and per phase (start,
// read), whether what it sent matches `render` byte for byte. An empty home: only the
// repository's own files count. The same module runs `instruction-lens verify` (src/verify/).
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, after } from 'node:test';
import { pinnedAgent } from '../../scripts/agents/install.mjs';
import { verify } from '../../scripts/agents/harness.mjs';

/** `--repo <dir> [--read <file>]` from the command line, or null. */
export function repoArguments(argv) {
  const at = argv.indexOf('--repo');
  if (at < 0) return null;
  const repo = argv[at + 1];
  const r = argv.indexOf('--read');
  const read = r >= 0 ? argv[r + 1] : undefined;
  if (!repo || !statSync(repo, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`--repo needs a folder, not ${JSON.stringify(repo)}`);
  const repoDir = realpathSync(repo);
  const readFile = read ? realpathSync(path.resolve(repoDir, read)) : undefined;
  if (readFile && !statSync(readFile).isFile()) throw new Error(`--read needs a file, not ${read}`);
  return { repo: repoDir, read: readFile };
}

export function defineRepoSuite({ repo, read, agents, install }) {
  const home = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'il-repo-home-')));
  const rows = [];
  after(() => {
    rmSync(home, { recursive: true, force: true });
    if (!rows.length) return;
    const width = Math.max(...rows.map((r) => r[0].length));
    process.stdout.write(`\n${path.basename(repo)}${read ? ` (reading ${path.relative(repo, read)})` : ''}:\n` + rows.map((r) => `  ${r[0].padEnd(width)}  ${r[1]}`).join('\n') + '\n');
  });
  describe(`real repository ${repo}`, { concurrency: false }, () => {
    for (const agent of agents) {
      it(agent, { timeout: 300_000 }, async (t) => {
        if (install) assert.fail(`the agent CLIs could not be installed: ${install.message}`);
        const report = await verify({ target: read ?? repo, launchDir: repo, home, readFile: read ?? null, agents: [agent], locations: { [agent]: pinnedAgent(agent) } });
        const a = report.agents[0];
        if (a.status === 'not-run') {
          rows.push([`${agent}`, `not run: ${a.reason}`]);
          assert.fail(`${agent} could not be run: ${a.reason}`);
        }
        const lines = [];
        for (const p of a.phases) {
          const verdict = p.ok ? `matches byte for byte (${p.parts} part${p.parts === 1 ? '' : 's'})` : `${p.differences.length} difference(s)`;
          rows.push([`${agent} ${p.phase}`, verdict]);
          t.diagnostic(`${p.phase}: ${verdict}`);
          for (const d of p.differences) lines.push(`${p.phase}: ${d.file ? path.relative(repo, d.file) : '(no file)'}: ${d.message}${d.expected !== undefined ? `\n    expected: ${JSON.stringify(d.expected)}\n    sent:     ${JSON.stringify(d.sent)}` : d.sent ? `\n    sent: ${JSON.stringify(d.sent.slice(0, 300))}` : ''}`);
        }
        if (a.status !== 'match') assert.fail(`${agent} ${a.versionRun ?? ''} differs from our render:\n${lines.join('\n')}`);
      });
    }
  });
}
