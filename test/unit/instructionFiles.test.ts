import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { gitListSearch, namedIn, withText } from '../../src/cliListText';
import { anyPattern } from '../../src/core/check';
import { namedAny } from '../../src/core/git';
import { PROFILES } from '../../src/core/profiles';

// `check` lists the instruction files among every file of the repository. The CLI searches git's
// text of its listing (`-z`, tagged with `-t` or not) for the patterns' plain runs, and tests only
// the paths holding one (src/cliListText.ts): it must find exactly the files a test of each path
// finds, in the list's order, whatever the case of the names and on a disk that ignores case too.
describe('the instruction files among the listed ones', () => {
  const patterns = [...new Set(PROFILES.flatMap((p) => p.filePatterns))];
  const segment = fc.constantFrom('a', 'src', '.claude', '.cursor', 'rules', '.github', 'instructions', 'skills', 'x', '.claw', 'İ');
  const name = fc.constantFrom('CLAUDE.md', 'claude.md', 'Agents.MD', 'AGENTS.md', 'GEMINI.md', 'r.md', 'r.mdc', 'SKILL.md', 'a.instructions.md', 'copilot-instructions.md', '.cursorrules', 'x.js', 'CLAUDE.local.md', 'rules', '\u212Agents.md', 'claude.md.bak');
  const file = fc.tuple(fc.array(segment, { maxLength: 4 }), name).map(([dirs, n]) => [...dirs, n].join('/'));

  it('finds what a test of every path finds (random lists, with git text or not)', () => {
    let found = 0;
    fc.assert(
      fc.property(fc.array(file, { maxLength: 60 }), fc.constantFrom('none', '', '? ', 'H '), fc.boolean(), fc.boolean(), (drawn, tag, plain, nocase) => {
        const listed = plain ? drawn.map((f) => f.replace('İ', 'I').replace('\u212A', 'K')) : drawn;
        const files = tag === 'none' ? listed : withText([...listed], listed.map((f) => `${tag}${f}\0`).join(''), tag.length);
        const isInstruction = anyPattern(patterns, nocase);
        const want = listed.filter(isInstruction);
        const searched = gitListSearch.instructionFiles(files, patterns, isInstruction);
        assert.deepEqual(searched ?? files.filter(isInstruction), want);
        if (searched) found += want.length;
      }),
      { numRuns: 2_000, seed: 20261205 },
    );
    assert.ok(found > 1_500, `${found} instruction files found by a search of the text: they should be common`);
  });
});

// The CLI finds the files of a name across the listing (CAR's tracked AGENTS.md and CLAUDE.md,
// Copilot's AGENTS.md) in git's text of it: the same paths, in the same order, as a test of each.
describe('the listed files of a name', () => {
  const segment = fc.constantFrom('a', 'AGENTS.md', 'x\\y', 'b.md', 'S.md', '');
  const name = fc.constantFrom('AGENTS.md', 'agents.md', 'CLAUDE.md', 'S.md', 'xAGENTS.md', 'AGENTS.mdx', 'x\\AGENTS.md');
  const file = fc.tuple(fc.array(segment, { maxLength: 3 }), name).map(([dirs, n]) => [...dirs, n].join('/'));
  const names = fc.subarray(['AGENTS.md', 'CLAUDE.md', 'S.md', 'AGENTS.md'], { minLength: 1 });

  it('finds what a test of every path finds (random lists and starts)', () => {
    let found = 0;
    fc.assert(
      fc.property(fc.array(file, { maxLength: 40 }), names, fc.nat(), fc.constantFrom('', '? ', 'H '), (listed, wanted, start, tag) => {
        const from = listed.length ? start % (listed.length + 1) : 0;
        const files = withText([...listed], listed.map((f) => `${tag}${f}\0`).join(''), tag.length);
        const want = namedAny(listed, wanted, from);
        assert.deepEqual(namedIn(files, wanted, from), want);
        found += want.length;
      }),
      { numRuns: 2_000, seed: 20261205 },
    );
    assert.ok(found > 1_000, `${found} files found: they should be common`);
  });
});
