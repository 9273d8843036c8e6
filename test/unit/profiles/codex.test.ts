import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FileStat } from '../../../src/core/fs';
import { chainOf, startText, statuses, tree } from '../fixture';

// Codex CLI 0.171.0: openai/codex codex-rs/core/src/agents_md.rs, and the real binary on
// loopback probes (agents.md "Observed"; the expected texts below are the captured bytes).

const rootLines = (tag: string, n: number) => {
  let s = '';
  for (let i = 1; s.length < n; i++) s += `${tag} budget line ${String(i).padStart(5, '0')} xxxxxxxxxxxxxxxxxxxx\n`;
  return s.slice(0, n);
};

const codes = (c: { diagnostics: { code: string; path: string }[] }) => c.diagnostics.map((d) => `${d.code} ${d.path}`);

describe('codex: discovery', () => {
  it('walks from the git root down to the launch dir, one file per directory, root first; the global file is trimmed and goes first', () => {
    const t = tree({
      '/r/.git/HEAD': 'ref',
      '/r/AGENTS.md': 'Root doc line.\n<!-- kept comment -->\n@docs/x.md stays\n',
      '/r/CLAUDE.md': 'Claude root.\n',
      '/r/a/b/AGENTS.md': '  indented b doc  \n\n',
      '/r/a/b/c/AGENTS.md': 'Nested c doc below launch.\n',
      '/r/a/b/c/x.ts': 'export const x = 1;\n',
      '/r/docs/x.md': 'docs x\n',
      '/home/u/.codex/AGENTS.md': '\n\n  Global doc\n\n',
    });
    const c = chainOf(t, 'codex', '/r/a/b/c/x.ts', { launchDir: '/r/a/b' });
    assert.deepEqual(statuses(c), ['loaded /home/u/.codex/AGENTS.md', 'loaded /r/AGENTS.md', 'loaded /r/a/b/AGENTS.md', 'excluded /r/a/b/c/AGENTS.md']);
    // Captured from codex 0.171.0 (probe cx1-nested): project docs raw, HTML comments and @ lines kept.
    assert.equal(
      startText(c),
      '# AGENTS.md instructions for /r/a/b\n\n<INSTRUCTIONS>\nGlobal doc\n\n--- project-doc ---\n\nRoot doc line.\n<!-- kept comment -->\n@docs/x.md stays\n\n\n  indented b doc  \n\n\n</INSTRUCTIONS>',
    );
    assert.equal(c.start[0].where, 'user');
    assert.deepEqual(c.onRead, [], 'nothing is added when Codex reads a file');
    // CLAUDE.md belongs to other agents: no source, no diagnostic.
    assert.ok(!c.sources.some((s) => s.path.endsWith('CLAUDE.md')));
    assert.deepEqual(codes(c), ['not-loaded /r/a/b/c/AGENTS.md']);
    assert.match(c.sources[3].reason, /Below the launch directory/);
  });

  it('without a root marker reads the launch dir alone; `.git` may be a file; nothing above the root', () => {
    const t = tree({ '/x/AGENTS.md': 'parent', '/x/y/AGENTS.md': 'child\n' });
    assert.deepEqual(statuses(chainOf(t, 'codex', '/x/y', { launchDir: '/x/y' })), ['loaded /x/y/AGENTS.md']);
    const w = tree({ '/up/AGENTS.md': 'above the root', '/up/w/.git': 'gitdir: /nowhere\n', '/up/w/AGENTS.md': 'worktree root\n', '/up/w/src/AGENTS.md': 'src\n' });
    assert.deepEqual(statuses(chainOf(w, 'codex', '/up/w/src', { launchDir: '/up/w/src' })), ['loaded /up/w/AGENTS.md', 'loaded /up/w/src/AGENTS.md']);
  });

  it('project_root_markers from config.toml: any entry kind marks the root; an empty list means the launch dir alone', () => {
    const files = { '/r/.git/HEAD': 'x', '/r/AGENTS.md': 'repo root\n', '/r/w/.hg': 'marker file\n', '/r/w/AGENTS.md': 'hg root\n', '/r/w/p/AGENTS.md': 'p\n' };
    const hg = tree({ ...files, '/home/u/.codex/config.toml': "project_root_markers = ['.hg']\n" });
    assert.deepEqual(statuses(chainOf(hg, 'codex', '/r/w/p', { launchDir: '/r/w/p' })), ['loaded /r/w/AGENTS.md', 'loaded /r/w/p/AGENTS.md']);
    const none = tree({ ...files, '/home/u/.codex/config.toml': 'project_root_markers = []\n' });
    assert.deepEqual(statuses(chainOf(none, 'codex', '/r/w/p', { launchDir: '/r/w/p' })), ['loaded /r/w/p/AGENTS.md']);
  });

  it('AGENTS.override.md beats AGENTS.md, and hides it even when empty or blank (then neither loads)', () => {
    const t = tree({
      '/r/.git/HEAD': 'x',
      '/r/AGENTS.override.md': 'Root AGENTS.override.md wins over AGENTS.md.\n',
      '/r/AGENTS.md': 'Root AGENTS.md hidden by the override.\n',
      '/r/src/AGENTS.override.md': '   \n\t\n',
      '/r/src/AGENTS.md': 'src AGENTS.md hidden by a blank override.\n',
    });
    const c = chainOf(t, 'codex', '/r/src', { launchDir: '/r/src' });
    assert.deepEqual(statuses(c), ['loaded /r/AGENTS.override.md', 'excluded /r/AGENTS.md', 'excluded /r/src/AGENTS.override.md', 'excluded /r/src/AGENTS.md']);
    assert.match(c.sources[1].reason, /AGENTS.override.md comes first/);
    assert.match(c.sources[2].reason, /empty or only white space/);
    assert.equal(startText(c), '# AGENTS.md instructions for /r/src\n\n<INSTRUCTIONS>\nRoot AGENTS.override.md wins over AGENTS.md.\n\n</INSTRUCTIONS>');
  });

  it('skips a directory or a FIFO that has a candidate name and tries the next name', () => {
    const t = tree({ '/r/.git/HEAD': 'x', '/r/AGENTS.override.md/keep.txt': 'dir', '/r/AGENTS.md': 'Root AGENTS.md used.\n', '/r/src/AGENTS.md': 'src after a FIFO override.\n', '/r/src/AGENTS.override.md': '' });
    // The in-memory tree has no FIFOs: report the override as one.
    const stat = t.fs.stat.bind(t.fs);
    t.fs.stat = (p: string): FileStat | undefined => (p === '/r/src/AGENTS.override.md' ? { type: 'other', size: 0 } : stat(p));
    const c = chainOf(t, 'codex', '/r/src', { launchDir: '/r/src' });
    assert.deepEqual(statuses(c), ['excluded /r/AGENTS.override.md', 'loaded /r/AGENTS.md', 'excluded /r/src/AGENTS.override.md', 'loaded /r/src/AGENTS.md']);
    assert.match(c.sources[0].reason, /directory/);
    assert.match(c.sources[2].reason, /not a regular file/);
    assert.equal(startText(c), '# AGENTS.md instructions for /r/src\n\n<INSTRUCTIONS>\nRoot AGENTS.md used.\n\n\nsrc after a FIFO override.\n\n</INSTRUCTIONS>');
  });

  it('project_doc_fallback_filenames: read after AGENTS.md; names with a path, "" are ignored (probe cx10)', () => {
    const t = tree({
      '/r/.git/HEAD': 'x',
      '/r/sub/x.md': 'Root sub/x.md via a path fallback.\n',
      '/r/CLAUDE.md': 'Root CLAUDE.md via fallback.\n',
      '/r/src/AGENTS.md': 'src AGENTS.md wins over its CLAUDE.md.\n',
      '/r/src/CLAUDE.md': 'hidden\n',
      '/home/u/.codex/config.toml': 'project_doc_fallback_filenames = ["sub/x.md", "", "CLAUDE.md"]\n',
    });
    const c = chainOf(t, 'codex', '/r/src', { launchDir: '/r/src' });
    assert.deepEqual(statuses(c), ['loaded /r/CLAUDE.md', 'loaded /r/src/AGENTS.md', 'excluded /r/src/CLAUDE.md']);
    assert.equal(startText(c), '# AGENTS.md instructions for /r/src\n\n<INSTRUCTIONS>\nRoot CLAUDE.md via fallback.\n\n\nsrc AGENTS.md wins over its CLAUDE.md.\n\n</INSTRUCTIONS>');
    const bad = c.diagnostics.find((d) => d.code === 'config-invalid');
    assert.equal(bad?.severity, 'warning');
    assert.match(bad?.message ?? '', /"sub\/x.md"/);
  });
});

describe('codex: the global file and the message', () => {
  it('the global file alone: the heading has no directory (observed), and it is trimmed', () => {
    const t = tree({ '/r/.git/HEAD': 'x', '/r/AGENTS.md': '', '/home/u/.codex/AGENTS.md': 'Global alone, no trailing newline' });
    const c = chainOf(t, 'codex', '/r', { launchDir: '/r' });
    assert.equal(startText(c), '# AGENTS.md instructions\n\n<INSTRUCTIONS>\nGlobal alone, no trailing newline\n</INSTRUCTIONS>');
    assert.deepEqual(statuses(c), ['loaded /home/u/.codex/AGENTS.md', 'excluded /r/AGENTS.md']);
  });

  it('project docs alone: no separator; a blank global override falls back to the global AGENTS.md', () => {
    const alone = tree({ '/r/.git/HEAD': 'x', '/r/AGENTS.md': 'Root AGENTS.md.\n' });
    assert.equal(startText(chainOf(alone, 'codex', '/r', { launchDir: '/r' })), '# AGENTS.md instructions for /r\n\n<INSTRUCTIONS>\nRoot AGENTS.md.\n\n</INSTRUCTIONS>');
    const t = tree({ '/r/.git/HEAD': 'x', '/home/u/.codex/AGENTS.override.md': '  \n\n', '/home/u/.codex/AGENTS.md': 'Global AGENTS.md after a blank override.\n' });
    const c = chainOf(t, 'codex', '/r', { launchDir: '/r' });
    assert.deepEqual(statuses(c), ['excluded /home/u/.codex/AGENTS.override.md', 'loaded /home/u/.codex/AGENTS.md']);
    assert.equal(startText(c), '# AGENTS.md instructions\n\n<INSTRUCTIONS>\nGlobal AGENTS.md after a blank override.\n</INSTRUCTIONS>');
  });

  it('a global override hides the global AGENTS.md; $CODEX_HOME moves the folder', () => {
    const t = tree({ '/ch/AGENTS.override.md': 'override\n', '/ch/AGENTS.md': 'hidden\n', '/home/u/.codex/AGENTS.md': 'not read\n', '/r/.git/HEAD': 'x' });
    const c = chainOf(t, 'codex', '/r', { launchDir: '/r', env: { CODEX_HOME: '/ch' } });
    assert.deepEqual(statuses(c), ['loaded /ch/AGENTS.override.md', 'excluded /ch/AGENTS.md']);
    assert.equal(startText(c), '# AGENTS.md instructions\n\n<INSTRUCTIONS>\noverride\n</INSTRUCTIONS>');
  });

  it('nothing to send: no message at all (blank global, blank project doc)', () => {
    const t = tree({ '/r/.git/HEAD': 'x', '/r/AGENTS.md': ' \n\n', '/r/CLAUDE.md': 'Claude only.\n', '/home/u/.codex/AGENTS.md': '\n' });
    const c = chainOf(t, 'codex', '/r', { launchDir: '/r' });
    assert.deepEqual(c.start, []);
    assert.deepEqual(statuses(c), ['excluded /home/u/.codex/AGENTS.md', 'excluded /r/AGENTS.md']);
    assert.deepEqual(c.diagnostics, []);
  });

  it('invalid UTF-8 becomes U+FFFD, a BOM and CRLF line ends are kept (probe cx9)', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('BOM first\r\nbad byte: '), 0xff, 0xfe, ...new TextEncoder().encode(' end\r\n')]);
    const t = tree({ '/r/.git/HEAD': 'x', '/r/AGENTS.md': bytes });
    const c = chainOf(t, 'codex', '/r', { launchDir: '/r' });
    assert.equal(startText(c), '# AGENTS.md instructions for /r\n\n<INSTRUCTIONS>\n\ufeffBOM first\r\nbad byte: \ufffd\ufffd end\r\n\n</INSTRUCTIONS>');
    assert.equal(c.diagnostics.find((d) => d.code === 'not-utf8')?.severity, 'warning');
  });

  it('follows symlinks (also out of the repository); a dangling override link is skipped', () => {
    const t = tree({ '/r/.git/HEAD': 'x', '/out/real.md': 'Outside text behind the link.\n', '/r/src/AGENTS.md': 'src real.\n' });
    t.fs.symlink('/r/AGENTS.md', '/out/real.md');
    t.fs.symlink('/r/src/AGENTS.override.md', '/r/src/missing-target.md');
    const c = chainOf(t, 'codex', '/r/src', { launchDir: '/r/src' });
    assert.deepEqual(statuses(c), ['loaded /r/AGENTS.md', 'loaded /r/src/AGENTS.md']);
    assert.equal(startText(c), '# AGENTS.md instructions for /r/src\n\n<INSTRUCTIONS>\nOutside text behind the link.\n\n\nsrc real.\n\n</INSTRUCTIONS>');
  });
});

describe('codex: the 32 KiB byte budget', () => {
  it('a 40,000-byte root keeps exactly 32,768 bytes, cut mid-line, no marker; the nested doc is dropped; the global file is outside the budget', () => {
    const root = rootLines('root', 40000);
    const t = tree({ '/r/.git/HEAD': 'x', '/r/AGENTS.md': root, '/r/src/AGENTS.md': 'src AGENTS.md: dropped by the budget.\n', '/home/u/.codex/AGENTS.md': 'G'.repeat(40000) + '\n' });
    const c = chainOf(t, 'codex', '/r/src/x.ts', { launchDir: '/r/src' });
    assert.deepEqual(statuses(c), ['loaded /home/u/.codex/AGENTS.md', 'truncated /r/AGENTS.md', 'omitted /r/src/AGENTS.md']);
    assert.deepEqual(c.budget, { unit: 'bytes', limit: 32768, perFile: null, used: 32768 });
    assert.equal(startText(c), `# AGENTS.md instructions for /r/src\n\n<INSTRUCTIONS>\n${'G'.repeat(40000)}\n\n--- project-doc ---\n\n${root.slice(0, 32768)}\n</INSTRUCTIONS>`);
    const cut = c.diagnostics.find((d) => d.code === 'file-truncated');
    assert.equal(cut?.path, '/r/AGENTS.md');
    const line = root.slice(0, 32768).split('\n').length - 1;
    assert.deepEqual([cut?.line, cut?.column], [line, 32768 - root.lastIndexOf('\n', 32767) - 1]);
    assert.deepEqual(c.sources[1].cutAt, { line: cut?.line, column: cut?.column });
    assert.equal(c.sources[1].injectedBytes, 32768);
    assert.ok(c.diagnostics.some((d) => d.code === 'chain-over-budget' && d.path === '/r/src/AGENTS.md'));
  });

  it('a 32,700-byte root leaves 68 bytes for the next doc: the \\n\\n separators are not counted', () => {
    const nested = 'src AGENTS.md: the first sixty-eight bytes of this nested file survive the cut, the rest does not.\n';
    const t = tree({ '/r/.git/HEAD': 'x', '/r/AGENTS.md': rootLines('root', 32700), '/r/src/AGENTS.md': nested });
    const c = chainOf(t, 'codex', '/r/src', { launchDir: '/r/src' });
    assert.deepEqual(statuses(c), ['loaded /r/AGENTS.md', 'truncated /r/src/AGENTS.md']);
    assert.ok(startText(c).endsWith(`\n\n${nested.slice(0, 68)}\n</INSTRUCTIONS>`));
    const d = c.diagnostics.find((x) => x.code === 'chain-over-budget');
    assert.deepEqual([d?.path, d?.line, d?.column, d?.endColumn], ['/r/src/AGENTS.md', 0, 68, 0]);
    assert.match(d?.message ?? '', /after 68 bytes/);
  });

  it('project_doc_max_bytes from config.toml; a cut inside a UTF-8 character gives U+FFFD (probe cx4)', () => {
    const t = tree({
      '/r/.hg': 'm',
      '/r/CLAUDE.md': 'Root CLAUDE.md via fallback.\n',
      '/r/p/AGENTS.md': 'p AGENTS.md wins over CLAUDE.md.\n',
      '/r/p/q/CLAUDE.md': 'q CLAUDE.md ééé 0123456789 0123456789 0123456789\n',
      '/home/u/.codex/config.toml': '# comment\nproject_doc_fallback_filenames = [ "notes/x.md", "CLAUDE.md" ] # trailing\nproject_root_markers = [\'.hg\']\nproject_doc_max_bytes = 75\n',
    });
    const c = chainOf(t, 'codex', '/r/p/q', { launchDir: '/r/p/q' });
    assert.equal(startText(c), '# AGENTS.md instructions for /r/p/q\n\n<INSTRUCTIONS>\nRoot CLAUDE.md via fallback.\n\n\np AGENTS.md wins over CLAUDE.md.\n\n\nq CLAUDE.md \ufffd\n</INSTRUCTIONS>');
    assert.deepEqual(c.budget, { unit: 'bytes', limit: 75, perFile: null, used: 75 });
    assert.deepEqual(c.sources[2].cutAt, { line: 0, column: 12 });
  });

  it('a cut that leaves only white space skips the doc and spends nothing: the next doc gets those bytes (probe cx3)', () => {
    const t = tree({ '/r/.git/HEAD': 'x', '/r/AGENTS.md': rootLines('root', 32760), '/r/a/AGENTS.md': '          a text after ten spaces\n', '/r/a/b/AGENTS.md': 'abcdefghijklmnop\n' });
    const c = chainOf(t, 'codex', '/r/a/b', { launchDir: '/r/a/b' });
    assert.deepEqual(statuses(c), ['loaded /r/AGENTS.md', 'omitted /r/a/AGENTS.md', 'truncated /r/a/b/AGENTS.md']);
    assert.ok(startText(c).endsWith('\n\nabcdefgh\n</INSTRUCTIONS>'));
  });

  it('project_doc_max_bytes = 0 turns project docs off; the global file still goes', () => {
    const t = tree({ '/r/.git/HEAD': 'x', '/r/AGENTS.md': 'Root doc disabled.\n', '/home/u/.codex/config.toml': 'project_doc_max_bytes = 0\n', '/home/u/.codex/AGENTS.md': 'Global only.\n' });
    const c = chainOf(t, 'codex', '/r', { launchDir: '/r' });
    assert.deepEqual(statuses(c), ['loaded /home/u/.codex/AGENTS.md', 'excluded /r/AGENTS.md']);
    assert.match(c.sources[1].reason, /project_doc_max_bytes is 0/);
    assert.equal(startText(c), '# AGENTS.md instructions\n\n<INSTRUCTIONS>\nGlobal only.\n</INSTRUCTIONS>');
  });

  it('an unreadable project doc makes Codex drop every project doc (source: read_agents_md returns the error)', () => {
    const t = tree({ '/r/.git/HEAD': 'x', '/r/AGENTS.md': 'root\n', '/r/src/AGENTS.md': 'src\n', '/home/u/.codex/AGENTS.md': 'global\n' });
    t.fs.deny('/r/src/AGENTS.md');
    const c = chainOf(t, 'codex', '/r/src', { launchDir: '/r/src' });
    assert.deepEqual(statuses(c), ['loaded /home/u/.codex/AGENTS.md', 'omitted /r/AGENTS.md', 'unreadable /r/src/AGENTS.md']);
    assert.equal(startText(c), '# AGENTS.md instructions\n\n<INSTRUCTIONS>\nglobal\n</INSTRUCTIONS>');
  });
});

describe('codex: config.toml', () => {
  it('a value of the wrong type makes Codex refuse to start: fatal, with the place (probes cx12, cx15, cx16, cx17)', () => {
    for (const [line, re] of [
      ['project_doc_max_bytes = "abc"', /expected usize/],
      ['project_doc_max_bytes = -1', /expected usize/],
      ['project_root_markers = ".git"', /expected a sequence/],
      ['project_doc_fallback_filenames = "CLAUDE.md"', /expected a sequence/],
      ['project_doc_max_bytes = 1.0', /invalid type: floating point `1`, expected usize/],
      ['project_doc_max_bytes = 5 5', /Error loading .*config\.toml/],
      ['project_doc_max_bytes = unquoted', /Error loading .*config\.toml/],
    ] as const) {
      const t = tree({ '/r/AGENTS.md': 'x\n', '/home/u/.codex/config.toml': `model = "m"\n${line}\n` });
      const c = chainOf(t, 'codex', '/r', { launchDir: '/r' });
      assert.match(c.fatal ?? '', re, line);
      assert.deepEqual(c.start, []);
      const d = c.diagnostics.find((x) => x.code === 'config-invalid');
      assert.equal(d?.severity, 'error');
      assert.equal(d?.line, 1, line);
    }
  });

  it('reads multi-line arrays, comments, literal and quoted keys, hex and underscores; keys in tables do not count (probe cx14)', () => {
    const toml = "project_root_markers = [\n  '.marker', # comment\n  \"nothing\",\n]\nproject_doc_fallback_filenames = ['''NOTES.md''']\n\"project_doc_max_bytes\" = 0x10\nother = { a = 1, b = [1, 2] }\nwhen = 1979-05-27 07:32:00Z\n\n[profiles.x]\nproject_doc_max_bytes = 1\n";
    const t = tree({ '/r/.git/HEAD': 'x', '/r/AGENTS.md': 'Root doc.\n', '/r/a/NOTES.md': 'a notes\n', '/r/.marker/x': 'm', '/home/u/.codex/config.toml': toml });
    const c = chainOf(t, 'codex', '/r/a', { launchDir: '/r/a' });
    assert.equal(startText(c), '# AGENTS.md instructions for /r/a\n\n<INSTRUCTIONS>\nRoot doc.\n\n\na note\n</INSTRUCTIONS>');
    const under = tree({ '/r/AGENTS.md': 'x'.repeat(2000) + '\n', '/home/u/.codex/config.toml': 'project_doc_max_bytes = 1_000\n' });
    assert.equal(chainOf(under, 'codex', '/r', { launchDir: '/r' }).budget.limit, 1000);
  });

  it('a config.toml that does not parse anywhere, a table included, is fatal, as for Codex (the whole file is parsed)', () => {
    for (const toml of ['model = "m"\n[profiles.x]\nbroken = \n', 'a = 1\na = 2\n', 'name = "never closed\n']) {
      const t = tree({ '/r/AGENTS.md': 'x\n', '/home/u/.codex/config.toml': toml });
      const c = chainOf(t, 'codex', '/r', { launchDir: '/r' });
      assert.match(c.fatal ?? '', /^Error loading \/home\/u\/\.codex\/config\.toml: /, toml);
      assert.deepEqual(c.start, [], toml);
      const d = c.diagnostics.find((x) => x.code === 'config-invalid');
      assert.equal(d?.severity, 'error', toml);
      assert.match(d?.message ?? '', /Codex refuses to start: config\.toml does not parse/);
    }
    const d = chainOf(tree({ '/r/AGENTS.md': 'x\n', '/home/u/.codex/config.toml': 'model = "m"\n[t]\nbroken = \n' }), 'codex', '/r', { launchDir: '/r' }).diagnostics[0];
    assert.equal(d.line, 2, 'the diagnostic sits on the broken line');
  });
});
