import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { resolveChain } from '../../src/core/chain';
import { check, checkInSlices, listFiles } from '../../src/core/check';
import { diag } from '../../src/core/diagnostics';
import { newSource, setInjected } from '../../src/core/model';
import { ancestors, folderOf } from '../../src/core/paths';
import { agentFolders, fixedNames, governedFolder } from '../../src/core/patterns';
import type { Profile } from '../../src/core/profile';
import { PROFILES } from '../../src/core/profiles';
import { readText } from '../../src/core/readText';
import { tree } from './fixture';

/**
 * A toy agent, built in memory the way CONTRIBUTING's recipe builds one: it reads `TOY.md` in
 * the launch folder and every folder above it, root first, and sends them in one user message.
 * A `TOY.md` between the launch folder and the target is reported as not loaded; a rule file
 * `.toy/rules/*.md` has globs, to see `check` ask the profile how they match.
 */
const toy: Profile = {
  id: 'toy',
  order: 1000,
  agent: 'Toy',
  about: 'a toy agent for the tests',
  agentVersion: '1.0.0',
  verified: 'docs',
  filePatterns: ['**/TOY.md', '**/.toy/rules/*.md'],
  mainFile: 'TOY.md',
  matchesGlob: (rel, glob) => rel.toLowerCase().endsWith(glob.toLowerCase()),
  evidence: { markers: ['**/TOY.md'] },
  globalPaths: () => [],
  resolve(ctx) {
    const sources = [];
    const texts: string[] = [];
    const diagnostics = [];
    for (const dir of ancestors(ctx.launchDir, ctx.fs).reverse()) {
      const file = path.join(dir, 'TOY.md');
      const r = readText(ctx.fs, file);
      if (r.state !== 'ok') continue;
      const s = newSource(file, 'project', dir, 'start', { chars: r.chars, bytes: r.bytes, reason: 'In the launch folder or above it.' });
      setInjected(s, r.text);
      sources.push(s);
      texts.push(r.text);
    }
    const below = folderOf(ctx.fs, ctx.target);
    if (below !== ctx.launchDir && ctx.fs.stat(path.join(below, 'TOY.md'))) {
      sources.push(newSource(path.join(below, 'TOY.md'), 'project', below, 'start', { status: 'excluded', reason: 'Below the launch folder.' }));
      diagnostics.push(diag('not-loaded', path.join(below, 'TOY.md'), 'Toy never reads this file.'));
    }
    for (const e of ctx.fs.readDir(path.join(below, '.toy', 'rules'))) {
      const file = path.join(below, '.toy', 'rules', e.name);
      const r = readText(ctx.fs, file);
      if (r.state === 'ok') sources.push(newSource(file, 'rule', below, 'on-read', { status: 'not-matched', globs: [r.text.trim()], reason: 'A rule of the target folder.' }));
    }
    const used = texts.reduce((n, t) => n + t.length, 0);
    return { sources, budget: { unit: 'chars', limit: null, used }, diagnostics, start: texts.length ? [{ where: 'user', text: texts.join('\n') }] : [], onRead: [] };
  },
};

describe('a profile added in memory', () => {
  const files = {
    '/r/.git/HEAD': 'ref',
    '/r/TOY.md': 'root toy\n',
    '/r/a/TOY.md': 'a toy\n',
    '/r/a/b/TOY.md': 'b toy\n',
    '/r/a/b/x.ts': 'x',
    '/r/a/.toy/rules/ts.md': '.TS\n',
    '/r/a/.toy/rules/py.md': '.py\n',
  };

  it('is resolved by the chain: its sources, budget, render and diagnostics come through as it returns them', () => {
    const t = tree(files);
    const c = resolveChain({ profile: toy, target: '/r/a/b/x.ts', launchDir: '/r/a', home: '/home/u', env: {}, platform: 'linux' }, t.host);
    assert.equal(c.agent, 'toy');
    assert.deepEqual(c.sources.map((s) => `${s.status} ${s.path}`), ['loaded /r/TOY.md', 'loaded /r/a/TOY.md', 'excluded /r/a/b/TOY.md']);
    assert.deepEqual(c.start, [{ where: 'user', text: 'root toy\n\na toy\n' }]);
    assert.equal(c.budget.used, 'root toy\n'.length + 'a toy\n'.length);
    assert.deepEqual(c.diagnostics.map((d) => `${d.code} ${d.path}`), ['not-loaded /r/a/b/TOY.md']);
  });

  it('is checked by `check`: its files are found, its diagnostics kept, its globs matched its own way', () => {
    const t = tree(files, { tracked: Object.keys(files).filter((f) => !f.includes('.git/')) });
    const r = check(t.host, '/r', [toy]);
    assert.equal(r.via, 'git');
    assert.deepEqual([...r.files].sort(), ['/r/TOY.md', '/r/a/.toy/rules/py.md', '/r/a/.toy/rules/ts.md', '/r/a/TOY.md', '/r/a/b/TOY.md']);
    const codes = r.diagnostics.map((d) => `${d.code} ${d.path}`);
    assert.ok(codes.includes('not-loaded /r/a/b/TOY.md'), codes.join('\n'));
    // ".TS" matches x.ts only because the toy's own matcher ignores case; ".py" matches nothing.
    assert.deepEqual(codes.filter((c) => c.startsWith('glob-no-match')), ['glob-no-match /r/a/.toy/rules/py.md']);
  });

  it('has its fixed names and governed folders read from its patterns', () => {
    assert.deepEqual(fixedNames(toy), ['TOY.md', '.toy/rules']);
    // The verify tree copies the agents' folders of a project: the toy's is one of them.
    assert.deepEqual([...agentFolders([toy])], ['.toy']);
    assert.equal(governedFolder('/r/a/.toy/rules/ts.md', toy.filePatterns), '/r/a');
    assert.equal(governedFolder('/r/a/TOY.md', toy.filePatterns), '/r/a');
  });
});

describe('check without git: a walk that honours .gitignore files as git does', () => {
  it('reads every .gitignore on the way; negations and deeper files win; nothing below an ignored folder returns', () => {
    const t = tree({
      '/w/.gitignore': '*.log\n!keep.log\nbuild/\n/only-root.md\n',
      '/w/a.log': 'x',
      '/w/keep.log': 'x',
      '/w/only-root.md': 'x',
      '/w/sub/only-root.md': 'x',
      '/w/build/CLAUDE.md': 'x',
      '/w/build/.gitignore': '!CLAUDE.md\n',
      '/w/pkg/.gitignore': 'CLAUDE.md\n!keep.log\n',
      '/w/pkg/CLAUDE.md': 'ignored here\n',
      '/w/pkg/deep/CLAUDE.md': 'also ignored (no slash: any depth below pkg)\n',
      '/w/pkg/AGENTS.md': 'kept\n',
      '/w/CLAUDE.md': 'root\n',
      '/w/node_modules/x/CLAUDE.md': 'never walked\n',
    });
    const { files, via } = listFiles(t.host, '/w');
    assert.equal(via, 'walk');
    assert.deepEqual(files, ['.gitignore', 'CLAUDE.md', 'keep.log', 'pkg/.gitignore', 'pkg/AGENTS.md', 'sub/only-root.md']);
  });
});

describe('check in slices (the extension host: other work goes on while it runs)', () => {
  const files: Record<string, string> = { '/r/.git/HEAD': 'ref', '/r/CLAUDE.md': 'Root.\n@missing.md\n', '/r/.claude/rules/none.md': '---\npaths: ["**/*.nomatch"]\n---\nNever.\n' };
  for (let i = 0; i < 40; i++) {
    files[`/r/p${i}/CLAUDE.md`] = `Package ${i}.\n`;
    files[`/r/p${i}/AGENTS.md`] = `Agents ${i}.\n`;
    files[`/r/p${i}/src/index.ts`] = '';
  }
  const tracked = Object.keys(files).filter((f) => !f.includes('.git/'));

  it('finds what check finds, while the event loop keeps turning', async () => {
    const whole = check(tree(files, { tracked }).host, '/r', PROFILES, { home: '/home/u', env: {} });
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    const sliced = await checkInSlices(tree(files, { tracked }).host, '/r', PROFILES, { home: '/home/u', env: {} }, { sliceMs: 0 });
    clearInterval(ticking);
    assert.deepEqual(sliced, whole);
    assert.ok(whole.diagnostics.some((d) => d.code === 'glob-no-match') && whole.diagnostics.some((d) => d.code === 'import-missing'), 'the pass has something to find');
    assert.ok(turns > 0, 'a timer ran while the pass was under way');
  });

  it('stops at its next pause once it is stale', async () => {
    let asked = 0;
    const result = await checkInSlices(tree(files, { tracked }).host, '/r', PROFILES, { home: '/home/u', env: {} }, { sliceMs: 0, cancelled: () => ++asked > 2 });
    assert.equal(result, undefined);
    assert.equal(asked, 3);
  });
});
