import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CachedFileSystem } from '../../src/core/cachedFs';
import { CONFIG_FILE, readConfig, suppress, suppressionsIn, type Suppressions } from '../../src/core/config';
import { RULES } from '../../src/core/diagnostics';
import { mergeDiagnostics } from '../../src/core/merge';
import type { Diagnostic, Severity } from '../../src/core/model';
import { isInside } from '../../src/core/paths';
import { shownProblems, type ShowOptions } from '../../src/core/shownProblems';
import { MemoryFileSystem } from './doubles/memoryFs';

// The extension publishes problems file by file as they change (`ShownProblems`). What the
// editor shows must be exactly what the whole pipeline over every problem gives: merged across
// agents and across a link and its target, less what the settings, the folder's configuration
// and the file's comments turn off. Over random sequences of check results, quick looks, passes
// over some folders, active chains, disk changes, settings and workspace folders (one of them
// inside another), with publishes cut short anywhere.

/** The workspace folders there may be: `/w/sub` is one inside `/w` (a multi-root workspace may hold both). */
const FOLDERS = ['/w', '/v', '/w/sub'];
const PATHS = ['/w/CLAUDE.md', '/w/AGENTS.md', '/w/sub/CLAUDE.md', '/w/link.md', '/w/sub/link.md', '/v/AGENTS.md', '/w/subx/CLAUDE.md'];
const TEXTS = [
  'plain\n',
  '<!-- instruction-lens-disable-file -->\n',
  '<!-- instruction-lens-disable-file import-missing -->\n',
  'a\n<!-- instruction-lens-disable-next-line -->\nb\n',
  '<!-- instruction-lens-disable-next-line import-cycle, glob-no-match -->\nb\nc\n',
];
const CODES = ['import-missing', 'import-cycle', 'glob-no-match', 'not-loaded'];
const LINK_TARGETS = [undefined, '/w/CLAUDE.md', '/w/sub/CLAUDE.md', '/v/AGENTS.md'];

const diagnostic: fc.Arbitrary<Diagnostic> = fc
  .record({
    path: fc.constantFrom(...PATHS),
    line: fc.integer({ min: 0, max: 3 }),
    column: fc.integer({ min: 0, max: 1 }),
    severity: fc.constantFrom<Severity>('error', 'warning', 'hint'),
    code: fc.constantFrom(...CODES),
    message: fc.constantFrom('Missing /w/sub/x.md', 'Claude Code skips /v/AGENTS.md', 'Cycle in /home/u/x.md', 'Codex reads /w'),
    agents: fc.constantFrom(['claude-code'], ['codex'], ['copilot-cli']),
    data: fc.option(fc.constantFrom<Record<string, string>>({ target: '/w/x.md' }, { suggestion: 'b.md' }, { target: '/w/y.md', suggestion: 'y.md' }), { nil: undefined }),
  })
  .map(({ data, ...d }): Diagnostic => ({ ...d, agents: [...d.agents], endLine: d.line, endColumn: d.column + 3, ...(data ? { data } : {}) }));
const diagnostics = fc.array(diagnostic, { maxLength: 12 });

/** A disk: each file's text, where each link leads, each folder's configuration. */
const disk = fc.record({
  texts: fc.array(fc.constantFrom(...TEXTS), { minLength: PATHS.length, maxLength: PATHS.length }),
  links: fc.tuple(fc.constantFrom(...LINK_TARGETS), fc.constantFrom(...LINK_TARGETS)),
  configOff: fc.tuple(fc.subarray(CODES), fc.subarray(CODES), fc.subarray(CODES)),
});

const op = fc.oneof(
  fc.record({ kind: fc.constant('workspace' as const), found: diagnostics }),
  fc.record({ kind: fc.constant('look' as const), touched: fc.subarray(PATHS, { minLength: 1 }), found: diagnostics }),
  // A pass over some folders: workspace folders, folders in them, the disk's root.
  fc.record({ kind: fc.constant('folders' as const), roots: fc.subarray(['/w/sub', '/v', '/w', '/w/subx', '/'], { minLength: 1 }), found: diagnostics }),
  fc.record({ kind: fc.constant('chain' as const), list: diagnostics }),
  fc.record({ kind: fc.constant('disk' as const), disk }),
  fc.record({ kind: fc.constant('settings' as const), disabled: fc.subarray(CODES), home: fc.constantFrom('/home/u', '/w') }),
  fc.record({ kind: fc.constant('off' as const) }),
  // Workspace folders added or removed.
  fc.record({ kind: fc.constant('workspaceFolders' as const), folders: fc.subarray(FOLDERS) }),
);

type Disk = { texts: string[]; links: [string | undefined, string | undefined]; configOff: [string[], string[], string[]] };

function makeFs(d: Disk): CachedFileSystem {
  const mem = new MemoryFileSystem();
  PATHS.forEach((p, i) => {
    const link = p === '/w/link.md' ? d.links[0] : p === '/w/sub/link.md' ? d.links[1] : undefined;
    if (link) mem.symlink(p, link);
    else mem.write(p, d.texts[i]);
  });
  FOLDERS.forEach((f, i) => mem.write(`${f}/${CONFIG_FILE}`, JSON.stringify({ disable: d.configOff[i] })));
  return CachedFileSystem.of(mem);
}

describe('ShownProblems: publishing what changed shows what publishing everything shows', () => {
  it('random sequences of check results, chains, disks and settings, publishes cut short', () => {
    fc.assert(
      fc.property(disk, fc.array(fc.tuple(op, fc.constantFrom('all', 'slice', 'none')), { maxLength: 25 }), (first, steps) => {
        let state = { disk: first as Disk, fs: makeFs(first as Disk), disabled: [] as string[], home: '/home/u', folders: FOLDERS.slice(0, 2) };
        let workspace: Diagnostic[] = [];
        let chain: Diagnostic[] = [];
        const shown = shownProblems(state.fs);
        /** What the editor shows, as the extension sets it from `take()`. */
        let editor = new Map<string, Diagnostic[]>();
        // The innermost workspace folder holding the file, as VS Code's `getWorkspaceFolder` answers.
        const root = (file: string) => state.folders.filter((f) => isInside(file, f, state.fs)).sort((a, b) => b.length - a.length)[0];
        const options = (): ShowOptions => ({
          fs: state.fs,
          root,
          home: state.home,
          disabled: state.disabled,
          key: JSON.stringify([state.disabled, state.home, state.folders]),
        });
        const apply = (made: Map<string, Diagnostic[]> | undefined) => {
          for (const [file, list] of made ?? []) {
            if (list.length) editor.set(file, list);
            else editor.delete(file);
          }
        };
        // The whole pipeline, as the extension ran it on every publish.
        const everything = () => {
          const o = options();
          const all = mergeDiagnostics([...workspace, ...chain], { realPath: (p) => o.fs.realPath(p), root, home: o.home, sep: '/' }).filter((d) => !o.disabled.includes(d.code));
          const byFile = new Map<string, Diagnostic[]>();
          const disabledIn = (file: string) => (root(file) ? readConfig(o.fs, root(file)!, { agents: [], codes: Object.keys(RULES) }).disable : []);
          for (const d of suppress(all, o.fs).filter((d) => !disabledIn(d.path).includes(d.code))) byFile.set(d.path, [...(byFile.get(d.path) ?? []), d]);
          return byFile;
        };
        for (const [step, publish] of steps) {
          switch (step.kind) {
            case 'workspace':
              workspace = step.found;
              shown.replace('all', step.found);
              break;
            case 'look': {
              const touched = new Set(step.touched);
              workspace = [...workspace.filter((d) => !touched.has(d.path) || d.code === 'glob-no-match'), ...step.found];
              shown.replace({ paths: step.touched }, step.found, (d) => d.code === 'glob-no-match');
              break;
            }
            case 'folders': {
              const inScope = (p: string) => step.roots.some((r) => isInside(p, r, state.fs));
              workspace = [...workspace.filter((d) => !inScope(d.path)), ...step.found];
              shown.replace({ folders: step.roots }, step.found);
              break;
            }
            case 'chain':
              chain = step.list;
              shown.setChain(step.list);
              break;
            case 'disk':
              state = { ...state, disk: step.disk as Disk, fs: makeFs(step.disk as Disk) };
              break;
            case 'settings':
              state = { ...state, disabled: step.disabled, home: step.home };
              break;
            case 'off':
              shown.forget();
              editor = new Map();
              break;
            case 'workspaceFolders':
              state = { ...state, folders: step.folders };
              break;
          }
          if (publish === 'slice') {
            // One path's or file's worth of work, then the next change comes.
            apply(shown.update(options(), -Infinity));
          } else if (publish === 'all') {
            apply(shown.update(options()));
            assert.deepStrictEqual(editor, everything());
          }
        }
        let made;
        while (!(made = shown.update(options(), -Infinity)));
        apply(made);
        assert.deepStrictEqual(editor, everything());
      }),
      { numRuns: 500, seed: 20261202 },
    );
  });

  it('a publish cut short shows nothing until it is done, and a new check result makes only its own files again', () => {
    const fs = makeFs({ texts: PATHS.map(() => 'plain\n'), links: [undefined, undefined], configOff: [[], [], []] });
    const problem = (path: string, line: number): Diagnostic => ({ path, line, column: 0, endLine: line, endColumn: 1, severity: 'warning', code: 'import-missing', message: `m${line}`, agents: ['claude-code'] });
    const shown = shownProblems(fs);
    const options: ShowOptions = { fs, root: () => '/w', disabled: [], key: '' };
    shown.replace('all', PATHS.map((p, i) => problem(p, i)));
    assert.equal(shown.update(options, -Infinity), undefined);
    let made;
    while (!(made = shown.update(options, -Infinity)));
    assert.deepStrictEqual([...made.keys()].sort(), [...PATHS].sort());
    // A pass over /v: only its file is made again.
    shown.replace({ folders: ['/v'] }, [problem('/v/AGENTS.md', 9)]);
    assert.deepStrictEqual([...shown.update(options)!.keys()], ['/v/AGENTS.md']);
    // The same answer again: nothing changes.
    shown.replace({ folders: ['/v'] }, [problem('/v/AGENTS.md', 9)]);
    assert.deepStrictEqual([...shown.update(options)!.keys()], []);
  });

  it("shows what the worker's answer says each file's comments turn off without reading the file again, as reading it shows", () => {
    const d: Disk = { texts: [TEXTS[2], TEXTS[3], 'plain\n', ...PATHS.slice(3).map(() => 'plain\n')], links: ['/w/CLAUDE.md', undefined], configOff: [[], [], []] };
    const problem = (path: string, line: number, code: string): Diagnostic => ({ path, line, column: 0, endLine: line, endColumn: 1, severity: 'warning', code, message: `m${line}`, agents: ['claude-code'] });
    const found = [problem('/w/CLAUDE.md', 0, 'import-missing'), problem('/w/CLAUDE.md', 1, 'import-cycle'), problem('/w/link.md', 2, 'import-cycle'), ...[1, 2].map((line) => problem('/w/AGENTS.md', line, 'import-missing')), problem('/w/sub/CLAUDE.md', 0, 'not-loaded')];
    // The worker's answer: each path with problems, its real path and what that file's comments turn off.
    const worker = makeFs(d);
    const reals = [...new Set(found.map((p) => p.path))].map((p): [string, string, Suppressions] => [p, worker.realPath(p), suppressionsIn(worker, worker.realPath(p))]);
    const publish = (fs: CachedFileSystem) => {
      const shown = shownProblems(fs);
      shown.replace('all', found);
      return shown.update({ fs, root: () => '/w', disabled: [], key: '' });
    };
    const read: string[] = [];
    const inner = makeFs(d).inner;
    const host = new CachedFileSystem(new Proxy(inner, { get: (t, k) => (k === 'readFile' || k === 'readPrefix' ? (p: string, ...rest: unknown[]) => (read.push(p), (Reflect.get(t, k) as (...a: unknown[]) => unknown).apply(t, [p, ...rest])) : Reflect.get(t, k)) }));
    host.knowReals(reals);
    const shownFromAnswer = publish(host);
    assert.deepStrictEqual(read, ['/w/.instruction-lens.jsonc'], 'only the folder\'s configuration file is read');
    assert.deepStrictEqual(shownFromAnswer, publish(makeFs(d)));
    assert.deepStrictEqual(new Map([...shownFromAnswer!].map(([file, list]) => [file, list.map((p) => `${p.line}:${p.code}`)])), new Map([['/w/CLAUDE.md', ['1:import-cycle', '2:import-cycle']], ['/w/AGENTS.md', ['1:import-missing']], ['/w/sub/CLAUDE.md', ['0:not-loaded']]]));
  });

  describe('a pass over some folders replaces the problems under them only', () => {
    const problem = (path: string, line: number): Diagnostic => ({ path, line, column: 0, endLine: line, endColumn: 1, severity: 'warning', code: 'import-missing', message: `m${line}`, agents: ['claude-code'] });
    const lines = (made: Map<string, Diagnostic[]> | undefined) => new Map([...made!].map(([file, list]) => [file, list.map((d) => d.line)]));
    const start = (fs: CachedFileSystem, root: (file: string) => string | undefined, found: Diagnostic[]) => {
      const shown = shownProblems(fs);
      const options: ShowOptions = { fs, root, disabled: [], key: '' };
      shown.replace('all', found);
      shown.update(options);
      return { shown, options };
    };

    it('workspace folders one inside another: a pass over the inner one leaves the outer one and a sibling whose name starts alike', () => {
      const fs = makeFs({ texts: PATHS.map(() => 'plain\n'), links: [undefined, undefined], configOff: [[], [], []] });
      const root = (file: string) => ['/w/sub', '/w', '/v'].find((f) => isInside(file, f, fs));
      const { shown, options } = start(fs, root, [problem('/w/CLAUDE.md', 1), problem('/w/sub/CLAUDE.md', 2), problem('/w/subx/CLAUDE.md', 3)]);
      shown.replace({ folders: ['/w/sub'] }, [problem('/w/sub/CLAUDE.md', 4)]);
      assert.deepStrictEqual(lines(shown.update(options)), new Map([['/w/sub/CLAUDE.md', [4]]]));
      // The outer folder's pass takes the inner one's files with it; its own root given with a separator at its end.
      shown.replace({ folders: ['/w/', '/w/sub'] }, [problem('/w/subx/CLAUDE.md', 5)]);
      assert.deepStrictEqual(lines(shown.update(options)), new Map([['/w/CLAUDE.md', []], ['/w/sub/CLAUDE.md', []], ['/w/subx/CLAUDE.md', [5]]]));
    });

    it("a link in one folder to a file in another: its problems are replaced by its own folder's pass, and shown at the target with the target's own", () => {
      const fs = makeFs({ texts: PATHS.map(() => 'plain\n'), links: [undefined, '/v/AGENTS.md'], configOff: [[], [], []] });
      const root = (file: string) => ['/w', '/v'].find((f) => isInside(file, f, fs));
      const { shown, options } = start(fs, root, [problem('/w/sub/link.md', 1), problem('/v/AGENTS.md', 2)]);
      // The target's folder: the link's problem stays.
      shown.replace({ folders: ['/v'] }, [problem('/v/AGENTS.md', 3)]);
      assert.deepStrictEqual(lines(shown.update(options)), new Map([['/v/AGENTS.md', [1, 3]]]));
      // The link's folder: the target's own problem stays.
      shown.replace({ folders: ['/w/sub'] }, []);
      assert.deepStrictEqual(lines(shown.update(options)), new Map([['/v/AGENTS.md', [3]]]));
    });

    it('a folder removed from the workspace: the next whole answer clears its files, and a pass over another folder leaves them', () => {
      const fs = makeFs({ texts: PATHS.map(() => 'plain\n'), links: [undefined, undefined], configOff: [[], [], []] });
      let folders = ['/w', '/v'];
      const root = (file: string) => folders.find((f) => isInside(file, f, fs));
      const { shown } = start(fs, root, [problem('/w/CLAUDE.md', 1), problem('/v/AGENTS.md', 2)]);
      folders = ['/w'];
      const options: ShowOptions = { fs, root, disabled: [], key: 'w' };
      shown.replace({ folders: ['/w'] }, [problem('/w/CLAUDE.md', 1)]);
      assert.deepStrictEqual(lines(shown.update(options)), new Map());
      shown.replace('all', [problem('/w/CLAUDE.md', 1)]);
      assert.deepStrictEqual(lines(shown.update(options)), new Map([['/v/AGENTS.md', []]]));
    });

    it('on a disk that ignores case (Windows), by the names as the disk compares them', () => {
      const mem = new MemoryFileSystem({}, { platform: 'win32', caseInsensitive: true });
      const files = ['C:\\W\\Sub\\CLAUDE.md', 'c:\\w\\sub\\deep\\AGENTS.md', 'C:\\W\\Subx\\CLAUDE.md', 'D:\\W\\Sub\\CLAUDE.md'];
      for (const file of files) mem.write(file, 'plain\n');
      const fs = CachedFileSystem.of(mem);
      const { shown, options } = start(fs, () => undefined, files.map((file, i) => problem(file, i)));
      shown.replace({ folders: ['C:\\w\\SUB'] }, []);
      assert.deepStrictEqual([...shown.update(options)!.keys()].sort(), [files[0], files[1]].sort());
      shown.replace({ folders: ['c:\\'] }, []);
      assert.deepStrictEqual([...shown.update(options)!.keys()], [files[2]]);
    });
  });
});
