import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { check } from '../../src/core/check';
import { MemoryGitIndex } from './doubles/memoryGit';
import type { Profile } from '../../src/core/profile';
import { findProfile, PROFILES } from '../../src/core/profiles';
import { positionAt } from '../../src/core/text';
import { MemoryFileSystem } from './doubles/memoryFs';
import { chainOf, tree } from './fixture';

// Regression cases for "never crash, never hang, never lose the rest": each names the bug it
// guards against. Bad input always ends as a diagnostic, never as an exception.

describe('one bad file never hides the rest (a 2,000-deep @import chain printed only "Maximum call stack size exceeded")', () => {
  const files: Record<string, string> = {
    '/r/CLAUDE.md': '@chain/0.md\n',
    '/r/GEMINI.md': '@chain/0.md\n',
    '/r/other/CLAUDE.md': 'Other.\n@missing.md\n',
  };
  for (let i = 0; i < 2000; i++) files[`/r/chain/${i}.md`] = `level ${i}\n@${i + 1}.md\n`;

  it('check with every agent ends, and still reports the broken import in another folder', () => {
    const result = check(tree(files).host, '/r', PROFILES, { home: '/home/u', env: {} });
    assert.ok(result.diagnostics.some((d) => d.code === 'import-missing' && d.path === '/r/other/CLAUDE.md'));
    assert.deepEqual(result.diagnostics.filter((d) => d.code === 'internal-error'), []);
  });

  it('a profile that throws gives an internal-error for its chain, and check goes on with the other profiles', () => {
    const claude = findProfile('claude-code')!;
    const broken: Profile = { ...claude, id: 'broken', agent: 'Broken', resolve: () => { throw new RangeError('Maximum call stack size exceeded'); } };
    const result = check(tree({ '/r/CLAUDE.md': '@missing.md\n' }).host, '/r', [broken, claude], { home: '/home/u', env: {} });
    assert.ok(result.diagnostics.some((d) => d.code === 'internal-error' && /Broken's chain.*Maximum call stack/.test(d.message)));
    assert.ok(result.diagnostics.some((d) => d.code === 'import-missing'));
  });
});

describe('symlink loops outside git (`ln -s . loop` listed every file 40 times; two such links ran for minutes)', () => {
  it('check walks each real folder once', () => {
    const fs = new MemoryFileSystem({ '/r/CLAUDE.md': 'x\n', '/r/a/CLAUDE.md': '@missing.md\n' });
    fs.symlink('/r/loop', '.').symlink('/r/loop2', '.').symlink('/r/a/up', '..');
    const result = check({ fs, git: new MemoryGitIndex(fs) }, '/r', [findProfile('claude-code')!], { home: '/home/u', env: {} });
    assert.deepEqual(result.files, ['/r/CLAUDE.md', '/r/a/CLAUDE.md']);
    assert.equal(result.diagnostics.filter((d) => d.code === 'import-missing').length, 1);
  });

  it("Copilot's AGENTS.md search outside git enters each real folder once", () => {
    const fs = new MemoryFileSystem({ '/r/AGENTS.md': 'x\n', '/r/a/AGENTS.md': 'y\n' });
    fs.symlink('/r/loop', '.').symlink('/r/loop2', '.');
    const c = chainOf({ fs, host: { fs, git: new MemoryGitIndex(fs) } } as ReturnType<typeof tree>, 'copilot', '/r/a/x.ts', { launchDir: '/r' });
    assert.ok(!c.sources.some((s) => s.path.includes('loop')), c.sources.map((s) => s.path).join('\n'));
  });
});

describe('many broken imports (20,000 `@a.md` lines took 15 s with gemini-cli, 13 s with copilot-cli)', () => {
  const lines = Array.from({ length: 20_000 }, () => '@a.md').join('\n') + '\n';
  for (const agent of ['gemini-cli', 'copilot-cli', 'claude-code']) {
    it(`${agent}: every diagnostic sits on its own line`, { timeout: 60_000 }, () => {
      const file = agent === 'gemini-cli' ? '/r/GEMINI.md' : '/r/CLAUDE.md';
      const c = chainOf(tree({ [file]: lines, '/r/.git/HEAD': '' }), agent, '/r/x.ts', { launchDir: '/r' });
      const missing = c.diagnostics.filter((d) => d.code === 'import-missing');
      assert.ok(missing.length >= 1);
      for (const d of missing) assert.equal(lines.split('\n')[d.line].slice(d.column, d.endColumn), '@a.md');
    });
  }

  it('positionAt agrees with a count of newlines anywhere in a text', () => {
    const text = 'ab\ncd\r\n\né𝄞x\n';
    for (let offset = 0; offset <= text.length; offset++) {
      const before = text.slice(0, offset).split('\n');
      assert.deepEqual(positionAt(text, offset), { line: before.length - 1, column: before[before.length - 1].length });
    }
  });
});
