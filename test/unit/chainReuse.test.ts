import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CachedFileSystem } from '../../src/core/cachedFs';
import { refreshHost, resolveChain, type Host } from '../../src/core/chain';
import { SnapshotGitIndex } from '../../src/core/git';
import { findProfile } from '../../src/core/profiles';
import { build, HOME, treeSpec, type BuiltTree } from './fuzz/trees';

// Some profiles share what a folder adds to a chain between the chains of one refresh (`check`
// resolves a chain for every folder, the extension one per file it shows). On random trees,
// every chain resolved in one shared refresh must equal the same chain resolved alone.

const REUSING = ['claude-code', 'copilot-cli', 'codex'];

/** Every chain of the tree in one refresh, and each alone; returns the first target where they differ. */
function compare(t: BuiltTree, id: string, launchAtFolder: boolean, reverse: boolean, shared: Host): string | undefined {
  const profile = findProfile(id)!;
  const targets = reverse ? [...t.targets].reverse() : t.targets;
  for (const target of targets) {
    // The extension's `fileFolder` mode starts the agent in the target's folder.
    const launchDir = launchAtFolder ? (t.fs.stat(target)?.type === 'dir' ? target : t.fs.path.dirname(target)) : undefined;
    const req = { profile, target, launchDir, home: HOME, env: {}, settings: {}, platform: 'linux' as const };
    const alone = resolveChain(req, { fs: t.fs, git: t.git });
    const together = resolveChain(req, shared);
    try {
      assert.deepStrictEqual(together, alone);
    } catch {
      return target;
    }
  }
  return undefined;
}

const cases = fc.tuple(treeSpec, fc.boolean(), fc.boolean());

describe('chains of one refresh share what each folder adds, and equal the chains resolved alone', () => {
  for (const id of REUSING) {
    it(`${id}: random trees, every target, shared refresh and alone give the same chain`, () => {
      fc.assert(
        fc.property(cases, ([spec, launchAtFolder, reverse]) => {
          const t = build(spec, findProfile(id)!.mainFile ?? 'AGENTS.md');
          assert.equal(compare(t, id, launchAtFolder, reverse, refreshHost({ fs: t.fs, git: t.git })), undefined);
        }),
        { numRuns: 150, seed: 20261201 },
      );
    });

    it(`${id}: the comparison fails when a folder's share is taken for another folder's`, () => {
      // A refresh whose memo forgets the folder a question names (the part of the key after its
      // last NUL) in the keys of a folder's share, or the path in a map of folders' shares by path
      // (`folders\0`): chains then get another folder's share, and the property must catch it.
      class ForgetfulMap<V> extends Map<string, V> {
        override get(): V | undefined {
          return super.get('');
        }
        override set(_key: string, value: V): this {
          return super.set('', value);
        }
      }
      class Forgetful extends CachedFileSystem {
        override memo<T>(owner: string, key: string, compute: () => T): T {
          if (key.startsWith('folders\0')) return super.memo(owner, key, () => new ForgetfulMap() as T);
          return super.memo(owner, key.startsWith('folder\0') ? key.slice(0, key.lastIndexOf('\0')) : key, compute);
        }
      }
      let failed = 0;
      fc.assert(
        fc.property(cases, ([spec, launchAtFolder, reverse]) => {
          const t = build(spec, findProfile(id)!.mainFile ?? 'AGENTS.md');
          const broken = { fs: new Forgetful(t.fs), git: new SnapshotGitIndex(t.git) };
          if (compare(t, id, launchAtFolder, reverse, broken) !== undefined) failed++;
        }),
        { numRuns: 150, seed: 20261201 },
      );
      assert.ok(failed > 0, 'no random tree told a wrong share from a right one');
    });
  }
});
