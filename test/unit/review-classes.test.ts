// Each class of problem the real-world review (test/review) found, as a small synthetic
// repository: what `check` shows by default (errors, warnings, infos; the agents the
// repository's own files mark) must be only what its maintainers would want to fix.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';

const CLI = path.resolve(__dirname, '../../../dist/cli.js');

interface Shown {
  path: string;
  line: number;
  severity: string;
  code: string;
  message: string;
  agents?: string[];
}

const made: string[] = [];
after(() => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
});

/** A committed repository: `files` maps a path to its text, or to `{ link }` for a symlink. */
function repo(files: Record<string, string | { link: string }>): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'il-class-')));
  made.push(root);
  for (const [rel, v] of Object.entries(files)) {
    const p = path.join(root, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    if (typeof v === 'string') fs.writeFileSync(p, v);
    else fs.symlinkSync(v.link, p);
  }
  const git = (...a: string[]) => spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...a], { cwd: root, encoding: 'utf8' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'x');
  return root;
}

/** The problems `check` shows by default: everything but hints. */
function shown(root: string, ...args: string[]): Shown[] {
  const home = path.join(root, '.home-none');
  const r = spawnSync(process.execPath, [CLI, 'check', root, '--format', 'json', '--home', home, ...args], { encoding: 'utf8', env: { ...process.env, HOME: home } });
  assert.ok(r.status === 0 || r.status === 1, r.stderr);
  return (JSON.parse(r.stdout) as { diagnostics: Shown[] }).diagnostics
    .filter((d) => d.severity !== 'hint')
    .map((d) => ({ ...d, path: path.relative(root, path.isAbsolute(d.path) ? d.path : path.join(root, d.path)) }));
}

const list = (ds: Shown[]) => ds.map((d) => `${d.path}:${d.line} ${d.severity} ${d.code} [${(d.agents ?? []).join(',')}] ${d.message}`).join('\n');

describe('classes from the real-world review', () => {
  it('package names, scopes, decorators, CSS at-rules, JSDoc tags and path aliases in code give no import-in-code', () => {
    const text = [
      '# Conventions',
      '',
      'Import from `@acme/core`, never from `@acme/*` internals or `@acme/{react,vue}-db`.',
      'Use `@apply` sparingly; `@media (min-width: 40rem)` for breakpoints; `@tailwind base` once.',
      'Document with `@param` and `@returns`; import UI from `@/ui/`.',
      '',
      '```python',
      '@pytest.fixture',
      'def client(): ...',
      '@dataclass(frozen=True)',
      '```',
      '',
    ].join('\n');
    const root = repo({ 'AGENTS.md': text, 'CLAUDE.md': '@AGENTS.md\n', 'GEMINI.md': text, 'src/index.ts': '' });
    const ds = shown(root).filter((d) => d.code === 'import-in-code');
    assert.deepEqual(ds, [], list(ds));
  });

  it('import-in-code is still shown where the token names a file that exists (the author probably meant an import)', () => {
    const root = repo({ 'CLAUDE.md': '# Rules\n\nFollow `@docs/style.md` for naming.\n', 'docs/style.md': 'Names.\n' });
    const ds = shown(root).filter((d) => d.code === 'import-in-code');
    assert.equal(ds.length, 1, list(shown(root)));
    assert.equal(ds[0].path, 'CLAUDE.md');
  });

  for (const [name, claude] of [
    ['is just @AGENTS.md', '@AGENTS.md\n'],
    ['says "See @AGENTS.md" in a sentence', '# Claude\n\nSee @AGENTS.md for everything.\n'],
  ] as const) {
    it(`no not-loaded for an AGENTS.md when the CLAUDE.md beside it ${name}`, () => {
      const root = repo({ 'AGENTS.md': '# Project\n\nUse pnpm.\n', 'CLAUDE.md': claude, 'pkg/AGENTS.md': '# Pkg\n\nTest with vitest.\n', 'pkg/CLAUDE.md': claude, 'pkg/src/a.ts': '' });
      const ds = shown(root).filter((d) => d.code === 'not-loaded');
      assert.deepEqual(ds, [], list(ds));
    });
  }

  it('no not-loaded when CLAUDE.md is a symlink to AGENTS.md, at the root or in a package', () => {
    const root = repo({
      'AGENTS.md': '# Project\n\nUse pnpm.\n',
      'CLAUDE.md': { link: 'AGENTS.md' },
      'packages/api/AGENTS.md': '# API\n\nNo default exports.\n',
      'packages/api/CLAUDE.md': { link: 'AGENTS.md' },
      'packages/api/src/a.ts': '',
    });
    const ds = shown(root).filter((d) => d.code === 'not-loaded');
    assert.deepEqual(ds, [], list(ds));
  });

  it('a nested AGENTS.md Claude Code skips (CLAUDE.md higher up, none beside it) is shown once, naming Claude Code, with advice for a CLAUDE.md beside it', () => {
    const root = repo({ 'AGENTS.md': '# Project\n\nUse pnpm.\n', 'CLAUDE.md': '@AGENTS.md\n', 'packages/web/AGENTS.md': '# Web\n\nUse CSS modules.\n', 'packages/web/src/a.ts': '' });
    const ds = shown(root).filter((d) => d.path === 'packages/web/AGENTS.md');
    const claude = ds.filter((d) => d.code === 'not-loaded' && d.message.includes('Claude Code'));
    assert.equal(claude.length, 1, list(ds));
    assert.ok(claude[0].agents?.includes('claude-code'), list(ds));
    // The fix that works: a CLAUDE.md in packages/web importing it, not the root CLAUDE.md.
    assert.match(claude[0].message, /packages\/web\/CLAUDE\.md|CLAUDE\.md beside it|CLAUDE\.md in (this|that|its) folder/, claude[0].message);
    assert.doesNotMatch(claude[0].message, new RegExp(root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 'no absolute path');
  });

  for (const [name, pointer] of [
    ['names it in a code span', 'Read `./CLAUDE.md` first.\n'],
    ['links to it', '# Agents\n\nAll instructions live in [CLAUDE.md](CLAUDE.md).\n'],
    ['imports it', '@CLAUDE.md\n'],
  ] as const) {
    it(`no not-loaded for a short AGENTS.md that only points to the CLAUDE.md Claude Code loads (${name})`, () => {
      const root = repo({ 'CLAUDE.md': '# Project\n\nUse pnpm and run the linter before committing.\n', 'AGENTS.md': pointer, 'src/a.ts': '' });
      const ds = shown(root).filter((d) => d.code === 'not-loaded');
      assert.deepEqual(ds, [], list(ds));
    });
  }

  it('an AGENTS.md that says more than a pointer, or points to a CLAUDE.md that does not load, is still shown', () => {
    const more = ['# Agents', '', 'See CLAUDE.md.', '', '- Never push to main.', '- Run the full test suite.', '- Keep the changelog.', '- Sign commits.', ''].join('\n');
    const elsewhere = 'Read docs/CLAUDE.md first.\n';
    for (const [agents, why] of [[more, 'more than a pointer'], [elsewhere, 'a CLAUDE.md Claude Code does not load at start']] as const) {
      const root = repo({ 'CLAUDE.md': '# Project\n\nUse pnpm.\n', 'AGENTS.md': agents, 'docs/CLAUDE.md': '# Docs\n', 'src/a.ts': '' });
      const ds = shown(root).filter((d) => d.code === 'not-loaded');
      assert.deepEqual(ds.map((d) => d.path), ['AGENTS.md'], `${why}\n${list(ds)}`);
    }
  });

  it('no not-loaded for an AGENTS.md inside a skill folder (the skill\'s own guide, read with the skill)', () => {
    const skill = '---\nname: react-patterns\ndescription: Patterns for React components.\n---\n\nRead AGENTS.md for the full guide.\n';
    const root = repo({
      'CLAUDE.md': '# Project\n',
      'web/CLAUDE.md': '# Web\n',
      'web/.agents/skills/react-patterns/SKILL.md': skill,
      'web/.agents/skills/react-patterns/AGENTS.md': '# React patterns\n\nPrefer composition.\n',
      'web/.agents/skills/react-patterns/rules/state.md': '# State\n',
      'web/.agents/skills/react-patterns/rules/AGENTS.md': '# Rules index\n',
      'web/src/a.ts': '',
    });
    const ds = shown(root).filter((d) => d.code === 'not-loaded');
    assert.deepEqual(ds, [], list(ds));
  });

  it('Codex not loading a package AGENTS.md below the launch folder is no problem (it loads when launched there)', () => {
    const root = repo({ 'AGENTS.md': '# Project\n', 'packages/a/AGENTS.md': '# A\n', 'packages/b/AGENTS.md': '# B\n', 'packages/a/x.ts': '', 'packages/b/y.ts': '' });
    const ds = shown(root).filter((d) => d.code === 'not-loaded' && (d.agents?.includes('codex') || d.message.includes('Codex')));
    assert.deepEqual(ds, [], list(ds));
  });

  it('a skill reached through a committed directory symlink is committed', () => {
    const skill = '---\nname: release\ndescription: Cut a release.\n---\n\nSteps.\n';
    const root = repo({ 'CLAUDE.md': '# Rules\n', '.agents/skills/release/SKILL.md': skill, '.claude/skills': { link: '../.agents/skills' } });
    for (const args of [[], ['--agent', 'claude-code', '--agent', 'scaling']]) {
      const ds = shown(root, ...args).filter((d) => d.code === 'not-committed' || d.code === 'untracked');
      assert.deepEqual(ds, [], `${args.join(' ')}\n${list(ds)}`);
    }
  });

  it('agents the repository has no marker for stay quiet: a 5,000-character CLAUDE.md gives no claw-code, CAR or hosted-session warning', () => {
    const long = `# Guide\n\n${'Keep functions small and named for what they do. '.repeat(110)}\n`;
    const root = repo({ 'CLAUDE.md': long, 'AGENTS.md': long, 'src/a.ts': '' });
    const ds = shown(root).filter((d) => /claw|CAR|session/i.test(d.message) || d.agents?.some((a) => ['claw-code', 'claw-code@head', 'car', 'scaling'].includes(a)));
    assert.deepEqual(ds, [], list(ds));
  });

  it('one problem several agents share is one entry naming them', () => {
    const root = repo({ 'AGENTS.md': '# Project\n\n@docs/missing.md\n', 'CLAUDE.md': { link: 'AGENTS.md' }, 'src/a.ts': '' });
    const ds = shown(root).filter((d) => d.code === 'import-missing');
    assert.equal(ds.length, 1, list(ds));
    assert.equal(ds[0].path, 'AGENTS.md', 'reported at the real file, not its symlink');
    assert.ok((ds[0].agents ?? []).includes('claude-code'), list(ds));
  });

  it('GitHub handles and package names in prose give no import-missing where the agent leaves the text as written; a broken path still does', () => {
    const text = [
      '# Maintainers',
      '',
      '- [@octocat](https://github.com/octocat)',
      '- @hubot reviews releases.',
      '',
      'The CLI is published as @acme/cli.',
      '',
      '@docs/missing.md',
      '@docs/guide',
      '',
    ].join('\n');
    const root = repo({ 'AGENTS.md': text, 'CLAUDE.md': { link: 'AGENTS.md' }, '.github/copilot-instructions.md': '# Copilot\n', 'docs/intro.md': '# Intro\n', 'src/a.ts': '' });
    const ds = shown(root, '--agent', 'claude-code', '--agent', 'copilot-cli').filter((d) => d.code === 'import-missing');
    assert.deepEqual(ds.map((d) => `${d.path}:${d.line}`), ['AGENTS.md:8', 'AGENTS.md:9'], list(ds));
    for (const d of ds) assert.deepEqual(d.agents, ['claude-code', 'copilot-cli'], list(ds));
  });

  it('Gemini CLI replaces a failed import with a comment, so a handle in GEMINI.md is still reported for it', () => {
    const root = repo({ 'GEMINI.md': '# Team\n\nAsk @hubot before merging.\n', 'src/a.ts': '' });
    const ds = shown(root).filter((d) => d.code === 'import-missing');
    assert.equal(ds.length, 1, list(ds));
    assert.ok(ds[0].agents?.includes('gemini-cli'), list(ds));
  });

  it('a rule with two globs, one of which matches, gives no glob-no-match', () => {
    const root = repo({
      '.cursor/rules/docs.mdc': '---\ndescription: Docs pages\nglobs: docs/**/*.mdx,docs/**/*.md\nalwaysApply: false\n---\nUse sentence case.\n',
      'docs/intro.mdx': '# Intro\n',
      'docs/guide/setup.mdx': '# Setup\n',
    });
    const ds = shown(root).filter((d) => d.code === 'glob-no-match');
    assert.deepEqual(ds, [], list(ds));
  });

  it('a Copilot instructions link to a moved file stays a problem, and its #fragment is not part of the path', () => {
    const root = repo({
      '.github/copilot-instructions.md': '# Repo\n\nSee [the guide](../src/old/GUIDE.md#upgrading) before upgrading.\n',
      'src/new/GUIDE.md': '# Guide\n\n## Upgrading\n',
      'src/index.ts': '',
    });
    const ds = shown(root).filter((d) => d.code === 'import-missing');
    assert.equal(ds.length, 1, list(shown(root)));
    assert.equal(ds[0].path, '.github/copilot-instructions.md');
    // The link may be quoted as written; the path it was looked for at carries no fragment.
    assert.ok(ds[0].message.split('#upgrading').length <= 2, ds[0].message);
    assert.ok(!ds[0].message.includes(root), `no absolute path: ${ds[0].message}`);
  });
});
