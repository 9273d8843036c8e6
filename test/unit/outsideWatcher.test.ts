import assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { OutsideWatcher, POLL_MS } from '../../src/vscode/outsideWatcher';

// The extension's watcher of the paths outside the workspace folders (the candidates above a file
// opened outside the workspace, the home's files) on the real disk: the paths it is asked about
// change with each editor switch over a session, and what it keeps must follow them.

let tmp: string;
let watcher: OutsideWatcher | undefined;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

before(() => {
  tmp = nodeFs.realpathSync(nodeFs.mkdtempSync(path.join(os.tmpdir(), 'il-outside-watcher-')));
});
afterEach(() => watcher?.dispose());
after(() => nodeFs.rmSync(tmp, { recursive: true, force: true }));

describe('the watcher of paths outside the workspace', () => {
  it('keeps nothing about missing paths it was asked to watch before, once they were polled', async () => {
    const dir = path.join(tmp, 'forgets');
    nodeFs.mkdirSync(dir);
    // The candidates above 40 files opened one after the other, none of them there.
    const earlier = Array.from({ length: 40 }, (_, i) => path.join(dir, `project${i}`, 'CLAUDE.md'));
    watcher = new OutsideWatcher(() => {});
    watcher.watch(earlier);
    await sleep(POLL_MS * 1.5);
    const now = [path.join(dir, 'now', 'CLAUDE.md'), path.join(dir, 'now', 'AGENTS.md')];
    watcher.watch(now);
    await sleep(POLL_MS * 1.5);
    assert.equal(watcher.remembered, now.length);
  });

  it('still reports a path made after it was polled, dropped and asked about again', async () => {
    const dir = path.join(tmp, 'again');
    nodeFs.mkdirSync(dir);
    const file = path.join(dir, 'project', 'CLAUDE.md');
    const changed: string[] = [];
    watcher = new OutsideWatcher((p) => changed.push(p));
    watcher.watch([file]);
    await sleep(POLL_MS * 1.5);
    watcher.watch([]);
    watcher.watch([file]);
    nodeFs.mkdirSync(path.dirname(file));
    nodeFs.writeFileSync(file, 'Answer in English.\n');
    for (let waited = 0; !changed.includes(file) && waited < POLL_MS * 4; waited += 50) await sleep(50);
    assert.ok(changed.includes(file), 'the new file was reported');
  });
});
