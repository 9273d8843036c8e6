import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chainOf, startText, statuses, tree } from '../fixture';

const PRE =
  '<system-reminder>\nCodebase and user instructions are shown below. Be sure to adhere to these instructions. IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written.\n\n';
const PROJECT = ' (project instructions, checked into the codebase)';
const LOCAL = " (user's private project instructions, not checked in)";
const USER = " (user's private global instructions for all projects)";
const entry = (p: string, label: string, content: string) => `Contents of ${p}${label}:\n\n${content}`;
const block = (...entries: string[]) => `${PRE}${entries.join('\n\n')}\n</system-reminder>`;

// Observed on Claude Code 2.1.332 (../shared/agents.md) unless said otherwise.
describe('claude-code', () => {
  it('orders user, root CLAUDE.md, its imports, .claude/CLAUDE.md, rules without paths, CLAUDE.local.md; nested CLAUDE.md last when launched there', () => {
    // Launched in src/, the root's import of docs/x.md is outside the launch dir and dropped (observed).
    const t = tree({
      '/home/u/.claude/CLAUDE.md': 'user rule\n',
      '/home/u/.claude/rules/u.md': 'user rules dir\n',
      '/r/.git/HEAD': '',
      '/r/CLAUDE.md': '# Root\n\n@src/x.md\n\nlast\n',
      '/r/src/x.md': 'imported x\n',
      '/r/.claude/CLAUDE.md': 'dot claude\n',
      '/r/.claude/rules/a.md': 'rule a\n',
      '/r/.claude/rules/b.md': '---\npaths: ["src/**/*.ts"]\n---\nrule b\n',
      '/r/CLAUDE.local.md': 'local\n',
      '/r/src/CLAUDE.md': 'src rule\n',
      '/r/src/x.ts': '',
    });
    const c = chainOf(t, 'claude-code', '/r/src/x.ts', { launchDir: '/r/src' });
    assert.deepEqual(statuses(c), [
      'loaded /home/u/.claude/CLAUDE.md',
      'loaded /home/u/.claude/rules/u.md',
      'loaded /r/CLAUDE.md',
      'loaded /r/src/x.md',
      'loaded /r/.claude/CLAUDE.md',
      'loaded /r/.claude/rules/a.md',
      'loaded /r/CLAUDE.local.md',
      'loaded /r/src/CLAUDE.md',
      'on-read /r/.claude/rules/b.md',
    ]);
    assert.equal(c.sources[3].importedBy, '/r/CLAUDE.md');
    assert.equal(
      startText(c),
      block(
        entry('/home/u/.claude/CLAUDE.md', USER, 'user rule'),
        entry('/home/u/.claude/rules/u.md', USER, 'user rules dir'),
        entry('/r/CLAUDE.md', PROJECT, '# Root\n\n@src/x.md\n\nlast'),
        entry('/r/src/x.md', PROJECT, 'imported x'),
        entry('/r/.claude/CLAUDE.md', PROJECT, 'dot claude'),
        entry('/r/.claude/rules/a.md', PROJECT, 'rule a'),
        entry('/r/CLAUDE.local.md', LOCAL, 'local'),
        entry('/r/src/CLAUDE.md', PROJECT, 'src rule'),
      ),
    );
    assert.equal(c.start[0].where, 'user');
  });

  it('managed policy first, with its own label', () => {
    const t = tree({ '/etc/claude-code/CLAUDE.md': 'policy', '/r/CLAUDE.md': 'proj' });
    const c = chainOf(t, 'claude-code', '/r', { launchDir: '/r' });
    assert.equal(startText(c), block(entry('/etc/claude-code/CLAUDE.md', ' (organization-managed policy instructions)', 'policy'), entry('/r/CLAUDE.md', PROJECT, 'proj')));
  });

  it('trims each entry at start but not on read; frontmatter goes with the white space after it', () => {
    const t = tree({
      '/r/CLAUDE.md': '\n\n  Leading blank lines and spaces.\n\ntrailing   \n\n\n\n',
      '/r/CLAUDE.local.md': '---\ntitle: x\n---\n\n\nLocal after frontmatter\n',
      '/r/src/CLAUDE.md': '  nested leading\n\n\n',
      '/r/src/x.ts': '',
      '/r/.claude/rules/p.md': '---\npaths: src/**\n---\n\n\nRule body\n\n',
      '/r/.claude/rules/q.md': '---\npaths:\n  - "src/*.ts"\n---\nQ body',
    });
    const c = chainOf(t, 'claude-code', '/r/src/x.ts', { launchDir: '/r' });
    assert.equal(startText(c), block(entry('/r/CLAUDE.md', PROJECT, 'Leading blank lines and spaces.\n\ntrailing'), entry('/r/CLAUDE.local.md', LOCAL, 'Local after frontmatter')));
    assert.deepEqual(
      c.onRead.map((p) => [p.where, p.text]),
      [
        ['after-tool-result', '<system-reminder>\nContents of /r/src/CLAUDE.md:\n\n  nested leading\n\n\n\n</system-reminder>\n'],
        ['after-tool-result', '<system-reminder>\nContents of /r/.claude/rules/p.md:\n\nRule body\n\n\n</system-reminder>\n'],
        ['after-tool-result', '<system-reminder>\nContents of /r/.claude/rules/q.md:\n\nQ body\n</system-reminder>'],
      ],
    );
  });

  it('path-scoped rules: gitignore-style match relative to the folder above .claude; a trailing /** dropped; all-** is unconditional', () => {
    const t = tree({
      '/r/pkg/.claude/rules/ts.md': '---\npaths: "*.ts"\n---\nts anywhere under pkg',
      '/r/pkg/.claude/rules/api.md': '---\npaths: api/**\n---\napi folder',
      '/r/pkg/.claude/rules/all.md': '---\npaths: ["**"]\n---\nalways',
      '/r/pkg/.claude/rules/css.md': '---\npaths: ["**/*.css"]\n---\ncss only',
      '/r/pkg/api/deep/x.ts': '',
    });
    const c = chainOf(t, 'claude-code', '/r/pkg/api/deep/x.ts', { launchDir: '/r/pkg' });
    const by = (name: string) => c.sources.find((s) => s.path.endsWith(name))!;
    assert.equal(by('ts.md').status, 'on-read');
    assert.equal(by('api.md').status, 'on-read');
    assert.deepEqual(by('api.md').globs, ['api']);
    assert.equal(by('all.md').status, 'loaded');
    assert.equal(by('all.md').loads, 'start');
    assert.equal(by('css.md').status, 'not-matched');
  });

  it('on read of a/b/c/file.ts: the CLAUDE.md of a, a/b, a/b/c outermost first, then nested CLAUDE.local.md, then matching rules', () => {
    const t = tree({
      '/r/CLAUDE.md': 'root',
      '/r/a/CLAUDE.md': 'A',
      '/r/a/b/CLAUDE.md': 'B',
      '/r/a/b/CLAUDE.local.md': 'B local',
      '/r/a/b/c/CLAUDE.md': 'C',
      '/r/a/b/c/file.ts': '',
      '/r/.claude/rules/r.md': '---\npaths: a/**/*.ts\n---\nrule',
      '/r/other/CLAUDE.md': 'sibling',
    });
    const c = chainOf(t, 'claude-code', '/r/a/b/c/file.ts', { launchDir: '/r' });
    assert.deepEqual(
      c.onRead.map((p) => p.text.split('\n')[1]),
      ['Contents of /r/a/CLAUDE.md:', 'Contents of /r/a/b/CLAUDE.md:', 'Contents of /r/a/b/CLAUDE.local.md:', 'Contents of /r/a/b/c/CLAUDE.md:', 'Contents of /r/.claude/rules/r.md:'],
    );
    assert.ok(!c.sources.some((s) => s.path.includes('/other/')));
  });

  it('imports: each its own entry after its importer, depth first; 4 levels load, the 5th does not', () => {
    const t = tree({
      '/r/CLAUDE.md': '@l1.md\n@other.md',
      '/r/l1.md': 'one @l2.md',
      '/r/l2.md': 'two @l3.md',
      '/r/l3.md': 'three @l4.md',
      '/r/l4.md': 'four @l5.md',
      '/r/l5.md': 'five',
      '/r/other.md': 'other',
    });
    const c = chainOf(t, 'claude-code', '/r', { launchDir: '/r' });
    assert.deepEqual(statuses(c), ['loaded /r/CLAUDE.md', 'loaded /r/l1.md', 'loaded /r/l2.md', 'loaded /r/l3.md', 'loaded /r/l4.md', 'excluded /r/l5.md', 'loaded /r/other.md']);
    const d = c.diagnostics.find((x) => x.code === 'import-depth')!;
    assert.equal(d.path, '/r/l4.md');
    assert.deepEqual([d.line, d.column, d.endColumn], [0, 5, 11]);
  });

  it('imports that are not followed: code spans, code blocks, HTML comments, trailing punctuation, binary types, missing targets (silently)', () => {
    const t = tree({
      '/r/CLAUDE.md': 'A `@code.md` span.\n\n```\n@block.md\n```\n\n<!-- @comment.md -->\n(@paren.md) @a.md, "@q.md" @img.png @data.bin @gone.md @./ok.md#section @noext\n',
      '/r/code.md': 'x', '/r/block.md': 'x', '/r/comment.md': 'x', '/r/paren.md': 'x', '/r/a.md': 'x', '/r/q.md': 'x',
      '/r/img.png': 'text really', '/r/data.bin': 'text', '/r/ok.md': 'ok', '/r/noext': 'no extension', '/r/gone2.md': 'near',
    });
    const c = chainOf(t, 'claude-code', '/r', { launchDir: '/r' });
    // "@a.md," names a file "a.md," whose extension ".md," is not a text type: skipped.
    assert.deepEqual(statuses(c), ['loaded /r/CLAUDE.md', 'excluded /r/a.md,', 'excluded /r/img.png', 'excluded /r/data.bin', 'missing /r/gone.md', 'loaded /r/ok.md', 'loaded /r/noext']);
    const codes = c.diagnostics.map((d) => d.code).sort();
    assert.deepEqual(codes, ['import-in-code', 'import-in-code', 'import-in-code', 'import-missing', 'import-missing', 'import-not-text', 'import-not-text']);
    assert.equal(c.diagnostics.find((d) => d.message.includes('@a.md,'))?.data?.suggestion, 'a.md');
    const missing = c.diagnostics.find((d) => d.code === 'import-missing' && d.message.includes('gone.md'))!;
    assert.equal(missing.data?.suggestion, 'gone2.md');
    // The HTML comment line is removed from the text; the @ lines stay verbatim.
    assert.ok(!startText(c).includes('comment.md'));
    assert.ok(startText(c).includes('@gone.md @./ok.md#section @noext'));
  });

  it('an import with a full stop glued on points at the file meant', () => {
    const t = tree({ '/r/CLAUDE.md': 'See @./stup.md.\n', '/r/setup.md': 'x' });
    const c = chainOf(t, 'claude-code', '/r', { launchDir: '/r' });
    const d = c.diagnostics.find((x) => x.code === 'import-missing')!;
    assert.match(d.message, /ending in "\."/);
    assert.equal(d.data?.suggestion, 'setup.md');
    assert.ok(!c.diagnostics.some((x) => x.code === 'import-not-text'));
  });

  it('an @ naming a folder that is there (prose about `@src/app/`) is no missing import; one that is not there is', () => {
    const t = tree({ '/r/CLAUDE.md': 'Put it in the @src/app/ folder, not @src/gone/ nor @src/gone.md here.\n', '/r/src/app/x.ts': '' });
    const c = chainOf(t, 'claude-code', '/r', { launchDir: '/r' });
    assert.deepEqual(c.diagnostics.filter((d) => d.code === 'import-missing').map((d) => /@\S+/.exec(d.message)![0]), ['@src/gone/', '@src/gone.md']);
    assert.match(c.sources.find((s) => s.path === '/r/src/app')!.reason, /is a folder/);
  });

  it('a Windows path in an import ends at its first backslash: reported when the path meant is a file', () => {
    // Observed with Claude Code 2.1.332 (instruction-lens verify): "@docs\\x.md" sends CLAUDE.md alone.
    const t = tree({
      '/r/CLAUDE.md': 'See @docs\\x.md, and @.\\docs\\y.md#part here.\nNot these: @docs\\none.md @docs @notes\\today\n',
      '/r/docs/x.md': 'x',
      '/r/docs/y.md': 'y',
    });
    const c = chainOf(t, 'claude-code', '/r', { launchDir: '/r' });
    assert.deepEqual(statuses(c), ['loaded /r/CLAUDE.md', 'missing /r/docs', 'missing /r', 'missing /r/notes']);
    assert.match(c.sources[1].reason, /is a folder/);
    const found = c.diagnostics.filter((d) => d.code === 'import-missing');
    assert.deepEqual(found.map((d) => d.data?.suggestion), ['docs/x.md', './docs/y.md#part']);
    // The range covers the whole path as written, so the quick fix replaces all of it.
    const line = 'See @docs\\x.md, and @.\\docs\\y.md#part here.';
    assert.deepEqual(found.map((d) => [d.line, line.slice(d.column, d.endColumn)]), [[0, '@docs\\x.md'], [0, '@.\\docs\\y.md#part']]);
    assert.match(found[0].message, /reads @docs\\x\.md as @docs and loads nothing\. Write @docs\/x\.md\./);
  });

  it('cycles load each file once and are reported', () => {
    const t = tree({ '/r/CLAUDE.md': '@a.md', '/r/a.md': 'a @b.md', '/r/b.md': 'b @a.md @CLAUDE.md' });
    const c = chainOf(t, 'claude-code', '/r', { launchDir: '/r' });
    assert.deepEqual(statuses(c), ['loaded /r/CLAUDE.md', 'loaded /r/a.md', 'loaded /r/b.md', 'duplicate /r/a.md', 'duplicate /r/CLAUDE.md']);
    assert.equal(c.diagnostics.filter((d) => d.code === 'import-cycle').length, 2);
  });

  it('imports outside the launch dir are dropped unless approved in ~/.claude.json; user memory imports from anywhere', () => {
    // A path alias in prose (`@/mocks`) names nothing outside: dropped, and not said; a file's path that is not there either still is.
    const files = { '/r/.git/HEAD': '', '/r/CLAUDE.md': '@../shared.md\n@~/notes.md\nMocks come from @/mocks and @../gone.md', '/shared.md': 'shared', '/home/u/notes.md': 'notes', '/home/u/.claude/CLAUDE.md': 'user @/etc/x.md', '/etc/x.md': 'etc' };
    const c = chainOf(tree(files), 'claude-code', '/r', { launchDir: '/r' });
    assert.deepEqual(statuses(c), ['loaded /home/u/.claude/CLAUDE.md', 'loaded /etc/x.md', 'loaded /r/CLAUDE.md', 'excluded /shared.md', 'excluded /home/u/notes.md', 'excluded /mocks', 'excluded /gone.md']);
    assert.ok(startText(c).includes(entry('/etc/x.md', USER, 'etc')));
    assert.deepEqual(c.diagnostics.filter((d) => d.code === 'import-outside').map((d) => /@\S+/.exec(d.message)![0]), ['@../shared.md', '@~/notes.md', '@../gone.md']);
    const approved = tree({ ...files, '/home/u/.claude.json': JSON.stringify({ projects: { '/r': { hasClaudeMdExternalIncludesApproved: true } } }) });
    const c2 = chainOf(approved, 'claude-code', '/r', { launchDir: '/r' });
    assert.deepEqual(statuses(c2), ['loaded /home/u/.claude/CLAUDE.md', 'loaded /etc/x.md', 'loaded /r/CLAUDE.md', 'loaded /shared.md', 'loaded /home/u/notes.md', 'missing /mocks', 'missing /gone.md']);
    assert.ok(startText(c2).includes(entry('/home/u/notes.md', PROJECT, 'notes')));
  });

  it('removes block and multi-line HTML comments, keeps inline ones and those in code', () => {
    const t = tree({ '/r/CLAUDE.md': '# T\n\n<!-- gone -->\nkeep <!-- inline --> this\n\n<!--\nmulti\n-->\n```\n<!-- in code -->\n```\n  <!-- indented: kept -->\nend\n' });
    assert.equal(startText(chainOf(t, 'claude-code', '/r', { launchDir: '/r' })), block(entry('/r/CLAUDE.md', PROJECT, '# T\n\nkeep <!-- inline --> this\n\n```\n<!-- in code -->\n```\n  <!-- indented: kept -->\nend')));
  });

  it('a comment line goes with the line breaks after it, at start and on read', () => {
    // Each pair: file text → what Claude Code 2.1.332 sent (observed, fixtures p1 and p2).
    const atStart: [string, string][] = [
      ['MK1\n<!-- c -->\n\n# H1\n', 'MK1\n# H1'],
      ['MK2\n\n<!-- c -->\n\n# H2\n', 'MK2\n\n# H2'],
      ['MK4\n<!-- c -->\n# H4\n', 'MK4\n# H4'],
      ['MK5\n\n<!-- c -->\n\n\n\n# H5\n\n<!-- end -->\n\n', 'MK5\n\n# H5'],
      ['MK6\n<!--\nmulti\n-->\n\n\nH6\n', 'MK6\nH6'],
      ['MK7\n\n<!-- a -->\n<!-- b -->\n\nH7 <!-- x --> y\n', 'MK7\n\nH7 <!-- x --> y'],
      // Comments further down are found after an earlier one took its blank lines.
      ['<!-- top -->\n\n# T\nintro\n<!-- under -->\n\n## B\n\n<!-- mid -->\n\nend\n', '# T\nintro\n## B\n\nend'],
    ];
    for (const [text, sent] of atStart) {
      const c = chainOf(tree({ '/r/CLAUDE.md': text }), 'claude-code', '/r', { launchDir: '/r' });
      assert.equal(startText(c), block(entry('/r/CLAUDE.md', PROJECT, sent)), JSON.stringify(text));
    }
    const onRead: [string, string][] = [
      ['<!-- c -->\n\n# S1\nsrc1\n', '# S1\nsrc1\n'],
      ['MK1\n<!-- c -->\n  \n\n# H1\n', 'MK1\n  \n\n# H1\n'],
      ['MK2\n<!-- c --> \n\n# H2\n', 'MK2\n# H2\n'],
      ['MK3\n\n<!-- c -->\n', 'MK3\n\n'],
      ['MK4\n\n<!-- c -->\n\n\n', 'MK4\n\n'],
      ['\n\n<!-- c -->\n\nMK5\n', '\n\nMK5\n'],
      ['MK6\n<!-- c -->\n\n```\n<!-- k -->\n\n```\n- a\n<!-- d -->\n\n- b\n', 'MK6\n```\n<!-- k -->\n\n```\n- a\n- b\n'],
    ];
    for (const [text, sent] of onRead) {
      const c = chainOf(tree({ '/r/CLAUDE.md': 'root', '/r/src/CLAUDE.md': text, '/r/src/x.ts': '' }), 'claude-code', '/r/src/x.ts', { launchDir: '/r' });
      assert.deepEqual(c.onRead, [{ where: 'after-tool-result', text: `<system-reminder>\nContents of /r/src/CLAUDE.md:\n\n${sent}\n</system-reminder>` }], JSON.stringify(text));
    }
  });

  it('nested AGENTS.md files read through the fallback arrive in one block, joined by a line break', () => {
    // Observed: AGENTS.md only, in a/, a/b/ and a/b/c/; the texts as written (no trim).
    const t = tree({
      '/r/AGENTS.md': 'root agents text\n',
      '/r/a/AGENTS.md': 'a agents text',
      '/r/a/b/AGENTS.md': 'ab agents text\n\n\n',
      '/r/a/b/c/AGENTS.md': '<!-- c -->\n\nabc agents text\n',
      '/r/a/b/c/x.ts': '',
    });
    const c = chainOf(t, 'claude-code', '/r/a/b/c/x.ts', { launchDir: '/r' });
    assert.deepEqual(c.onRead, [{
      where: 'after-tool-result',
      text: 'tool.call hook additional context: Contents of /r/a/AGENTS.md:\n\na agents text\nContents of /r/a/b/AGENTS.md:\n\nab agents text\n\n\n\nContents of /r/a/b/c/AGENTS.md:\n\nabc agents text\n',
    }]);
  });

  it('AGENTS.md is a fallback for the whole chain', () => {
    const only = tree({ '/r/AGENTS.md': 'agents', '/r/.claude/rules/a.md': 'rule', '/r/sub/AGENTS.md': 'nested agents', '/r/sub/x.ts': '' });
    const c = chainOf(only, 'claude-code', '/r/sub/x.ts', { launchDir: '/r' });
    assert.equal(startText(c), block(entry('/r/.claude/rules/a.md', PROJECT, 'rule'), entry('/r/AGENTS.md', PROJECT, 'agents')));
    assert.deepEqual(c.onRead, [{ where: 'after-tool-result', text: 'tool.call hook additional context: Contents of /r/sub/AGENTS.md:\n\nnested agents' }]);

    const withClaude = tree({ '/r/CLAUDE.md': 'claude', '/r/AGENTS.md': 'agents', '/r/sub/AGENTS.md': 'nested agents', '/r/sub/x.ts': '' });
    const c2 = chainOf(withClaude, 'claude-code', '/r/sub/x.ts', { launchDir: '/r' });
    assert.equal(startText(c2), block(entry('/r/CLAUDE.md', PROJECT, 'claude')));
    assert.deepEqual(c2.onRead, []);
    assert.deepEqual(c2.sources.filter((s) => s.path.endsWith('AGENTS.md')).map((s) => s.status), ['excluded', 'excluded']);

    // An empty CLAUDE.md does not count.
    const empty = tree({ '/r/CLAUDE.md': '  \n', '/r/AGENTS.md': 'agents' });
    assert.equal(startText(chainOf(empty, 'claude-code', '/r', { launchDir: '/r' })), block(entry('/r/AGENTS.md', PROJECT, 'agents')));
  });

  it('an AGENTS.md imported by the CLAUDE.md beside it, or a CLAUDE.md symlink to it, is loaded once and not reported', () => {
    const files = {
      '/r/CLAUDE.md': '@AGENTS.md\n',
      '/r/AGENTS.md': 'root agents',
      '/r/a/CLAUDE.md': 'See @AGENTS.md for the rules.\n',
      '/r/a/AGENTS.md': 'a agents',
      '/r/a/x.ts': '',
      '/r/b/AGENTS.md': 'b agents',
      '/r/b/x.ts': '',
    };
    const t = tree(files);
    t.fs.symlink('/r/b/CLAUDE.md', 'AGENTS.md');
    const a = chainOf(t, 'claude-code', '/r/a/x.ts', { launchDir: '/r' });
    assert.deepEqual(statuses(a), ['loaded /r/CLAUDE.md', 'loaded /r/AGENTS.md', 'on-read /r/a/CLAUDE.md', 'on-read /r/a/AGENTS.md']);
    assert.deepEqual(a.diagnostics, []);
    const b = chainOf(t, 'claude-code', '/r/b/x.ts', { launchDir: '/r' });
    assert.deepEqual(statuses(b), ['loaded /r/CLAUDE.md', 'loaded /r/AGENTS.md', 'on-read /r/b/CLAUDE.md']);
    assert.deepEqual(b.diagnostics, []);
  });

  it('a nested AGENTS.md skipped because of a CLAUDE.md higher up: the advice names a CLAUDE.md beside it, and following it loads the file', () => {
    const files = { '/r/CLAUDE.md': 'root', '/r/pkg/AGENTS.md': 'pkg agents', '/r/pkg/x.ts': '' };
    const before = chainOf(tree(files), 'claude-code', '/r/pkg/x.ts', { launchDir: '/r' });
    const [d] = before.diagnostics;
    assert.equal(d.code, 'not-loaded');
    assert.equal(d.path, '/r/pkg/AGENTS.md');
    assert.match(d.message, /^Claude Code never reads this AGENTS\.md: it skips AGENTS\.md files when a CLAUDE\.md exists higher up; to load it, create a CLAUDE\.md beside it containing "@AGENTS\.md"\.$/);
    assert.deepEqual(d.data, { importInto: '/r/pkg/CLAUDE.md', importLine: '@AGENTS.md' });
    // Launched in the package itself the root CLAUDE.md is still up the chain: never loaded.
    assert.equal(chainOf(tree(files), 'claude-code', '/r/pkg/x.ts', { launchDir: '/r/pkg' }).diagnostics[0]?.code, 'not-loaded');
    // Following the advice.
    const after = chainOf(tree({ ...files, [d.data!.importInto]: `${d.data!.importLine}\n` }), 'claude-code', '/r/pkg/x.ts', { launchDir: '/r' });
    assert.deepEqual(statuses(after), ['loaded /r/CLAUDE.md', 'on-read /r/pkg/CLAUDE.md', 'on-read /r/pkg/AGENTS.md']);
    assert.deepEqual(after.diagnostics, []);
    assert.match(after.onRead.map((p) => p.text).join(''), /pkg agents/);
  });

  it('a root AGENTS.md beside a CLAUDE.md that does not import it: add the line to that CLAUDE.md', () => {
    const c = chainOf(tree({ '/r/CLAUDE.md': 'root', '/r/AGENTS.md': 'agents' }), 'claude-code', '/r', { launchDir: '/r' });
    assert.deepEqual(c.diagnostics.map((d) => d.message), ['Claude Code never reads this AGENTS.md: it skips AGENTS.md files when the CLAUDE.md beside it does not import it; to load it, add a line "@AGENTS.md" to the CLAUDE.md beside it.']);
  });

  it('no size cut: a 45,000-char file loads whole and is flagged', () => {
    const t = tree({ '/r/CLAUDE.md': 'x'.repeat(45_000) });
    const c = chainOf(t, 'claude-code', '/r', { launchDir: '/r' });
    assert.equal(c.sources[0].status, 'loaded');
    assert.equal(c.sources[0].injectedChars, 45_000);
    assert.ok(c.diagnostics.some((d) => d.code === 'large-file'));
  });

  it('a symlinked CLAUDE.md loads its target text once, under the link path', () => {
    const t = tree({ '/r/AGENTS.md': 'shared text', '/r/docs/CLAUDE.md': 'x' });
    t.fs.symlink('/r/CLAUDE.md', '/r/AGENTS.md');
    const c = chainOf(t, 'claude-code', '/r', { launchDir: '/r' });
    assert.equal(startText(c), block(entry('/r/CLAUDE.md', PROJECT, 'shared text')));
  });

  it('empty files yield no entry; with none at all the reminder is absent', () => {
    const t = tree({ '/r/CLAUDE.md': '', '/r/CLAUDE.local.md': '<!-- only a comment -->\n' });
    const c = chainOf(t, 'claude-code', '/r', { launchDir: '/r' });
    assert.deepEqual(c.start, []);
    assert.deepEqual(statuses(c), ['excluded /r/CLAUDE.md', 'excluded /r/CLAUDE.local.md']);
  });

  it('claudeMdExcludes drops project files', () => {
    const t = tree({ '/r/CLAUDE.md': 'keep', '/r/CLAUDE.local.md': 'drop', '/r/.claude/settings.json': JSON.stringify({ claudeMdExcludes: ['**/CLAUDE.local.md'] }) });
    const c = chainOf(t, 'claude-code', '/r', { launchDir: '/r' });
    assert.deepEqual(statuses(c), ['loaded /r/CLAUDE.md', 'excluded /r/CLAUDE.local.md']);
  });

  it('never expands @imports in .claude/rules files, at start or on read; nested CLAUDE.md imports load on read', () => {
    const t = tree({
      // Words after an @ in prose (a CSS at-rule, test tags) were never meant to load: not said.
      '/r/.claude/rules/always.md': 'Always rule imports @docs/a.md\nNo custom @media queries; tag it @Bug or @Bug/@Maintain.\n',
      '/r/.claude/rules/ts.md': '---\npaths: ["src/**"]\n---\nTS rule imports @docs/b.md here, and @notes as well.\n',
      '/r/docs/a.md': 'a', '/r/docs/b.md': 'b', '/r/docs/c.md': 'c', '/r/.claude/rules/notes': 'n',
      '/r/src/CLAUDE.md': 'src imports @../docs/c.md\n',
      '/r/src/x.ts': '',
    });
    const c = chainOf(t, 'claude-code', '/r/src/x.ts', { launchDir: '/r' });
    assert.deepEqual(statuses(c), ['loaded /r/.claude/rules/always.md', 'on-read /r/src/CLAUDE.md', 'on-read /r/docs/c.md', 'on-read /r/.claude/rules/ts.md']);
    assert.deepEqual(c.diagnostics.filter((d) => d.code === 'not-loaded').map((d) => /@\S+/.exec(d.message)![0]), ['@docs/a.md', '@docs/b.md', '@notes']);
    assert.deepEqual(c.onRead.map((p) => p.text.split('\n')[1]), ['Contents of /r/src/CLAUDE.md:', 'Contents of /r/docs/c.md:', 'Contents of /r/.claude/rules/ts.md:']);
  });

  it('reads a rule whose frontmatter is not YAML again with its plain values quoted, as Claude Code does; what that does not repair is dropped and reported', () => {
    const t = tree({
      '/r/.claude/rules/alias.md': '---\npaths: **/*.tsx\n---\nalias\n',
      '/r/.claude/rules/braces.md': '---\npaths: {src,lib}/**/*.tsx\n---\nbraces\n',
      // A list indented with a tab, which YAML forbids: each leading tab becomes two spaces.
      '/r/.claude/rules/tabs.md': '---\npaths:\n\t- "**/*.tsx"\n---\ntabs\n',
      // With CRLF endings no line reads as `key: value` to it (its `.` stops at the CR): nothing is quoted.
      '/r/.claude/rules/crlf.md': '---\r\npaths: **/*.tsx\r\n---\r\ncrlf\n',
      '/r/.claude/rules/list.md': '---\npaths: [src/**/*.tsx]\ndescription: a: b\n---\nlist\n',
      '/r/.claude/rules/broken.md': '---\npaths: **/*.tsx\ndescription: "never closed\n---\nbroken\n',
      '/r/src/y.tsx': '',
    });
    const c = chainOf(t, 'claude-code', '/r/src/y.tsx', { launchDir: '/r' });
    assert.deepEqual(statuses(c).sort(), ['loaded /r/.claude/rules/broken.md', 'loaded /r/.claude/rules/crlf.md', 'on-read /r/.claude/rules/alias.md', 'on-read /r/.claude/rules/braces.md', 'on-read /r/.claude/rules/list.md', 'on-read /r/.claude/rules/tabs.md']);
    assert.deepEqual(c.diagnostics.filter((d) => d.code === 'frontmatter-invalid').map((d) => d.path).sort(), ['/r/.claude/rules/broken.md', '/r/.claude/rules/crlf.md']);
  });

  it('rules load in the file system listing order, sub-folders in place', () => {
    const t = tree({ '/r/.claude/rules/z.md': 'z', '/r/.claude/rules/sub/m.md': 'm', '/r/.claude/rules/a.md': 'a' });
    const c = chainOf(t, 'claude-code', '/r', { launchDir: '/r' });
    assert.deepEqual(statuses(c), ['loaded /r/.claude/rules/z.md', 'loaded /r/.claude/rules/sub/m.md', 'loaded /r/.claude/rules/a.md']);
  });
});
