import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { check } from '../../src/core/check';
import { detectFromRepository, nodeMachineProbe, probeMachine, usedProfiles, versionNotice, withMachine } from '../../src/core/detect';
import { mergeDiagnostics, relativePaths } from '../../src/core/merge';
import type { Diagnostic } from '../../src/core/model';
import { findProfile, PROFILES } from '../../src/core/profiles';
import { chainOf, tree } from './fixture';

// Classes of wrong or noisy diagnostics seen on real repositories, each as a small synthetic case.

const CLI = path.resolve(__dirname, '../../../dist/cli.js');
const profiles = (...ids: string[]) => ids.map((id) => findProfile(id)!);
/** A work tree whose files are all tracked, as `check` lists them through git. */
const repoTree = (files: Record<string, string>) => tree(files, { tracked: Object.keys(files) });
const brief = (ds: Diagnostic[]) => ds.map((d) => `${d.severity} ${d.code} ${d.path}:${d.line + 1} [${(d.agents ?? []).join(',')}]`);

describe('only true problems', () => {
  it('import-in-code: npm scopes, CSS at-rules, decorators and JSDoc tags in code are silent; a token naming a real file is reported', () => {
    const claude = [
      '# Rules',
      'Install `@scope/pkg` and use `@apply`, `@media`, `@tailwind base`, `@Component()` and `@param`.',
      '```ts',
      '@Injectable()',
      'import x from "@google/genai";',
      '```',
      'See `@docs/style.md` for style.',
    ].join('\n');
    const t = tree({ '/r/CLAUDE.md': claude, '/r/docs/style.md': 'style' });
    const c = chainOf(t, 'claude-code', '/r', { launchDir: '/r' });
    assert.deepEqual(c.diagnostics.map((d) => `${d.code} ${d.message}`), ['import-in-code @docs/style.md is inside code, so Claude Code does not import it.']);
    const cli = chainOf(tree({ '/r/CLAUDE.md': claude, '/r/docs/style.md': 'style' }), 'copilot-cli', '/r', { launchDir: '/r' });
    assert.deepEqual(cli.diagnostics.filter((d) => d.code === 'import-in-code').map((d) => d.data?.target), ['/r/docs/style.md']);
    // Gemini CLI takes `@` only after white space: in a fenced block, the same rule.
    const gemini = '```\n@scope/pkg\n@apply\n@docs/style.md\n```\n';
    const g = chainOf(tree({ '/r/GEMINI.md': gemini, '/r/docs/style.md': 'style' }), 'gemini-cli', '/r', { launchDir: '/r' });
    assert.deepEqual(g.diagnostics.filter((d) => d.code === 'import-in-code').map((d) => d.data?.target), ['/r/docs/style.md']);
  });

  it('a dotted name in prose that ends in no file type (a decorator, a domain) is silent; a file type is still reported', () => {
    const claude = [
      'Edit only inside the function decorated with @app.cell.',
      'Write to @team.example.com for access.',
      'See @notes.md, and the chart @chart.png.',
      '',
      // An HTML block ends at its first blank line: the fence inside it opens nothing, and the
      // decorator after the blank line is prose to a markdown tokenizer, as to the agents.
      '<example title="a cell">',
      '```',
      'x = 1',
      '',
      '@app.cell',
      'def _():',
    ].join('\n');
    const c = chainOf(tree({ '/r/CLAUDE.md': claude }), 'claude-code', '/r', { launchDir: '/r' });
    assert.deepEqual(c.diagnostics.map((d) => `${d.code} ${d.message}`), [
      'import-missing Claude Code reads @notes.md, as a path ending in ",", which does not exist, and ignores it silently.',
      'import-missing Claude Code reads @chart.png. as a path ending in ".", which does not exist, and ignores it silently.',
    ]);
    const cli = chainOf(tree({ '/r/CLAUDE.md': claude }), 'copilot-cli', '/r', { launchDir: '/r' });
    assert.deepEqual(cli.diagnostics.filter((d) => d.code.startsWith('import')).map((d) => d.data?.target), ['/r/notes.md', '/r/chart.png']);
  });

  it('one problem several agents share is one entry naming them, with their ids', () => {
    const t = repoTree({ '/r/.git/HEAD': '', '/r/CLAUDE.md': '@docs/missing.md\n', '/r/AGENTS.md': 'a' });
    const r = check(t.host, '/r', profiles('claude-code', 'copilot-cli'), { home: '/home/u', env: {} });
    const missing = r.diagnostics.filter((d) => d.code === 'import-missing');
    assert.equal(missing.length, 1);
    assert.deepEqual(missing[0].agents, ['claude-code', 'copilot-cli']);
    assert.match(missing[0].message, /^Claude Code, GitHub Copilot CLI: @docs\/missing\.md points to docs\/missing\.md, which does not exist; the agent silently ignores it\.$/);
    // Unmerged on request: one per agent.
    const raw = check(t.host, '/r', profiles('claude-code', 'copilot-cli'), { home: '/home/u', env: {}, merge: false });
    assert.equal(raw.diagnostics.filter((d) => d.code === 'import-missing').length, 2);
  });

  it('a problem two versions of one agent report alike names both versions and words the agent once', () => {
    const long = `# Notes\n${'word '.repeat(1000)}\n`;
    const t = repoTree({ '/r/.git/HEAD': '', '/r/CLAUDE.md': long });
    const r = check(t.host, '/r', profiles('claw-code', 'claw-code@head'), { home: '/home/u', env: {} });
    assert.deepEqual(brief(r.diagnostics), ['warning file-truncated /r/CLAUDE.md:2 [claw-code,claw-code@head]']);
    assert.match(r.diagnostics[0].message, /^claw-code keeps the first 4,000 characters of this file;/);
    // With another agent at the same place, each agent is named once in front.
    const merged = mergeDiagnostics([
      { ...r.diagnostics[0], message: 'claw-code keeps the first 4,000 characters.', agents: ['claw-code', 'claw-code@head'] },
      { ...r.diagnostics[0], message: 'Codex keeps the first 4,000 characters.', agents: ['codex'] },
    ]);
    assert.match(merged[0].message, /^claw-code, Codex CLI: The agent keeps the first/);
  });

  it('a file reached through a symlink is reported once, at the real file', () => {
    const t = repoTree({ '/r/.git/HEAD': '', '/r/AGENTS.md': 'text\n@gone.md\n', '/r/pkg/AGENTS.md': 'p\n' });
    t.fs.symlink('/r/CLAUDE.md', 'AGENTS.md');
    t.fs.symlink('/r/pkg/CLAUDE.md', 'AGENTS.md');
    const r = check(t.host, '/r', profiles('claude-code'), { home: '/home/u', env: {} });
    assert.deepEqual(brief(r.diagnostics), ['error import-missing /r/AGENTS.md:2 [claude-code]']);
  });

  it('a message that does not name its agent gets the name in front; paths are relative to the folder or ~/', () => {
    const merged = mergeDiagnostics([
      { path: '/r/a.md', line: 0, column: 0, endLine: 0, endColumn: 0, severity: 'warning', code: 'not-committed', message: 'Not committed on main: a session reads guidance only from the default branch.', agents: ['scaling'] },
    ]);
    assert.equal(merged[0].message, 'Hosted agent sessions: Not committed on main: a session reads guidance only from the default branch.');
    assert.equal(
      relativePaths('@x is outside the launch directory (/w/repo); not found at /w/repo/docs/x.md, see /home/u/.claude/CLAUDE.md or /w/repo.', { root: '/w/repo', home: '/home/u' }),
      '@x is outside the launch directory (the workspace folder); not found at docs/x.md, see ~/.claude/CLAUDE.md or the workspace folder.',
    );
  });

  it('a link with a #fragment is checked without it', () => {
    const t = tree({
      '/r/.github/copilot-instructions.md': 'See [style](../docs/style.md#tabs) and [gone](../docs/gone.md#x).\n',
      '/r/docs/style.md': 'tabs',
    });
    const c = chainOf(t, 'copilot', '/r/a.ts', { launchDir: '/r' });
    assert.deepEqual(c.diagnostics.filter((d) => d.code === 'import-missing').map((d) => d.data?.target), ['/r/docs/gone.md']);
  });

  it("Codex not loading a nested AGENTS.md below the launch folder is a hint, not a problem", () => {
    const t = repoTree({ '/r/.git/HEAD': '', '/r/AGENTS.md': 'root', '/r/pkg/AGENTS.md': 'pkg', '/r/pkg/x.ts': '' });
    const r = check(t.host, '/r', profiles('codex'), { home: '/home/u', env: {} });
    assert.deepEqual(brief(r.diagnostics), ['hint not-loaded /r/pkg/AGENTS.md:1 [codex]']);
  });

  it('Codex: a nested AGENTS.md the root one links to is sent already, so no hint says to start Codex there to load it', () => {
    // Seen on a reviewed repository: AGENTS.md -> .ai/AGENTS.md, and the hint on .ai/AGENTS.md.
    const t = repoTree({ '/r/.git/HEAD': '', '/r/.ai/AGENTS.md': 'shared', '/r/.ai/x.md': '', '/r/pkg/AGENTS.md': 'pkg', '/r/pkg/x.ts': '' });
    t.fs.symlink('/r/AGENTS.md', '.ai/AGENTS.md');
    const r = check(t.host, '/r', profiles('codex'), { home: '/home/u', env: {} });
    assert.deepEqual(brief(r.diagnostics), ['hint not-loaded /r/pkg/AGENTS.md:1 [codex]']);
    const below = chainOf(t, 'codex', '/r/.ai/x.md', { launchDir: '/r' }).sources.find((s) => s.path === '/r/.ai/AGENTS.md');
    assert.match(below?.reason ?? '', /its text is sent already, as AGENTS\.md \(the same file through a link\)\.$/);
  });

  /** Each diagnostic of one agent's check of `/r` as "severity file message". */
  const severityFileMessage = (t: ReturnType<typeof repoTree>, agent: string) =>
    check(t.host, '/r', profiles(agent), { home: '/home/u', env: {} }).diagnostics.map((d) => `${d.severity} ${path.basename(d.path)} ${d.message}`);

  it('glob-no-match: a dead glob of a rule whose other glob matches is a hint; a rule that can never load is a warning', () => {
    const t = repoTree({
      '/r/.git/HEAD': '',
      '/r/CLAUDE.md': 'x',
      '/r/.claude/rules/ts.md': '---\npaths: ["src/**/*.ts", "legacy/**/*.js"]\n---\nts\n',
      '/r/.claude/rules/py.md': '---\npaths: ["**/*.py"]\n---\npy\n',
      '/r/src/a.ts': '',
    });
    assert.deepEqual(severityFileMessage(t, 'claude-code'), [
      'hint ts.md "legacy/**/*.js" matches no file in the workspace folder; Claude Code will never load this rule for those patterns.',
      'warning py.md "**/*.py" matches no file in the workspace folder; Claude Code will never load this rule.',
    ]);
  });

  it('glob-no-match: a rule the agent still lists for the model (a Cursor rule with a description) is not said never to load; a Cursor glob with no "/" is tried on file names too', () => {
    const t = repoTree({
      '/r/.git/HEAD': '',
      '/r/.cursor/rules/tests.mdc': '---\ndescription: How the tests are written\nglobs: ["pkg/**/*.test.tsx"]\nalwaysApply: false\n---\ntests\n',
      '/r/.cursor/rules/py.mdc': '---\nglobs: ["**/*.py"]\nalwaysApply: false\n---\npy\n',
      // Whether Cursor matches a glob with no `/` below the root is not documented: not called dead.
      '/r/.cursor/rules/tsx.mdc': '---\nglobs: *.jsx, *.tsx\nalwaysApply: false\n---\ntsx\n',
      '/r/pkg/a.spec.tsx': '',
    });
    assert.deepEqual(severityFileMessage(t, 'cursor'), [
      'warning py.mdc "**/*.py" matches no file in the workspace folder; Cursor will never load this rule.',
      'warning tests.mdc "pkg/**/*.test.tsx" matches no file in the workspace folder; Cursor never attaches this rule by it; it only lists the rule for the model, which reads it if it judges it relevant.',
      'hint tsx.mdc "*.jsx" matches no file in the workspace folder; Cursor will never load this rule for those patterns.',
    ]);
  });

  it('glob-no-match follows each agent\'s matcher: case, a folder matching what it holds, a nested rule\'s own folder', () => {
    const t = repoTree({
      '/r/.git/HEAD': '',
      '/r/CLAUDE.md': 'x',
      '/r/.claude/rules/case.md': '---\npaths: ["Src/**/*.ts"]\n---\ncase\n',
      '/r/.claude/rules/folder.md': '---\npaths: ["src/deep"]\n---\nfolder\n',
      '/r/pkg/.claude/rules/own.md': '---\npaths: ["lib/*.ts", "*.mts"]\n---\nown\n',
      '/r/.github/instructions/ts.instructions.md': '---\napplyTo: "**/A.TS"\n---\nts\n',
      '/r/src/deep/er/A.ts': '',
      '/r/pkg/lib/b.ts': '',
    });
    const r = check(t.host, '/r', profiles('claude-code', 'copilot'), { home: '/home/u', env: {} });
    assert.deepEqual(r.diagnostics.filter((d) => d.code === 'glob-no-match').map((d) => `${d.severity} ${path.basename(d.path)} ${d.message.split(' no file')[0]}`), [
      'warning case.md "Src/**/*.ts" matches',
      'hint own.md "*.mts" matches',
    ]);
  });

  it('glob-no-match says nothing of a rule matched from a folder above the checked one (a subfolder of a repository opened)', () => {
    // GitHub Copilot CLI matches a rule's globs from the git root; only the subfolder's files are listed.
    const t = repoTree({
      '/r/.git/HEAD': '',
      '/r/app/.claude/rules/ts.md': '---\npaths: ["app/**/*.ts"]\n---\nts\n',
      '/r/app/src/a.ts': '',
    });
    const r = check(t.host, '/r/app', profiles('copilot-cli'), { home: '/home/u', env: {} });
    assert.deepEqual(r.diagnostics.filter((d) => d.code === 'glob-no-match').map((d) => d.message), []);
  });

  it('a folder holding a repository without being one: each file is checked from its own repository, not called untracked or uncommitted', () => {
    // Launched in the outer folder, no agent would see the repository's files at all; an agent is
    // started in the repository, where its files are tracked, committed and matched from its root.
    const files = {
      '/w/repo/.git/HEAD': '',
      '/w/repo/AGENTS.md': 'root\n',
      '/w/repo/pkg/AGENTS.md': 'pkg\n',
      '/w/repo/.github/instructions/s.instructions.md': '---\napplyTo: "src/**"\n---\ns\n',
      '/w/repo/src/main.ts': '',
    };
    const t = tree(files, { tracked: Object.keys(files), committed: Object.fromEntries(Object.entries(files).filter(([f]) => !f.includes('.git/'))) });
    const r = check(t.host, '/w', profiles('car', 'scaling', 'copilot-cli', 'claude-code', 'codex'), { home: '/home/u', env: {}, merge: false });
    assert.deepEqual(brief(r.diagnostics.filter((d) => d.severity !== 'hint')), []);
    // The same files untracked in the repository are reported, so the check above can fail.
    const u = tree(files, { committed: {} });
    const codes = check(u.host, '/w', profiles('car', 'scaling'), { home: '/home/u', env: {}, merge: false }).diagnostics.map((d) => d.code);
    assert.ok(codes.includes('untracked') && codes.includes('not-committed'), codes.join(' '));
  });

  it('the budget reports start and on read apart: a chain whose files all load on read does not use 0', () => {
    const t = tree({ '/r/pkg/CLAUDE.md': 'p'.repeat(120), '/r/pkg/x.ts': '' });
    const c = chainOf(t, 'claude-code', '/r/pkg/x.ts', { launchDir: '/r' });
    assert.deepEqual([c.budget.used, c.budget.onRead], [0, 120]);
  });

  it('Copilot CLI: a CLAUDE.md that links to AGENTS.md shares it on purpose, not a duplicate to fix; two copies are', () => {
    const t = tree({ '/r/.git/HEAD': '', '/r/AGENTS.md': 'same', '/r/GEMINI.md': 'same' });
    t.fs.symlink('/r/CLAUDE.md', 'AGENTS.md');
    const c = chainOf(t, 'copilot-cli', '/r', { launchDir: '/r' });
    assert.deepEqual(c.diagnostics.filter((d) => d.code === 'duplicate-content').map((d) => d.path), ['/r/GEMINI.md']);
    assert.ok(c.sources.some((s) => s.path === '/r/CLAUDE.md' && s.status === 'duplicate'));
  });

  it('Claude Code: an AGENTS.md the CLAUDE.md beside it copies (all but a code fence\'s language) is no problem; one with text of its own is', () => {
    const body = Array.from({ length: 20 }, (_, i) => `- Rule ${i + 1}.`).join('\n');
    const agents = `# Rules\n\n\`\`\`txt\nnpm test\n\`\`\`\n${body}\n`;
    const notLoaded = (claude: string) => chainOf(tree({ '/r/.git/HEAD': '', '/r/AGENTS.md': agents, '/r/CLAUDE.md': claude }), 'claude-code', '/r/x.ts', { launchDir: '/r' }).diagnostics.filter((d) => d.code === 'not-loaded').map((d) => d.path);
    assert.deepEqual(notLoaded(agents), []);
    assert.deepEqual(notLoaded(agents.replace('```txt', '```')), []);
    assert.deepEqual(notLoaded(`# Claude\n\n${body.split('\n').slice(0, 15).join('\n')}\n`), ['/r/AGENTS.md']);
    assert.deepEqual(notLoaded('# Claude\n\nUse tabs.\n'), ['/r/AGENTS.md']);
  });

  it("Claude Code: a nested AGENTS.md its package publishes (package.json \"files\") is for the package's users, not reported; one it does not publish is, and a .claude/CLAUDE.md in the folder is named as the reason", () => {
    const t = tree({
      '/r/.git/HEAD': '',
      '/r/.claude/CLAUDE.md': '# Conventions\n',
      '/r/AGENTS.md': '# Pointers\n',
      '/r/pkg/a/AGENTS.md': '# Using a\n',
      '/r/pkg/a/package.json': '{ "name": "a", "files": ["dist", "AGENTS.md"] }',
      '/r/pkg/b/AGENTS.md': '# Working on b\n',
      '/r/pkg/b/package.json': '{ "name": "b", "files": ["dist"] }',
    });
    const problems = (target: string) => chainOf(t, 'claude-code', target, { launchDir: '/r' });
    const a = problems('/r/pkg/a/x.ts');
    assert.deepEqual(a.diagnostics.map((d) => `${d.code} ${d.path} ${d.message}`), [
      'not-loaded /r/AGENTS.md Claude Code never reads this AGENTS.md: it skips AGENTS.md files when a CLAUDE.md is in its folder (.claude/CLAUDE.md); to load it, create a CLAUDE.md beside it containing "@AGENTS.md".',
    ]);
    assert.match(a.sources.find((s) => s.path === '/r/pkg/a/AGENTS.md')!.reason, /ships with the package/);
    assert.deepEqual(problems('/r/pkg/b/x.ts').diagnostics.map((d) => `${d.code} ${d.path}`), ['not-loaded /r/AGENTS.md', 'not-loaded /r/pkg/b/AGENTS.md']);
  });

  it('Claude Code: an AGENTS.md the CLAUDE.md beside it only names ("Read AGENTS.md") is reported as not loaded, saying the model gets the sentence, not the file', () => {
    const rules = Array.from({ length: 20 }, (_, i) => `- Rule ${i + 1}.`).join('\n');
    const c = chainOf(tree({ '/r/.git/HEAD': '', '/r/CLAUDE.md': 'Read `AGENTS.md` in this folder first.\n', '/r/AGENTS.md': `# Rules\n${rules}\n` }), 'claude-code', '/r/x.ts', { launchDir: '/r' });
    assert.deepEqual(c.diagnostics.map((d) => `${d.code} ${d.message}`), [
      'not-loaded Claude Code does not load this AGENTS.md: the CLAUDE.md beside it only names it, so the model gets that sentence, not the file, and reads it only if it follows it; to load it, add a line "@AGENTS.md" to the CLAUDE.md beside it.',
    ]);
  });

  it('Gemini CLI: a short GEMINI.md that only names the AGENTS.md beside it is reported at the name, with the import that loads it; one that imports it, a longer one, or a setting that reads AGENTS.md is not', () => {
    const agents = '# Rules\n\nRun the tests.\n';
    const pointer = 'See [AGENTS.md](./AGENTS.md) for project context.\n';
    const problems = (files: Record<string, string>) => chainOf(tree({ '/r/.git/HEAD': '', '/r/AGENTS.md': agents, ...files }), 'gemini-cli', '/r/x.ts', { launchDir: '/r' }).diagnostics;
    const [d, ...rest] = problems({ '/r/GEMINI.md': pointer });
    assert.deepEqual(rest, []);
    assert.deepEqual([d.code, d.path, d.line, d.column], ['not-loaded', '/r/GEMINI.md', 0, 5]);
    assert.deepEqual(d.data, { importInto: '/r/GEMINI.md', importLine: '@AGENTS.md' });
    // With the line the fix adds, Gemini CLI sends AGENTS.md's text, and nothing is reported.
    const fixed = chainOf(tree({ '/r/.git/HEAD': '', '/r/AGENTS.md': agents, '/r/GEMINI.md': `${pointer}${d.data!.importLine}\n` }), 'gemini-cli', '/r/x.ts', { launchDir: '/r' });
    assert.deepEqual(fixed.diagnostics, []);
    assert.match(fixed.start.map((p) => p.text).join(''), /Run the tests\./);
    assert.deepEqual(problems({ '/r/GEMINI.md': `${pointer}\n${'More of our own rules.\n'.repeat(20)}` }), []);
    assert.deepEqual(problems({ '/r/GEMINI.md': `${pointer}@./AGENTS.md\n` }), []);
    assert.deepEqual(problems({ '/r/GEMINI.md': pointer, '/r/.gemini/settings.json': JSON.stringify({ context: { fileName: ['AGENTS.md', 'GEMINI.md'] } }) }), []);
    // A name of a file that is not there is no pointer to fix.
    assert.deepEqual(chainOf(tree({ '/r/.git/HEAD': '', '/r/GEMINI.md': pointer }), 'gemini-cli', '/r/x.ts', { launchDir: '/r' }).diagnostics, []);
  });

  it("Copilot CLI: a package name as a link's text ([@acme/cli](docs/cli.md)) is no missing import, though its token runs on into the link's target; a missing path is", () => {
    const text = '- [@acme/cli](./node_modules/@acme/cli/docs/index.md): the CLI docs.\n- See @docs/missing.md too.\n';
    const c = chainOf(tree({ '/r/.git/HEAD': '', '/r/AGENTS.md': text, '/r/docs/x.md': 'x' }), 'copilot-cli', '/r', { launchDir: '/r' });
    assert.deepEqual(c.diagnostics.map((d) => `${d.code} ${d.line + 1}`), ['import-missing 2']);
    // The chain still shows the link's token as an import the CLI looks for and does not find.
    assert.ok(c.sources.some((s) => s.kind === 'import' && s.status === 'missing' && s.path.includes('](')));
  });

  it('Copilot CLI: .claude/CLAUDE.md that is the same file as the AGENTS.md it sends is not "never read", nor a duplicate when it reads in .claude/', () => {
    const t = tree({ '/r/.git/HEAD': '', '/r/shared/general.md': 'house rules\n', '/r/.claude/rules/x.md': 'x\n', '/r/CLAUDE.local.md': 'mine\n' });
    t.fs.symlink('/r/AGENTS.md', 'shared/general.md');
    t.fs.symlink('/r/.claude/CLAUDE.md', '../shared/general.md');
    const c = chainOf(t, 'copilot-cli', '/r/.claude/rules/x.md', { launchDir: '/r' });
    // CLAUDE.local.md really is never read: still said; .claude/CLAUDE.md's text arrives as AGENTS.md.
    assert.deepEqual(c.diagnostics.map((d) => `${d.code} ${d.path}`), ['not-loaded /r/CLAUDE.local.md']);
    const excluded = c.sources.find((s) => s.path === '/r/.claude/CLAUDE.md' && s.loads === 'start');
    assert.equal(excluded?.status, 'excluded');
    assert.match(excluded!.reason, /same file as AGENTS\.md, which Copilot CLI sends/);
    // The chain still marks the copy sent again on read.
    assert.ok(c.sources.some((s) => s.path === '/r/.claude/CLAUDE.md' && s.loads === 'on-read' && s.sentTwice));
    // Without the link, .claude/CLAUDE.md is reported as before.
    const plain = chainOf(tree({ '/r/.git/HEAD': '', '/r/AGENTS.md': 'a\n', '/r/.claude/CLAUDE.md': 'c\n' }), 'copilot-cli', '/r', { launchDir: '/r' });
    assert.deepEqual(plain.diagnostics.map((d) => `${d.code} ${d.path}`), ['not-loaded /r/.claude/CLAUDE.md']);
  });

  it('Copilot in VS Code: an unknown attribute kept for a team\'s own tools is silent; another format\'s key or a near-miss of one is reported', () => {
    const t = tree({
      '/r/x.ts': '',
      '/r/.github/instructions/a.instructions.md': '---\napplyTo: "**/*.ts"\nprofile: backend\nowner: team-a\n---\nA\n',
      '/r/.github/instructions/b.instructions.md': '---\nglobs: "**/*.ts"\napply_to: "**/*.ts"\ndescripton: B\n---\nB\n',
      '/r/.claude/rules/c.md': '---\napplyTo: "**/*.ts"\nprofile: frontend\n---\nC\n',
    });
    const c = chainOf(t, 'copilot', '/r/x.ts', { launchDir: '/r' });
    assert.deepEqual(
      c.diagnostics.filter((d) => d.code === 'attribute-unknown').map((d) => `${d.path.slice(3)}:${d.line + 1} ${/'(.*?)'/.exec(d.message)![1]}`),
      ['.github/instructions/b.instructions.md:2 globs', '.github/instructions/b.instructions.md:3 apply_to', '.github/instructions/b.instructions.md:4 descripton', '.claude/rules/c.md:2 applyTo'],
    );
  });

  it('Copilot in VS Code: a rule both formats read keeps each format\'s keys for its own agent, and its link is no duplicate to fix', () => {
    // One file read as a Copilot instructions file and, through a link, as a Claude rule: applyTo
    // scopes it for the first, paths for the second, excludeAgent is GitHub's; each view ignores
    // the other's keys and loses nothing. A link to copilot-instructions.md is sent once, on purpose.
    const t = tree({
      '/r/x.go': '',
      '/r/.github/copilot-instructions.md': 'general\n',
      '/r/.github/instructions/go.instructions.md': '---\napplyTo: "**/*.go,/go.{mod,sum}"\nexcludeAgent: "code-review"\npaths:\n  - "**/*.go"\n---\nGo\n',
      '/r/.github/instructions/review.instructions.md': '---\ndescription: Review\nexcludeAgent: "cloud-agent"\n---\nReview\n',
      // Its own scope missing: another format's scoping key is then what was meant, and lost.
      '/r/.github/instructions/py.instructions.md': '---\npaths:\n  - "**/*.py"\n---\nPy\n',
    });
    t.fs.symlink('/r/.claude/rules/00.md', '../../.github/copilot-instructions.md');
    t.fs.symlink('/r/.claude/rules/go.md', '../../.github/instructions/go.instructions.md');
    t.fs.symlink('/r/.claude/rules/review.md', '../../.github/instructions/review.instructions.md');
    const c = chainOf(t, 'copilot', '/r/x.go', { launchDir: '/r' });
    assert.deepEqual(
      c.diagnostics.map((d) => `${d.code} ${d.path.slice(3)}:${d.line + 1}`),
      ['attribute-unknown .github/instructions/py.instructions.md:2'],
    );
    assert.ok(c.sources.some((s) => s.status === 'duplicate' && /copilot-instructions|00\.md/.test(s.path)));
    assert.ok(c.sources.some((s) => s.path === '/r/.github/instructions/go.instructions.md' && s.status === 'loaded'));
  });

  it('Copilot in VS Code: a link in a rule reached through a symlinked file is checked from the real file too', () => {
    const t = tree({
      '/r/x.ts': '',
      '/r/shared/rules/a.md': '---\npaths: ["**/*.ts"]\n---\nSee [general](./general.md) and [gone](./gone.md).\n',
      '/r/shared/rules/general.md': 'g\n',
    });
    t.fs.symlink('/r/.claude/rules/a.md', '../../shared/rules/a.md');
    const c = chainOf(t, 'copilot', '/r/x.ts', { launchDir: '/r' });
    assert.deepEqual(c.diagnostics.filter((d) => d.code === 'import-missing').map((d) => /File '(.*?)'/.exec(d.message)![1]), ['./gone.md']);
  });

  it('Copilot in VS Code: a placeholder link in a template a rule describes ([Name](link)) is not a missing file; a path is', () => {
    const t = tree({
      '/r/x.ts': '',
      '/r/.github/instructions/readme.instructions.md': '---\napplyTo: "**/README.md"\n---\n- Start with "Registers [Client](link) in the container".\n- See [the guide](docs/guide.md) and [notes](NOTES).\n',
    });
    const c = chainOf(t, 'copilot', '/r/x.ts', { launchDir: '/r' });
    assert.deepEqual(c.diagnostics.filter((d) => d.code === 'import-missing').map((d) => /File '(.*?)'/.exec(d.message)![1]), ['docs/guide.md']);
  });

  it('every profile is in the registry once (merging names them by id)', () => {
    assert.equal(new Set(PROFILES.map((p) => p.id)).size, PROFILES.length);
  });
});

describe('check on the command line', () => {
  const repo = () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'il-precision-')));
    const lines = Array.from({ length: 400 }, (_, i) => `@missing-${i}.md`).join('\n');
    fs.writeFileSync(path.join(root, 'CLAUDE.md'), `${lines}\n`);
    fs.mkdirSync(path.join(root, 'pkg'));
    fs.writeFileSync(path.join(root, 'AGENTS.md'), 'root\n');
    fs.writeFileSync(path.join(root, 'pkg', 'AGENTS.md'), 'pkg\n');
    spawnSync('git', ['init', '-q'], { cwd: root });
    spawnSync('git', ['add', '-A'], { cwd: root });
    return root;
  };

  it('writing to a closed pipe (check . | head -1) ends quietly', () => {
    const root = repo();
    try {
      const r = spawnSync('sh', ['-c', `node ${JSON.stringify(CLI)} check . --agent claude-code --agent codex | head -1; echo "exit=\${PIPESTATUS:-}"`], { cwd: root, encoding: 'utf8', env: { ...process.env, HOME: '/nonexistent-home' } });
      assert.equal(r.stdout.split('\n')[0], 'CLAUDE.md:1:1: error import-missing: @missing-0.md points to missing-0.md, which does not exist; Claude Code silently ignores it.');
      assert.equal(r.stderr, '');
      const status = spawnSync('bash', ['-c', `set -o pipefail; node ${JSON.stringify(CLI)} check . | head -1 >/dev/null`], { cwd: root, encoding: 'utf8', env: { ...process.env, HOME: '/nonexistent-home' } });
      assert.ok(status.status === 0 || status.status === 1, `exit ${status.status}`);
      assert.equal(status.stderr, '');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('check --launch-dir checks the folders as the agent launched there sees them (it was ignored)', () => {
    const root = repo();
    try {
      const hints = (...extra: string[]) => spawnSync(process.execPath, [CLI, 'check', '.', '--agent', 'codex', '--verbose', ...extra], { cwd: root, encoding: 'utf8', env: { ...process.env, HOME: '/nonexistent-home' } }).stdout;
      assert.match(hints(), /^pkg\/AGENTS\.md:1:1: hint not-loaded: Codex does not load this file when launched in the workspace folder/m);
      assert.doesNotMatch(hints('--launch-dir', 'pkg'), /not-loaded/);
      assert.match(spawnSync(process.execPath, [CLI, 'check', '.', '--launch-dir', 'nowhere'], { cwd: root, encoding: 'utf8' }).stderr, /nowhere/);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('a repository whose only mark is one of Copilot in VS Code\'s prompt files is checked for it, not crashed on', () => {
    // The first pass while git lists the work tree leaves out the agents that ask git for more
    // than its index, Copilot in VS Code among them: detected alone, it left that pass no file
    // pattern, whose search of git's listing then ran past its end (seen on a public repository).
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'il-precision-')));
    try {
      fs.mkdirSync(path.join(root, '.github', 'prompts'), { recursive: true });
      fs.writeFileSync(path.join(root, '.github', 'prompts', 'plan.md'), 'Plan the change first.\n');
      fs.writeFileSync(path.join(root, 'README.md'), 'readme\n');
      spawnSync('git', ['init', '-q'], { cwd: root });
      spawnSync('git', ['add', '-A'], { cwd: root });
      const r = spawnSync(process.execPath, [CLI, 'check', '.'], { cwd: root, encoding: 'utf8', env: { ...process.env, HOME: '/nonexistent-home' } });
      assert.equal(r.stderr, '');
      assert.equal(r.status, 0);
      assert.match(r.stdout, /for GitHub Copilot in VS Code \(\.github\/prompts\/plan\.md\): 0 errors/);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('hints only with --verbose; JSON keeps path, line, severity, code, message and adds agents', () => {
    const root = repo();
    try {
      const run = (...args: string[]) => spawnSync(process.execPath, [CLI, 'check', '.', '--agent', 'codex', ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, HOME: '/nonexistent-home' } });
      const quiet = run();
      assert.equal(quiet.status, 0, quiet.stderr);
      assert.match(quiet.stdout, /^2 instruction files checked \(found via git\) for Codex CLI \(--agent\): 0 errors, 0 other \(1 hint with --verbose\)\.$/m);
      assert.doesNotMatch(quiet.stdout, /not-loaded/);
      const verbose = run('--verbose');
      assert.match(verbose.stdout, /^pkg\/AGENTS\.md:1:1: hint not-loaded: Codex does not load this file when launched in the workspace folder: .* Start Codex in pkg \(or below\) to load it\.$/m);
      const json = JSON.parse(run('--json', '--verbose').stdout);
      assert.deepEqual(json.diagnostics.map((d: Record<string, unknown>) => Object.keys(d)), [['path', 'line', 'column', 'severity', 'code', 'message', 'agents']]);
      assert.deepEqual(json.diagnostics[0].agents, ['codex']);
      assert.deepEqual(JSON.parse(run('--json').stdout).diagnostics, []);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('which agents a workspace uses', () => {
  const ids = (files: string[]) => usedProfiles(detectFromRepository(files, PROFILES)).map((p) => p.id);

  it('each agent by its own files; AGENTS.md marks Codex; claw-code, CAR and hosted sessions only by their own marks', () => {
    assert.deepEqual(ids(['CLAUDE.md', 'AGENTS.md', 'src/a.ts']), ['claude-code', 'codex']);
    assert.deepEqual(ids(['pkg/CLAUDE.local.md']), ['claude-code']);
    assert.deepEqual(ids(['.claude/settings.json']), ['claude-code']);
    assert.deepEqual(ids(['GEMINI.md']), ['gemini-cli']);
    assert.deepEqual(ids(['.gemini/settings.json']), ['gemini-cli']);
    assert.deepEqual(ids(['.gemini/commands/review.toml']), ['gemini-cli']);
    // Gemini Code Assist's review configuration on GitHub is not Gemini CLI.
    assert.deepEqual(ids(['.gemini/config.yaml', '.gemini/styleguide.md', 'AGENTS.md']), ['codex']);
    assert.deepEqual(ids(['.cursor/rules/a.mdc']), ['cursor']);
    assert.deepEqual(ids(['.github/copilot-instructions.md']), ['copilot-cli', 'copilot']);
    assert.deepEqual(ids(['CLAW.md', 'CLAUDE.md']), ['claude-code', 'claw-code', 'claw-code@head']);
    // Nothing marks any agent: the common agents are checked, never those with no marks of their own.
    assert.deepEqual(ids(['README.md']), PROFILES.filter((p) => p.evidence.markers.length).map((p) => p.id));
    assert.ok(!ids(['README.md']).includes('car') && !ids(['README.md']).includes('scaling'));
    const why = detectFromRepository(['CLAUDE.md', 'a/CLAUDE.md', 'b/CLAUDE.md', 'c/CLAUDE.md'], PROFILES).find((d) => d.profile.id === 'claude-code')!;
    assert.deepEqual(why.evidence, ['CLAUDE.md', 'a/CLAUDE.md', '…']);
    // A file that two markers of one agent match is one example; examples keep the listing's order, at any depth.
    const deep = detectFromRepository(['src/x.ts', 'a/.claude/CLAUDE.md', 'b/.cursor/.cursor/r.mdc', 'CLAUDE.local.md', 'c/.claude/rules/x.md'], PROFILES);
    const evidence = (id: string) => deep.find((d) => d.profile.id === id)!.evidence;
    assert.deepEqual(evidence('claude-code'), ['a/.claude/CLAUDE.md', 'CLAUDE.local.md', '…']);
    assert.deepEqual(evidence('cursor'), ['b/.cursor/.cursor/r.mdc']);
    assert.deepEqual(evidence('codex'), []);
  });

  it('the machine adds its evidence: a CLI on PATH with its version, a folder in the home; the version notice', async () => {
    const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'il-detect-')));
    try {
      fs.mkdirSync(path.join(tmp, 'bin'));
      fs.mkdirSync(path.join(tmp, 'home', '.gemini'), { recursive: true });
      fs.writeFileSync(path.join(tmp, 'bin', 'claude'), '#!/bin/sh\necho "9.9.9 (Claude Code)"\n', { mode: 0o755 });
      const machine = await probeMachine(PROFILES, nodeMachineProbe(path.join(tmp, 'home'), { PATH: path.join(tmp, 'bin') }));
      const ds = withMachine(detectFromRepository(['AGENTS.md'], PROFILES), machine);
      assert.deepEqual(ds.filter((d) => d.used).map((d) => `${d.profile.id}: ${d.evidence.join(', ')}`), [
        'claude-code: claude 9.9.9 on PATH',
        'codex: AGENTS.md',
        'gemini-cli: ~/.gemini',
      ]);
      const claude = ds.find((d) => d.profile.id === 'claude-code')!;
      assert.equal(claude.installed, '9.9.9');
      assert.equal(versionNotice(claude.profile, claude.installed), `Claude Code 9.9.9 is installed; Instruction Lens models ${claude.profile.agentVersion}, so what it shows may differ.`);
      assert.equal(versionNotice(claude.profile, claude.profile.agentVersion), undefined);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('check decides from the repository: a CLAUDE.md-only repository is not checked for claw-code\'s 4,000-character cut', () => {
    const t = repoTree({ '/r/.git/HEAD': '', '/r/CLAUDE.md': `@AGENTS.md\n${'x'.repeat(5000)}`, '/r/AGENTS.md': 'y'.repeat(5000) });
    const choose = (files: readonly string[]) => usedProfiles(detectFromRepository(files, PROFILES));
    const r = check(t.host, '/r', choose, { home: '/home/u', env: {} });
    assert.deepEqual(r.agents, ['claude-code', 'codex']);
    assert.deepEqual(r.diagnostics.filter((d) => d.severity !== 'hint'), []);
    const all = check(t.host, '/r', PROFILES, { home: '/home/u', env: {} });
    assert.ok(all.diagnostics.some((d) => d.code === 'file-truncated' && d.agents?.includes('claw-code')), 'pinned, claw-code still reports its cut');
  });
});

describe('suppression, as teams expect from a linter', () => {
  const files = {
    '/r/.git/HEAD': '',
    '/r/CLAUDE.md': '@AGENTS.md\n<!-- instruction-lens-disable-next-line import-missing -->\n@docs/planned.md\n@docs/gone.md\n',
    '/r/AGENTS.md': 'a',
    '/r/pkg/AGENTS.md': 'p',
    '/r/pkg/x.ts': '',
    '/r/legacy/AGENTS.md': '<!-- instruction-lens-disable-file -->\nOld.\n',
  };

  it('inline: disable-next-line covers the line below for the codes named; disable-file the whole file; the agents never see the comment', () => {
    const t = repoTree({ ...files, '/r/CLAUDE.md': files['/r/CLAUDE.md'].replace('@AGENTS.md\n', '') + 'x', '/r/sub/CLAUDE.md': '<!-- instruction-lens-disable-next-line import-cycle -->\n@gone.md\n' });
    const r = check(t.host, '/r', profiles('claude-code'), { home: '/home/u', env: {} });
    // Only legacy/AGENTS.md's not-loaded and CLAUDE.md's first broken import are suppressed.
    assert.deepEqual(brief(r.diagnostics).sort(), [
      'error import-missing /r/CLAUDE.md:3 [claude-code]',
      'error import-missing /r/sub/CLAUDE.md:2 [claude-code]',
      'info not-loaded /r/AGENTS.md:1 [claude-code]',
      'info not-loaded /r/pkg/AGENTS.md:1 [claude-code]',
    ]);
    const c = chainOf(t, 'claude-code', '/r', { launchDir: '/r' });
    assert.doesNotMatch(c.start[0].text, /instruction-lens-disable/);
  });

  it('.instruction-lens.jsonc names the agents and the codes turned off; read with comments; a bad file is reported, not crashed on', () => {
    const config = '{\n  // This repository uses Codex only.\n  "agents": ["codex"],\n  "disable": ["not-loaded",],\n}\n';
    const t = repoTree({ ...files, '/r/.instruction-lens.jsonc': config });
    const r = check(t.host, '/r', (f) => usedProfiles(detectFromRepository(f, PROFILES)), { home: '/home/u', env: {} });
    assert.deepEqual([r.agents, r.agentsFrom], [['codex'], 'config']);
    assert.deepEqual(r.diagnostics, []);
    // Pinned agents win over the file; its disabled codes still hold.
    const pinned = check(t.host, '/r', profiles('claude-code'), { home: '/home/u', env: {} });
    assert.deepEqual(brief(pinned.diagnostics), ['error import-missing /r/CLAUDE.md:4 [claude-code]']);

    const bad = repoTree({ ...files, '/r/.instruction-lens.jsonc': '{ "agents": ["codex", "claude"], "disable": "all", "extra": 1 }' });
    const b = check(bad.host, '/r', (f) => usedProfiles(detectFromRepository(f, PROFILES)), { home: '/home/u', env: {} });
    assert.deepEqual(b.diagnostics.filter((d) => d.code === 'lens-config-invalid').map((d) => d.message), [
      '"extra" in .instruction-lens.jsonc is not a setting Instruction Lens reads (it reads "agents" and "disable").',
      `"agents" in .instruction-lens.jsonc names "claude", not agent ids Instruction Lens knows (${PROFILES.map((p) => p.id).join(', ')}).`,
      '"disable" in .instruction-lens.jsonc must be a list of rule codes; it is ignored.',
    ]);
    const broken = repoTree({ ...files, '/r/.instruction-lens.jsonc': '{ "agents": [' });
    const k = check(broken.host, '/r', profiles('codex'), { home: '/home/u', env: {} });
    assert.match(k.diagnostics[0].message, /^\.instruction-lens\.jsonc does not parse \(\w+ at 1:\d+\); it is ignored\.$/);
  });

  it('link-as-text: a file whose whole text is a path to another file (a link git stored as a plain file) is reported for every agent that sends it; a one-word note or an import is not', () => {
    const files = {
      '/r/.git/HEAD': '',
      '/r/.github/copilot-instructions.md': '../docs/rules.md\n',
      '/r/CLAUDE.md': 'AGENTS.md',
      '/r/AGENTS.md': '# Rules\nUse tabs.\n',
      '/r/docs/rules.md': '# Rules\n',
      '/r/pkg/AGENTS.md': 'TODO\n',
      '/r/pkg/CLAUDE.md': '@AGENTS.md\n',
      '/r/lib/AGENTS.md': 'missing/file.md\n',
    };
    const r = check(repoTree(files).host, '/r', profiles('claude-code', 'copilot-cli', 'copilot'), { home: '/home/u', env: {} });
    const found = r.diagnostics.filter((d) => d.code === 'link-as-text');
    assert.deepEqual(
      found.map((d) => `${d.path} ${d.line}:${d.column}-${d.endColumn} [${d.agents!.join(',')}] ${d.data?.target}`).sort(),
      [
        // Both Copilot agents read CLAUDE.md too.
        '/r/.github/copilot-instructions.md 0:0-16 [copilot-cli,copilot] /r/docs/rules.md',
        '/r/CLAUDE.md 0:0-9 [claude-code,copilot-cli,copilot] /r/AGENTS.md',
      ],
    );
    assert.match(found.find((d) => d.path === '/r/CLAUDE.md')!.message, /^Claude Code, GitHub Copilot CLI, GitHub Copilot in VS Code: Its whole text is the path AGENTS\.md: the agent sends that line as instructions, not the text of AGENTS\.md\./);
    // The same link as a real symbolic link is what the author meant: nothing to report.
    const linked = repoTree(Object.fromEntries(Object.entries(files).filter(([p]) => p !== '/r/CLAUDE.md')));
    linked.fs.symlink('/r/CLAUDE.md', 'AGENTS.md');
    const k = check(linked.host, '/r', profiles('claude-code'), { home: '/home/u', env: {} });
    assert.deepEqual(k.diagnostics.filter((d) => d.code === 'link-as-text'), []);
  });

  it('frontmatter-invalid: a rule whose header lacks its opening "---" line is reported for each agent that reads such headers, with the line to add; a body line that only looks like one is not', () => {
    const files = {
      '/r/.git/HEAD': '',
      '/r/CLAUDE.md': '# Root\n',
      // As seen in a reviewed repository: the scope is lost, the lines are text.
      '/r/.github/instructions/go.instructions.md': 'applyTo:\n  - "**/*.go"\n---\n# Go\n',
      '/r/.claude/rules/api.md': '\uFEFFpaths: src/api/**\r\ndescription: API rules\r\n---\r\nValidate input.\r\n',
      '/r/.cursor/rules/ts.mdc': 'globs: **/*.ts\nalwaysApply: false\n---\nStrict mode.\n',
      // A proper header, a body that opens with a plain sentence, a rule with no `---` at all.
      '/r/.github/instructions/ok.instructions.md': '---\napplyTo: "**"\n---\nOK\n',
      '/r/.claude/rules/note.md': 'Note: keep it short.\n\n---\n\nMore.\n',
      '/r/.claude/rules/plain.md': 'description: a plain first line\nand more text\n',
      '/r/src/api/x.ts': '',
      '/r/a.go': '',
    };
    const r = check(repoTree(files).host, '/r', profiles('claude-code', 'copilot-cli', 'copilot', 'cursor', 'claw-code'), { home: '/home/u', env: {} });
    const found = r.diagnostics.filter((d) => d.message.includes('no opening'));
    assert.deepEqual(
      found.map((d) => `${d.path} ${d.line}:${d.column}-${d.endLine}:${d.endColumn} [${d.agents!.join(',')}] ${d.data?.opening}`).sort(),
      [
        '/r/.claude/rules/api.md 0:0-0:18 [claude-code,copilot-cli,copilot] ---',
        '/r/.cursor/rules/ts.mdc 0:0-0:14 [cursor] ---',
        '/r/.github/instructions/go.instructions.md 0:0-0:8 [copilot-cli,copilot] ---',
      ],
    );
    assert.match(found.find((d) => d.path.endsWith('go.instructions.md'))!.message, /^GitHub Copilot CLI, GitHub Copilot in VS Code: The header has no opening "---" line, so it is read as text and its applyTo is ignored: add "---" as the first line\.$/);
  });
});
