import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { posixJoin } from '../../src/core/fs';

// The CLI and the extension build every candidate path with the file system's `join`; on POSIX
// it skips normalizing a path already in normal form, and must give what Node's `join` gives.
describe("the disk's path join", () => {
  const segment = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom('src', 'a', '.claude', 'CLAUDE.md', '..a', 'a..', '.x.', 'rules', 'é', 'a b', 'a\\b') },
    { weight: 3, arbitrary: fc.constantFrom('', '.', '..', '/', '//', 'a/', '/a', 'a/b', './a', 'a/.', '../a', 'a/..') },
  );
  const start = fc.oneof({ weight: 6, arbitrary: fc.constant('/') }, { weight: 1, arbitrary: fc.constantFrom('', '//', '.', './', '..') });
  const end = fc.oneof({ weight: 6, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom('/', '/.', '/..') });
  const first = fc.tuple(start, fc.array(segment, { maxLength: 6 }), end)
    .map(([start, segs, end]) => start + segs.join('/') + end);

  it("gives Node's path.posix.join on every path and names (random paths)", () => {
    let quick = 0;
    fc.assert(
      fc.property(first, fc.array(segment, { maxLength: 4 }), (base, names) => {
        const parts = [base, ...names];
        assert.equal(posixJoin(...parts), path.posix.join(...parts));
        if (parts.length > 1 && parts.join('/') === path.posix.join(...parts)) quick++;
      }),
      { numRuns: 20_000, seed: 20261202 },
    );
    assert.ok(quick > 2_000, `only ${quick} paths already in normal form`);
  });

  it('joins a normal absolute path and plain names as they are', () => {
    assert.equal(posixJoin('/repo/test/language', '.claude', 'CLAUDE.md'), '/repo/test/language/.claude/CLAUDE.md');
    assert.equal(posixJoin('/repo/a/..', 'b'), '/repo/b');
    assert.equal(posixJoin('/', 'b'), '/b');
    assert.equal(posixJoin('/repo'), '/repo');
  });
});
