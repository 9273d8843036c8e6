import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { gitListSearch, withText } from '../../src/cliListText';
import { deadGlobs, type GlobRule } from '../../src/core/check';
import { matchesAny } from '../../src/core/globs';
import type { Profile } from '../../src/core/profile';

// `glob-no-match` reports each glob of a conditional rule that matches no file below the rule's
// folder. `check` finds them in one pass over the file list, testing each file only against the
// folders above it that still wait for a match; it must report exactly the globs that match no
// file, whatever the order of the list and however the folders nest.
describe("check's dead globs (glob-no-match)", () => {
  const ROOT = '/r';
  const fsRules = { path: path.posix, caseInsensitive: false };
  const ignoringCase = (rel: string, glob: string) => matchesAny(rel.toLowerCase(), [glob.toLowerCase()]);
  const agents = [{ id: 'plain' }, { id: 'nocase', matchesGlob: ignoringCase }] as unknown as Profile[];
  const segment = fc.constantFrom('a', 'b', 'src', 'A', 'ab', 'é');
  // U+212A (Kelvin) is `k` in lower case, and İ longer: a file's lower case is what its plain runs are looked for in.
  const name = fc.constantFrom('x.js', 'y.ts', 'Y.TS', 'z.nomatch', 'R.md', 'İ.js', '\u212A.md');
  const file = fc.tuple(fc.array(segment, { maxLength: 4 }), name).map(([dirs, n]) => [...dirs, n].join('/'));
  const glob = fc.constantFrom('**/*.js', '*.ts', 'src/**', '**/*.nomatch', 'a/**/x.js', '**/Y.TS', 'b', '**/*.md', 'ab/*', '**/é/**', '**/k.md', '**/*.none');
  const rule = fc.record({
    agent: fc.constantFrom(...agents),
    // The folder the rule speaks for: the root, a folder of the list or not, or one outside the root.
    scope: fc.oneof(fc.constant(ROOT), fc.array(segment, { minLength: 1, maxLength: 3 }).map((dirs) => `${ROOT}/${dirs.join('/')}`), fc.constant('/elsewhere')),
    globs: fc.array(glob, { minLength: 1, maxLength: 3 }),
  });

  /** The dead globs by definition: a glob is dead when no file below the rule's folder matches it. */
  function expected(files: readonly string[], rules: readonly GlobRule[]): Map<GlobRule, string[]> {
    const out = new Map<GlobRule, string[]>();
    for (const r of rules) {
      if (r.scope !== ROOT && !r.scope.startsWith(`${ROOT}/`)) continue;
      const prefix = r.scope === ROOT ? '' : `${r.scope.slice(ROOT.length + 1)}/`;
      const match = r.profile.matchesGlob ?? ((rel: string, g: string) => matchesAny(rel, [g]));
      const dead = r.globs.filter((g) => !files.some((f) => f.startsWith(prefix) && match(f.slice(prefix.length), g)));
      if (dead.length) out.set(r, dead);
    }
    return out;
  }

  function run(files: readonly string[], rules: readonly GlobRule[]): Map<GlobRule, string[]> {
    const steps = deadGlobs(fsRules, ROOT, files, rules, gitListSearch);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  // Sorted, the list is a few ascending stretches where each folder's files are found by halving;
  // unsorted, mostly more than the pass takes as stretches, and sorted first. A list the CLI has
  // git's text of (`-z`, its paths tagged with `-t` or not) is searched as that text for the globs'
  // plain runs (src/cliListText.ts), unless it holds a name whose lower case is another length or
  // a plain letter (İ, K).
  it('reports exactly the globs that match no file below their folder (random lists, sorted or not, with git text or not)', () => {
    let dead = 0;
    let alive = 0;
    fc.assert(
      fc.property(fc.array(file, { maxLength: 40 }), fc.array(rule, { minLength: 1, maxLength: 6 }), fc.boolean(), fc.constantFrom('none', '', '? ', 'H '), fc.boolean(), (drawnFiles, drawn, sorted, tag, plain) => {
        const listed = plain ? drawnFiles.map((f) => f.replace('İ', 'I').replace('\u212A', 'K')) : drawnFiles;
        const unique = sorted ? [...new Set(listed)].sort() : listed;
        const files = tag === 'none' ? unique : withText([...unique], unique.map((f) => `${tag}${f}\0`).join(''), tag.length);
        const rules: GlobRule[] = drawn.map((r) => ({ profile: r.agent, path: `${r.scope}/.rules/r.md`, scope: r.scope, globs: r.globs }));
        const want = expected(files, rules);
        assert.deepEqual(run(files, rules), want);
        for (const r of rules) {
          const n = want.get(r)?.length ?? 0;
          dead += n;
          alive += r.globs.length - n;
        }
      }),
      { numRuns: 3_000, seed: 20261203 },
    );
    assert.ok(dead > 1_000 && alive > 1_000, `dead ${dead}, alive ${alive}: both should be common`);
  });

  it('stops at the first file that matches, in a folder named like a longer one', () => {
    const rules: GlobRule[] = [
      { profile: agents[0], path: '/r/a/.rules/r.md', scope: '/r/a', globs: ['**/*.js'] },
      { profile: agents[0], path: '/r/ab/.rules/r.md', scope: '/r/ab', globs: ['**/*.js', '*.ts'] },
    ];
    const dead = run(['a/x.ts', 'ab/x.js', 'abc/y.ts'], rules);
    assert.deepEqual([...dead].map(([r, globs]) => [r.scope, globs]), [['/r/a', ['**/*.js']], ['/r/ab', ['*.ts']]]);
  });
});
