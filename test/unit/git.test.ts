import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as nodeFs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { AheadGitIndex, checkAhead, checkHost, PartsGitIndex } from '../../src/cliGitIndex';
import { CachedFileSystem } from '../../src/core/cachedFs';
import { check } from '../../src/core/check';
import { NodeFileSystem } from '../../src/core/fs';
import { CliGitIndex, committedPathsOf, namedAny, SnapshotGitIndex } from '../../src/core/git';
import { OneLookFileSystem } from '../../src/core/oneLookFs';
import { PROFILES } from '../../src/core/profiles';

// What `CliGitIndex` answers on a real repository, where git's answers depend on how it is asked.

let root: string;

function git(...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd: root, encoding: 'utf8' });
}

function write(rel: string, text: string) {
  nodeFs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  nodeFs.writeFileSync(path.join(root, rel), text);
}

/** A new repository at `root`, holding `files` (not added yet). */
function repository(prefix: string, files: Record<string, string>) {
  root = nodeFs.realpathSync(nodeFs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  git('init', '-q', '-b', 'main');
  for (const [rel, text] of Object.entries(files)) write(rel, text);
}

describe('CliGitIndex on a real repository', () => {
  before(() => {
    // Two names git sorts by their UTF-8 bytes one way and JavaScript the other (U+FF01 against
    // U+1F600, a pair of UTF-16 surrogates): the listing is then looked up otherwise than by halving.
    repository('il-git-', { 'AGENTS.md': 'root\n', 'a/b/c/CLAUDE.md': 'deep\n', 'with space/AGENTS.md': 'spaced\n', 'a/changed.md': 'committed\n', 'w/\uFF01/AGENTS.md': 'wide\n', 'w/\u{1F600}/AGENTS.md': 'smile\n' });
    nodeFs.symlinkSync('a/b/c/CLAUDE.md', path.join(root, 'link.md'));
    git('add', '-A');
    // A submodule as the superproject holds it: a commit id at a path, not a blob.
    git('update-index', '--add', '--cacheinfo', `160000,${'1'.repeat(40)},sub`);
    git('commit', '-q', '-m', 'start');
    // The work tree moves on; the commit does not.
    write('a/changed.md', 'edited\n');
    write('untracked.md', 'new\n');
  });

  after(() => nodeFs.rmSync(root, { recursive: true, force: true }));

  it('reads committed texts by blob id after listing a commit, as by `rev:path`', () => {
    const commit = git('rev-parse', 'main^{commit}').trim();
    const asked = ['AGENTS.md', 'a/b/c/CLAUDE.md', 'with space/AGENTS.md', 'a/changed.md', 'link.md', 'sub', 'a', 'untracked.md', 'missing.md'];
    const committed = ['AGENTS.md', 'a/b/c/CLAUDE.md', 'a/changed.md', 'link.md', 'sub', 'w/\uFF01/AGENTS.md', 'w/\u{1F600}/AGENTS.md', 'with space/AGENTS.md'];
    for (const wide of [false, true]) {
      // Without the two wide names the listing is ascending as JavaScript compares, and looked up by halving.
      if (wide) git('add', 'w');
      else git('rm', '-q', '-r', '--cached', '--ignore-unmatch', 'w');
      git('commit', '-q', '--allow-empty', '-m', wide ? 'wide' : 'narrow');
      const at = git('rev-parse', 'HEAD^{commit}').trim();
      const files = [...asked, ...(wide ? ['w/\uFF01/AGENTS.md', 'w/\u{1F600}/AGENTS.md'] : [])].map((f) => path.join(root, f));
      const byPath = new CliGitIndex(new NodeFileSystem()).committedTexts(root, files, at);
      const index = new CliGitIndex(new NodeFileSystem());
      const listed = index.committedPaths(root, at)!;
      const held = committed.filter((f) => wide || !f.startsWith('w/'));
      for (const f of [...asked, ...committed]) assert.equal(listed.has(f), held.includes(f), f);
      // In git's order: by the paths' UTF-8 bytes.
      const byBytes = (x: string, y: string) => Buffer.compare(Buffer.from(x), Buffer.from(y));
      assert.deepEqual(listed.named(['CLAUDE.md', 'AGENTS.md']), held.filter((f) => /(^|\/)(AGENTS|CLAUDE)\.md$/.test(f)).sort(byBytes));
      const byId = index.committedTexts(root, files, at);
      assert.deepEqual(byId, byPath);
      assert.deepEqual(
        files.map((f) => byId.get(f)),
        ['root\n', 'deep\n', 'spaced\n', 'committed\n', 'a/b/c/CLAUDE.md', undefined, undefined, undefined, undefined, ...(wide ? ['wide\n', 'smile\n'] : [])],
      );
      // A branch name may move to another commit: the listing of an id is not used for it.
      assert.deepEqual(index.committedTexts(root, files, 'main'), byPath);
    }
    // The first commit, whatever came after.
    assert.equal(new CliGitIndex(new NodeFileSystem()).committedTexts(root, [path.join(root, 'a/changed.md')], commit).get(path.join(root, 'a/changed.md')), 'committed\n');
  });

  it("reads the named files' committed texts ahead, and answers them as git would without asking it again", async () => {
    const at = git('rev-parse', 'main^{commit}').trim();
    const files = ['a/b/c/CLAUDE.md', 'AGENTS.md', 'a/changed.md', 'w/\uFF01/AGENTS.md', 'sub', 'missing.md', 'with space/AGENTS.md'].map((f) => path.join(root, f));
    const asked = new CliGitIndex(new NodeFileSystem()).committedTexts(root, files, at);
    const ahead = new AheadGitIndex(new NodeFileSystem());
    await ahead.commitAhead(root, ['AGENTS.md', 'CLAUDE.md']);
    // git gone: only what was read ahead can still be answered.
    nodeFs.renameSync(path.join(root, '.git'), path.join(root, '.git-away'));
    try {
      const offline = ahead.committedTexts(root, files, at);
      assert.deepEqual([...offline.keys()], files);
      for (const f of files) assert.equal(offline.get(f), /(AGENTS|CLAUDE)\.md$/.test(f) ? asked.get(f) : undefined, f);
      assert.equal(offline.get(path.join(root, 'w/\uFF01/AGENTS.md')), 'wide\n');
    } finally {
      nodeFs.renameSync(path.join(root, '.git-away'), path.join(root, '.git'));
    }
    // The rest asked of git as before, in the order asked.
    assert.deepEqual(ahead.committedTexts(root, files, at), asked);
  });
});

describe('hosted sessions in a repository with no commit yet', () => {
  before(() => {
    repository('il-git-unborn-', { 'AGENTS.md': '# Rules\nUse tabs.\n', 'sub/AGENTS.md': 'Sub rules.\n' });
    git('add', '-A');
  });
  after(() => nodeFs.rmSync(root, { recursive: true, force: true }));

  // No commit can be listed: a session reads nothing, and each file is not committed, not a file
  // the commit lists and the session could not read (an error it once was, from the index's files).
  it('says each file is not committed, and reports no file as unreadable', () => {
    const scaling = PROFILES.find((p) => p.id === 'scaling')!;
    const fs = new NodeFileSystem();
    const result = check({ fs, git: new CliGitIndex(fs) }, root, [scaling]);
    assert.deepEqual(
      result.diagnostics.map((d) => [path.relative(root, d.path), d.code, d.severity]),
      [['AGENTS.md', 'not-committed', 'warning'], ['sub/AGENTS.md', 'not-committed', 'warning']],
    );
  });
});

describe("a commit's files from git's listing", () => {
  // `git ls-tree -r -z` text made up for random paths, in git's order (by their UTF-8 bytes): the
  // listing is looked up by halving its text, where JavaScript's order of strings agrees.
  const segment = fc.constantFrom('a', 'B', '.c', 'AGENTS.md', 'XAGENTS.md', 'CLAUDE.md', 'a\tb', 'AGENTS.md\tx', '\uFF01', '\u{1F600}', '\u00e9', 'a b');
  const p = fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => s.join('/'));
  const byBytes = (x: string, y: string) => Buffer.compare(Buffer.from(x), Buffer.from(y));
  const entry = (f: string, i: number) => `${i % 3 ? '100644 blob' : '160000 commit'} ${String(i).padStart(40, '0')}\t${f}\0`;

  it('holds and names exactly the paths listed (random listings)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(p, { maxLength: 40 }), fc.array(p, { maxLength: 10 }), (paths, queries) => {
        // A folder and a file of one name cannot both be in a tree: drop the paths below a listed file.
        const files = paths.filter((f) => !paths.some((g) => f.startsWith(`${g}/`))).sort(byBytes);
        const listed = committedPathsOf(files.map(entry).join(''));
        for (const q of [...queries, ...files]) assert.equal(listed.has(q), files.includes(q), JSON.stringify(q));
        const names = ['AGENTS.md', 'CLAUDE.md'];
        assert.deepEqual(listed.named(names), files.filter((f) => names.includes(f.slice(f.lastIndexOf('/') + 1))));
      }),
      { seed: 12, numRuns: 500 },
    );
  });
});

describe('a listing asked for names, several times', () => {
  // CAR and Copilot ask the same listing in turn, each for its names, from its first tracked path or the first.
  it('gives what a plain filter gives, whatever was asked of it before (random listings and questions)', () => {
    const segment = fc.constantFrom('a', 'AGENTS.md', 'CLAUDE.md', 'XAGENTS.md', 'S.md', 'x.md', 'md', 'b\\AGENTS.md');
    const p = fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => s.join('/'));
    const question = fc.record({ names: fc.subarray(['AGENTS.md', 'CLAUDE.md', 'S.md', 'md'], { minLength: 1 }), from: fc.nat(5) });
    fc.assert(
      fc.property(fc.array(p, { maxLength: 30 }), fc.array(question, { minLength: 1, maxLength: 4 }), (files, questions) => {
        for (const { names, from } of questions) {
          const plain = files.slice(from).filter((f) => names.some((n) => f === n || f.endsWith(`/${n}`) || f.endsWith(`\\${n}`)));
          assert.deepEqual(namedAny(files, names, from), plain);
        }
      }),
      { seed: 13, numRuns: 300 },
    );
  });
});

describe('tracked files by name', () => {
  before(() => {
    // Names that must not match (another case, a longer name, a folder so named) beside those that must.
    repository('il-git-named-', { 'AGENTS.md': 'a', 'x/CLAUDE.md': 'b', 'x/y/AGENTS.md': 'c', 'x/agents.md': 'd', 'x/NOTAGENTS.md': 'e', 'CLAUDE.md/AGENTS.mdx': 'f', 'odd\\CLAUDE.md': 'g' });
    git('add', '-A');
    git('commit', '-q', '-m', 'start');
    write('new/AGENTS.md', 'untracked');
    nodeFs.rmSync(path.join(root, 'x', 'CLAUDE.md'));
  });

  after(() => nodeFs.rmSync(root, { recursive: true, force: true }));

  it('are the tracked files filtered by name, from the work tree listing or without it', async () => {
    const names = ['CLAUDE.md', 'AGENTS.md'];
    const tracked = new CliGitIndex(new NodeFileSystem()).trackedFiles(root)!;
    // The definition CAR read them by: every tracked file, filtered by name (a deleted one is still tracked).
    const expected = tracked.filter((f) => names.some((n) => f.endsWith(`/${n}`) || f.endsWith(`\\${n}`)));
    assert.deepEqual(expected.map((f) => path.relative(root, f)).sort(), ['AGENTS.md', 'odd\\CLAUDE.md', 'x/CLAUDE.md', 'x/y/AGENTS.md'].map((f) => path.normalize(f)).sort());
    const asked = new SnapshotGitIndex(new CliGitIndex(new NodeFileSystem()));
    assert.deepEqual(asked.trackedFilesNamed(root, names), expected);
    const listed = new SnapshotGitIndex(new CliGitIndex(new NodeFileSystem()));
    await listed.listAhead(root);
    assert.deepEqual(listed.trackedFilesNamed(root, names), expected);
    // The CLI's listing in two parts: from the tracked part while git still walks the work tree
    // (held back here), made once however often it is asked (CAR asks for every folder), then after.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const parts = new PartsGitIndex(new AheadGitIndex(new NodeFileSystem()), new CachedFileSystem(new NodeFileSystem()));
    const listing = parts.listParts(root, () => held);
    await listing.tracked;
    const first = parts.trackedFilesNamed(root, names);
    assert.deepEqual(first, expected);
    assert.equal(parts.trackedFilesNamed(root, names), first);
    assert.deepEqual(parts.trackedFiles(root), tracked);
    release();
    await listing.whole;
    assert.deepEqual(parts.trackedFilesNamed(root, names), expected);
  });
});

describe("the CLI's check with git asked ahead", () => {
  before(() => {
    repository('il-git-ahead-', {
      '.gitignore': 'build/\n',
      'AGENTS.md': '# Root\n\nSee @docs/missing.md.\n',
      'CLAUDE.md': '@AGENTS.md\n',
      'api/AGENTS.md': '# Api\n',
      'lib/CLAUDE.md': '# Lib\n\nSee @lib-notes.md.\n',
      '.cursor/rules/ts.mdc': '---\nglobs: ["**/*.ts", "**/*.nomatch"]\n---\nTypes.\n',
    });
    git('add', '-A');
    git('commit', '-q', '-m', 'start');
    // Edited, untracked, ignored, and a repository nested in a folder the outer one tracks files in.
    write('AGENTS.md', '# Root, edited\n');
    write('api/new/AGENTS.md', '# Not committed\n');
    write('api/new/x.ts', 'export {};\n');
    write('build/AGENTS.md', '# Ignored\n');
    write('api/nested/AGENTS.md', '# Nested\n');
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: path.join(root, 'api', 'nested') });
  });

  after(() => nodeFs.rmSync(root, { recursive: true, force: true }));

  it('gives what check gives asking git as it goes, for every agent or the detected ones, from the root or a folder', async () => {
    const seen: string[] = [];
    const detect = () => PROFILES.filter((p) => p.id === 'codex' || p.id === 'cursor');
    for (const where of [root, path.join(root, 'api')]) {
      for (const agents of [PROFILES, []]) {
        const asGoes = check({ fs: new OneLookFileSystem(), git: new CliGitIndex(new NodeFileSystem()) }, where, agents.length ? agents : detect, { home: root });
        // As the CLI runs it: git asked ahead, and with a first pass while git walks the work tree.
        const ahead = check(await checkHost(new OneLookFileSystem(), where, agents), where, agents.length ? agents : detect, { home: root });
        assert.deepEqual(ahead, asGoes);
        assert.deepEqual(await checkAhead(new OneLookFileSystem(), where, agents.length ? agents : detect, { home: root }), asGoes);
        seen.push(...ahead.files.map((f) => path.relative(root, f)), ...ahead.diagnostics.map((d) => d.code));
      }
    }
    // The cases that make git's answers differ: an untracked file listed, an ignored one and the nested repository's not, the commit read.
    assert.ok(seen.includes(path.join('api', 'new', 'AGENTS.md')) && !seen.includes(path.join('build', 'AGENTS.md')) && !seen.includes(path.join('api', 'nested', 'AGENTS.md')));
    assert.ok(seen.includes('not-committed') && seen.includes('glob-no-match'));
  });

  it('waits for the untracked files while it resolves the tracked ones\' folders, and reports what the whole work tree gives', async () => {
    const asGoes = check({ fs: new OneLookFileSystem(), git: new CliGitIndex(new NodeFileSystem()) }, root, PROFILES, { home: root });
    // The whole listing held back until released: the pass must not end on the tracked files alone.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let settled = false;
    const pass = checkAhead(new OneLookFileSystem(), root, PROFILES, { home: root }, () => held).finally(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(settled, false);
    release();
    const result = await pass;
    assert.deepEqual(result, asGoes);
    // The untracked file, and the problem of a tracked one that only its own folder's chains show.
    assert.ok(result.files.includes(path.join(root, 'api', 'new', 'AGENTS.md')));
    assert.ok(result.diagnostics.some((d) => d.path === path.join(root, 'lib', 'CLAUDE.md') && d.code === 'import-missing'));
  });
});
