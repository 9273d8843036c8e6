import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { InstructionLensApi } from '../../src/extension';
import { api, closeEditors, open, selectAgent, sleep, untilTree, ws } from './helpers';

describe('watching the instruction files', () => {
  let lens: InstructionLensApi;

  before(async () => {
    lens = await api();
    await selectAgent(lens, 'claude-code');
  });

  after(async () => {
    fs.rmSync(ws('generated'), { recursive: true, force: true });
    await closeEditors();
  });

  it('follows a rename of an instruction file, and its rename back', async () => {
    await open('packages/api/src/routes/orders.ts');
    await untilTree(lens, (rows) => rows.includes('  CLAUDE.md — on read · api'), 'the nested CLAUDE.md');

    fs.renameSync(ws('packages/api/CLAUDE.md'), ws('packages/api/NOTES.md'));
    await untilTree(lens, (rows) => !rows.some((r) => r.includes('on read · api')), 'the renamed file gone from the chain');

    fs.renameSync(ws('packages/api/NOTES.md'), ws('packages/api/CLAUDE.md'));
    await untilTree(lens, (rows) => rows.includes('  CLAUDE.md — on read · api'), 'the file back in the chain');
  });

  it('turns a burst of thousands of changes (a branch switch) into a refresh or two, then shows the end state', async () => {
    await open('packages/api/src/routes/orders.ts');
    await untilTree(lens, (rows) => rows.length > 0, 'a tree to start from');
    await sleep(500);
    let refreshes = 0;
    const counting = lens.model.onDidChange(() => refreshes++);
    try {
      // 2,000 source files and 40 instruction files appear at once, in many folders.
      for (let i = 0; i < 40; i++) {
        const dir = ws(path.join('generated', `pkg${i}`, 'src'));
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(path.join(dir, '..', 'CLAUDE.md'), `Package ${i} rules.\n`);
        for (let j = 0; j < 50; j++) fs.writeFileSync(path.join(dir, `f${j}.ts`), `export const f${j} = ${j};\n`);
      }
      // One of them matters to the active file's chain: a rule that now matches it.
      fs.mkdirSync(ws('packages/api/.claude/rules'), { recursive: true });
      fs.writeFileSync(ws('packages/api/.claude/rules/routes.md'), '---\npaths: ["src/routes/**"]\n---\nValidate every request body.\n');
      await untilTree(lens, (rows) => rows.includes('  routes.md — on read'), 'the new rule in the chain');
      await sleep(1500);
    } finally {
      counting.dispose();
      fs.rmSync(ws('packages/api/.claude/rules/routes.md'), { force: true });
    }
    assert.ok(refreshes >= 1 && refreshes <= 3, `expected the burst to cause one to three refreshes, saw ${refreshes}`);
  });
});
