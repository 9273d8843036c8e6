import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CachedFileSystem } from '../../src/core/cachedFs';
import { CarriedMap } from '../../src/core/carriedMap';
import { carryHost, refreshHost, resolveChain, type Host } from '../../src/core/chain';
import { SnapshotGitIndex } from '../../src/core/git';
import { PROFILES } from '../../src/core/profiles';
import { MemoryFileSystem } from './doubles/memoryFs';
import { MemoryGitIndex } from './doubles/memoryGit';
import { build, HOME, treeSpec } from './fuzz/trees';

// A refresh after a change to some files' contents takes the last refresh's answers over
// (`carry`) by reference: after hundreds of changes it must still answer as a fresh cache of the
// disk does, and a change must cost the files it wrote, not the size of the cache.

const KEYS = ['a', 'b', 'c', 'd', 'e', 'f'];

type Op = { kind: 'set'; key: string; value: number } | { kind: 'carry'; changed: string[]; keepOld: boolean };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('set' as const), key: fc.constantFrom(...KEYS), value: fc.nat(9) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('carry' as const), changed: fc.subarray(KEYS), keepOld: fc.boolean() }) },
);

describe('carrying a refresh\'s answers over a change', () => {
  it('a carried map answers as a copy made at the carry would, and the map carried from goes on apart', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        // Every map still in use beside its model: a copy of the answers, without the changed keys.
        let maps: [CarriedMap<number>, Map<string, number>][] = [[new CarriedMap(), new Map()]];
        for (const o of ops) {
          const [map, model] = maps[maps.length - 1];
          if (o.kind === 'set') {
            // Writes go to the older maps too, as a pass still under way on an old refresh does.
            maps.forEach(([m, mm], i) => {
              m.set(o.key, o.value + 10 * i);
              mm.set(o.key, o.value + 10 * i);
            });
            continue;
          }
          const changed = new Set(o.changed);
          const next: [CarriedMap<number>, Map<string, number>] = [map.carry(changed), new Map([...model].filter(([k]) => !changed.has(k)))];
          maps = o.keepOld ? [...maps.slice(-3), next] : [next];
          for (const [m, mm] of maps) for (const k of KEYS) assert.deepEqual([m.has(k), m.get(k)], [mm.has(k), mm.get(k)], k);
        }
        for (const [m, mm] of maps) for (const k of KEYS) assert.deepEqual([m.has(k), m.get(k)], [mm.has(k), mm.get(k)], k);
      }),
      { numRuns: 500, seed: 20261202 },
    );
  });

  it('after a long series of changes to files\' contents, every chain and answer is a fresh cache\'s (random trees)', () => {
    const edits = fc.array(fc.tuple(fc.nat(), fc.nat(), fc.constantFrom('x\n', '@AGENTS.md\n', '# Title\n@missing.md\n', '')), { minLength: 20, maxLength: 40 });
    fc.assert(
      fc.property(treeSpec, edits, fc.nat(), (spec, series, agent) => {
        const profile = PROFILES[agent % PROFILES.length];
        // Links to files only: a file read through a linked folder (`link/CLAUDE.md`) without
        // asking its real path is not known to be the written file, before as now.
        const t = build({ ...spec, links: spec.links.filter((l) => l.to.endsWith('.md')) }, profile.mainFile ?? 'AGENTS.md');
        // The files a change may write: every real file of the tree, never a link.
        const files = t.targets.filter((p) => t.fs.stat(p)?.type === 'file' && !t.fs.isSymlink(p) && t.fs.realPath(p) === p).concat('/outside/CLAUDE.md', '/outside/dir/AGENTS.md');
        const req = (target: string) => ({ profile, target, home: HOME, env: {}, settings: {}, platform: 'linux' as const });
        let host: Host = refreshHost({ fs: t.fs, git: t.git });
        for (const target of t.targets) resolveChain(req(target), host);
        for (const [n, [which, target, text]] of series.entries()) {
          const written = files[which % files.length];
          t.fs.write(written, `${text}edit ${n}\n`);
          host = carryHost(host, [written])!;
          const at = t.targets[target % t.targets.length];
          const fresh: Host = { fs: new CachedFileSystem(t.fs), git: new SnapshotGitIndex(t.git) };
          assert.deepStrictEqual(resolveChain(req(at), host), resolveChain(req(at), fresh), `${at} after writing ${written}`);
          for (const p of [...t.targets, ...files]) {
            assert.deepStrictEqual(host.fs.stat(p), fresh.fs.stat(p), p);
            assert.equal(host.fs.realPath(p), fresh.fs.realPath(p), p);
            assert.deepStrictEqual(host.fs.readDir(p), fresh.fs.readDir(p), p);
            const read = (h: Host) => {
              try {
                return h.fs.readFile(p);
              } catch (e) {
                return (e as { code?: string }).code;
              }
            };
            assert.deepStrictEqual(read(host), read(fresh), p);
          }
        }
      }),
      { numRuns: 60, seed: 20261202 },
    );
  });

  it('a change costs the same whatever the size of the cache it is carried from', () => {
    // Map and Set operations during each carry, on a cache of 1,000 answers and on one of 10,000,
    // after the same series of changes, each asking a few answers anew: first to 60 files one
    // after another, then to 5 files over and over (an editing session), where the carries'
    // cost must not grow with the number of changes.
    const counted = ['get', 'has', 'set', 'delete', 'add'] as const;
    const costs = (files: number): number[] => {
      const tree: Record<string, string> = {};
      for (let i = 0; i < files; i++) tree[`/r/d${i % 100}/f${i}.md`] = `file ${i}\n`;
      const mem = new MemoryFileSystem(tree);
      const fs0 = new CachedFileSystem(mem);
      for (const p of Object.keys(tree)) {
        fs0.stat(p);
        fs0.readFile(p);
        fs0.realPath(p);
      }
      let host: Host = { fs: fs0, git: new SnapshotGitIndex(new MemoryGitIndex(mem, new Set())) };
      const out: number[] = [];
      for (let n = 0; n < 260; n++) {
        const f = n < 60 ? n : n % 5;
        const written = `/r/d${f % 100}/f${f}.md`;
        mem.write(written, `edit ${n}\n`);
        let ops = 0;
        const patched: [Record<string, unknown>, string, (...a: unknown[]) => unknown][] = [];
        for (const proto of [Map.prototype, Set.prototype] as unknown as Record<string, unknown>[]) {
          for (const name of counted) {
            const original = proto[name] as ((...a: unknown[]) => unknown) | undefined;
            if (!original) continue;
            patched.push([proto, name, original]);
            proto[name] = function (this: unknown, ...a: unknown[]) {
              ops++;
              return original.apply(this, a);
            };
          }
        }
        try {
          host = carryHost(host, [written])!;
        } finally {
          for (const [proto, name, original] of patched) proto[name] = original;
        }
        out.push(ops);
        host.fs.readFile(written);
        host.fs.stat(written);
      }
      return out;
    };
    const small = costs(1_000);
    const large = costs(10_000);
    assert.deepEqual(large, small);
    const session = (from: number, to: number) => Math.max(...large.slice(from, to));
    assert.ok(session(160, 260) <= session(60, 160), `the carries' cost grew over an editing session: ${session(60, 160)}, then ${session(160, 260)}`);
  });
});
