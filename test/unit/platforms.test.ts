import assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { NodeFileSystem, probeCaseInsensitive } from '../../src/core/fs';
import { check } from '../../src/core/check';
import type { Chain } from '../../src/core/model';
import { PROFILES } from '../../src/core/profiles';
import { chainOf, tree } from './fixture';

// The platforms the tests cannot run on. Most users are on macOS and Windows: names there are
// case-insensitive by default (`claude.md` opens as `CLAUDE.md`), and Windows paths have `\` and
// a drive letter. The profiles take these rules from the file system they are given; here every
// profile runs on a Windows tree and on a case-insensitive one.

/**
 * One repository with every profile's files, a nested folder, imports and each agent's home files.
 * The home is /Users/u, as on macOS, so that sorting by path ignoring case (Copilot Chat sorts
 * its attachments by URI with localeCompare) puts it after the repository on both platforms.
 */
const REPO: Record<string, string> = {
  '/r/.git/HEAD': 'ref: refs/heads/main\n',
  '/r/CLAUDE.md': 'Root CLAUDE.md.\n@docs/x.md\n',
  '/r/CLAUDE.local.md': 'Local notes.\n',
  '/r/.claude/rules/style.md': 'Style rule.\n',
  '/r/.claude/rules/ts.md': '---\npaths: src/**/*.ts\n---\nTypeScript rule.\n',
  '/r/.claude/skills/deploy/SKILL.md': '---\nname: deploy\ndescription: Deploys the app.\n---\nSteps.\n',
  '/r/AGENTS.md': 'Root AGENTS.md.\n',
  '/r/GEMINI.md': 'Root GEMINI.md.\n@./docs/x.md\n',
  '/r/docs/x.md': 'Docs x.\n',
  '/r/.github/copilot-instructions.md': 'Copilot repo instructions.\n',
  '/r/.github/instructions/ts.instructions.md': "---\napplyTo: '**/*.ts'\n---\nTS instructions.\n",
  '/r/.cursor/rules/always.mdc': '---\nalwaysApply: true\n---\nAlways rule.\n',
  '/r/.cursor/rules/ts.mdc': '---\nglobs: src/**/*.ts\n---\nTS cursor rule.\n',
  '/r/src/CLAUDE.md': 'src CLAUDE.md.\n',
  '/r/src/AGENTS.md': 'src AGENTS.md.\n',
  '/r/src/GEMINI.md': 'src GEMINI.md.\n',
  '/r/src/a/x.ts': 'export const x = 1;\n',
  '/Users/u/.claude/CLAUDE.md': 'User CLAUDE.md.\n',
  '/Users/u/.codex/AGENTS.md': 'User Codex AGENTS.md.\n',
  '/Users/u/.gemini/GEMINI.md': 'User GEMINI.md.\n',
  '/Users/u/.copilot/copilot-instructions.md': 'User Copilot instructions.\n',
};

/** A POSIX path of the fixtures as it is on Windows: the repository on C:, the home in C:\Users. */
const toWin = (p: string) => (p.startsWith('/Users/u') ? 'C:\\Users\\u' + p.slice('/Users/u'.length) : 'C:' + p).replace(/\//g, '\\');

/**
 * What a Windows answer says, written back as the POSIX one would be: every Windows path of the
 * fixtures (with `\` or `/`, as Gemini CLI writes them; `\\` inside a JSON string, as Copilot Chat
 * writes an attachment's path; `c:` as VS Code writes a drive) back to its POSIX spelling.
 */
function fromWin(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (_k, v: unknown) =>
      typeof v === 'string' ? v.replace(/\\\\/g, '\\').replace(/[Cc]:[\\/]Users[\\/]u/g, '/Users/u').replace(/[Cc]:([\\/])/g, '$1').replace(/\\/g, '/') : v,
    ),
  );
}

function winFiles(files: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).map(([p, text]) => [toWin(p), text]));
}

function both(files: Record<string, string>) {
  const paths = Object.keys(files).filter((p) => p.startsWith('/r/') && !p.startsWith('/r/.git/'));
  const git = { tracked: paths, committed: Object.fromEntries(paths.map((p) => [p, files[p]])) };
  const winGit = { tracked: paths.map(toWin), committed: Object.fromEntries(paths.map((p) => [toWin(p), files[p]])) };
  return { posix: tree(files, git), win: tree(winFiles(files), winGit, { platform: 'win32', caseInsensitive: true }) };
}

/**
 * The parts of a chain a user sees, for comparing two platforms; what the prompt costs is left
 * out, since a Windows path is longer than its POSIX twin (`sameCost` compares it).
 */
const shown = (c: Chain) => ({
  sources: c.sources.map(({ injectedChars: _c, injectedBytes: _b, ...s }) => s),
  budget: { ...c.budget, used: 0, onRead: 0 },
  diagnostics: c.diagnostics,
  start: c.start,
  onRead: c.onRead,
  launchDir: c.launchDir,
  target: c.target,
});

const rendered = (c: Chain) => [...c.start, ...c.onRead].reduce((n, p) => n + [...p.text].length, 0);

/** The budget and each source cost the same on both, or more on Windows by exactly what its longer paths add to the prompt. */
function sameCost(w: Chain, p: Chain): void {
  const longer = rendered(w) - rendered(p);
  for (const [a, b] of [[w.budget.used, p.budget.used], [w.budget.onRead ?? 0, p.budget.onRead ?? 0]]) assert.ok(a === b || (a > b && a - b <= longer), `${a} vs ${b}, the Windows prompt is ${longer} longer`);
  w.sources.forEach((s, i) => assert.ok(s.injectedChars === p.sources[i].injectedChars || (s.injectedChars > p.sources[i].injectedChars && s.injectedChars - p.sources[i].injectedChars <= longer), s.path));
}

describe('platforms: Windows paths', () => {
  const { posix, win } = both(REPO);
  for (const profile of PROFILES) {
    for (const [target, launchDir] of [
      ['/r/src/a/x.ts', '/r'],
      ['/r/src/a/x.ts', '/r/src'],
      ['/r', '/r'],
    ]) {
      it(`${profile.id}: the chain of ${target} launched in ${launchDir} on C:\\ is the POSIX one, with \\ for /`, () => {
        const p = chainOf(posix, profile.id, target, { launchDir, home: '/Users/u' });
        const w = chainOf(win, profile.id, toWin(target), { launchDir: toWin(launchDir), home: 'C:\\Users\\u', platform: 'win32' });
        assert.ok(p.sources.length > 0 || profile.id === 'car', `${profile.id} finds something on POSIX`);
        assert.deepEqual(fromWin(shown(w)), shown(p));
        sameCost(w, p);
      });
    }
  }

  it('check gives the same problems on C:\\ as on POSIX, for every agent', () => {
    const files = { ...REPO, '/r/CLAUDE.md': 'Root CLAUDE.md.\n@docs/missing.md\n', '/r/.cursor/rules/dead.mdc': '---\nglobs: nowhere/**\n---\nDead.\n' };
    const { posix: p, win: w } = both(files);
    const pc = check(p.host, '/r', PROFILES, { home: '/Users/u', env: {} });
    const wc = check(w.host, 'C:\\r', PROFILES, { home: 'C:\\Users\\u', env: {} });
    assert.ok(pc.diagnostics.length > 0);
    assert.deepEqual(fromWin(wc), pc);
    // Messages name files from the workspace folder with Windows separators.
    assert.ok(wc.diagnostics.some((d) => d.message.includes('docs\\missing.md')), wc.diagnostics.map((d) => d.message).join('\n'));
  });
});

describe('platforms: Windows imports and home', () => {
  const t = tree(
    {
      'C:\\r\\.git\\HEAD': 'ref: refs/heads/main\n',
      'C:\\r\\CLAUDE.md': 'Root.\n@docs/x.md\n@docs\\x.md\n',
      'C:\\r\\GEMINI.md': 'Root.\n@docs\\x.md\n',
      'C:\\r\\docs\\x.md': 'Docs x.\n',
      'C:\\Users\\u\\.claude\\CLAUDE.md': 'User.\n@~/notes.md\n',
      'C:\\Users\\u\\notes.md': 'Notes.\n',
    },
    {},
    { platform: 'win32', caseInsensitive: true },
  );

  it('Claude Code: `~` is the user profile folder; `@docs/x.md` imports, `@docs\\x.md` does not (its import pattern takes `\\` only before a space)', () => {
    // Claude Code 2.1.332's bundle: /(?:^|\s)@((?:[^\s\\]|\\ )+)/g, so `@docs\x.md` is read as `@docs`.
    const c = chainOf(t, 'claude-code', 'C:\\r', { launchDir: 'C:\\r', home: 'C:\\Users\\u' });
    assert.deepEqual(
      c.sources.filter((s) => s.status === 'loaded').map((s) => s.path),
      ['C:\\Users\\u\\.claude\\CLAUDE.md', 'C:\\Users\\u\\notes.md', 'C:\\r\\CLAUDE.md', 'C:\\r\\docs\\x.md'],
    );
    assert.match(c.start[0].text, /Contents of C:\\r\\CLAUDE\.md \(project instructions, checked into the codebase\):/);
  });

  it('Gemini CLI writes every path with `/` on Windows; an import with `\\` resolves', () => {
    // [bundle] paths.js toAbsolutePath: path.win32.resolve(p).replace(/\\/g, '/').
    const c = chainOf(t, 'gemini-cli', 'C:\\r', { launchDir: 'C:\\r', home: 'C:\\Users\\u' });
    assert.deepEqual(c.sources.map((s) => `${s.status} ${s.path}`), ['loaded C:\\r\\GEMINI.md', 'loaded C:\\r\\docs\\x.md']);
    assert.equal(
      c.start[0].text,
      '<loaded_context>\n<project_context>\n--- Context from: C:/r/GEMINI.md ---\nRoot.\n<!-- Imported from: docs\\x.md -->\nDocs x.\n\n<!-- End of import from: docs\\x.md -->\n--- End of Context from: C:/r/GEMINI.md ---\n</project_context>\n</loaded_context>',
    );
  });

  it('Copilot Chat writes a path as VS Code does: drive letter in lower case', () => {
    const w = tree({ 'C:\\r\\.git\\HEAD': 'x', 'C:\\r\\AGENTS.md': 'Root agents.\n' }, {}, { platform: 'win32', caseInsensitive: true });
    const c = chainOf(w, 'copilot', 'C:\\r', { launchDir: 'C:\\r', home: 'C:\\Users\\u' });
    assert.match(c.start.map((p) => p.text).join('\n'), /<attachment filePath="c:\\\\r\\\\AGENTS\.md">/);
  });
});

/**
 * A tree whose instruction files are named in another case than the agents write them, as users
 * do (`claude.md`, `Agents.md`, `.Claude/Rules/`), committed to git.
 */
const ODD_CASE: Record<string, string> = {
  '/r/.git/HEAD': 'ref\n',
  '/r/claude.md': 'lower claude\n',
  '/r/Agents.md': 'mixed agents\n',
  '/r/gemini.md': 'lower gemini\n',
  '/r/.Claude/Rules/style.md': 'style rule\n',
  '/r/.GitHub/Copilot-Instructions.md': 'copilot instructions\n',
  '/r/.Cursor/Rules/always.mdc': '---\nalwaysApply: true\n---\nalways\n',
  '/r/src/claude.md': 'src claude\n',
  '/r/src/Agents.md': 'src agents\n',
  '/r/src/gemini.md': 'src gemini\n',
  '/r/src/x.ts': 'export {};\n',
};

/**
 * What each agent loads from ODD_CASE for src/x.ts launched in /r, on a case-insensitive disk
 * (macOS and Windows by default) and on a case-sensitive one (Linux), with how we know. An agent
 * that opens a file by the name it expects gets the file whatever its case on a case-insensitive
 * disk, under the path it built; one that lists a folder and compares names (or takes names from
 * git) does not.
 */
const EXPECTED: Record<string, { why: string; insensitive: string[]; sensitive: string[] }> = {
  'claude-code': {
    why: 'opens dir/CLAUDE.md, dir/.claude/rules by path (2.1.332 bundle: join(dir, "CLAUDE.md")); inferred, not run on macOS',
    insensitive: ['loaded /r/CLAUDE.md', 'loaded /r/.claude/rules/style.md', 'excluded /r/AGENTS.md', 'on-read /r/src/CLAUDE.md', 'excluded /r/src/AGENTS.md'],
    sensitive: [],
  },
  'claw-code': { why: 'prompt.rs: dir.join("CLAUDE.md"), read_to_string; from source', insensitive: ['loaded /r/CLAUDE.md'], sensitive: [] },
  'claw-code@head': {
    why: 'prompt.rs at head: the same joins, rule folders read by path; from source',
    insensitive: ['loaded /r/CLAUDE.md', 'loaded /r/AGENTS.md', 'loaded /r/.cursor/rules/always.mdc', 'loaded /r/.github/copilot-instructions.md'],
    sensitive: [],
  },
  codex: { why: 'agents_md.rs: d.join(name), get_metadata; from source', insensitive: ['loaded /r/AGENTS.md', 'excluded /r/src/AGENTS.md'], sensitive: [] },
  'gemini-cli': { why: 'memoryDiscovery: fs.access(path.join(dir, "GEMINI.md")); from the 0.61.0 bundle', insensitive: ['loaded /r/GEMINI.md', 'on-read /r/src/GEMINI.md'], sensitive: [] },
  cursor: {
    why: 'closed source: modelled as opening .cursor/rules and AGENTS.md by path (VS Code file service); inferred',
    insensitive: ['loaded /r/.cursor/rules/always.mdc', 'loaded /r/AGENTS.md', 'on-read /r/src/AGENTS.md', 'excluded /r/CLAUDE.md'],
    sensitive: [],
  },
  car: {
    why: 'root files by path (project_context.rs), nested ones from git ls-files named exactly CLAUDE.md / AGENTS.md (seed 002)',
    insensitive: ['loaded /r/AGENTS.md', 'loaded /r/CLAUDE.md'],
    sensitive: [],
  },
  scaling: { why: 'reads the committed tree of the default branch, names matched exactly (seed 003)', insensitive: [], sensitive: [] },
  'copilot-cli': {
    why: 'lists each folder and compares names ignoring case (loads agents.md on Linux, observed on 1.0.102); other files by path; inferred for macOS',
    insensitive: ['loaded /r/.github/copilot-instructions.md', 'loaded /r/Agents.md', 'loaded /r/claude.md', 'loaded /r/gemini.md', 'loaded /r/.claude/rules/style.md', 'on-read /r/src/Agents.md', 'on-read /r/src/claude.md', 'on-read /r/src/gemini.md'],
    sensitive: ['loaded /r/Agents.md', 'loaded /r/claude.md', 'loaded /r/gemini.md', 'on-read /r/src/Agents.md', 'on-read /r/src/claude.md', 'on-read /r/src/gemini.md'],
  },
  copilot: {
    why: 'vscode listAgentInstructions: lists the folder, equalsIgnoreCase; .github read by path; nested AGENTS.md by ripgrep --case-sensitive (ripgrepFileSearch.ts); from source',
    insensitive: ['loaded /r/.claude/rules/style.md', 'loaded /r/.github/Copilot-Instructions.md', 'loaded /r/Agents.md', 'loaded /r/claude.md'],
    sensitive: ['loaded /r/Agents.md', 'loaded /r/claude.md'],
  },
};

describe('platforms: names in another case', () => {
  const paths = Object.keys(ODD_CASE).filter((p) => !p.includes('/.git/'));
  const git = { tracked: paths, committed: Object.fromEntries(paths.map((p) => [p, ODD_CASE[p]])) };
  const insensitive = tree(ODD_CASE, git, { caseInsensitive: true });
  const sensitive = tree(ODD_CASE, git);

  it('every profile has its expectation', () => assert.deepEqual(Object.keys(EXPECTED).sort(), PROFILES.map((p) => p.id).sort()));

  for (const [id, want] of Object.entries(EXPECTED)) {
    it(`${id}: ${want.why}`, () => {
      const loadsOrSkips = (c: Chain) => c.sources.filter((s) => s.path !== '/r/.cursorrules').map((s) => `${s.status} ${s.path}`);
      const ci = chainOf(insensitive, id, '/r/src/x.ts', { launchDir: '/r' });
      const cs = chainOf(sensitive, id, '/r/src/x.ts', { launchDir: '/r' });
      assert.deepEqual(loadsOrSkips(ci), want.insensitive);
      assert.deepEqual(loadsOrSkips(cs), want.sensitive);
      // A file found by its name in another case is not called missing, untracked or uncommitted.
      assert.deepEqual(ci.diagnostics.filter((d) => ['not-committed', 'untracked'].includes(d.code)), []);
    });
  }

  it('Claude Code sends claude.md under the path it opened, /r/CLAUDE.md', () => {
    const c = chainOf(insensitive, 'claude-code', '/r/src/x.ts', { launchDir: '/r' });
    assert.match(c.start[0].text, /Contents of \/r\/CLAUDE\.md \(project instructions, checked into the codebase\):\n\nlower claude\n/);
  });

  it('check lists the files an agent reads whatever their case on a case-insensitive disk, and only there', () => {
    const claude = PROFILES.filter((p) => p.id === 'claude-code');
    const files = check(insensitive.host, '/r', claude, { home: '/home/u', env: {} }).files;
    for (const f of ['/r/claude.md', '/r/src/claude.md', '/r/.Claude/Rules/style.md']) assert.ok(files.includes(f), `${f} in ${files.join(', ')}`);
    assert.deepEqual(check(sensitive.host, '/r', claude, { home: '/home/u', env: {} }).files, []);
  });
});

describe('platforms: the real disk', () => {
  it('asks the volume whether it ignores case: the answer is what the disk does with a name in another case', () => {
    const dir = nodeFs.mkdtempSync(path.join(os.tmpdir(), 'CaseProbe-'));
    try {
      nodeFs.writeFileSync(path.join(dir, 'CLAUDE.md'), 'x');
      const folds = nodeFs.existsSync(path.join(dir, 'claude.md'));
      assert.equal(probeCaseInsensitive(dir), folds);
      assert.equal(new NodeFileSystem(dir).caseInsensitive, folds);
      assert.equal(new NodeFileSystem(dir).path.sep, path.sep);
    } finally {
      nodeFs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
