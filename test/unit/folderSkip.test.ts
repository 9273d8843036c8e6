import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CachedFileSystem } from '../../src/core/cachedFs';
import { resolveChain, type Host } from '../../src/core/chain';
import { SnapshotGitIndex } from '../../src/core/git';
import { PROFILES } from '../../src/core/profiles';
import { build, HOME, treeSpec, type BuiltTree } from './fuzz/trees';

// A profile's step through a folder that holds none of the names it looks for adds nothing, and
// is skipped when the folder's listing says so (`FileSystem.lacksAll`): most folders on a chain of
// a large repository hold no instruction file. On random trees, every chain of every profile must
// equal the chain resolved where the cache never knows (`lacksAll` always unsure).

/** A refresh whose `lacksAll` is always unsure: every folder's step is taken. */
class Unsure extends CachedFileSystem {
  override lacksAll(): boolean {
    return false;
  }
}

/** A refresh whose `lacksAll` is always sure: every folder's step is skipped, files or not. */
class Overeager extends CachedFileSystem {
  override lacksAll(): boolean {
    return true;
  }
}

/** The real answer, counting the folders it says hold none of the names. */
class Counting extends CachedFileSystem {
  static skipped = 0;
  override lacksAll(dir: string, names: readonly string[]): boolean {
    const lacks = super.lacksAll(dir, names);
    if (lacks) Counting.skipped++;
    return lacks;
  }
}

/** The profiles that skip a folder's step by `lacksAll`. */
const SKIPPING = ['claude-code', 'copilot-cli', 'codex', 'cursor'];

/** The first target of the tree where the two hosts give another chain; undefined when none. */
function differs(t: BuiltTree, id: string, a: Host, b: Host): string | undefined {
  const profile = PROFILES.find((p) => p.id === id)!;
  for (const target of t.targets) {
    const req = { profile, target, home: HOME, env: {}, settings: {}, platform: 'linux' as const };
    try {
      assert.deepStrictEqual(resolveChain(req, a), resolveChain(req, b));
    } catch {
      return target;
    }
  }
  return undefined;
}

const host = (t: BuiltTree, fs: CachedFileSystem): Host => ({ fs, git: new SnapshotGitIndex(t.git) });

describe('a folder holding none of the names a profile looks for is skipped, and the chain stays the same', () => {
  for (const { id, mainFile } of PROFILES) {
    it(`${id}: random trees, every target, with and without the skip`, () => {
      Counting.skipped = 0;
      fc.assert(
        fc.property(treeSpec, (spec) => {
          const t = build(spec, mainFile ?? 'AGENTS.md');
          assert.equal(differs(t, id, host(t, new Counting(t.fs)), host(t, new Unsure(t.fs))), undefined);
        }),
        { numRuns: 100, seed: 20261205 },
      );
      // The skip was taken, where the profile has one.
      if (SKIPPING.includes(id)) assert.ok(Counting.skipped > 0, 'no folder was skipped');
    });
  }

  for (const id of SKIPPING) {
    it(`${id}: the comparison fails when a folder with files is skipped too`, () => {
      let failed = 0;
      fc.assert(
        fc.property(treeSpec, (spec) => {
          const t = build(spec, PROFILES.find((p) => p.id === id)!.mainFile ?? 'AGENTS.md');
          if (differs(t, id, host(t, new Overeager(t.fs)), host(t, new Unsure(t.fs))) !== undefined) failed++;
        }),
        { numRuns: 100, seed: 20261205 },
      );
      assert.ok(failed > 0, 'no random tree told a skipped folder with files from a folder without');
    });
  }
});
