import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryGitIndex } from '../doubles/memoryGit';
import { MemoryFileSystem } from '../doubles/memoryFs';
import { chainOf, statuses } from '../fixture';

// Seed 003: hosted agent sessions' guidance docs. The committed texts are the default branch's tree.
const COMMIT = '0123456789abcdef0123456789abcdef01234567';
const LINE = 'Guidance from 0123456789ab on main';

function repo(work: Record<string, string | Uint8Array>, committed: Record<string, string> = {}, unreadable: string[] = []) {
  const fs = new MemoryFileSystem({ '/r/.git/HEAD': 'ref', ...work });
  class Index extends MemoryGitIndex {
    override committedText(root: string, file: string): string | undefined {
      return unreadable.includes(file) ? undefined : super.committedText(root, file);
    }
  }
  const git = new Index(fs, new Set(Object.keys(committed)), new Map(Object.entries(committed)), { defaultBranch: 'origin/main', commit: COMMIT });
  return { fs, host: { fs, git } };
}

/** A repository whose work tree is its default branch. */
function same(files: Record<string, string>) {
  return repo(files, files);
}

const messages = (parts: { where: string; text: string }[]) => parts.filter((p) => p.where === 'message').map((p) => p.text);

describe('scaling', () => {
  it('root AGENTS.md, then CLAUDE.md, then what they import; import lines are not shown; each file once', () => {
    const t = same({
      '/r/AGENTS.md': '# Agents\n@docs/style.md\nBe brief.\n',
      '/r/CLAUDE.md': '@AGENTS.md\n',
      '/r/docs/style.md': 'Style guide.\n',
    });
    const c = chainOf(t, 'scaling', '/r/x.ts', { launchDir: '/r' });
    assert.deepEqual(statuses(c), ['loaded /r/AGENTS.md', 'loaded /r/CLAUDE.md', 'loaded /r/docs/style.md', 'duplicate /r/AGENTS.md']);
    assert.equal(c.sources[2].kind, 'import');
    assert.equal(c.sources[2].importedBy, '/r/AGENTS.md');
    assert.equal(c.sources[3].importedBy, '/r/CLAUDE.md');
    // A CLAUDE.md holding only @AGENTS.md gives the agent AGENTS.md's content, once.
    assert.deepEqual(c.start, [
      { where: 'system', text: '# Agents\nBe brief.\n' },
      { where: 'system', text: 'Style guide.\n' },
      { where: 'message', text: `${LINE}; loaded AGENTS.md, CLAUDE.md, docs/style.md` },
    ]);
    assert.deepEqual(c.budget, { unit: 'bytes', limit: 32768, perFile: null, used: 19 + 13 });
    assert.deepEqual(c.diagnostics, []);
  });

  it('the seed example: a 20 KB AGENTS.md and a 20 KB CLAUDE.md give all of AGENTS.md and 12 KB of CLAUDE.md; every directory is left out', () => {
    const t = same({ '/r/AGENTS.md': 'a'.repeat(20480), '/r/CLAUDE.md': 'c'.repeat(20480), '/r/svc/AGENTS.md': 'svc rules' });
    const c = chainOf(t, 'scaling', '/r/svc/x.ts', { launchDir: '/r' });
    assert.deepEqual(statuses(c), ['loaded /r/AGENTS.md', 'truncated /r/CLAUDE.md', 'omitted /r/svc/AGENTS.md']);
    assert.equal(c.sources[1].injectedBytes, 12288);
    assert.deepEqual(c.sources[1].cutAt, { line: 0, column: 12288 });
    assert.match(c.sources[2].reason, /root files did not all fit/);
    assert.deepEqual(c.start, [
      { where: 'system', text: 'a'.repeat(20480) },
      { where: 'system', text: 'c'.repeat(12288) },
      { where: 'message', text: `${LINE}; loaded AGENTS.md, CLAUDE.md (cut short); left out svc/AGENTS.md` },
    ]);
    assert.deepEqual(c.onRead, []);
    assert.equal(c.budget.used, 32768);
    const cut = c.diagnostics.find((d) => d.path === '/r/CLAUDE.md')!;
    assert.deepEqual([cut.code, cut.line, cut.column, cut.endColumn], ['chain-over-budget', 0, 12288, 20480]);
    assert.ok(c.diagnostics.some((d) => d.code === 'chain-over-budget' && d.path === '/r/svc/AGENTS.md'));
  });

  it('a root file cut short ends the root files: every later one is not used', () => {
    const t = same({ '/r/AGENTS.md': '@big.md\n@after.md\n', '/r/big.md': 'b'.repeat(40000), '/r/after.md': 'after' });
    const c = chainOf(t, 'scaling', '/r', { launchDir: '/r' });
    assert.deepEqual(statuses(c), ['loaded /r/AGENTS.md', 'truncated /r/big.md', 'omitted /r/after.md']);
    assert.deepEqual(c.start.map((p) => p.text.length), [32768, messages(c.start)[0].length]);
    assert.equal(messages(c.start)[0], `${LINE}; loaded AGENTS.md, big.md (cut short); left out after.md`);
  });

  it('the cut never splits a character', () => {
    const t = same({ '/r/AGENTS.md': 'a'.repeat(32767) + 'é' });
    const c = chainOf(t, 'scaling', '/r', { launchDir: '/r' });
    assert.equal(c.sources[0].status, 'truncated');
    assert.equal(c.start[0].text, 'a'.repeat(32767));
  });

  it('imports: not in code fences, not with a space or over 256 characters (kept as written); missing = not found; outside the repo or not Markdown = not followed', () => {
    const long = 'x'.repeat(257) + '.md';
    const agents = ['Intro', '@docs/a.md', '```md', '@docs/fenced.md', '```', '@my notes.md', `@${long}`, '@missing.md', '@../outside.md', '@img.png', ''].join('\n');
    const t = same({ '/r/AGENTS.md': agents, '/r/docs/a.md': 'A\n', '/r/docs/fenced.md': 'F', '/r/img.png': 'png', '/outside.md': 'out' });
    const c = chainOf(t, 'scaling', '/r', { launchDir: '/r' });
    assert.deepEqual(statuses(c), ['loaded /r/AGENTS.md', 'loaded /r/docs/a.md', 'missing /r/missing.md', 'excluded /outside.md', 'excluded /r/img.png']);
    assert.equal(c.sources[2].reason, 'Not found on main: the import is not followed, and the session lists it as not found.');
    assert.equal(c.start[0].text, ['Intro', '```md', '@docs/fenced.md', '```', '@my notes.md', `@${long}`, ''].join('\n'));
    assert.equal(messages(c.start)[0], `${LINE}; loaded AGENTS.md, docs/a.md; not found missing.md`);
    const codes = c.diagnostics.map((d) => [d.code, d.line]);
    assert.deepEqual(codes, [['import-in-code', 3], ['import-missing', 7], ['import-outside', 8], ['import-not-text', 9]]);
  });

  it('imports are followed three deep; two files importing each other are included once', () => {
    const t = same({
      '/r/AGENTS.md': '@a.md\n',
      '/r/a.md': 'A\n@b.md\n',
      '/r/b.md': 'B\n@c.md\n',
      '/r/c.md': 'C\n@d.md\n@a.md\n',
      '/r/d.md': 'D\n',
    });
    const c = chainOf(t, 'scaling', '/r', { launchDir: '/r' });
    assert.deepEqual(statuses(c), ['loaded /r/AGENTS.md', 'loaded /r/a.md', 'loaded /r/b.md', 'loaded /r/c.md', 'excluded /r/d.md', 'excluded /r/a.md']);
    assert.match(c.sources[4].reason, /4 imports deep/);
    assert.ok(c.diagnostics.some((d) => d.code === 'import-depth' && d.path === '/r/c.md' && d.line === 1));
    const cyc = same({ '/r/AGENTS.md': '@x.md\n', '/r/x.md': 'X\n@AGENTS.md\n' });
    const c2 = chainOf(cyc, 'scaling', '/r', { launchDir: '/r' });
    assert.deepEqual(statuses(c2), ['loaded /r/AGENTS.md', 'loaded /r/x.md', 'duplicate /r/AGENTS.md']);
    assert.deepEqual(c2.start.filter((p) => p.where === 'system'), [{ where: 'system', text: 'X\n' }]);
  });

  it('directory guidance is added when the agent reads or edits a file there, nearest the root first', () => {
    const t = same({
      '/r/AGENTS.md': 'root\n',
      '/r/a/AGENTS.md': 'a'.repeat(10),
      '/r/a/CLAUDE.md': 'A'.repeat(10),
      '/r/a/b/AGENTS.md': 'b'.repeat(20),
      '/r/z/AGENTS.md': 'z'.repeat(30),
    });
    const c = chainOf(t, 'scaling', '/r/a/b/file.ts', { launchDir: '/r' });
    assert.deepEqual(statuses(c), ['loaded /r/AGENTS.md', 'on-read /r/a/AGENTS.md', 'on-read /r/a/CLAUDE.md', 'on-read /r/a/b/AGENTS.md']);
    assert.ok(c.sources.slice(1).every((s) => s.loads === 'on-read'));
    assert.match(c.sources[1].reason, /first reads or edits a file in a\/ \(not when it only runs commands there\)/);
    assert.deepEqual(c.onRead, [
      { where: 'message', text: 'Following a/AGENTS.md for work in a/' },
      { where: 'message', text: 'Following a/CLAUDE.md for work in a/' },
      { where: 'after-tool-result', text: 'a'.repeat(10) },
      { where: 'after-tool-result', text: 'A'.repeat(10) },
      { where: 'message', text: 'Following a/b/AGENTS.md for work in a/b/' },
      { where: 'after-tool-result', text: 'b'.repeat(20) },
    ]);
    // `used` is what the start render holds (the root file): directory guidance draws on the
    // same 32 KB (z/ still counts against what later directories may take) but arrives on read.
    assert.equal(c.budget.used, 5);
    assert.equal(c.budget.used, Buffer.byteLength(c.start.filter((p) => p.where === 'system').map((p) => p.text).join('')));
    assert.deepEqual(messages(c.start), [`${LINE}; loaded AGENTS.md`]);
  });

  it('a directory is used only if all its files fit whole; a later one that fits is still used', () => {
    const files = {
      '/r/AGENTS.md': 'r'.repeat(32700),
      '/r/a/AGENTS.md': 'a'.repeat(20),
      '/r/q/AGENTS.md': 'q'.repeat(30),
      '/r/q/CLAUDE.md': 'Q'.repeat(30),
      '/r/a/b/AGENTS.md': 'b'.repeat(40),
    };
    const q = chainOf(same(files), 'scaling', '/r/q/x.ts', { launchDir: '/r' });
    assert.deepEqual(statuses(q), ['loaded /r/AGENTS.md', 'omitted /r/q/AGENTS.md', 'omitted /r/q/CLAUDE.md']);
    assert.match(q.sources[1].reason, /\(60 bytes\) does not fit whole in the 48 bytes left/);
    assert.deepEqual(q.onRead, []);
    assert.equal(messages(q.start)[0], `${LINE}; loaded AGENTS.md; left out q/AGENTS.md, q/CLAUDE.md`);
    const b = chainOf(same(files), 'scaling', '/r/a/b/y.ts', { launchDir: '/r' });
    assert.deepEqual(statuses(b), ['loaded /r/AGENTS.md', 'on-read /r/a/AGENTS.md', 'on-read /r/a/b/AGENTS.md']);
    assert.equal(b.budget.used, 32700);
  });

  it('guidance is read from at most 64 directories', () => {
    const files: Record<string, string> = {};
    for (let i = 0; i <= 64; i++) files[`/r/d${String(i).padStart(2, '0')}/AGENTS.md`] = 'x';
    const c = chainOf(same(files), 'scaling', '/r/d64/f.ts', { launchDir: '/r' });
    assert.deepEqual(statuses(c), ['omitted /r/d64/AGENTS.md']);
    assert.match(c.sources[0].reason, /at most 64 directories; this is directory 65/);
    assert.equal(messages(c.start)[0], `${LINE}; no root guidance; left out d64/AGENTS.md`);
    assert.equal(chainOf(same(files), 'scaling', '/r/d63/f.ts', { launchDir: '/r' }).sources[0].status, 'on-read');
  });

  it('a root file over 1 MB is left out and named, takes nothing, and the next one is still used; a directory with one is left out whole', () => {
    const big = 'x'.repeat(1024 * 1024 + 1);
    const t = same({ '/r/AGENTS.md': big, '/r/CLAUDE.md': 'fine', '/r/big/AGENTS.md': big, '/r/big/CLAUDE.md': 'ok' });
    const c = chainOf(t, 'scaling', '/r/big/x.ts', { launchDir: '/r' });
    assert.deepEqual(statuses(c), ['omitted /r/AGENTS.md', 'loaded /r/CLAUDE.md', 'omitted /r/big/AGENTS.md', 'omitted /r/big/CLAUDE.md']);
    assert.match(c.sources[0].reason, /Over 1 MB/);
    assert.match(c.sources[3].reason, /is over 1 MB \(big\/AGENTS\.md\), so the whole directory is left out/);
    assert.equal(c.budget.used, 4);
    assert.deepEqual(c.start.filter((p) => p.where === 'system'), [{ where: 'system', text: 'fine' }]);
    assert.equal(messages(c.start)[0], `${LINE}; loaded CLAUDE.md; left out AGENTS.md, big/AGENTS.md, big/CLAUDE.md`);
  });

  it('a file the commit lists but that cannot be read is left out, and the files after it are still used', () => {
    const t = repo({ '/r/AGENTS.md': 'a', '/r/CLAUDE.md': 'c' }, { '/r/AGENTS.md': 'a', '/r/CLAUDE.md': 'c' }, ['/r/AGENTS.md']);
    const c = chainOf(t, 'scaling', '/r', { launchDir: '/r' });
    assert.deepEqual(statuses(c), ['unreadable /r/AGENTS.md', 'loaded /r/CLAUDE.md']);
    assert.equal(messages(c.start)[0], `${LINE}; loaded CLAUDE.md; left out AGENTS.md`);
  });

  it('only what is committed on the default branch counts, with a warning saying what the session will see', () => {
    const t = repo(
      { '/r/AGENTS.md': 'local edit', '/r/CLAUDE.md': 'new, uncommitted', '/r/svc/AGENTS.md': 'work tree only', '/r/svc/f.ts': '' },
      { '/r/AGENTS.md': 'committed', '/r/gone/AGENTS.md': 'still on main' },
    );
    const c = chainOf(t, 'scaling', '/r/svc/f.ts', { launchDir: '/r' });
    assert.deepEqual(statuses(c), ['loaded /r/AGENTS.md', 'excluded /r/CLAUDE.md', 'excluded /r/svc/AGENTS.md']);
    assert.deepEqual(c.start[0], { where: 'system', text: 'committed' });
    assert.deepEqual(
      c.diagnostics.map((d) => [d.code, d.path, d.message]),
      [
        ['not-committed', '/r/AGENTS.md', 'Differs from main: a session follows the committed version, not your uncommitted changes.'],
        ['not-committed', '/r/CLAUDE.md', 'Not committed on main: a session reads guidance only from the default branch, so it will not see this file.'],
        ['not-committed', '/r/svc/AGENTS.md', 'Not committed on main: a session reads guidance only from the default branch, so it will not see this file.'],
      ],
    );
    const gone = chainOf(t, 'scaling', '/r/gone/f.ts', { launchDir: '/r' });
    assert.equal(gone.sources.find((s) => s.path === '/r/gone/AGENTS.md')?.status, 'on-read');
    assert.ok(gone.diagnostics.some((d) => d.path === '/r/gone/AGENTS.md' && /Deleted in your work tree/.test(d.message)));
  });

  it('a CLAUDE.md that is a link to AGENTS.md is listed, but its text is given once', () => {
    const t = repo({ '/r/AGENTS.md': 'shared' }, { '/r/AGENTS.md': 'shared', '/r/CLAUDE.md': 'AGENTS.md' });
    t.fs.symlink('/r/CLAUDE.md', 'AGENTS.md');
    const c = chainOf(t, 'scaling', '/r', { launchDir: '/r' });
    assert.deepEqual(statuses(c), ['loaded /r/AGENTS.md', 'duplicate /r/CLAUDE.md']);
    assert.equal(c.sources[1].reason, 'A link to AGENTS.md: listed, but its text is given to the agent once.');
    assert.deepEqual(c.start, [
      { where: 'system', text: 'shared' },
      { where: 'message', text: `${LINE}; loaded AGENTS.md, CLAUDE.md (link to AGENTS.md)` },
    ]);
  });

  it('outside a git repository nothing is read', () => {
    const fs = new MemoryFileSystem({ '/p/AGENTS.md': 'x' });
    const c = chainOf({ fs, host: { fs, git: new MemoryGitIndex(fs) } }, 'scaling', '/p', { launchDir: '/p' });
    assert.deepEqual(statuses(c), ['excluded /p/AGENTS.md']);
    assert.match(c.sources[0].reason, /Not in a git repository/);
    assert.deepEqual(c.start, []);
  });

  it('no guidance at all: nothing changes, no line', () => {
    const c = chainOf(same({ '/r/src/a.ts': '' }), 'scaling', '/r/src/a.ts', { launchDir: '/r' });
    assert.deepEqual(c.sources, []);
    assert.deepEqual(c.start, []);
  });

  it('each list of the start line stops at 200 entries', () => {
    const lines = Array.from({ length: 205 }, (_, i) => `@m${i}.md`).join('\n');
    const c = chainOf(same({ '/r/AGENTS.md': `x\n${lines}\n` }), 'scaling', '/r', { launchDir: '/r' });
    assert.equal(c.sources.filter((s) => s.status === 'missing').length, 205);
    const line = messages(c.start)[0];
    assert.ok(line.endsWith('m198.md, m199.md and 5 more'));
    assert.equal(line.split('; not found ')[1].split(', ').length, 200);
  });

  describe('skills', () => {
    const skill = (name: string | undefined, description: string | undefined, body = 'Body') =>
      `---\n${name !== undefined ? `name: ${name}\n` : ''}${description !== undefined ? `description: ${description}\n` : ''}---\n${body}\n`;

    it('lists .claude/skills then .agents/skills by name and description, with every limit of one skill', () => {
      const committed: Record<string, string> = {
        '/r/.claude/skills/deploy/SKILL.md': skill('deploy', 'Deploy the app'),
        '/r/.claude/skills/noname/SKILL.md': skill(undefined, 'x'),
        '/r/.claude/skills/nodesc/SKILL.md': skill('nodesc', undefined),
        '/r/.claude/skills/long/SKILL.md': skill('n'.repeat(65), 'too long a name'),
        '/r/.claude/skills/huge/SKILL.md': skill('huge', 'big', 'h'.repeat(64 * 1024)),
        '/r/.claude/skills/verbose/SKILL.md': skill('verbose', 'd'.repeat(1100)),
        '/r/.agents/skills/deploy/SKILL.md': skill('deploy', 'Another deploy'),
        '/r/.agents/skills/other/SKILL.md': skill('other', 'Other skill'),
      };
      const t = repo({ ...committed, '/r/.agents/skills/local/SKILL.md': skill('local', 'Uncommitted') }, committed);
      const c = chainOf(t, 'scaling', '/r', { launchDir: '/r' });
      assert.deepEqual(statuses(c), [
        'listed /r/.claude/skills/deploy/SKILL.md',
        'excluded /r/.claude/skills/huge/SKILL.md',
        'excluded /r/.claude/skills/long/SKILL.md',
        'excluded /r/.claude/skills/nodesc/SKILL.md',
        'excluded /r/.claude/skills/noname/SKILL.md',
        'listed /r/.claude/skills/verbose/SKILL.md',
        'duplicate /r/.agents/skills/deploy/SKILL.md',
        'listed /r/.agents/skills/other/SKILL.md',
        'excluded /r/.agents/skills/local/SKILL.md',
      ]);
      assert.ok(c.sources.every((s) => s.kind === 'skill'));
      const reasons = c.sources.map((s) => s.reason);
      assert.match(reasons[1], /over 64 KB: skipped/);
      assert.match(reasons[2], /65 characters, longer than 64: not listed/);
      assert.match(reasons[3], /gives no description: not listed/);
      assert.match(reasons[4], /gives no name: not listed/);
      assert.match(reasons[5], /description is cut at 1,024 characters/);
      assert.match(reasons[6], /the first one is kept \(\.claude\/skills before \.agents\/skills\)/);
      assert.match(reasons[8], /Not committed on main/);
      assert.deepEqual(c.start, [
        { where: 'system', text: `deploy: Deploy the app\nverbose: ${'d'.repeat(1024)}\nother: Other skill` },
        {
          where: 'message',
          text: `${LINE}; no root guidance; skills deploy, verbose, other; skipped .claude/skills/huge/SKILL.md, .claude/skills/long/SKILL.md, .claude/skills/nodesc/SKILL.md, .claude/skills/noname/SKILL.md, .agents/skills/deploy/SKILL.md`,
        },
      ]);
      // Skills do not count towards the 32 KB limit.
      assert.equal(c.budget.used, 0);
      assert.equal(c.diagnostics.filter((d) => d.code === 'skill-invalid').length, 5);
      assert.ok(c.diagnostics.some((d) => d.code === 'not-committed' && d.path === '/r/.agents/skills/local/SKILL.md'));
    });

    it('a skill reached through a committed folder link is committed, and listed once', () => {
      const committed: Record<string, string> = {
        '/r/.agents/skills/s/SKILL.md': skill('s', 'Shared skill'),
        '/r/.claude/skills/s': '../../.agents/skills/s',
      };
      const t = repo({ '/r/.agents/skills/s/SKILL.md': committed['/r/.agents/skills/s/SKILL.md'] }, committed);
      t.fs.symlink('/r/.claude/skills/s', '../../.agents/skills/s');
      const c = chainOf(t, 'scaling', '/r', { launchDir: '/r' });
      assert.deepEqual(statuses(c), ['listed /r/.claude/skills/s/SKILL.md', 'duplicate /r/.agents/skills/s/SKILL.md']);
      assert.deepEqual(c.diagnostics, []);
      assert.equal(c.start[0].text, 's: Shared skill');
    });

    it('a skill behind a link that is not committed is not committed', () => {
      const committed: Record<string, string> = { '/r/.agents/skills/s/SKILL.md': skill('s', 'Shared skill') };
      const t = repo({ '/r/.agents/skills/s/SKILL.md': committed['/r/.agents/skills/s/SKILL.md'] }, committed);
      t.fs.symlink('/r/.claude/skills/s', '../../.agents/skills/s');
      const c = chainOf(t, 'scaling', '/r', { launchDir: '/r' });
      assert.deepEqual(c.diagnostics.map((d) => `${d.code} ${d.path}`), ['not-committed /r/.claude/skills/s/SKILL.md']);
    });

    it('at most 50 skills are listed', () => {
      const files: Record<string, string> = {};
      for (let i = 0; i < 51; i++) files[`/r/.claude/skills/s${String(i).padStart(2, '0')}/SKILL.md`] = skill(`s${i}`, 'd');
      const c = chainOf(same(files), 'scaling', '/r', { launchDir: '/r' });
      assert.equal(c.sources.filter((s) => s.status === 'listed').length, 50);
      assert.deepEqual(statuses(c).at(-1), 'excluded /r/.claude/skills/s50/SKILL.md');
      assert.match(c.sources[50].reason, /50 skills are already listed/);
    });

    it('names and descriptions together stop at about 16 KB; a skill that would pass is skipped', () => {
      const files: Record<string, string> = {};
      for (let i = 0; i < 18; i++) files[`/r/.claude/skills/s${String(i).padStart(2, '0')}/SKILL.md`] = skill(`s${String(i).padStart(2, '0')}`, 'd'.repeat(1000));
      files['/r/.claude/skills/zz/SKILL.md'] = skill('zz', 'small');
      const c = chainOf(same(files), 'scaling', '/r', { launchDir: '/r' });
      // 16 x 1,003 bytes = 16,048 fit in 16,384; the 17th and 18th would pass; a small one after still fits.
      assert.deepEqual(c.sources.map((s) => s.status), [...Array(16).fill('listed'), 'excluded', 'excluded', 'listed']);
      assert.match(c.sources[16].reason, /about 16 KB/);
    });

    it('the text of all listed skills stops at about 512 KB', () => {
      const files: Record<string, string> = {};
      for (let i = 0; i < 9; i++) files[`/r/.claude/skills/s${i}/SKILL.md`] = skill(`s${i}`, 'd', 'p'.repeat(61000));
      const c = chainOf(same(files), 'scaling', '/r', { launchDir: '/r' });
      assert.deepEqual(c.sources.map((s) => s.status), [...Array(8).fill('listed'), 'excluded']);
      assert.match(c.sources[8].reason, /about 512 KB/);
    });
  });
});
