import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Chain } from '../../../src/core/model';
import { chainOf, startText, statuses, tree } from '../fixture';

// Observed on Copilot CLI 1.0.102 (probe trees p1–p24, q1–q7; see the profile's header).
const ci = (content: string) => `<custom_instruction>\n${content}\n</custom_instruction>`;
const TABLE =
  'Here is a list of instruction files that contain rules for modifying or creating new code.\n' +
  'These files are important for ensuring that the code is modified or created correctly.\n' +
  'Please make sure to follow the rules specified in these files when working with the codebase.\n' +
  'If you have not already read the file, use the `view` tool to acquire it.\n' +
  'Make sure to acquire the instructions before making any changes to the code.\n' +
  '| Pattern | File Path | Description |\n' +
  '| ------- | --------- | ----------- |\n';
const NESTED =
  'Here is a list of nested AGENTS.md files that contain additional agent instructions.\n' +
  'These files provide context-specific instructions for different parts of the codebase.\n' +
  'Please make sure to follow the rules specified in these files when working with the relevant areas.\n' +
  'If you have not already read the file, use the `view` tool to acquire it.\n' +
  'Make sure to acquire the instructions before making any changes to the code in those areas.\n' +
  '| Directory | File Path | Description |\n' +
  '| --------- | --------- | ----------- |\n';
const rem = (p: string, content: string) => `\n<system_reminder>\nCustom instructions from ${p}. Apply these to any code you write here:\n\n${content}\n</system_reminder>`;
const imp = (p: string, content: string) => `\n\n<imported_custom_instruction source="${p}">\n${content}\n</imported_custom_instruction>`;
const cli = (t: ReturnType<typeof tree>, target: string, launchDir: string, env: Record<string, string> = {}) => chainOf(t, 'copilot-cli', target, { launchDir, env });
const readText = (c: Chain) => {
  assert.equal(c.onRead.length, 1, 'one on-read message');
  assert.equal(c.onRead[0].where, 'after-tool-result');
  return c.onRead[0].text;
};
const codes = (c: Chain) => c.diagnostics.map((d) => `${d.code} ${d.path}`);

describe('copilot-cli: <custom_instruction> blocks', () => {
  it('orders user, repo and launch-dir copilot-instructions.md, root then launch-dir AGENTS/CLAUDE/GEMINI, then the folders between, innermost first (p1)', () => {
    const f: Record<string, string> = { '/r/.git/HEAD': '', '/home/u/.copilot/copilot-instructions.md': 'HOME\n' };
    for (const [d, tag] of [['/r/', 'root'], ['/r/a/', 'a'], ['/r/a/b/', 'b'], ['/r/a/b/c/', 'c']]) {
      f[`${d}.github/copilot-instructions.md`] = `COP ${tag}\n`;
      for (const n of ['AGENTS', 'CLAUDE', 'GEMINI']) f[`${d}${n}.md`] = `${n} ${tag}\n`;
    }
    f['/r/a/b/c/x.ts'] = '';
    const c = cli(tree(f), '/r/a/b/c/x.ts', '/r/a/b/c');
    const order = ['HOME', 'COP root', 'COP c', 'AGENTS root', 'CLAUDE root', 'GEMINI root', 'AGENTS c', 'CLAUDE c', 'GEMINI c', 'COP b', 'AGENTS b', 'CLAUDE b', 'GEMINI b', 'COP a', 'AGENTS a', 'CLAUDE a', 'GEMINI a'];
    assert.equal(startText(c), order.map((o) => ci(`${o}\n`)).join('\n\n'));
    assert.equal(c.start[0].where, 'system');
    assert.ok(c.sources.filter((s) => s.status === 'loaded').every((s) => s.loads === 'start'));
  });

  it('sends the file text as is: not trimmed, HTML comments kept, an empty file as an empty block, byte order mark dropped', () => {
    const t = tree({ '/r/.git/HEAD': '', '/r/AGENTS.md': '', '/r/CLAUDE.md': '\ufeff\n\n  <!-- kept -->\nlast', '/r/GEMINI.md': 'g\n\n\n' });
    assert.equal(startText(cli(t, '/r', '/r')), [ci(''), ci('\n\n  <!-- kept -->\nlast'), ci('g\n\n\n')].join('\n\n'));
  });

  it('sends identical text once, first wins, byte-exact (p7)', () => {
    const t = tree({ '/r/.git/HEAD': '', '/home/u/.copilot/copilot-instructions.md': 'same\n', '/r/.github/copilot-instructions.md': 'same\n\n', '/r/AGENTS.md': 'same\n', '/r/CLAUDE.md': 'same\n', '/r/GEMINI.md': 'same \n' });
    const c = cli(t, '/r', '/r');
    assert.equal(startText(c), [ci('same\n'), ci('same\n\n'), ci('same \n')].join('\n\n'));
    assert.deepEqual(statuses(c), [
      'loaded /home/u/.copilot/copilot-instructions.md', 'loaded /r/.github/copilot-instructions.md',
      'duplicate /r/AGENTS.md', 'duplicate /r/CLAUDE.md', 'loaded /r/GEMINI.md',
    ]);
    assert.deepEqual(codes(c), ['duplicate-content /r/AGENTS.md', 'duplicate-content /r/CLAUDE.md']);
  });

  it('never reads CLAUDE.local.md, .claude/CLAUDE.md or ~/.claude, and says so for the project ones', () => {
    const t = tree({ '/r/.git/HEAD': '', '/r/CLAUDE.local.md': 'local\n', '/r/.claude/CLAUDE.md': 'dot\n', '/home/u/.claude/CLAUDE.md': 'user claude\n', '/home/u/.gemini/GEMINI.md': 'g\n', '/r/AGENTS.md': 'a\n' });
    const c = cli(t, '/r', '/r');
    assert.equal(startText(c), ci('a\n'));
    assert.deepEqual(statuses(c), ['loaded /r/AGENTS.md', 'excluded /r/CLAUDE.local.md', 'excluded /r/.claude/CLAUDE.md', 'excluded /home/u/.claude/CLAUDE.md']);
    assert.deepEqual(codes(c), ['not-loaded /r/CLAUDE.local.md', 'not-loaded /r/.claude/CLAUDE.md', 'not-loaded /home/u/.claude/CLAUDE.md']);
  });

  it('reads .claude/CLAUDE.md only in the folders between the root and the launch dir (after CLAUDE.md), never in either of them (p25–p27)', () => {
    const t = tree({ '/r/.git/HEAD': '', '/r/.claude/CLAUDE.md': 'root dot\n', '/r/a/.claude/CLAUDE.md': 'between dot\n', '/r/a/CLAUDE.md': 'between\n', '/r/a/GEMINI.md': 'gemini\n', '/r/a/b/x.ts': '' });
    const c = cli(t, '/r/a/b/x.ts', '/r/a/b');
    assert.equal(startText(c), [ci('between\n'), ci('between dot\n'), ci('gemini\n')].join('\n\n'));
    assert.ok(statuses(c).includes('excluded /r/.claude/CLAUDE.md'));
  });

  it('without a git repository reads the launch dir only, not its parents (p8)', () => {
    const t = tree({ '/w/AGENTS.md': 'top\n', '/w/a/AGENTS.md': 'a\n', '/w/a/b/AGENTS.md': 'b\n' });
    assert.equal(startText(cli(t, '/w/a/b', '/w/a/b')), ci('b\n'));
  });

  it('honours COPILOT_HOME as the config directory (p14b)', () => {
    const t = tree({ '/r/.git/HEAD': '', '/home/u/.copilot/copilot-instructions.md': 'default\n', '/ch/copilot-instructions.md': 'from COPILOT_HOME\n' });
    assert.equal(startText(cli(t, '/r', '/r', { COPILOT_HOME: '/ch' })), ci('from COPILOT_HOME\n'));
  });
});

describe('copilot-cli: imports', () => {
  it('inlines an import right after its token, end-trimmed, in AGENTS.md and CLAUDE.md only (p3, p4)', () => {
    const t = tree({
      '/r/.git/HEAD': '',
      '/r/AGENTS.md': 'see @docs/a.md here\n',
      '/r/CLAUDE.md': '@docs/b.md\nend\n',
      '/r/GEMINI.md': 'g @docs/a.md\n',
      '/r/.github/copilot-instructions.md': '@docs/a.md\n',
      '/r/docs/a.md': '\n\n  doc a  \n\n',
      '/r/docs/b.md': 'doc b',
    });
    const c = cli(t, '/r', '/r');
    assert.equal(startText(c), [ci('@docs/a.md\n'), ci(`see @docs/a.md${imp('/r/docs/a.md', '\n\n  doc a')} here\n`), ci(`@docs/b.md${imp('/r/docs/b.md', 'doc b')}\nend\n`), ci('g @docs/a.md\n')].join('\n\n'));
    const a = c.sources.find((s) => s.path === '/r/docs/a.md')!;
    assert.equal(a.kind, 'import');
    assert.equal(a.importedBy, '/r/AGENTS.md');
  });

  it('resolves relative to the importing file, follows 8 levels and leaves the 9th as text (p4)', () => {
    const f: Record<string, string> = { '/r/.git/HEAD': '', '/r/AGENTS.md': '@docs/n1.md\n', '/r/n2.md': 'wrong one\n' };
    for (let i = 1; i <= 9; i++) f[`/r/docs/n${i}.md`] = `n${i} @n${i + 1}.md\n`;
    const c = cli(tree(f), '/r', '/r');
    // From the innermost expanded level (n8, whose @n9.md stays text) outwards.
    let expected = 'n8 @n9.md';
    for (let i = 7; i >= 1; i--) expected = `n${i} @n${i + 1}.md${imp(`/r/docs/n${i + 1}.md`, expected)}`;
    assert.equal(startText(c), ci(`@docs/n1.md${imp('/r/docs/n1.md', expected)}\n`));
    assert.ok(c.diagnostics.some((d) => d.code === 'import-depth' && d.path === '/r/docs/n8.md'));
    assert.ok(c.sources.some((s) => s.path === '/r/docs/n9.md' && s.status === 'excluded'));
  });

  it('marks a file already inlined for the same top file "already-loaded", also for cycles; each top file starts afresh (p4, p18)', () => {
    const t = tree({
      '/r/.git/HEAD': '',
      '/r/AGENTS.md': 'A @CLAUDE.md\n',
      '/r/CLAUDE.md': 'C @AGENTS.md @docs/d.md @docs/d.md\n',
      '/r/docs/d.md': 'd\n',
    });
    const c = cli(t, '/r', '/r');
    const skip = (p: string) => `\n\n<imported_custom_instruction source="${p}" skipped="already-loaded" />`;
    assert.equal(
      startText(c),
      [
        ci(`A @CLAUDE.md${imp('/r/CLAUDE.md', `C @AGENTS.md${skip('/r/AGENTS.md')} @docs/d.md${imp('/r/docs/d.md', 'd')} @docs/d.md${skip('/r/docs/d.md')}`)}\n`),
        ci(`C @AGENTS.md${imp('/r/AGENTS.md', `A @CLAUDE.md${skip('/r/CLAUDE.md')}`)} @docs/d.md${imp('/r/docs/d.md', 'd')} @docs/d.md${skip('/r/docs/d.md')}\n`),
      ].join('\n\n'),
    );
    assert.ok(c.diagnostics.some((d) => d.code === 'import-cycle'));
  });

  it('leaves missing, absolute, home and outside-the-repository imports as text, with diagnostics (p4)', () => {
    const t = tree({ '/r/.git/HEAD': '', '/r/AGENTS.md': '@docs/missing.md @../out.md @/r/docs/abs.md @~/h.md @docs\n', '/out.md': 'outside\n', '/r/docs/abs.md': 'abs\n', '/home/u/h.md': 'h\n' });
    const c = cli(t, '/r', '/r');
    assert.equal(startText(c), ci('@docs/missing.md @../out.md @/r/docs/abs.md @~/h.md @docs\n'));
    assert.deepEqual(
      c.diagnostics.map((d) => `${d.code} ${d.line}:${d.column}-${d.endColumn}`),
      ['import-missing 0:0-16', 'import-outside 0:17-27', 'import-outside 0:28-43', 'import-outside 0:44-51', 'import-missing 0:52-57'],
    );
    assert.equal(c.sources.find((s) => s.path === '/r/docs/missing.md')?.status, 'missing');
  });

  it('an import through a symlink that leaves the repository is not followed (p4)', () => {
    const t = tree({ '/r/.git/HEAD': '', '/r/AGENTS.md': '@link.md\n', '/elsewhere/real.md': 'real\n' });
    t.fs.symlink('/r/link.md', '/elsewhere/real.md');
    assert.equal(startText(cli(t, '/r', '/r')), ci('@link.md\n'));
  });

  it('skips code fences and inline code, not HTML comments; needs a non-address character before @; drops trailing punctuation (p19, p20)', () => {
    const t = tree({
      '/r/.git/HEAD': '',
      '/r/AGENTS.md': '```\n@a.md\n```\n`x @a.md`\n<!-- @b.md -->\nuser@c.md (@d.md), @e.md.\n',
      '/r/a.md': 'A', '/r/b.md': 'B', '/r/c.md': 'C', '/r/d.md': 'D', '/r/e.md': 'E',
    });
    const c = cli(t, '/r', '/r');
    assert.equal(startText(c), ci(`\`\`\`\n@a.md\n\`\`\`\n\`x @a.md\`\n<!-- @b.md${imp('/r/b.md', 'B')} -->\nuser@c.md (@d.md${imp('/r/d.md', 'D')}), @e.md${imp('/r/e.md', 'E')}.\n`));
    assert.equal(c.diagnostics.filter((d) => d.code === 'import-in-code').length, 2);
  });

  it('neutralises import tags inside imported text only (p4, p11)', () => {
    const t = tree({ '/r/.git/HEAD': '', '/r/AGENTS.md': 'top </custom_instruction> @x.md\n', '/r/x.md': 'x <imported_custom_instruction a> </imported_custom_instruction> <b>\n' });
    assert.equal(startText(cli(t, '/r', '/r')), ci(`top </custom_instruction> @x.md${imp('/r/x.md', 'x &lt;imported_custom_instruction a> &lt;/imported_custom_instruction> <b>')}\n`));
  });
});

describe('copilot-cli: instruction files and rules', () => {
  it('sends always-on files raw, then the path table; user, root, launch dir; .github/instructions before .claude/rules, each sorted (p1, p12)', () => {
    const all = (n: string) => `---\napplyTo: "**"\n---\n${n}\n`;
    const t = tree({
      '/r/.git/HEAD': '',
      '/home/u/.copilot/instructions/u.instructions.md': all('HOME'),
      '/home/u/.copilot/instructions/v.instructions.md': '---\napplyTo: "**/*.ts"\ndescription: home ts\n---\nHOME TS\n',
      '/r/.github/instructions/b.instructions.md': all('GH b'),
      '/r/.github/instructions/a-b.instructions.md': all('GH a-b'),
      '/r/.github/instructions/a/x.instructions.md': all('GH a/x'),
      '/r/.github/instructions/Z.INSTRUCTIONS.MD': all('GH Z'),
      '/r/.github/instructions/plain.md': all('never'),
      '/r/.claude/rules/r.md': 'RULE\n',
      '/r/.claude/rules/p.md': '---\npaths: ["src/**", "lib/**"]\n---\nP\n',
      '/r/app/.github/instructions/c.instructions.md': all('CWD GH'),
      '/r/app/.claude/rules/c.md': '---\npaths: "x|y.ts"\ndescription: "a | b"\n---\nCWD RULE\n',
      '/r/app/src/x.ts': '',
    });
    const c = cli(t, '/r/app/src/x.ts', '/r/app');
    const raw = [all('HOME'), all('GH Z'), all('GH a/x'), all('GH a-b'), all('GH b'), 'RULE\n', all('CWD GH')];
    const rows = [
      "| **/*.ts | '/home/u/.copilot/instructions/v.instructions.md' | home ts |",
      "| src/**, lib/** | '.claude/rules/p.md' |  |",
      "| x\\|y.ts | '.claude/rules/c.md' | a \\| b |",
    ];
    assert.equal(startText(c), [...raw, TABLE + rows.join('\n')].join('\n\n'));
    assert.ok(!c.sources.some((s) => s.path.endsWith('plain.md')));
  });

  it('treats **, **/*, *, an empty or missing pattern and lists of only those as always-on; paths and applyTo work in both folders (p2, p13, p21)', () => {
    const ins = (fm: string, n: string) => `---\n${fm}\n---\n${n}\n`;
    const files: Record<string, string> = { '/r/.git/HEAD': '' };
    const variants = ['applyTo: "**"', 'applyTo: "**/*"', 'applyTo: "*"', 'applyTo: ""', 'applyTo: 5', 'applyTo: "**,**/*"', 'applyTo: ["**"]', 'description: d', 'paths: []'];
    variants.forEach((v, i) => { files[`/r/.github/instructions/a${i}.instructions.md`] = ins(v, `A${i}`); });
    files['/r/.github/instructions/b.instructions.md'] = 'no frontmatter\n';
    files['/r/.github/instructions/c.instructions.md'] = ins('applyTo: "**,src/**"', 'C');
    files['/r/.github/instructions/d.instructions.md'] = ins('paths: ["src/**"]', 'D');
    files['/r/.claude/rules/e.md'] = ins('applyTo: "src/**"', 'E');
    const c = cli(tree(files), '/r', '/r');
    const text = startText(c);
    const table = text.indexOf(TABLE);
    variants.forEach((v, i) => assert.ok(text.indexOf(`---\n${v}\n---\nA${i}\n`) < table && text.includes(`---\n${v}\n---\nA${i}\n`), v));
    assert.ok(text.startsWith('---\napplyTo: "**"\n---\nA0\n\n\n---\napplyTo: "**/*"\n---\nA1\n'));
    assert.equal(c.sources.filter((s) => s.status === 'loaded').length, variants.length + 1);
    assert.ok(text.endsWith(`${TABLE}| **, src/** | '.github/instructions/c.instructions.md' |  |\n| src/** | '.github/instructions/d.instructions.md' |  |\n| src/** | '.claude/rules/e.md' |  |`));
  });

  it('skips a file whose excludeAgent names exactly "coding-agent" (p2, p13)', () => {
    const t = tree({
      '/r/.git/HEAD': '',
      '/r/.github/instructions/a.instructions.md': '---\napplyTo: "**"\nexcludeAgent: "coding-agent"\n---\nA\n',
      '/r/.github/instructions/b.instructions.md': '---\napplyTo: "src/**"\nexcludeAgent: ["code-review", "coding-agent"]\n---\nB\n',
      '/r/.github/instructions/c.instructions.md': '---\napplyTo: "**"\nexcludeAgent: "code-review"\n---\nC\n',
      '/r/.github/instructions/d.instructions.md': '---\napplyTo: "**"\nexcludeAgent: "Coding-Agent"\n---\nD\n',
    });
    const c = cli(t, '/r', '/r');
    assert.equal(startText(c), '---\napplyTo: "**"\nexcludeAgent: "code-review"\n---\nC\n\n\n---\napplyTo: "**"\nexcludeAgent: "Coding-Agent"\n---\nD\n');
    assert.deepEqual(statuses(c).slice(0, 2), ['excluded /r/.github/instructions/a.instructions.md', 'excluded /r/.github/instructions/b.instructions.md']);
  });

  it('frames the span: blocks alone, rest alone, both with one more newline (q1–q7)', () => {
    const rule = { '/r/.git/HEAD': '', '/r/.claude/rules/r.md': 'R' };
    assert.equal(startText(cli(tree(rule), '/r', '/r')), 'R');
    assert.equal(startText(cli(tree({ ...rule, '/r/AGENTS.md': 'A\n' }), '/r', '/r')), `${ci('A\n')}\n\nR\n`);
    const only = tree({ '/r/.git/HEAD': '', '/r/.claude/rules/p.md': '---\npaths: ["src/**"]\n---\nP\n' });
    assert.equal(startText(cli(only, '/r', '/r')), `${TABLE}| src/** | '.claude/rules/p.md' |  |`);
    assert.deepEqual(cli(tree({ '/r/.git/HEAD': '' }), '/r', '/r').start, []);
  });

  it('ignores .github/instructions and .claude/rules of the folders between the root and the launch dir, and says so (p1)', () => {
    const t = tree({ '/r/.git/HEAD': '', '/r/a/.claude/rules/r.md': 'between\n', '/r/a/b/AGENTS.md': 'b\n' });
    const c = cli(t, '/r/a/b', '/r/a/b');
    assert.equal(startText(c), ci('b\n'));
    assert.ok(statuses(c).includes('excluded /r/a/.claude/rules/r.md'));
    assert.ok(codes(c).includes('not-loaded /r/a/.claude/rules/r.md'));
  });

  it('reads a header YAML rejects line by line, and reports it (p13)', () => {
    const t = tree({ '/r/.git/HEAD': '', '/r/.github/instructions/m.instructions.md': '---\napplyTo: [unclosed\n---\nM\n' });
    const c = cli(t, '/r', '/r');
    assert.equal(startText(c), `${TABLE}| [unclosed | '.github/instructions/m.instructions.md' |  |`);
    assert.ok(codes(c).includes('frontmatter-invalid /r/.github/instructions/m.instructions.md'));
    assert.ok(codes(c).includes('glob-invalid /r/.github/instructions/m.instructions.md'));
  });

  it('lists AGENTS.md of COPILOT_CUSTOM_INSTRUCTIONS_DIRS and loads their instruction files after the repository\'s (p14, p16)', () => {
    const t = tree({
      '/r/.git/HEAD': '',
      '/r/.claude/rules/r.md': 'ROOT RULE\n',
      '/x/e1/AGENTS.md': 'not inlined\n',
      '/x/e1/CLAUDE.md': 'never read\n',
      '/x/e1/.claude/rules/e.md': 'E1 RULE\n',
      '/x/e1/top.instructions.md': '---\napplyTo: "**"\n---\nE1 TOP\n',
      '/x/e2/.github/instructions/n.instructions.md': '---\napplyTo: "src/**"\n---\nE2 narrow\n',
    });
    const c = cli(t, '/r', '/r', { COPILOT_CUSTOM_INSTRUCTIONS_DIRS: '/x/e1,/x/e2' });
    assert.equal(
      startText(c),
      [
        'ROOT RULE\n', 'E1 RULE\n', '---\napplyTo: "**"\n---\nE1 TOP\n',
        `${NESTED}| ../x/e1/ | '../x/e1/AGENTS.md' | Agent instructions for ../x/e1/**/* |`,
        `${TABLE}| src/** | '/x/e2/.github/instructions/n.instructions.md' |  |`,
      ].join('\n\n'),
    );
    assert.ok(statuses(c).includes('listed /x/e1/AGENTS.md'));
  });
});

describe('copilot-cli: matching and on read', () => {
  it('matches patterns against the path from the repository root; a name alone matches at any depth; case-sensitive; a leading / never matches (p2, p9, p22)', () => {
    const pats = ['app/src/*.ts', 'src/*.ts', 'x.ts', '*.TS', '/app/src/x.ts', './app/src/x.ts', 'app/src/[!y].ts', 'app/*.ts', 'app/src/'];
    const files: Record<string, string> = { '/r/.git/HEAD': '', '/r/app/src/x.ts': '' };
    pats.forEach((p, i) => { files[`/r/.github/instructions/g${i}.instructions.md`] = `---\napplyTo: "${p}"\n---\nG${i}\n`; });
    const c = cli(tree(files), '/r/app/src/x.ts', '/r/app');
    const hit = c.sources.filter((s) => s.status === 'on-read').map((s) => s.path.replace(/.*\/g(\d)\..*/, '$1'));
    assert.deepEqual(hit, ['0', '2', '5', '6']);
    assert.equal(c.sources.find((s) => s.path.endsWith('g1.instructions.md'))?.status, 'not-matched');
    assert.ok(c.diagnostics.some((d) => d.code === 'glob-no-match' && d.path.endsWith('g4.instructions.md')));
    assert.deepEqual(c.sources.find((s) => s.path.endsWith('g2.instructions.md'))?.globs, ['**/x.ts']);
  });

  it('on read: matching path-scoped files first, then nested folders innermost first with their four names, instruction files and rules; HTML-escaped, frontmatter kept (p1, p11, nested-deep)', () => {
    const t = tree({
      '/r/.git/HEAD': '',
      '/r/.claude/rules/ts.md': '---\npaths: ["**/*.ts"]\n---\nTS "rule" & <b>\n',
      '/r/a/AGENTS.md': "a's @imp.md\n",
      '/r/a/imp.md': 'imported\n',
      '/r/a/b/c/GEMINI.md': 'c gemini @../../imp.md\n',
      '/r/a/b/c/.github/copilot-instructions.md': 'c copilot\n',
      '/r/a/b/c/.github/instructions/all.instructions.md': '---\napplyTo: "**"\n---\nALL\n',
      '/r/a/b/c/.github/instructions/own.instructions.md': '---\napplyTo: "x.ts"\n---\nOWN\n',
      '/r/a/b/c/.github/instructions/rel.instructions.md': '---\napplyTo: "c/x.ts"\n---\nREL\n',
      '/r/a/b/c/.claude/rules/r.md': 'C RULE\n',
      '/r/a/b/c/x.ts': '',
    });
    const c = cli(t, '/r/a/b/c/x.ts', '/r');
    assert.equal(
      readText(c),
      rem('.claude/rules/ts.md', '---\npaths: [&quot;**/*.ts&quot;]\n---\nTS &quot;rule&quot; &amp; &lt;b&gt;\n') +
        rem('a/b/c/.github/copilot-instructions.md', 'c copilot\n') +
        rem('a/b/c/GEMINI.md', 'c gemini @../../imp.md\n') +
        rem('a/b/c/.github/instructions/all.instructions.md', '---\napplyTo: &quot;**&quot;\n---\nALL\n') +
        rem('a/b/c/.github/instructions/own.instructions.md', '---\napplyTo: &quot;x.ts&quot;\n---\nOWN\n') +
        rem('a/b/c/.claude/rules/r.md', 'C RULE\n') +
        rem('a/AGENTS.md', 'a&apos;s @imp.md\n\n&lt;imported_custom_instruction source=&quot;/r/a/imp.md&quot;&gt;\nimported\n&lt;/imported_custom_instruction&gt;\n'),
    );
    assert.equal(c.sources.find((s) => s.path.endsWith('rel.instructions.md'))?.status, 'not-matched');
    assert.equal(c.sources.find((s) => s.path === '/r/a/AGENTS.md')?.loads, 'on-read');
  });

  it('on read: skips empty nested files, a symlink out of the repository, and folders already loaded at start; names a symlink by its target (p5, p10, p17, p23)', () => {
    const t = tree({
      '/r/.git/HEAD': '',
      '/r/app/AGENTS.md': 'app\n',
      '/r/lib/CLAUDE.md': ' \n',
      '/r/lib/y.ts': '',
      '/r/lib/real.md': 'real\n',
      '/out/agents.md': 'outside\n',
    });
    t.fs.symlink('/r/lib/AGENTS.md', '/out/agents.md');
    t.fs.symlink('/r/lib/GEMINI.md', '/r/lib/real.md');
    const c = cli(t, '/r/lib/y.ts', '/r/app');
    assert.equal(readText(c), rem('lib/real.md', 'real\n'));
    assert.equal(c.sources.find((s) => s.path === '/r/lib/AGENTS.md')?.status, 'excluded');
    assert.equal(c.sources.find((s) => s.path === '/r/lib/CLAUDE.md')?.status, 'excluded');
    assert.deepEqual(cli(t, '/r/app/z.ts', '/r/app').onRead, []);
  });

  it('on read: a nested .claude/CLAUDE.md comes after CLAUDE.md and imports relative to .claude; CLAUDE.local.md never (p25, p26, local-nested)', () => {
    const t = tree({ '/r/.git/HEAD': '', '/r/src/CLAUDE.md': 'C\n', '/r/src/.claude/CLAUDE.md': 'D @y.md\n', '/r/src/.claude/y.md': 'y', '/r/src/CLAUDE.local.md': 'L\n', '/r/src/GEMINI.md': 'G\n', '/r/src/x.ts': '' });
    const c = cli(t, '/r/src/x.ts', '/r');
    assert.equal(readText(c), rem('src/CLAUDE.md', 'C\n') + rem('src/.claude/CLAUDE.md', 'D @y.md\n\n&lt;imported_custom_instruction source=&quot;/r/src/.claude/y.md&quot;&gt;\ny\n&lt;/imported_custom_instruction&gt;\n') + rem('src/GEMINI.md', 'G\n'));
    assert.ok(!c.sources.some((s) => s.path === '/r/src/CLAUDE.local.md'));
  });

  it('finds AGENTS.md, CLAUDE.md and GEMINI.md whatever the case of their name, at start and on read, and warns where one loads that way', () => {
    // Observed (real repositories; q1, q2): the exact name wins, else the first listed case variant.
    const t = tree({
      '/r/.git/HEAD': '',
      '/r/AGENTS.md': 'upper agents\n',
      '/r/agents.md': 'lower agents, never read\n',
      '/r/claude.md': 'lower claude\n@imp.md\n',
      '/r/imp.md': 'imported\n',
      '/r/gemini.md': 'a docs page\n',
      '/r/docs/gemini.md': 'docs page about Gemini\n',
      '/r/docs/Agents.md': 'mixed agents\n',
      '/r/docs/x.ts': '',
    });
    const c = cli(t, '/r/docs/x.ts', '/r');
    assert.equal(startText(c), [ci('upper agents\n'), ci(`lower claude\n@imp.md${imp('/r/imp.md', 'imported')}\n`), ci('a docs page\n')].join('\n\n'));
    assert.equal(readText(c), rem('docs/Agents.md', 'mixed agents\n') + rem('docs/gemini.md', 'docs page about Gemini\n'));
    assert.ok(!c.sources.some((s) => s.path === '/r/agents.md'));
    const warned = c.diagnostics.filter((d) => d.code === 'name-case');
    assert.deepEqual(warned.map((d) => `${d.severity} ${d.path}`), ['warning /r/claude.md', 'warning /r/gemini.md', 'warning /r/docs/Agents.md', 'warning /r/docs/gemini.md']);
    assert.match(warned[3].message, /matches GEMINI\.md ignoring case; the model gets its text when the agent reads a file in this folder/);
  });

  it('on read: a CLAUDE.md that links to the AGENTS.md beside it is sent once; two files with the same text twice', () => {
    const t = tree({
      '/r/.git/HEAD': '',
      '/r/a/b/AGENTS.md': 'ab agents\n',
      '/r/a/b/c/AGENTS.md': 'same text\n',
      '/r/a/b/c/CLAUDE.md': 'same text\n',
      '/r/a/b/c/x.ts': '',
    });
    t.fs.symlink('/r/a/b/CLAUDE.md', '/r/a/b/AGENTS.md');
    const c = cli(t, '/r/a/b/c/x.ts', '/r');
    assert.equal(readText(c), rem('a/b/c/AGENTS.md', 'same text\n') + rem('a/b/c/CLAUDE.md', 'same text\n') + rem('a/b/AGENTS.md', 'ab agents\n'));
    assert.equal(c.sources.find((s) => s.path === '/r/a/b/CLAUDE.md')?.status, 'duplicate');
  });

  it('counts imported text once: the budget is what the blocks hold (scenario sent-twice)', () => {
    const t = tree({
      '/r/.git/HEAD': '',
      '/r/AGENTS.md': '# Agents\n@docs/POLICY.md\n',
      '/r/CLAUDE.md': 'See @AGENTS.md for the rules.\nAlso read @docs/POLICY.md first.\n',
      '/r/docs/POLICY.md': 'x'.repeat(1000) + '\n',
    });
    const c = cli(t, '/r', '/r');
    const blocks = [...startText(c).matchAll(/<custom_instruction>\n([\s\S]*?)\n<\/custom_instruction>/g)].map((m) => m[1]);
    assert.equal(blocks.length, 2);
    // The policy is in the prompt twice (in AGENTS.md's block, and in the copy of AGENTS.md inlined into CLAUDE.md): counted twice, not four times.
    assert.equal(c.budget.used, blocks.reduce((n, b) => n + [...b].length, 0));
    assert.equal(c.sources.filter((s) => s.status === 'loaded').reduce((n, s) => n + s.injectedChars, 0), c.budget.used);
  });

  it('says where a file is sent twice, and marks the second copy "sent twice" (scenario sent-twice)', () => {
    const t = tree({
      '/r/.git/HEAD': '',
      '/r/AGENTS.md': 'agents\n@docs/p.md\n',
      '/r/CLAUDE.md': 'See @AGENTS.md for the rules.\n',
      '/r/docs/p.md': 'policy\n',
      '/r/api/AGENTS.md': 'api\n',
      '/r/api/CLAUDE.md': '@AGENTS.md\n',
      '/r/api/x.ts': '',
    });
    const c = cli(t, '/r/api/x.ts', '/r');
    const dup = c.diagnostics.filter((d) => d.code === 'duplicate-injection');
    assert.deepEqual(dup.map((d) => `${d.severity} ${d.path}:${d.line}:${d.column}`), ['info /r/CLAUDE.md:0:4', 'info /r/api/CLAUDE.md:0:0']);
    assert.equal(dup[0].message, 'Copilot CLI sends AGENTS.md twice: as its own block at start, and again inlined into CLAUDE.md by its @AGENTS.md. The second copy costs context and adds nothing. If the import is there for Claude Code, a CLAUDE.md that is a symlink to AGENTS.md serves both, and this agent then sends the text once.');
    assert.match(dup[1].message, /sends api\/AGENTS\.md twice: in the reminder for api\/ when the agent reads a file there, and again inlined into api\/CLAUDE\.md/);
    // The second copies: AGENTS.md inside CLAUDE.md, the policy inside that copy (no diagnostic of its own), api/AGENTS.md inside api/CLAUDE.md.
    assert.deepEqual(c.sources.filter((s) => s.sentTwice).map((s) => `${s.path} ← ${s.importedBy}`), ['/r/AGENTS.md ← /r/CLAUDE.md', '/r/docs/p.md ← /r/AGENTS.md', '/r/api/AGENTS.md ← /r/api/CLAUDE.md']);
    // A CLAUDE.md that links to AGENTS.md is sent once: nothing to say.
    const linked = tree({ '/r/.git/HEAD': '', '/r/AGENTS.md': 'agents\n' });
    linked.fs.symlink('/r/CLAUDE.md', '/r/AGENTS.md');
    assert.deepEqual(cli(linked, '/r', '/r').diagnostics.filter((d) => d.code === 'duplicate-injection'), []);
  });

  it('reads invalid UTF-8 lossily and says so (p24)', () => {
    const t = tree({ '/r/.git/HEAD': '', '/r/AGENTS.md': new Uint8Array([0x41, 0xff, 0x0a]) });
    const c = cli(t, '/r', '/r');
    assert.equal(startText(c), ci('A\ufffd\n'));
    assert.deepEqual(codes(c), ['not-utf8 /r/AGENTS.md']);
  });
});
