import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import picomatch from 'picomatch';
import { anyPattern } from '../../src/core/check';
import { globMatcher } from '../../src/core/globs';
import { fixedPart, governedFolders } from '../../src/core/patterns';
import { PROFILES } from '../../src/core/profiles';

// `check` asks of every file of a repository whether it is an instruction file, and of each
// instruction file which folder it governs, through shortcuts that skip most globs. On random
// paths made of the names the agents' patterns hold, each must answer as the plain globs do.

const PATTERNS = [...new Set(PROFILES.flatMap((p) => p.filePatterns))];
const NAMES = [
  ...new Set([...PATTERNS.flatMap((p) => p.split('/')).filter((s) => !/[*?[\]{}]/.test(s)), 'a', 'src', 'x.md', 'x.mdc', 'b.instructions.md', 'claude.md', 'Agents.MD', 'AGENTS.mx', 'Gemini.mD', 'RULES', 'rules.md', '@scope', 'a-b_c']),
];
const rel = fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 6 }).map((segments) => segments.join('/'));
const patterns = fc.subarray(PATTERNS, { minLength: 1 });

describe('check: the instruction-file test and the governed folder, against the plain globs', () => {
  it('a file is an instruction file exactly when one of the patterns matches it, in either case mode', () => {
    fc.assert(
      fc.property(patterns, fc.boolean(), fc.array(rel, { maxLength: 30 }), (list, nocase, files) => {
        const test = anyPattern(list, nocase);
        const plain = list.map((p) => picomatch.makeRe(p, { dot: true, nocase }));
        for (const f of files) assert.equal(test(f), plain.some((re) => re.test(f)), `${f} (${nocase ? 'ignoring case' : 'case kept'})`);
      }),
      { numRuns: 300, seed: 20261202 },
    );
  });

  it('the folder a file governs is the one every pattern, tried in order, gives', () => {
    const root = '/r';
    // The loop before the shortcut: each pattern's glob, then its folders in the path.
    const plain = (list: readonly string[], file: string) => {
      const r = path.posix.relative(root, file);
      for (const pattern of list) {
        const { path: fixed, isFile } = fixedPart(pattern);
        const dirs = fixed === '' ? [] : isFile ? fixed.split('/').slice(0, -1) : fixed.split('/');
        if (!globMatcher(pattern)(r)) continue;
        if (!dirs.length) return path.posix.dirname(file);
        const at = file.lastIndexOf(`/${dirs.join('/')}/`);
        if (at >= 0) return file.slice(0, at) || '/';
      }
      return path.posix.dirname(file);
    };
    fc.assert(
      fc.property(patterns, fc.array(rel, { maxLength: 30 }), (list, files) => {
        const governed = governedFolders(list, root, path.posix);
        for (const f of files) assert.equal(governed(`${root}/${f}`), plain(list, `${root}/${f}`), f);
      }),
      { numRuns: 300, seed: 20261202 },
    );
  });
});
