import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEFAULTED } from '../../src/core/detect';
import { PROFILES } from '../../src/core/profiles';
import { AgentDetection } from '../../src/vscode/agentDetection';
import type { MachineFound } from '../../src/vscode/checkWorker';
import { homeDir, sleep, until } from './helpers';

// When agent detection looks at the machine (each agent's CLI on PATH run for its version): while
// the first chain is on its way only when the machine may decide which agent's chain that is.
// The folders' listing and the machine's look are this test's own, each noted when asked.

/** Each profile's evidence in a folder's files: Codex's AGENTS.md, or nothing marked (`DEFAULTED`). */
const codexMarked = PROFILES.map((p) => (p.id === 'codex' ? ['AGENTS.md'] : []));
const nothingMarked = PROFILES.map((p) => (p.evidence.markers.length ? [DEFAULTED] : []));
/** The machine: Claude Code's folder in the home. */
const claudeHome: MachineFound[] = PROFILES.map((p) => ({ found: p.id === 'claude-code' ? ['~/.claude'] : [] }));

function detection(evidence: string[][], detecting = true) {
  const asked: string[] = [];
  let shown!: () => void;
  const firstChain = new Promise<void>((resolve) => (shown = resolve));
  const made = new AgentDetection(
    () => homeDir,
    async () => (asked.push('listed'), evidence),
    async () => (asked.push('looked'), claudeHome),
    () => firstChain,
    () => detecting,
  );
  return { made, asked, shown: () => shown() };
}

const folder = () => vscode.workspace.workspaceFolders![0].uri;
const used = (d: AgentDetection) => d.detections(folder()).filter((x) => x.used).map((x) => x.profile.id);

describe('agent detection at start-up', () => {
  it('when the folders\' files name their agents, the first chain waits only for the listing, and the machine is looked at once it is shown', async () => {
    const { made, asked, shown } = detection(codexMarked);
    try {
      used(made);
      await made.ready(true);
      assert.deepEqual(used(made), ['codex']);
      await sleep(300);
      assert.ok(!asked.includes('looked'), `not looked at yet: ${asked.join(', ')}`);
      shown();
      await made.ready();
      assert.equal(asked.at(-1), 'looked');
      // The machine's agents added to the folder's, as before.
      assert.deepEqual(used(made), ['claude-code', 'codex']);
    } finally {
      made.dispose();
    }
  });

  it('when no folder\'s files name an agent, the machine decides: it is looked at before the first chain is shown, which waits for it', async () => {
    const { made, asked } = detection(nothingMarked);
    try {
      await made.ready(true);
      assert.ok(asked.includes('looked'), `looked at: ${asked.join(', ')}`);
      assert.deepEqual(used(made), ['claude-code']);
    } finally {
      made.dispose();
    }
  });

  it('with the agents pinned by the settings, nothing is listed and the machine waits for the first chain', async () => {
    const { made, asked, shown } = detection(codexMarked, false);
    try {
      await sleep(300);
      assert.equal(asked.length, 0, asked.join(', '));
      shown();
      await until(() => asked.includes('looked'), 'the machine looked at');
      assert.deepEqual(asked, ['looked']);
    } finally {
      made.dispose();
    }
  });
});
