import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { dirsBelow, isInside, sameName, type PathRules } from '../../src/core/paths';

// Every chain walks the folders from its launch folder down to its own (`dirsBelow`), each step
// answered once a pass: the walk must name the same folders as its definition on any two paths.
describe('the folders between the launch folder and a chain’s own', () => {
  /** The definition: each folder from `dir` up, while it is below `top` and not the root. */
  function defined(top: string, dir: string, fs: PathRules): string[] {
    const out: string[] = [];
    for (let d = dir; !sameName(fs, d, top) && isInside(d, top, fs) && fs.path.dirname(d) !== d; d = fs.path.dirname(d)) out.push(d);
    return out.reverse();
  }

  it('names the folders its definition names, on POSIX and Windows, case kept or not (random paths)', () => {
    const name = fc.constantFrom('a', 'A', 'b', 'src', 'Src', '.claude', 'a b');
    const posix = fc.array(name, { maxLength: 5 }).map((n) => `/${n.join('/')}`);
    const win = fc.array(name, { maxLength: 5 }).map((n) => `C:\\${n.join('\\')}`);
    let found = 0;
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), posix, posix, win, win, (windows, insensitive, pt, pd, wt, wd) => {
        const fs: PathRules = { path: windows ? path.win32 : path.posix, caseInsensitive: insensitive };
        const [top, dir] = windows ? [wt, wd] : [pt, pd];
        for (const [t, d] of [[top, dir], [top, `${top}${top.endsWith(fs.path.sep) ? '' : fs.path.sep}${dir.slice(windows ? 3 : 1)}`]]) {
          const got = dirsBelow(t, d, fs);
          assert.deepEqual(got, defined(t, d, fs), `${t} ${d}`);
          found += got.length;
        }
      }),
      { numRuns: 5_000, seed: 20261203 },
    );
    assert.ok(found > 5_000, `only ${found} folders named`);
  });
});

describe('whether a path is a folder or below it', () => {
  function defined(p: string, dir: string, fs: PathRules): boolean {
    if (p === dir) return true;
    const sep = fs.path.sep;
    const prefix = dir.endsWith(sep) ? dir : dir + sep;
    if (!fs.caseInsensitive) return p.startsWith(prefix);
    if (p.length <= prefix.length) return sameName(fs, p, dir);
    return sameName(fs, p.slice(0, prefix.length), prefix);
  }

  it('answers as its definition on any two paths (random paths, POSIX and Windows)', () => {
    const part = fc.array(fc.constantFrom('a', 'A', 'ab', '/', '\\', 'C:', 'b'), { maxLength: 6 }).map((a) => a.join(''));
    let inside = 0;
    fc.assert(
      fc.property(part, part, fc.boolean(), fc.boolean(), (p, dir, windows, insensitive) => {
        const fs: PathRules = { path: windows ? path.win32 : path.posix, caseInsensitive: insensitive };
        for (const q of [p, dir + p]) {
          assert.equal(isInside(q, dir, fs), defined(q, dir, fs), `${q} ${dir}`);
          if (isInside(q, dir, fs)) inside++;
        }
      }),
      { numRuns: 10_000, seed: 20261203 },
    );
    assert.ok(inside > 2_000, `only ${inside} inside`);
  });
});
