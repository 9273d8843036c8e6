import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { resolveChain } from '../../src/core/chain';
import { PROFILES } from '../../src/core/profiles';
import type { GitIndex } from '../../src/core/git';
import { ProcessFreeGit } from '../../src/core/workspaceHost';
import { build, HOME, treeSpec } from './fuzz/trees';

// The extension resolves its first chain on the extension host's thread through `ProcessFreeGit`
// (no git process started there), and shows it only when the chain asked git for nothing. On
// random trees with committed and tracked files, such a chain must equal the one resolved with git.

const cases = fc.tuple(treeSpec, fc.boolean());

/** Each target's chain through `git` where it asked git for nothing, beside the chain resolved with git; and how many were dropped. */
function compare(spec: Parameters<typeof build>[0], launchAtFolder: boolean, profile: (typeof PROFILES)[number], freeGit: (inner: GitIndex) => ProcessFreeGit) {
  const t = build(spec, profile.mainFile ?? 'AGENTS.md');
  let kept = 0;
  let dropped = 0;
  let differs: string | undefined;
  for (const target of t.targets) {
    const launchDir = launchAtFolder ? (t.fs.stat(target)?.type === 'dir' ? target : t.fs.path.dirname(target)) : undefined;
    const req = { profile, target, launchDir, home: HOME, env: {}, settings: {}, platform: 'linux' as const };
    const git = freeGit(t.git);
    const free = resolveChain(req, { fs: t.fs, git });
    if (git.wanted) {
      dropped++;
      continue;
    }
    kept++;
    if (!isDeepStrictEqual(free, resolveChain(req, { fs: t.fs, git: t.git }))) differs ??= target;
  }
  return { kept, dropped, differs };
}

/** The agents whose chains read what git tracks or commits (Copilot: the workspace's every `AGENTS.md`, through git's listing). */
const READ_GIT = ['car', 'scaling', 'copilot'];

describe('a chain resolved without git processes', () => {
  for (const profile of PROFILES) {
    it(`${profile.id}: equals the chain resolved with git whenever it asked git for nothing`, () => {
      let kept = 0;
      let dropped = 0;
      fc.assert(
        fc.property(cases, ([spec, launchAtFolder]) => {
          const r = compare(spec, launchAtFolder, profile, (inner) => new ProcessFreeGit(inner));
          kept += r.kept;
          dropped += r.dropped;
          assert.equal(r.differs, undefined);
        }),
        { numRuns: 40, seed: 20261203 },
      );
      // Outside a repository every agent's chain is kept; in one, those that read git's answers
      // are dropped (the worker's answer is awaited) and the others kept: their first chain is
      // the one resolved on the extension host's thread.
      assert.ok(kept > 0 && (READ_GIT.includes(profile.id) ? dropped > 0 : dropped === 0), `${profile.id}: kept ${kept}, dropped ${dropped}`);
    });
  }

  it('the comparison fails when a question git would answer is answered with nothing unnoticed', () => {
    // A wrapper that forgets to note what it withheld: the chains of the agents that read git must differ.
    class Silent extends ProcessFreeGit {
      constructor(inner: GitIndex) {
        super(inner);
        Object.defineProperty(this, 'wanted', { get: () => false, set: () => undefined });
      }
    }
    for (const id of READ_GIT) {
      const profile = PROFILES.find((p) => p.id === id)!;
      let differed = 0;
      fc.assert(
        fc.property(cases, ([spec, launchAtFolder]) => {
          if (compare(spec, launchAtFolder, profile, (inner) => new Silent(inner)).differs) differed++;
        }),
        { numRuns: 40, seed: 20261203 },
      );
      assert.ok(differed > 0, `${id}: no random tree told a withheld git answer from a real one`);
    }
  });
});
