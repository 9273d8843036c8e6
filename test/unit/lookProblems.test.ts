import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as nodeFs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { refreshHost, resolveChain } from '../../src/core/chain';
import { check } from '../../src/core/check';
import { CheckService, type CheckAnswer, type FolderSettings } from '../../src/core/checkService';
import type { Diagnostic } from '../../src/core/model';
import { findProfile, PROFILES } from '../../src/core/profiles';
import { workspaceHost } from '../../src/core/workspaceHost';
import { MemoryFileSystem } from './doubles/memoryFs';
import { MemoryGitIndex } from './doubles/memoryGit';
import { build, HOME, ROOT, treeSpec } from './fuzz/trees';

// An edit's quick look keeps only the edited file's problems, so a chain resolved for it may skip
// whole-workspace work whose problems are all in other files (`ResolveContext.problemsIn`):
// Copilot's reading of every nested AGENTS.md, each of which holds its own problems only. The file's problems must be the same either way,
// and the same as a check of the workspace shows for it.

const key = (d: Diagnostic) => [d.path, d.line, d.column, d.endLine, d.endColumn, d.code, d.severity, d.message, d.agents?.join(',')].join('\0');
const keys = (ds: readonly Diagnostic[]) => [...new Set(ds.map(key))].sort();

/** Copilot's settings that decide what it reads, each either way. */
const copilotSettings = fc.record({
  'chat.useNestedAgentsMdFiles': fc.boolean(),
  'chat.useAgentsMdFile': fc.boolean(),
  'chat.includeReferencedInstructions': fc.boolean(),
  readFileTool: fc.boolean(),
});

describe('a quick look: the problems in the edited file', () => {
  for (const profile of PROFILES) {
    it(`${profile.id}: random trees, each file's problems the same from the whole chain and from a chain for that file alone`, () => {
      fc.assert(
        fc.property(treeSpec, copilotSettings, (spec, settings) => {
          const t = build(spec, profile.mainFile ?? 'AGENTS.md');
          const files = t.targets.filter((p) => t.fs.stat(p)?.type === 'file');
          for (const file of files) {
            const target = path.posix.dirname(file);
            const req = { profile, target, launchDir: ROOT, home: HOME, env: {}, platform: 'linux' as const, settings };
            // A host each: the whole chain's memo would otherwise answer the other's.
            const whole = resolveChain(req, refreshHost({ fs: t.fs, git: t.git })).diagnostics.filter((d) => d.path === file);
            const alone = resolveChain({ ...req, problemsIn: file }, refreshHost({ fs: t.fs, git: t.git })).diagnostics.filter((d) => d.path === file);
            assert.deepStrictEqual(keys(alone), keys(whole), file);
          }
        }),
        { numRuns: 60, seed: 20261202 },
      );
    });
  }

  it('Copilot reads no nested AGENTS.md for a CLAUDE.md, and for an AGENTS.md that one alone', () => {
    const files: Record<string, string> = { [`${ROOT}/.git/HEAD`]: 'ref', [`${ROOT}/AGENTS.md`]: 'root\n', [`${ROOT}/sub/CLAUDE.md`]: '@gone.md\n' };
    for (let i = 0; i < 5; i++) files[`${ROOT}/p${i}/AGENTS.md`] = `rules ${i}\n`;
    const read: string[] = [];
    class Counting extends MemoryFileSystem {
      override readFile(p: string): Uint8Array {
        read.push(p);
        return super.readFile(p);
      }
    }
    const fs = new Counting(files);
    const copilot = findProfile('copilot')!;
    const nested = (p: string) => /\/p\d\/AGENTS\.md$/.test(p);
    const host = () => refreshHost({ fs, git: new MemoryGitIndex(fs, new Set(Object.keys(files)), new Map()) });
    resolveChain({ profile: copilot, target: `${ROOT}/sub`, launchDir: ROOT, home: HOME, env: {}, problemsIn: `${ROOT}/sub/CLAUDE.md` }, host());
    assert.deepEqual(read.filter(nested), []);
    resolveChain({ profile: copilot, target: `${ROOT}/p1`, launchDir: ROOT, home: HOME, env: {}, problemsIn: `${ROOT}/p1/AGENTS.md` }, host());
    assert.deepEqual(read.filter(nested), [`${ROOT}/p1/AGENTS.md`]);
    // The whole chain, as the chain view asks it, reads them all.
    resolveChain({ profile: copilot, target: `${ROOT}/p1`, launchDir: ROOT, home: HOME, env: {} }, host());
    assert.equal(read.filter(nested).length, 6);
  });
});

describe('a quick look on the extension\'s checking service gives what check gives for the file', () => {
  let root: string;
  let home: string;
  const AGENTS = PROFILES.map((p) => p.id);
  const files: Record<string, string | Uint8Array> = {
    'CLAUDE.md': '# Root\n@AGENTS.md\n',
    'AGENTS.md': 'Root rules.\n',
    '.github/copilot-instructions.md': 'See [style](docs/style.md).\n',
    '.github/instructions/js.instructions.md': '---\napplyTo: "**/*.js"\n---\nUse semicolons.\n',
    // Nested files of each kind, one of them unreadable as text (a problem every reader reports).
    'harness/sm/CLAUDE.md': '# SM\n@missing-sm.md\n',
    'harness/sm/AGENTS.md': 'SM rules.\n',
    'src/a/AGENTS.md': Uint8Array.from([0x61, 0x00, 0x62, 0x0a]),
    'src/b/GEMINI.md': '# B\n@gone.md\n',
    'src/b/x.js': '\n',
  };

  before(() => {
    const tmp = nodeFs.realpathSync(nodeFs.mkdtempSync(path.join(os.tmpdir(), 'il-look-')));
    [root, home] = [path.join(tmp, 'repo'), path.join(tmp, 'home')];
    nodeFs.mkdirSync(home);
    for (const [rel, text] of Object.entries(files)) {
      nodeFs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      nodeFs.writeFileSync(path.join(root, rel), text);
    }
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root });
    execFileSync('git', ['add', '-A'], { cwd: root });
  });

  after(() => nodeFs.rmSync(path.dirname(root), { recursive: true, force: true }));

  for (const rel of ['harness/sm/CLAUDE.md', 'harness/sm/AGENTS.md', 'src/a/AGENTS.md', 'src/b/GEMINI.md', 'CLAUDE.md', '.github/copilot-instructions.md']) {
    it(rel, async () => {
      const file = path.join(root, rel);
      const folder: FolderSettings = { folder: root, agents: AGENTS, launch: 'workspaceFolder', home, settings: {} };
      const answer = await new Promise<CheckAnswer>((resolve) => new CheckService(resolve).handle({ id: 1, kind: 'look', jobs: [{ file, ...folder }], change: { unsaved: [], unsavedKey: '', trusted: true } }));
      assert.ok('diagnostics' in answer, JSON.stringify(answer).slice(0, 300));
      // Its thread's time on a core and waiting for one, for the extension's log.
      if (process.platform === 'linux') assert.ok(answer.cpu?.length === 2 && answer.cpu.every((ms) => ms >= 0), String(answer.cpu));
      const whole = check(workspaceHost(new Map(), true), root, PROFILES, { launchDir: root, home, env: process.env, settings: {}, merge: false });
      // Only the pass tests rules' globs against every file: the look leaves those as they were.
      const expected = whole.diagnostics.filter((d) => d.path === file && d.code !== 'glob-no-match');
      assert.deepEqual(keys(answer.diagnostics), keys(expected));
      if (/sm\/CLAUDE|src\//.test(rel)) assert.ok(expected.length, 'a file with problems');
    });
  }
});
