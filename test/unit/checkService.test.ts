import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as nodeFs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import { after, before, describe, it } from 'node:test';
import { loadBundle, writeCodeCache } from '../../src/codeCache';
import { carryHost, refreshHost, resolveChain } from '../../src/core/chain';
import { check, listFiles } from '../../src/core/check';
import { suppressionsIn } from '../../src/core/config';
import { NodeFileSystem } from '../../src/core/fs';
import { CliGitIndex, type GitIndex, type SnapshotGitIndex } from '../../src/core/git';
import { CheckService, type CheckAnswer, type CheckMessage, type Change, type FolderSettings } from '../../src/core/checkService';
import type { Diagnostic } from '../../src/core/model';
import { detectFromRepository } from '../../src/core/detect';
import { PROFILES } from '../../src/core/profiles';
import { workspaceHost } from '../../src/core/workspaceHost';

// The extension's diagnostics work as its worker thread does it (src/core/checkService.ts, run by
// dist/checkWorker.js): on a real repository on disk, answers equal to `check`'s, a change to one
// file's text seen through the kept cache, unsaved editor text laid over the disk, a cancelled pass.

const AGENTS = ['claude-code', 'codex', 'gemini-cli'];
let root: string;
let home: string;

function git(...args: string[]) {
  execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd: root, stdio: 'ignore' });
}

function write(rel: string, text: string) {
  nodeFs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  nodeFs.writeFileSync(path.join(root, rel), text);
}

before(() => {
  const tmp = nodeFs.realpathSync(nodeFs.mkdtempSync(path.join(os.tmpdir(), 'il-check-service-')));
  root = path.join(tmp, 'repo');
  home = path.join(tmp, 'home');
  nodeFs.mkdirSync(home, { recursive: true });
  write('CLAUDE.md', '# Root\n@docs/style.md\n');
  write('docs/style.md', 'Style.\n');
  write('api/CLAUDE.md', '# API\n@missing-api.md\n');
  write('api/AGENTS.md', 'API rules.\n');
  write('web/GEMINI.md', '# Web\n@gone.md\n');
  write('web/src/app.ts', 'export {};\n');
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'start');
});

after(() => nodeFs.rmSync(path.dirname(root), { recursive: true, force: true }));

const folder = (): FolderSettings => ({ folder: root, agents: AGENTS, launch: 'workspaceFolder', home, settings: {} });
const change = (written?: string[], unsaved: [string, Uint8Array][] = []): Change => ({ written, unsaved, unsavedKey: unsaved.map(([p]) => p).join('\0'), trusted: true });
const key = (d: Diagnostic) => [d.path, d.line, d.column, d.code, d.message, d.agents?.join(',')].join('\0');
const keys = (ds: readonly Diagnostic[]) => ds.map(key).sort();

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

/** A service and a way to ask it: each answer by its request's id. */
function service() {
  const answers = new Map<number, (a: CheckAnswer) => void>();
  // The work ahead after the first chain at once: the looks below run beside it.
  const svc = new CheckService((a) => answers.get(a.id)?.(a), 5, 0);
  let id = 0;
  return {
    send(message: WithoutId<Exclude<CheckMessage, { kind: 'cancel' }>>): { id: number; answer: Promise<CheckAnswer> } {
      const asked = ++id;
      const answer = new Promise<CheckAnswer>((resolve) => answers.set(asked, resolve));
      svc.handle({ ...message, id: asked } as CheckMessage);
      return { id: asked, answer };
    },
    cancel(asked: number) {
      svc.handle({ kind: 'cancel', id: asked });
    },
  };
}

function diagnosticsOf(a: CheckAnswer): Diagnostic[] {
  assert.ok('diagnostics' in a, `expected diagnostics, got ${JSON.stringify(a).slice(0, 300)}`);
  return a.diagnostics;
}

describe('the extension\'s checking service', () => {
  it('a pass over the workspace folder gives what check gives', async () => {
    const s = service();
    const got = diagnosticsOf(await s.send({ kind: 'check', jobs: [{ root, ...folder() }], change: change() }).answer);
    const expected = check(workspaceHost(new Map(), true), root, PROFILES.filter((p) => AGENTS.includes(p.id)), { launchDir: root, home, env: process.env, settings: {}, merge: false });
    assert.deepEqual(keys(got), keys(expected.diagnostics));
    assert.ok(got.some((d) => d.code === 'import-missing' && d.path === path.join(root, 'api', 'CLAUDE.md')));
  });

  it('a pass over one folder gives what check gives there, from git\'s listing of that folder only', async () => {
    const s = service();
    const api = path.join(root, 'api');
    const got = diagnosticsOf(await s.send({ kind: 'check', jobs: [{ root: api, ...folder() }], change: change() }).answer);
    // The same index without the folder's own listing: the whole work tree listed, then cut back.
    const cli = new CliGitIndex(new NodeFileSystem());
    const whole: GitIndex = { root: (d) => cli.root(d), trackedFiles: (r, p) => cli.trackedFiles(r, p), workTreeFiles: (r) => cli.workTreeFiles(r), committedText: () => undefined };
    const expected = check({ fs: new NodeFileSystem(), git: whole }, api, PROFILES.filter((p) => AGENTS.includes(p.id)), { launchDir: root, home, env: process.env, settings: {}, merge: false });
    assert.deepEqual(keys(got), keys(expected.diagnostics));
    assert.ok(got.some((d) => d.code === 'import-missing' && d.path === path.join(api, 'CLAUDE.md')));
    // What git was asked for: that folder's files, never the repository's every path.
    const asked: string[] = [];
    const counting: GitIndex = {
      ...whole,
      workTreeFiles: (r) => (asked.push('the whole work tree'), cli.workTreeFiles(r)),
      workTreeRelative: (r) => (asked.push('the whole work tree'), cli.workTreeRelative(r)),
      workTreeUnder: (r, f) => (asked.push(f), cli.workTreeUnder(r, f)),
    };
    check({ fs: new NodeFileSystem(), git: counting }, api, PROFILES.filter((p) => AGENTS.includes(p.id)), { launchDir: root, home, env: process.env, settings: {}, merge: false });
    assert.deepEqual(asked, ['api']);
  });

  it('a quick look after a file\'s text changed sees the new text, and only that file\'s problems', async () => {
    const s = service();
    const file = path.join(root, 'api', 'CLAUDE.md');
    diagnosticsOf(await s.send({ kind: 'check', jobs: [{ root, ...folder() }], change: change() }).answer);
    const original = nodeFs.readFileSync(file, 'utf8');
    try {
      nodeFs.writeFileSync(file, `${original}@also-missing.md\n`);
      const answer = await s.send({ kind: 'look', jobs: [{ file, ...folder() }], change: change([file]) }).answer;
      const got = diagnosticsOf(answer);
      assert.ok(got.every((d) => d.path === file), 'only the file looked at');
      // When the question reached the service and the answer left it: the extension's log tells where an edit's time went.
      const [received, answered] = 'times' in answer && answer.times ? answer.times : [NaN, NaN];
      assert.ok(received <= answered && answered <= performance.timeOrigin + performance.now(), `times ${received}, ${answered}`);
      assert.ok(got.some((d) => d.code === 'import-missing' && d.message.includes('also-missing.md')), 'the new import is seen through the kept cache');
      // Another file, not written, keeps its cached answers: the service read it before the change.
      const web = path.join(root, 'web', 'GEMINI.md');
      const again = diagnosticsOf(await s.send({ kind: 'look', jobs: [{ file: web, ...folder() }], change: change([]) }).answer);
      assert.ok(again.some((d) => d.message.includes('gone.md')));
    } finally {
      nodeFs.writeFileSync(file, original);
    }
  });

  it('quick looks after edits, every agent, carried over each change, give what a new service gives', async () => {
    // What depends only on the commit or on git's listing (the hosted session's committed files,
    // CAR's nested files) is kept across the changes; what the edited text gives is not.
    const all = (): FolderSettings => ({ ...folder(), agents: PROFILES.map((p) => p.id) });
    const s = service();
    const file = path.join(root, 'api', 'AGENTS.md');
    const original = nodeFs.readFileSync(file, 'utf8');
    diagnosticsOf(await s.send({ kind: 'look', jobs: [{ file, ...all() }], change: change() }).answer);
    try {
      for (const text of [`${original}@gone.md\n`, '', 'x'.repeat(70_000), original]) {
        nodeFs.writeFileSync(file, text);
        const carried = diagnosticsOf(await s.send({ kind: 'look', jobs: [{ file, ...all() }], change: change([file]) }).answer);
        const fresh = diagnosticsOf(await service().send({ kind: 'look', jobs: [{ file, ...all() }], change: change() }).answer);
        assert.deepEqual(keys(carried), keys(fresh), `after writing ${text.length} characters`);
      }
    } finally {
      nodeFs.writeFileSync(file, original);
    }
  });

  it('unsaved editor text is what the chains read', async () => {
    const s = service();
    const file = path.join(root, 'web', 'GEMINI.md');
    const unsaved: [string, Uint8Array][] = [[file, new TextEncoder().encode('# Web, fixed in the editor\n')]];
    const got = diagnosticsOf(await s.send({ kind: 'look', jobs: [{ file, ...folder() }], change: change(undefined, unsaved) }).answer);
    assert.ok(!got.some((d) => d.message.includes('gone.md')), 'the unsaved text has no broken import');
    // The disk again once the document is saved or reverted (a new unsaved key).
    const back = diagnosticsOf(await s.send({ kind: 'look', jobs: [{ file, ...folder() }], change: change([]) }).answer);
    assert.ok(back.some((d) => d.message.includes('gone.md')));
  });

  it('which agents a folder uses, from git\'s list of their markers (an untracked file too), or untrusted from the walk: as from every file', async () => {
    const s = service();
    const evidence = async (trusted: boolean) => {
      const a = await s.send({ kind: 'detect', folder: root, change: { ...change(), trusted } }).answer;
      assert.ok('evidence' in a, JSON.stringify(a).slice(0, 300));
      return a.evidence;
    };
    // Not committed, not ignored: git lists it among the others.
    write('.cursorrules', 'Rules.\n');
    try {
      const expected = detectFromRepository(listFiles(workspaceHost(new Map(), true), root).files, PROFILES).map((d) => d.evidence);
      assert.ok(expected[PROFILES.findIndex((p) => p.id === 'cursor')].includes('.cursorrules'));
      assert.deepEqual(await evidence(true), expected);
      assert.deepEqual(await evidence(false), expected);
    } finally {
      nodeFs.rmSync(path.join(root, '.cursorrules'));
    }
  });

  it('what the machine shows of each agent, looked at on the worker: a CLI on PATH with its version, a folder in the home, an editor extension the extension says is installed', async () => {
    const tmp = nodeFs.realpathSync(nodeFs.mkdtempSync(path.join(os.tmpdir(), 'il-machine-')));
    const pathBefore = process.env.PATH;
    try {
      nodeFs.mkdirSync(path.join(tmp, 'bin'));
      nodeFs.mkdirSync(path.join(tmp, 'home', '.gemini'), { recursive: true });
      nodeFs.writeFileSync(path.join(tmp, 'bin', 'claude'), '#!/bin/sh\necho "9.9.9 (Claude Code)"\n', { mode: 0o755 });
      // Not executable: not a command on PATH.
      nodeFs.writeFileSync(path.join(tmp, 'bin', 'codex'), '#!/bin/sh\necho 1.0.0\n', { mode: 0o644 });
      // The worker's PATH is the extension host's, which it copied at its start.
      process.env.PATH = `${path.join(tmp, 'nowhere')}${path.delimiter}${path.join(tmp, 'bin', 'claude')}${path.delimiter}${path.join(tmp, 'bin')}`;
      const a = await service().send({ kind: 'machine', home: path.join(tmp, 'home'), extensions: ['github.copilot-chat'], change: change() }).answer;
      assert.ok('machine' in a, JSON.stringify(a).slice(0, 300));
      const found = PROFILES.map((p, i) => [p.id, a.machine[i].found.join(', '), a.machine[i].installed ?? ''].join(': ')).filter((row) => !row.endsWith(': : '));
      assert.deepEqual(found, ['claude-code: claude 9.9.9 on PATH: 9.9.9', 'gemini-cli: ~/.gemini: ', 'copilot: github.copilot-chat extension: ']);
    } finally {
      process.env.PATH = pathBefore;
      nodeFs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('a chain for a file is the one resolveChain gives, and follows a written file', async () => {
    const s = service();
    const target = path.join(root, 'web', 'src', 'app.ts');
    const job = { agent: 'gemini-cli', target, launchDir: root, home, settings: {} };
    const asked = await s.send({ kind: 'chain', job, change: change() }).answer;
    assert.ok('chain' in asked);
    const expected = resolveChain({ profile: PROFILES.find((p) => p.id === 'gemini-cli')!, target, launchDir: root, home, env: process.env, settings: {} }, workspaceHost(new Map(), true));
    assert.deepEqual(JSON.parse(JSON.stringify(asked.chain)), JSON.parse(JSON.stringify(expected)));
    const file = path.join(root, 'web', 'GEMINI.md');
    const original = nodeFs.readFileSync(file, 'utf8');
    try {
      nodeFs.writeFileSync(file, '# Web, rewritten\n');
      const again = await s.send({ kind: 'chain', job, change: change([file]) }).answer;
      assert.ok('chain' in again && again.chain.sources.some((s) => s.path === file && s.chars === '# Web, rewritten\n'.length));
    } finally {
      nodeFs.writeFileSync(file, original);
    }
  });

  it('each answer gives the real path of every path with problems, through a link, and after the link changes', async () => {
    const s = service();
    const link = path.join(root, 'linked', 'CLAUDE.md');
    nodeFs.mkdirSync(path.dirname(link), { recursive: true });
    write('linked/other.md', '# Other\n\n<!-- instruction-lens-disable-file import-in-code -->\n@also-missing.md\n');
    try {
      nodeFs.symlinkSync('../api/CLAUDE.md', link);
      const disk = new NodeFileSystem();
      const realsRight = (a: CheckAnswer, paths: readonly string[]) => {
        assert.ok('reals' in a, JSON.stringify(a).slice(0, 300));
        assert.deepEqual(new Map(a.reals.map(([p, real]) => [p, real])), new Map(paths.map((p) => [p, disk.realPath(p)])));
        // And what each real file's comments turn off, so the extension need not read it.
        for (const [, real, suppressions] of a.reals) assert.deepEqual(suppressions, suppressionsIn(disk, real));
        assert.ok(paths.includes(link), 'a problem read through the link');
      };
      const pass = await s.send({ kind: 'check', jobs: [{ root, ...folder() }], change: change() }).answer;
      realsRight(pass, [...new Set(diagnosticsOf(pass).map((d) => d.path))]);
      assert.equal(new Map('reals' in pass ? pass.reals.map(([p, real]) => [p, real]) : []).get(link), path.join(root, 'api', 'CLAUDE.md'));
      const job = { agent: 'claude-code', target: path.join(root, 'linked', 'x.ts'), launchDir: root, home, settings: {} };
      const chain = await s.send({ kind: 'chain', job, change: change() }).answer;
      realsRight(chain, 'chain' in chain ? [...new Set(chain.chain.diagnostics.map((d) => d.path))] : []);
      // The link now leads elsewhere: a change of anything, as the watcher reports one.
      nodeFs.rmSync(link);
      nodeFs.symlinkSync('other.md', link);
      const look = await s.send({ kind: 'look', jobs: [{ file: link, ...folder() }], change: change() }).answer;
      realsRight(look, [...new Set(diagnosticsOf(look).map((d) => d.path))]);
      assert.ok('reals' in look && look.reals.some(([, , suppressions]) => suppressions), 'the link\'s new target has a suppression comment');
      assert.equal(new Map('reals' in look ? look.reals.map(([p, real]) => [p, real]) : []).get(link), path.join(root, 'linked', 'other.md'));
    } finally {
      nodeFs.rmSync(path.join(root, 'linked'), { recursive: true, force: true });
    }
  });

  it('Copilot\'s chain on the worker finds the nested AGENTS.md files through git\'s listing of that name only, as the whole listing would', async () => {
    const s = service();
    const job = { agent: 'copilot', agents: ['copilot'], target: path.join(root, 'web', 'src', 'app.ts'), launchDir: root, home, settings: {} };
    nodeFs.writeFileSync(path.join(root, '.git', 'info', 'exclude'), 'build/\n');
    write('extra/AGENTS.md', 'Untracked.\n');
    write('build/AGENTS.md', 'Ignored.\n');
    write('other/agents.md', 'Another case.\n');
    try {
      const asked = await s.send({ kind: 'chain', job, change: change() }).answer;
      assert.ok('chain' in asked, JSON.stringify(asked).slice(0, 300));
      const host = workspaceHost(new Map(), true);
      // The same index without the narrow listing: the whole work tree listed, then filtered.
      const whole = { root: (d: string) => host.git.root(d), trackedFiles: (r: string) => host.git.trackedFiles(r), workTreeFiles: (r: string) => host.git.workTreeFiles!(r), committedText: () => undefined };
      const expected = resolveChain({ profile: PROFILES.find((p) => p.id === 'copilot')!, target: job.target, launchDir: root, home, env: process.env }, { fs: host.fs, git: whole });
      const paths = (c: { sources: { path: string }[] }) => c.sources.map((x) => x.path);
      assert.deepEqual(paths(asked.chain), paths(expected));
      assert.ok(paths(asked.chain).includes(path.join(root, 'extra', 'AGENTS.md')), 'an untracked AGENTS.md is listed');
      assert.ok(!paths(asked.chain).includes(path.join(root, 'build', 'AGENTS.md')), 'an ignored one is not');
      assert.ok(!paths(asked.chain).includes(path.join(root, 'other', 'agents.md')), 'nor another case of the name');
    } finally {
      for (const dir of ['extra', 'build', 'other']) nodeFs.rmSync(path.join(root, dir), { recursive: true, force: true });
      nodeFs.writeFileSync(path.join(root, '.git', 'info', 'exclude'), '');
    }
  });

  it('a cancelled pass answers that it was cancelled, and a look sent meanwhile is answered first', async () => {
    const s = service();
    const pass = s.send({ kind: 'check', jobs: [{ root, ...folder() }, { root, ...folder() }], change: change() });
    const look = s.send({ kind: 'look', jobs: [{ file: path.join(root, 'api', 'CLAUDE.md'), ...folder() }], change: change([]) });
    s.cancel(pass.id);
    const order: string[] = [];
    await Promise.all([pass.answer.then(() => order.push('pass')), look.answer.then(() => order.push('look'))]);
    assert.deepEqual(order, ['look', 'pass']);
    assert.deepEqual(await pass.answer, { id: pass.id, cancelled: true });
  });
});

describe('quick looks and passes carried over random edits', () => {
  // What a look keeps across the changes carried over edits (CAR's budget per nested file, the
  // hosted session's guidance read from the commit, every cache's answers) must give what a new
  // service gives: small budgets, so that an edit moves files past them and back.
  const FILES: Record<string, string> = {
    'AGENTS.md': 'Root rules.\n@docs/a.md\n',
    'docs/a.md': 'Imported.\n',
    'p1/AGENTS.md': 'One.\n',
    'p1/CLAUDE.md': `${'c'.repeat(100)}\n`,
    'p2/AGENTS.md': 'Two.\n@../docs/a.md\n',
    'p2/q/CLAUDE.md': `${'q'.repeat(60)}\n`,
    'p3/AGENTS.md': 'Three.\n',
    '.claude/skills/s/SKILL.md': '---\nname: s\ndescription: A skill.\n---\nBody.\n',
  };
  // Not committed: the session lists them as not read, CAR warns of the untracked one.
  const UNTRACKED: Record<string, string> = { 'CLAUDE.md': 'Claude root.\n', 'p3/CLAUDE.md': 'Untracked.\n', '.agents/skills/w/SKILL.md': '---\nname: w\ndescription: Work only.\n---\n' };
  const TEXTS = ['', '  \n', 'Short.\n', `${'x'.repeat(150)}\n`, `${'y'.repeat(90)}\n`, '@docs/a.md\n', '@gone.md\n', '```\n@in-fence.md\n```\n', 'docs/a.md\n', '---\nname: s\ndescription: Renamed.\n---\n', '---\nname: w\n---\n'];
  const settings = { car: { maxFiles: 2, maxFileBytes: 120, maxTotalBytes: 200 } };
  // Files a step may create (a new skill folder, an agent's marker, a skill only in the work
  // tree, a nested file past CAR's budget): the watcher sends a creation or a deletion as a change
  // to the tree's shape, not as a written file.
  const CREATED: Record<string, string> = {
    '.claude/skills/n/SKILL.md': '---\nname: n\ndescription: New.\n---\n',
    'p1/GEMINI.md': 'Gemini.\n@../docs/a.md\n',
    '.agents/skills/v/SKILL.md': '---\nname: v\ndescription: Work only.\n---\n',
    'p3/q/AGENTS.md': `${'z'.repeat(80)}\n`,
  };
  let repo: string;
  const at = (rel: string) => path.join(repo, rel);
  const reset = () => {
    for (const rel of Object.keys(CREATED)) nodeFs.rmSync(at(rel.includes('/skills/') ? path.dirname(rel) : rel), { recursive: true, force: true });
    for (const [rel, text] of Object.entries({ ...FILES, ...UNTRACKED })) {
      nodeFs.mkdirSync(path.dirname(at(rel)), { recursive: true });
      nodeFs.writeFileSync(at(rel), text);
    }
  };

  before(() => {
    repo = path.join(nodeFs.realpathSync(nodeFs.mkdtempSync(path.join(os.tmpdir(), 'il-look-edits-'))), 'repo');
    nodeFs.mkdirSync(repo);
    for (const [rel, text] of Object.entries(FILES)) {
      nodeFs.mkdirSync(path.dirname(at(rel)), { recursive: true });
      nodeFs.writeFileSync(at(rel), text);
    }
    const run = (...args: string[]) => execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd: repo, stdio: 'ignore' });
    run('init', '-q', '-b', 'main');
    run('add', '-A');
    run('commit', '-q', '-m', 'start');
    reset();
  });

  after(() => nodeFs.rmSync(path.dirname(repo), { recursive: true, force: true }));

  it('every agent\'s look and pass, carried over each write, creation and deletion, give what a new service gives', async () => {
    const files = Object.keys({ ...FILES, ...UNTRACKED }).filter((f) => f !== 'docs/a.md').map(at);
    const all = (): FolderSettings => ({ folder: repo, agents: PROFILES.map((p) => p.id), launch: 'workspaceFolder', home, settings });
    const look = (file: string) => ({ kind: 'look' as const, jobs: [{ file, ...all() }] });
    const pass = { kind: 'check' as const, jobs: [{ root: repo, ...all() }] };
    // A step writes a file, creates one or deletes one, then looks at it and at another file.
    const step = fc.oneof(
      fc.record({ write: fc.nat(), text: fc.constantFrom(...TEXTS), other: fc.nat() }),
      fc.record({ create: fc.constantFrom(...Object.keys(CREATED)), other: fc.nat() }),
      fc.record({ remove: fc.nat(), other: fc.nat() }),
    );
    const edits = fc.array(step, { minLength: 1, maxLength: 4 });
    await fc.assert(
      fc.asyncProperty(edits, async (series) => {
        reset();
        const s = service();
        diagnosticsOf(await s.send({ ...pass, change: change() }).answer);
        // A first chain: the other agents' chains of its file are resolved meanwhile, as the looks go on.
        const chain = await s.send({ kind: 'chain', job: { agent: 'claude-code', agents: all().agents, target: at('p2/q/CLAUDE.md'), launchDir: repo, home, settings: {} }, change: change([]) }).answer;
        assert.ok('chain' in chain);
        try {
          for (const edit of series) {
            let file: string;
            let done: string;
            let shape: Change;
            if ('write' in edit) {
              file = files[edit.write % files.length];
              nodeFs.writeFileSync(file, edit.text);
              [done, shape] = [`writing ${JSON.stringify(edit.text)}`, change([file])];
            } else if ('create' in edit) {
              file = at(edit.create);
              nodeFs.mkdirSync(path.dirname(file), { recursive: true });
              nodeFs.writeFileSync(file, CREATED[edit.create]);
              [done, shape] = ['creating it', change()];
            } else {
              file = files[edit.remove % files.length];
              nodeFs.rmSync(file, { force: true });
              [done, shape] = ['deleting it', change()];
            }
            const looked = diagnosticsOf(await s.send({ ...look(file), change: shape }).answer);
            assert.deepEqual(keys(looked), keys(diagnosticsOf(await service().send({ ...look(file), change: change() }).answer)), `the look at ${file} after ${done}`);
            // Another file, whose problems an edit may move (CAR's budget), and the whole pass.
            const next = files[edit.other % files.length];
            const elsewhere = diagnosticsOf(await s.send({ ...look(next), change: change([]) }).answer);
            assert.deepEqual(keys(elsewhere), keys(diagnosticsOf(await service().send({ ...look(next), change: change() }).answer)), `the look at ${next}`);
            const carried = diagnosticsOf(await s.send({ ...pass, change: change([]) }).answer);
            assert.deepEqual(keys(carried), keys(diagnosticsOf(await service().send({ ...pass, change: change() }).answer)), 'the pass');
          }
        } finally {
          reset();
        }
      }),
      { numRuns: 12, seed: 20261203 },
    );
  });
});

describe('the worker thread (dist/checkWorker.js, as the extension starts it)', () => {
  /** A global storage folder holding the core's code cache, as a worker thread writes it (src/codeCache.ts). */
  function storageWithCache(): string {
    const storage = nodeFs.mkdtempSync(path.join(os.tmpdir(), 'il-storage-'));
    // A copy of the core's bundle, compiled here (the same bundle as the worker's would be taken from this thread's compilation cache).
    const copy = path.join(nodeFs.mkdtempSync(path.join(os.tmpdir(), 'il-dist-')), 'core.js');
    nodeFs.copyFileSync(path.resolve('dist', 'core.js'), copy);
    const loaded = loadBundle(copy, storage);
    assert.ok(loaded);
    writeCodeCache(loaded);
    assert.equal(nodeFs.readdirSync(storage).length, 1);
    return storage;
  }

  for (const [storage, what] of [
    [() => undefined, 'without a storage folder'],
    [() => nodeFs.mkdtempSync(path.join(os.tmpdir(), 'il-storage-')), 'without a code cache'],
    [storageWithCache, 'with a code cache'],
  ] as const)
    it(`answers a pass as the service does, ${what}`, async () => {
      const bundle = path.resolve('dist', 'checkWorker.js');
      assert.ok(nodeFs.existsSync(bundle), 'dist/checkWorker.js is built with the extension');
      const worker = new Worker(bundle, { workerData: { caseProbeDir: root, codeCacheDir: storage() } });
      await passAsTheServiceDoes(worker);
    });

  it(
    'runs the passes at a lower priority than the extension host\'s thread, and the chains at the same (on Linux)',
    { skip: process.platform !== 'linux' && 'a thread has a priority of its own on Linux only' },
    async () => {
      const bundle = path.resolve('dist', 'checkWorker.js');
      const threads = () => new Set(nodeFs.readdirSync('/proc/self/task'));
      const nice = (tid: string) => {
        const stat = nodeFs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      };
      const host = nice(String(process.pid));
      // Each thread as the extension starts it (src/vscode/checkThread.ts), after it answered a pass.
      const started = async (writesCodeCache: boolean) => {
        const before = threads();
        const worker = new Worker(bundle, { workerData: { caseProbeDir: root, writesCodeCache } });
        await new Promise<CheckAnswer>((resolve, reject) => {
          worker.once('message', resolve);
          worker.once('error', reject);
          worker.postMessage({ kind: 'check', id: 1, jobs: [{ root, ...folder() }], change: change() } satisfies CheckMessage);
        });
        return { worker, niceOfNew: [...threads()].filter((t) => !before.has(t)).map(nice) };
      };
      const passes = await started(false);
      const chains = await started(true);
      try {
        assert.ok(passes.niceOfNew.includes(Math.max(10, host)), `the passes' thread's priority: ${passes.niceOfNew.join(', ')} (the host's ${host})`);
        assert.deepEqual(new Set(chains.niceOfNew), new Set([host]), 'the chains\' thread keeps the host\'s priority');
        assert.equal(nice(String(process.pid)), host, 'the host\'s own thread keeps its priority');
      } finally {
        await passes.worker.terminate();
        await chains.worker.terminate();
      }
    },
  );

  async function passAsTheServiceDoes(worker: Worker) {
    try {
      const answer = await new Promise<CheckAnswer>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
        worker.postMessage({ kind: 'check', id: 7, jobs: [{ root, ...folder() }], change: change() } satisfies CheckMessage);
      });
      const expected = check(workspaceHost(new Map(), true), root, PROFILES.filter((p) => AGENTS.includes(p.id)), { launchDir: root, home, env: process.env, settings: {}, merge: false });
      assert.equal(answer.id, 7);
      assert.deepEqual(keys(diagnosticsOf(answer)), keys(expected.diagnostics));
    } finally {
      await worker.terminate();
    }
  }
});

describe('the work tree as git lists it', () => {
  it('tracked and untracked-not-ignored files, relative to the folder checked, the same whether git was asked ahead or not', async () => {
    const tmp = nodeFs.realpathSync(nodeFs.mkdtempSync(path.join(os.tmpdir(), 'il-work-tree-')));
    const at = (rel: string, text = 'x\n') => {
      nodeFs.mkdirSync(path.dirname(path.join(tmp, rel)), { recursive: true });
      nodeFs.writeFileSync(path.join(tmp, rel), text);
    };
    try {
      at('CLAUDE.md');
      at('pkg/AGENTS.md');
      at('.gitignore', 'ignored/\n');
      execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: tmp, stdio: 'ignore' });
      execFileSync('git', ['add', '-A'], { cwd: tmp, stdio: 'ignore' });
      at('pkg/new/CLAUDE.md');
      at('ignored/CLAUDE.md');
      const expected = ['.gitignore', 'CLAUDE.md', 'pkg/AGENTS.md', 'pkg/new/CLAUDE.md'];
      const sorted = (files: readonly string[]) => [...files].sort();
      assert.deepEqual(sorted(listFiles(workspaceHost(new Map(), true), tmp).files), expected);
      assert.deepEqual(sorted(listFiles(workspaceHost(new Map(), true), path.join(tmp, 'pkg')).files), ['AGENTS.md', 'new/CLAUDE.md']);
      const ahead = refreshHost(workspaceHost(new Map(), true));
      await (ahead.git as SnapshotGitIndex).listAhead(tmp);
      assert.deepEqual(sorted(listFiles(ahead, tmp).files), expected);
      assert.deepEqual(sorted(ahead.git.workTreeFiles!(tmp)!), expected.map((f) => path.join(tmp, f)));
      // One folder's listing alone, asked ahead, and cut from the whole one when that is there.
      const narrow = refreshHost(workspaceHost(new Map(), true));
      await (narrow.git as SnapshotGitIndex).listUnderAhead(tmp, 'pkg');
      assert.deepEqual(sorted(listFiles(narrow, path.join(tmp, 'pkg')).files), ['AGENTS.md', 'new/CLAUDE.md']);
      assert.deepEqual(sorted(listFiles(ahead, path.join(tmp, 'pkg')).files), ['AGENTS.md', 'new/CLAUDE.md']);
    } finally {
      nodeFs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('a listing of one name asked ahead and still under way when the next change carries the index lands in both: git is not asked again', async () => {
    const tmp = nodeFs.realpathSync(nodeFs.mkdtempSync(path.join(os.tmpdir(), 'il-named-ahead-')));
    try {
      for (const rel of ['AGENTS.md', 'pkg/AGENTS.md', 'pkg/CLAUDE.md']) {
        nodeFs.mkdirSync(path.dirname(path.join(tmp, rel)), { recursive: true });
        nodeFs.writeFileSync(path.join(tmp, rel), 'x\n');
      }
      execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: tmp, stdio: 'ignore' });
      execFileSync('git', ['add', 'AGENTS.md'], { cwd: tmp, stdio: 'ignore' });
      // Asked of git again, without a listing ahead: counted.
      let asked = 0;
      class Counting extends CliGitIndex {
        override workTreeFilesNamed(root: string, name: string) {
          asked++;
          return super.workTreeFilesNamed(root, name);
        }
      }
      const first = refreshHost({ fs: new NodeFileSystem(), git: new Counting(new NodeFileSystem()) });
      const git = first.git as SnapshotGitIndex;
      const listing = git.listNamedAhead(tmp, 'AGENTS.md');
      const next = carryHost(first, [path.join(tmp, 'pkg', 'CLAUDE.md')])!;
      await listing;
      const expected = ['AGENTS.md', 'pkg/AGENTS.md'].map((f) => path.join(tmp, f));
      assert.deepEqual(next.git.workTreeFilesNamed!(tmp, 'AGENTS.md')?.sort(), expected);
      assert.deepEqual(first.git.workTreeFilesNamed!(tmp, 'AGENTS.md')?.sort(), expected);
      assert.equal(asked, 0, 'both answered from the one listing');
    } finally {
      nodeFs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('once a pass has listed the work tree, its tracked files (CAR\'s) come from that listing: what git lists as tracked, without running git again', async () => {
    const tmp = nodeFs.realpathSync(nodeFs.mkdtempSync(path.join(os.tmpdir(), 'il-tracked-')));
    const at = (rel: string) => {
      nodeFs.mkdirSync(path.dirname(path.join(tmp, rel)), { recursive: true });
      nodeFs.writeFileSync(path.join(tmp, rel), 'x\n');
    };
    try {
      for (const rel of ['z.md', 'pkg/AGENTS.md', 'a b/CLAUDE.md', '? odd.md', 'H.md']) at(rel);
      execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: tmp, stdio: 'ignore' });
      execFileSync('git', ['add', '-A'], { cwd: tmp, stdio: 'ignore' });
      // Untracked files that sort before and among the tracked ones, one named like a tag.
      for (const rel of ['a-new.md', 'pkg/new/CLAUDE.md', '? untracked.md']) at(rel);
      const cli = new CliGitIndex(new NodeFileSystem());
      const tracked = cli.trackedFiles(tmp)!;
      assert.deepEqual(
        [...tracked].sort(),
        ['? odd.md', 'H.md', 'a b/CLAUDE.md', 'pkg/AGENTS.md', 'z.md'].map((f) => path.join(tmp, f)),
      );
      const asked: string[] = [];
      const counting: GitIndex = {
        root: (d) => cli.root(d),
        trackedFiles: (r, p) => (asked.push('tracked'), cli.trackedFiles(r, p)),
        workTreeListing: (r) => cli.workTreeListing(r),
        committedText: () => undefined,
      };
      // What git lists untagged, in its order.
      const plain = () => execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: tmp, encoding: 'utf8' }).split('\0').filter(Boolean);
      // Every tracked path tagged `H `, then one skip-worktree path among them (`S `).
      for (const skip of [false, true]) {
        if (skip) execFileSync('git', ['update-index', '--skip-worktree', 'H.md'], { cwd: tmp, stdio: 'ignore' });
        asked.length = 0;
        const host = refreshHost({ fs: new NodeFileSystem(), git: counting });
        assert.deepEqual(host.git.trackedFiles(tmp, ['*.md']), cli.trackedFiles(tmp, ['*.md']), 'with pathspecs: git');
        assert.deepEqual(listFiles(host, tmp).files, plain());
        assert.deepEqual(host.git.trackedFiles(tmp), tracked);
        assert.deepEqual(asked, ['tracked'], 'git asked only for the pathspecs');
        // The same from the listing asked ahead (the extension's worker).
        const ahead = refreshHost({ fs: new NodeFileSystem(), git: new CliGitIndex(new NodeFileSystem()) });
        await (ahead.git as SnapshotGitIndex).listAhead(tmp);
        assert.deepEqual(ahead.git.trackedFiles(tmp), tracked);
        assert.deepEqual(ahead.git.workTreeRelative!(tmp), plain());
      }
    } finally {
      nodeFs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
