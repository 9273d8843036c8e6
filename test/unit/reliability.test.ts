import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as nodeFs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { resolveChain } from '../../src/core/chain';
import { MAX_READ_BYTES, NodeFileSystem } from '../../src/core/fs';
import { describe, it } from 'node:test';
import { check } from '../../src/core/check';
import { MemoryGitIndex } from './doubles/memoryGit';
import type { Profile } from '../../src/core/profile';
import { findProfile, PROFILES } from '../../src/core/profiles';
import { positionAt } from '../../src/core/text';
import { MemoryFileSystem } from './doubles/memoryFs';
import { chainOf, tree } from './fixture';

// Regression cases for "never crash, never hang, never lose the rest": each names the bug it
// guards against. Bad input always ends as a diagnostic, never as an exception.

describe('one bad file never hides the rest (a 2,000-deep @import chain printed only "Maximum call stack size exceeded")', () => {
  const files: Record<string, string> = {
    '/r/CLAUDE.md': '@chain/0.md\n',
    '/r/GEMINI.md': '@chain/0.md\n',
    '/r/other/CLAUDE.md': 'Other.\n@missing.md\n',
  };
  for (let i = 0; i < 2000; i++) files[`/r/chain/${i}.md`] = `level ${i}\n@${i + 1}.md\n`;

  it('check with every agent ends, and still reports the broken import in another folder', () => {
    const result = check(tree(files).host, '/r', PROFILES, { home: '/home/u', env: {} });
    assert.ok(result.diagnostics.some((d) => d.code === 'import-missing' && d.path === '/r/other/CLAUDE.md'));
    assert.deepEqual(result.diagnostics.filter((d) => d.code === 'internal-error'), []);
  });

  it('a profile that throws gives an internal-error for its chain, and check goes on with the other profiles', () => {
    const claude = findProfile('claude-code')!;
    const broken: Profile = { ...claude, id: 'broken', agent: 'Broken', resolve: () => { throw new RangeError('Maximum call stack size exceeded'); } };
    const result = check(tree({ '/r/CLAUDE.md': '@missing.md\n' }).host, '/r', [broken, claude], { home: '/home/u', env: {} });
    assert.ok(result.diagnostics.some((d) => d.code === 'internal-error' && /Broken's chain.*Maximum call stack/.test(d.message)));
    assert.ok(result.diagnostics.some((d) => d.code === 'import-missing'));
  });
});

describe('symlink loops outside git (`ln -s . loop` listed every file 40 times; two such links ran for minutes)', () => {
  it('check walks each real folder once', () => {
    const fs = new MemoryFileSystem({ '/r/CLAUDE.md': 'x\n', '/r/a/CLAUDE.md': '@missing.md\n' });
    fs.symlink('/r/loop', '.').symlink('/r/loop2', '.').symlink('/r/a/up', '..');
    const result = check({ fs, git: new MemoryGitIndex(fs) }, '/r', [findProfile('claude-code')!], { home: '/home/u', env: {} });
    assert.deepEqual(result.files, ['/r/CLAUDE.md', '/r/a/CLAUDE.md']);
    assert.equal(result.diagnostics.filter((d) => d.code === 'import-missing').length, 1);
  });

  it("Copilot's AGENTS.md search outside git enters each real folder once", () => {
    const fs = new MemoryFileSystem({ '/r/AGENTS.md': 'x\n', '/r/a/AGENTS.md': 'y\n' });
    fs.symlink('/r/loop', '.').symlink('/r/loop2', '.');
    const c = chainOf({ fs, host: { fs, git: new MemoryGitIndex(fs) } } as ReturnType<typeof tree>, 'copilot', '/r/a/x.ts', { launchDir: '/r' });
    assert.ok(!c.sources.some((s) => s.path.includes('loop')), c.sources.map((s) => s.path).join('\n'));
  });
});

describe('many broken imports (20,000 `@a.md` lines took 15 s with gemini-cli, 13 s with copilot-cli)', () => {
  const lines = Array.from({ length: 20_000 }, () => '@a.md').join('\n') + '\n';
  for (const agent of ['gemini-cli', 'copilot-cli', 'claude-code']) {
    it(`${agent}: every diagnostic sits on its own line`, { timeout: 60_000 }, () => {
      const file = agent === 'gemini-cli' ? '/r/GEMINI.md' : '/r/CLAUDE.md';
      const c = chainOf(tree({ [file]: lines, '/r/.git/HEAD': '' }), agent, '/r/x.ts', { launchDir: '/r' });
      const missing = c.diagnostics.filter((d) => d.code === 'import-missing');
      assert.ok(missing.length >= 1);
      for (const d of missing) assert.equal(lines.split('\n')[d.line].slice(d.column, d.endColumn), '@a.md');
    });
  }

  it('positionAt agrees with a count of newlines anywhere in a text', () => {
    const text = 'ab\ncd\r\n\né𝄞x\n';
    for (let offset = 0; offset <= text.length; offset++) {
      const before = text.slice(0, offset).split('\n');
      assert.deepEqual(positionAt(text, offset), { line: before.length - 1, column: before[before.length - 1].length });
    }
  });
});

describe('reads are capped and never block (a FIFO named CLAUDE.md waited forever; a 200 MB file was read whole)', () => {
  const big = new Uint8Array(MAX_READ_BYTES + 1).fill(0x61);

  // Codex sends the first bytes of a file however large: its own case below.
  for (const agent of ['claude-code', 'claw-code', 'claw-code@head', 'gemini-cli', 'cursor', 'car', 'copilot-cli', 'copilot']) {
    it(`${agent}: a file over ${MAX_READ_BYTES} bytes is too-large, with its size, and nothing of it is sent`, () => {
      const files: Record<string, string | Uint8Array> = { '/r/.git/HEAD': '', '/r/x.ts': '' };
      for (const name of ['CLAUDE.md', 'AGENTS.md', 'GEMINI.md', '.github/copilot-instructions.md', '.cursorrules']) files[`/r/${name}`] = big;
      const c = chainOf(tree(files, { tracked: Object.keys(files).map((f) => f.slice(3)) }), agent, '/r/x.ts', { launchDir: '/r' });
      const tooLarge = c.diagnostics.filter((d) => d.code === 'too-large');
      assert.ok(tooLarge.length >= 1, `${agent}: ${c.diagnostics.map((d) => `${d.code} ${d.message}`).join('\n')}`);
      assert.match(tooLarge[0].message, /4,194,305 bytes/);
      assert.ok(!c.start.some((p) => p.text.includes('aaaaaaaaaa')), 'the large file was sent');
      assert.equal(c.fatal, undefined);
    });
  }

  it('codex: an AGENTS.md over the cap still sends its first 32 KiB, as Codex does, and only those bytes are read', () => {
    const files: Record<string, string | Uint8Array> = { '/r/.git/HEAD': '', '/r/x.ts': '', '/r/AGENTS.md': big };
    const mem = new MemoryFileSystem(files);
    const reads: string[] = [];
    const prefixes: number[] = [];
    const fs = {
      path: mem.path,
      caseInsensitive: mem.caseInsensitive,
      stat: (p: string) => mem.stat(p),
      isSymlink: (p: string) => mem.isSymlink(p),
      readDir: (p: string) => mem.readDir(p),
      realPath: (p: string) => mem.realPath(p),
      readFile: (p: string) => (reads.push(p), mem.readFile(p)),
      readPrefix: (p: string, n: number) => (prefixes.push(n), mem.readPrefix(p, n)),
    };
    const c = resolveChain({ profile: findProfile('codex')!, target: '/r/x.ts', launchDir: '/r', home: '/nonexistent', env: {} }, { fs, git: new MemoryGitIndex(mem) });
    assert.equal(c.start[0].text, `# AGENTS.md instructions for /r\n\n<INSTRUCTIONS>\n${'a'.repeat(32 * 1024)}\n</INSTRUCTIONS>`);
    const doc = c.sources.find((s) => s.path === '/r/AGENTS.md')!;
    assert.deepEqual([doc.status, doc.bytes, doc.injectedBytes], ['truncated', MAX_READ_BYTES + 1, 32 * 1024]);
    assert.deepEqual(c.diagnostics.map((d) => d.code), ['file-truncated']);
    assert.match(c.diagnostics[0].message, /first 32,768 bytes .* drops the last 4,161,537 bytes/);
    assert.ok(!reads.includes('/r/AGENTS.md'), 'the whole file was read');
    assert.ok(prefixes.every((n) => n <= 32 * 1024 + 3), `read ${prefixes.join(', ')} bytes`);
  });

  it('claude-code: a CLAUDE.md of 4,194,304 bytes loads whole, one byte more is skipped whole, as Claude Code does', () => {
    const files = (n: number) => ({ '/r/.git/HEAD': '', '/r/x.ts': '', '/r/CLAUDE.md': new Uint8Array(n).fill(0x62) });
    const fits = chainOf(tree(files(MAX_READ_BYTES)), 'claude-code', '/r/x.ts', { launchDir: '/r' });
    assert.ok(fits.start[0].text.includes('b'.repeat(MAX_READ_BYTES)));
    const over = chainOf(tree(files(MAX_READ_BYTES + 1)), 'claude-code', '/r/x.ts', { launchDir: '/r' });
    assert.deepEqual(over.start, []);
    const d = over.diagnostics.find((x) => x.code === 'too-large')!;
    assert.match(d.message, /4,194,305 bytes, over the 4,194,304 bytes Claude Code reads .* skips the whole file without a word/);
    assert.match(over.sources.find((s) => s.path === '/r/CLAUDE.md')!.reason, /skips the whole file/);
  });

  it('on disk: a FIFO named CLAUDE.md is reported as not a regular file, and the chain goes on', { skip: process.platform === 'win32' }, () => {
    const dir = nodeFs.realpathSync(nodeFs.mkdtempSync(path.join(os.tmpdir(), 'il-fifo-')));
    try {
      nodeFs.mkdirSync(path.join(dir, 'a'));
      execFileSync('mkfifo', [path.join(dir, 'a', 'CLAUDE.md')]);
      nodeFs.writeFileSync(path.join(dir, 'CLAUDE.md'), 'Root.\n');
      const fs = new NodeFileSystem();
      const c = resolveChain({ profile: findProfile('claude-code')!, target: path.join(dir, 'a', 'x.ts'), launchDir: path.join(dir, 'a'), home: '/nonexistent', env: {} }, { fs, git: new MemoryGitIndex(new MemoryFileSystem()) });
      assert.ok(c.diagnostics.some((d) => d.code === 'unreadable' && /not a regular file/.test(d.message)), c.diagnostics.map((d) => d.message).join('\n'));
      assert.ok(c.start.some((p) => p.text.includes('Root.')));
      assert.throws(() => fs.readFile(path.join(dir, 'a', 'CLAUDE.md')), /EFTYPE/);
    } finally {
      nodeFs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('large files stay linear (a 4 MiB CLAUDE.md took 116 s with claude-code, 9 s with copilot-cli)', () => {
  /** CPU time of `f` in ms: less swayed by a loaded machine than the clock. */
  const cpuMs = (f: () => void) => {
    const before = process.cpuUsage();
    f();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000;
  };

  it('claude-code: 40,000 quotes and one import; each quoted line was looked for to the end of the file', () => {
    let text = '';
    for (let i = 0; i < 40_000; i++) text += `> quote ${i}\n> more text\n\n`;
    text += 'See @missing.md\n';
    let c: ReturnType<typeof chainOf> | undefined;
    const ms = cpuMs(() => (c = chainOf(tree({ '/r/.git/HEAD': '', '/r/CLAUDE.md': text }), 'claude-code', '/r/x.ts', { launchDir: '/r' })));
    assert.ok(c!.diagnostics.some((d) => d.code === 'import-missing' && d.line === 120_000));
    // About 1 s of CPU; the search to the end of the file took about 20 s.
    assert.ok(ms < 8000, `${Math.round(ms)} ms of CPU`);
  });

  it('copilot-cli: 200,000 code spans and 20,000 imports; each import was held against every span', () => {
    const text = Array.from({ length: 20_000 }, (_, i) => `${'`c` '.repeat(10)}and @docs/missing${i}.md`).join('\n') + '\n';
    let c: ReturnType<typeof chainOf> | undefined;
    const ms = cpuMs(() => (c = chainOf(tree({ '/r/.git/HEAD': '', '/r/AGENTS.md': text }), 'copilot-cli', '/r/x.ts', { launchDir: '/r' })));
    assert.equal(c!.diagnostics.filter((d) => d.code === 'import-missing').length, 20_000);
    // About 1 s of CPU; holding each import against every span took about 30 s.
    assert.ok(ms < 8000, `${Math.round(ms)} ms of CPU`);
  });
});

describe('nesting deeper than the parsers can take (2,000 lines each one `>` deeper: 43 s, 2.7 GB, then "RegExpCompiler Allocation failed")', () => {
  const deepQuotes = Array.from({ length: 2000 }, (_, i) => '>'.repeat(i + 1) + ' x').join('\n') + '\n@missing.md\n';
  const cases: Record<string, string> = {
    'quotes one deeper per line': deepQuotes,
    '20,000 `>` on one line': '>'.repeat(20_000) + ' x\n',
    'lists one deeper per line': Array.from({ length: 1000 }, (_, i) => '  '.repeat(i) + '- x').join('\n') + '\n',
  };
  for (const [name, text] of Object.entries(cases)) {
    it(`${name}: too-deep, read as plain text, in well under a second`, () => {
      const started = performance.now();
      const c = chainOf(tree({ '/r/.git/HEAD': '', '/r/CLAUDE.md': text }), 'claude-code', '/r/x.ts', { launchDir: '/r' });
      assert.ok(c.diagnostics.some((d) => d.code === 'too-deep'), c.diagnostics.map((d) => d.code).join(' '));
      assert.ok(performance.now() - started < 10_000, `${Math.round(performance.now() - started)} ms`);
      assert.ok(c.start.some((p) => p.text.includes('x')));
    });
  }

  it('ordinary nesting (quotes and lists a few levels deep) is parsed as markdown', () => {
    const text = '> quote\n> > nested\n\n- a\n  - b\n    - c\n\n1. one\n   2. two\n\n`@code.md`\n';
    const c = chainOf(tree({ '/r/.git/HEAD': '', '/r/CLAUDE.md': text }), 'claude-code', '/r/x.ts', { launchDir: '/r' });
    assert.ok(!c.diagnostics.some((d) => d.code === 'too-deep'));
    assert.ok(c.diagnostics.some((d) => d.code === 'import-in-code') || !c.diagnostics.some((d) => d.code === 'import-missing'));
  });

  for (const [name, yaml] of Object.entries({ '`{{{…}}}` 1,000 deep (ran for minutes)': '{'.repeat(1000) + '}'.repeat(1000), '`[[[…` 20,000 deep': '['.repeat(20_000) })) {
    it(`frontmatter ${name}: too deep for YAML at once, then read with the value quoted, as Claude Code does; the body still sent`, () => {
      const started = performance.now();
      const c = chainOf(tree({ '/r/.git/HEAD': '', '/r/.claude/rules/r.md': `---\npaths: ${yaml}\n---\nRule body.\n`, '/r/CLAUDE.md': `---\nx: ${yaml}\n---\nBody.\n` }), 'claude-code', '/r/x.ts', { launchDir: '/r' });
      assert.ok(performance.now() - started < 5_000, `${Math.round(performance.now() - started)} ms`);
      // Quoted, the value is one string: the headers are read, and the rule is scoped by it (it matches no file here).
      assert.ok(!c.diagnostics.some((d) => d.code === 'frontmatter-invalid'), c.diagnostics.map((d) => `${d.code} ${d.message.slice(0, 80)}`).join('\n'));
      assert.ok(c.start.some((p) => p.text.includes('Body.')) && !c.start.some((p) => p.text.includes('Rule body.')));
    });
  }
});

describe('symlink-loop: check outside git says where a link leads back up', () => {
  it('one diagnostic per looping link, none for a link to a sibling folder', () => {
    const fs = new MemoryFileSystem({ '/r/CLAUDE.md': 'x\n', '/r/a/CLAUDE.md': 'y\n', '/r/b/notes.md': 'z\n' });
    fs.symlink('/r/loop', '.').symlink('/r/a/up', '..').symlink('/r/a/side', '../b');
    const result = check({ fs, git: new MemoryGitIndex(fs) }, '/r', [findProfile('claude-code')!], { home: '/home/u', env: {} });
    assert.deepEqual(result.diagnostics.filter((d) => d.code === 'symlink-loop').map((d) => d.path).sort(), ['/r/a/up', '/r/loop']);
  });
});

describe('budget used is what the start render holds (property test, seed 20261201 case 99: scaling reported 32,768 bytes for a 56-byte render)', () => {
  const committedTree = (files: Record<string, string>) => tree({ '/r/.git/HEAD': 'ref: refs/heads/main\n', ...files }, { tracked: Object.keys(files), committed: files });
  const systemBytes = (c: ReturnType<typeof chainOf>) => c.start.filter((p) => p.where === 'system').reduce((n, p) => n + Buffer.byteLength(p.text), 0);

  it('scaling: a committed CLAUDE.md of 45,000 blank lines gives nothing and counts nothing', () => {
    const c = chainOf(committedTree({ '/r/CLAUDE.md': '\n'.repeat(45_000), '/r/AGENTS.md': 'Use tabs.\n' }), 'scaling', '/r/x.ts', { launchDir: '/r' });
    const claude = c.sources.find((s) => s.path === '/r/CLAUDE.md')!;
    assert.equal(claude.injectedBytes, 0);
    assert.equal(c.budget.used, Buffer.byteLength('Use tabs.\n'));
    assert.equal(c.budget.used, systemBytes(c));
  });

  it('scaling: a root file cut where its first 32 KB are blank lines still sends the blank bytes it counts', () => {
    const c = chainOf(committedTree({ '/r/AGENTS.md': '\n'.repeat(40_000) + 'Rules.\n' }), 'scaling', '/r/x.ts', { launchDir: '/r' });
    assert.equal(c.sources[0].status, 'truncated');
    assert.equal(c.budget.used, 32_768);
    assert.equal(c.budget.used, systemBytes(c));
  });

  it('scaling: a problem found in the committed text is not placed past the end of a shorter work-tree file (property test: import-missing at line 4,000 of a 1-line file)', () => {
    const committed = { '/r/AGENTS.md': 'Rules.\n'.repeat(4000) + '@docs/notes.md\n' };
    const t = tree({ '/r/.git/HEAD': 'ref: refs/heads/main\n', '/r/AGENTS.md': 'Rules.\n' }, { tracked: ['/r/AGENTS.md'], committed });
    const c = chainOf(t, 'scaling', '/r/x.ts', { launchDir: '/r' });
    const missing = c.diagnostics.find((d) => d.code === 'import-missing')!;
    assert.deepEqual([missing.line, missing.endLine], [0, 0]);
    assert.ok(c.diagnostics.some((d) => d.code === 'not-committed' && d.path === '/r/AGENTS.md'));
    // Where the work tree has the same line, the range stays on it.
    const same = chainOf(tree({ '/r/.git/HEAD': 'ref: refs/heads/main\n', '/r/AGENTS.md': committed['/r/AGENTS.md'] + 'More.\n' }, { tracked: ['/r/AGENTS.md'], committed }), 'scaling', '/r/x.ts', { launchDir: '/r' });
    assert.equal(same.diagnostics.find((d) => d.code === 'import-missing')!.line, 4000);
    // A work-tree file that is no longer text (a NUL byte) has no line to point at either.
    const binary = chainOf(tree({ '/r/.git/HEAD': 'ref: refs/heads/main\n', '/r/AGENTS.md': 'x\0y\n' }, { tracked: ['/r/AGENTS.md'], committed }), 'scaling', '/r/x.ts', { launchDir: '/r' });
    assert.equal(binary.diagnostics.find((d) => d.code === 'import-missing')!.line, 0);
  });

  it('scaling: directory guidance elsewhere is not counted as used (`used` was 10 while the chain listed no source of it)', () => {
    const c = chainOf(committedTree({ '/r/z/AGENTS.md': 'z'.repeat(10) }), 'scaling', '/r/a/x.ts', { launchDir: '/r' });
    assert.deepEqual(c.sources.map((s) => s.path), []);
    assert.equal(c.budget.used, 0);
  });
});
