import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chainOf, statuses, tree } from '../fixture';

// Seed 002: CAR's nested_instructions (car-server-core 0.55.0). The render is a design from
// the seed's words (the source body is not public); these tests pin that design.
const HEADER = '# Nested instructions\n\nThese files apply only to the directory they sit in and everything below it.';
const LISTED = 'Not inlined because they are past the nested-instructions budget; read each with read_file before working in its directory:';

describe('car', () => {
  it('inlines tracked nested CLAUDE.md / AGENTS.md, each labelled with the directory it governs, in git order', () => {
    const t = tree(
      {
        '/r/.git/HEAD': 'ref',
        '/r/crates/ffi/CLAUDE.md': 'These bugs cost many hours. Do not reintroduce them.\n',
        '/r/crates/ffi/AGENTS.md': 'FFI agents.\n',
        '/r/web/AGENTS.md': '\nWeb rules.\n\n',
        '/r/web/src/app.ts': '',
      },
      { tracked: ['/r/web/AGENTS.md', '/r/crates/ffi/CLAUDE.md', '/r/crates/ffi/AGENTS.md', '/r/web/src/app.ts'] },
    );
    const c = chainOf(t, 'car', '/r/web/src/app.ts', { launchDir: '/r' });
    assert.deepEqual(statuses(c), ['loaded /r/crates/ffi/AGENTS.md', 'loaded /r/crates/ffi/CLAUDE.md', 'loaded /r/web/AGENTS.md']);
    assert.deepEqual(c.start, [
      {
        where: 'system',
        text: [
          HEADER,
          '## crates/ffi/ (crates/ffi/AGENTS.md)\n\nFFI agents.',
          '## crates/ffi/ (crates/ffi/CLAUDE.md)\n\nThese bugs cost many hours. Do not reintroduce them.',
          '## web/ (web/AGENTS.md)\n\nWeb rules.',
        ].join('\n\n'),
      },
    ]);
    assert.equal(c.sources[2].scope, '/r/web');
    assert.deepEqual(c.onRead, []);
    // Budget in bytes of inlined text; the documented defaults.
    assert.deepEqual(c.budget, { unit: 'bytes', limit: 24 * 1024, perFile: 8 * 1024, used: 'FFI agents.'.length + 'These bugs cost many hours. Do not reintroduce them.'.length + 'Web rules.'.length });
  });

  it('an untracked file is never guidance: excluded, with an untracked warning', () => {
    const t = tree(
      { '/r/.git/HEAD': 'ref', '/r/pkg/AGENTS.md': 'I wrote my own rules.', '/r/pkg/x.ts': '' },
      { tracked: ['/r/pkg/x.ts'] },
    );
    const c = chainOf(t, 'car', '/r/pkg/x.ts', { launchDir: '/r' });
    assert.deepEqual(statuses(c), ['excluded /r/pkg/AGENTS.md']);
    assert.match(c.sources[0].reason, /git ls-files only/);
    assert.deepEqual(c.diagnostics.map((d) => [d.code, d.severity, d.path]), [['untracked', 'warning', '/r/pkg/AGENTS.md']]);
    assert.deepEqual(c.start, []);
  });

  it('root AGENTS.md and CLAUDE.md are not nested: read apart, outside the nested budgets', () => {
    const t = tree(
      { '/r/.git/HEAD': 'ref', '/r/AGENTS.md': 'Root agents.\n', '/r/CLAUDE.md': 'Root claude.\n', '/r/a/CLAUDE.md': 'A.' },
      { tracked: ['/r/AGENTS.md', '/r/CLAUDE.md', '/r/a/CLAUDE.md'] },
    );
    const c = chainOf(t, 'car', '/r', { launchDir: '/r', settings: { maxTotalBytes: 2 } });
    assert.deepEqual(statuses(c), ['loaded /r/AGENTS.md', 'loaded /r/CLAUDE.md', 'loaded /r/a/CLAUDE.md']);
    assert.deepEqual(c.start.map((p) => p.text), ['Root agents.', 'Root claude.', `${HEADER}\n\n## a/ (a/CLAUDE.md)\n\nA.`]);
    assert.equal(c.budget.used, 2);
  });

  it('a file over the per-file budget is listed as a path, and the model is told', () => {
    const big = 'x'.repeat(9000);
    const t = tree({ '/r/.git/HEAD': 'ref', '/r/a/AGENTS.md': 'small', '/r/b/CLAUDE.md': big }, { tracked: ['/r/a/AGENTS.md', '/r/b/CLAUDE.md'] });
    const c = chainOf(t, 'car', '/r', { launchDir: '/r' });
    assert.deepEqual(statuses(c), ['loaded /r/a/AGENTS.md', 'listed /r/b/CLAUDE.md']);
    assert.match(c.sources[1].reason, /9,000 bytes, over the 8,192-byte per-file budget/);
    assert.equal(
      c.start[0].text,
      `${HEADER}\n\n## a/ (a/AGENTS.md)\n\nsmall\n\n${LISTED}\n- b/CLAUDE.md (9,000 bytes, over the 8,192-byte per-file budget)`,
    );
    assert.deepEqual(c.diagnostics.map((d) => [d.code, d.path]), [['file-truncated', '/r/b/CLAUDE.md']]);
  });

  it('past the file budget: later files become pointers (settings maxFiles)', () => {
    const t = tree(
      { '/r/.git/HEAD': 'ref', '/r/a/AGENTS.md': 'a', '/r/b/AGENTS.md': 'b', '/r/c/AGENTS.md': 'c' },
      { tracked: ['/r/a/AGENTS.md', '/r/b/AGENTS.md', '/r/c/AGENTS.md'] },
    );
    const c = chainOf(t, 'car', '/r', { launchDir: '/r', settings: { maxFiles: 2 } });
    assert.deepEqual(statuses(c), ['loaded /r/a/AGENTS.md', 'loaded /r/b/AGENTS.md', 'listed /r/c/AGENTS.md']);
    assert.ok(c.start[0].text.endsWith(`${LISTED}\n- c/AGENTS.md (past the 2-file budget)`));
    assert.deepEqual(c.diagnostics.map((d) => d.code), ['chain-over-budget']);
  });

  it('past the combined budget: a file that does not fit is a pointer, a later one that fits still goes in', () => {
    const t = tree(
      { '/r/.git/HEAD': 'ref', '/r/a/AGENTS.md': 'a'.repeat(60), '/r/b/AGENTS.md': 'b'.repeat(50), '/r/c/AGENTS.md': 'c'.repeat(30) },
      { tracked: ['/r/a/AGENTS.md', '/r/b/AGENTS.md', '/r/c/AGENTS.md'] },
    );
    const c = chainOf(t, 'car', '/r', { launchDir: '/r', settings: { maxTotalBytes: 100, maxFileBytes: 80, maxFiles: 9 } });
    assert.deepEqual(statuses(c), ['loaded /r/a/AGENTS.md', 'listed /r/b/AGENTS.md', 'loaded /r/c/AGENTS.md']);
    assert.match(c.sources[1].reason, /50 bytes would pass the 100-byte combined budget \(40 left\)/);
    assert.deepEqual(c.budget, { unit: 'bytes', limit: 100, perFile: 80, used: 90 });
  });

  it('outside a git repository no nested file is read', () => {
    const t = tree({ '/p/sub/AGENTS.md': 'rules', '/p/sub/x.ts': '' });
    const c = chainOf(t, 'car', '/p/sub/x.ts', { launchDir: '/p' });
    assert.deepEqual(statuses(c), ['excluded /p/sub/AGENTS.md']);
    assert.match(c.sources[0].reason, /Not in a git repository/);
    assert.deepEqual(c.diagnostics.map((d) => d.code), ['untracked']);
  });

  it('an empty nested file is skipped; an unreadable one is reported', () => {
    const t = tree(
      { '/r/.git/HEAD': 'ref', '/r/a/AGENTS.md': ' \n', '/r/b/AGENTS.md': new Uint8Array([0xff]) },
      { tracked: ['/r/a/AGENTS.md', '/r/b/AGENTS.md'] },
    );
    const c = chainOf(t, 'car', '/r', { launchDir: '/r' });
    assert.deepEqual(statuses(c), ['excluded /r/a/AGENTS.md', 'unreadable /r/b/AGENTS.md']);
    assert.deepEqual(c.start, []);
  });

  it('root files: an empty one is excluded, an unreadable one reported; untracked nested files listed root first, AGENTS.md before CLAUDE.md', () => {
    const t = tree(
      {
        '/r/.git/HEAD': 'ref',
        '/r/AGENTS.md': new Uint8Array([0xff]),
        '/r/CLAUDE.md': '\n \n',
        '/r/a/CLAUDE.md': 'a claude',
        '/r/a/AGENTS.md': 'a agents',
        '/r/a/b/AGENTS.md': 'b agents',
        '/r/a/b/x.ts': '',
        '/r/c/AGENTS.md': 'not on the way',
      },
      { tracked: ['/r/AGENTS.md', '/r/CLAUDE.md', '/r/a/b/x.ts'] },
    );
    const c = chainOf(t, 'car', '/r/a/b/x.ts', { launchDir: '/r' });
    assert.deepEqual(statuses(c), [
      'unreadable /r/AGENTS.md',
      'excluded /r/CLAUDE.md',
      'excluded /r/a/AGENTS.md',
      'excluded /r/a/CLAUDE.md',
      'excluded /r/a/b/AGENTS.md',
    ]);
    assert.match(c.sources[1].reason, /empty/);
    assert.deepEqual(c.diagnostics.map((d) => [d.code, d.path]), [
      ['not-utf8', '/r/AGENTS.md'],
      ['untracked', '/r/a/AGENTS.md'],
      ['untracked', '/r/a/CLAUDE.md'],
      ['untracked', '/r/a/b/AGENTS.md'],
    ]);
    assert.deepEqual(c.start, []);
    assert.equal(c.budget.used, 0);
  });
});
