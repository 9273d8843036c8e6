import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { posixJoin, posixRelative, posixResolve } from '../../src/core/fs';

// The CLI and the extension build every candidate path with the file system's `join`, `resolve`
// and `relative`; on POSIX they skip normalizing paths already in normal form, and must give
// what Node's give.
describe("the disk's path join, resolve and relative", () => {
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

  it("gives Node's path.posix.resolve on every path and names (random paths)", () => {
    let quick = 0;
    fc.assert(
      fc.property(fc.array(fc.oneof(first, segment), { maxLength: 5 }), (parts) => {
        assert.equal(posixResolve(...parts), path.posix.resolve(...parts));
        const last = parts.map((p) => p.startsWith('/')).lastIndexOf(true);
        if (last >= 0 && parts.slice(last).join('/') === path.posix.resolve(...parts)) quick++;
      }),
      { numRuns: 20_000, seed: 20261203 },
    );
    assert.ok(quick > 1_000, `only ${quick} paths already in normal form`);
  });

  it("gives Node's path.posix.relative on every two paths (random paths)", () => {
    let inside = 0;
    fc.assert(
      fc.property(first, fc.array(segment, { maxLength: 3 }), first, fc.boolean(), (from, names, other, below) => {
        const to = below ? [from, ...names].join('/') : other;
        assert.equal(posixRelative(from, to), path.posix.relative(from, to));
        assert.equal(posixRelative(to, from), path.posix.relative(to, from));
        if (below && !path.posix.relative(from, to).startsWith('..')) inside++;
      }),
      { numRuns: 20_000, seed: 20261203 },
    );
    assert.ok(inside > 2_000, `only ${inside} paths inside the other`);
  });

  it('joins a normal absolute path and plain names as they are', () => {
    assert.equal(posixJoin('/repo/test/language', '.claude', 'CLAUDE.md'), '/repo/test/language/.claude/CLAUDE.md');
    assert.equal(posixJoin('/repo/a/..', 'b'), '/repo/b');
    assert.equal(posixJoin('/', 'b'), '/b');
    assert.equal(posixJoin('/repo', 'a/b', 'c'), '/repo/a/b/c');
    assert.equal(posixJoin('/repo', '/a'), '/repo/a');
    assert.equal(posixJoin('/repo', 'a/', 'b'), '/repo/a/b');
    assert.equal(posixJoin('/repo'), '/repo');
    assert.equal(posixResolve('/x', '/repo/a', 'b'), '/repo/a/b');
    assert.equal(posixResolve('/repo/a', '..'), '/repo');
    assert.equal(posixRelative('/repo', '/repo/a/b'), 'a/b');
    assert.equal(posixRelative('/repo', '/repo'), '');
    assert.equal(posixRelative('/repo/a', '/repo/ab'), '../ab');
    assert.equal(posixRelative('/', '/a'), 'a');
  });
});
