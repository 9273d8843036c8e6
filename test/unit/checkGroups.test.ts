import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { check } from '../../src/core/check';
import type { Profile } from '../../src/core/profile';
import { findProfile, PROFILES } from '../../src/core/profiles';
import { tree } from './fixture';
import { build, HOME, ROOT, treeSpec } from './fuzz/trees';

// `check` resolves one folder per `checkKey` of a profile (the others would repeat its answer).
// On random trees, its result must be exactly the one of resolving every folder.

const grouped = PROFILES.filter((p) => p.checkKey);

describe('check: one folder per checkKey gives what every folder gives', () => {
  it('some profiles group folders (else this file tests nothing)', () => {
    assert.ok(grouped.some((p) => p.id === 'car'), grouped.map((p) => p.id).join(', '));
  });

  for (const profile of grouped) {
    it(`${profile.id}: random trees, grouped and every-folder passes equal`, () => {
      fc.assert(
        fc.property(treeSpec, fc.boolean(), (spec, fileFolder) => {
          const t = build(spec, profile.mainFile ?? 'AGENTS.md');
          const host = { fs: t.fs, git: t.git };
          // The extension's `fileFolder` mode: a launch folder per checked folder.
          const launchDir = fileFolder ? (folder: string) => folder : undefined;
          const opts = { home: HOME, env: {}, launchDir };
          const fast = check(host, ROOT, [profile], opts);
          const slow = check(host, ROOT, [profile], { ...opts, everyFolder: true });
          assert.deepStrictEqual(fast, slow);
        }),
        { numRuns: 200, seed: 20261201 },
      );
    });
  }

  it('car: a committed repository with many folders resolves one chain, not one per folder', () => {
    const files: Record<string, string> = { '/r/.git/HEAD': 'ref', '/r/AGENTS.md': 'root\n' };
    for (let i = 0; i < 20; i++) files[`/r/p${i}/s/AGENTS.md`] = `rules ${i}\n`;
    files['/r/p3/s/CLAUDE.md'] = 'not committed\n';
    const t = tree(files, { tracked: Object.keys(files).filter((f) => !f.endsWith('CLAUDE.md') && !f.includes('.git')) });
    const car = findProfile('car')!;
    let resolved = 0;
    const counting: Profile = { ...car, resolve: (ctx) => (resolved++, car.resolve(ctx)) };
    const result = check(t.host, '/r', [counting], { home: HOME, env: {} });
    // The root and p3/s (its untracked CLAUDE.md): two distinct answers among 21 folders.
    assert.equal(resolved, 2);
    assert.ok(result.diagnostics.some((d) => d.code === 'untracked' && d.path === '/r/p3/s/CLAUDE.md'));
    assert.equal(result.diagnostics.filter((d) => d.code === 'chain-over-budget').length, 12, 'past the 8-file budget');
    assert.deepStrictEqual(result, check(t.host, '/r', [car], { home: HOME, env: {}, everyFolder: true }));
  });
});
