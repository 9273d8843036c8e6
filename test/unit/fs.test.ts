import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { joinsBack, posixBasename, posixDirname, posixJoin, posixRelative, posixResolve } from '../../src/core/fs';

// The CLI and the extension build every candidate path with the file system's `join`, `resolve`
// and `relative`, and split them with its `dirname` and `basename`; on POSIX they skip normalizing
// paths already in normal form, and must give what Node's give.
describe("the disk's path join, resolve, relative, dirname and basename", () => {
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

  it("gives Node's path.posix.dirname and basename on every path (random paths)", () => {
    let quick = 0;
    fc.assert(
      fc.property(fc.oneof(first, segment), fc.option(fc.constantFrom('.md', 'CLAUDE.md', 'a', ''), { nil: undefined }), (p, suffix) => {
        assert.equal(posixDirname(p), path.posix.dirname(p));
        assert.equal(posixBasename(p), path.posix.basename(p));
        assert.equal(posixBasename(p, suffix), path.posix.basename(p, suffix));
        if (p.startsWith('/') && !p.endsWith('/')) quick++;
      }),
      { numRuns: 20_000, seed: 20261204 },
    );
    assert.ok(quick > 2_000, `only ${quick} absolute paths without a separator at their end`);
  });

  it('says a path joins back from its folder and name as the join itself says (random paths)', () => {
    let normal = 0;
    const paths = [path.posix, { ...path.posix, join: posixJoin, dirname: posixDirname, basename: posixBasename }];
    fc.assert(
      fc.property(fc.oneof(first, segment), (p) => {
        for (const api of paths) assert.equal(joinsBack(api, p), api.join(api.dirname(p), api.basename(p)) === p, `${p}`);
        if (joinsBack(path.posix, p)) normal++;
      }),
      { numRuns: 20_000, seed: 20261203 },
    );
    assert.ok(normal > 2_000, `only ${normal} paths that join back`);
    assert.equal(joinsBack(path.win32, 'C:\\a\\b'), true);
    assert.equal(joinsBack(path.win32, 'C:\\a\\..\\b'), false);
  });

  it('splits an absolute path at its last separator', () => {
    assert.equal(posixDirname('/repo/a/CLAUDE.md'), '/repo/a');
    assert.equal(posixDirname('/repo'), '/');
    assert.equal(posixDirname('/'), '/');
    assert.equal(posixDirname('//a'), '//');
    assert.equal(posixDirname('/a//b'), '/a/');
    assert.equal(posixDirname('/a/b/'), '/a');
    assert.equal(posixDirname('a'), '.');
    assert.equal(posixBasename('/repo/a/CLAUDE.md'), 'CLAUDE.md');
    assert.equal(posixBasename('/repo/a/'), 'a');
    assert.equal(posixBasename('CLAUDE.md'), 'CLAUDE.md');
    assert.equal(posixBasename('/repo/a/CLAUDE.md', '.md'), 'CLAUDE');
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
