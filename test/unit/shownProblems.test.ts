import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CachedFileSystem } from '../../src/core/cachedFs';
import { CONFIG_FILE, readConfig, suppress } from '../../src/core/config';
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
// over some folders, active chains, disk changes and settings, with publishes cut short anywhere.

const FOLDERS = ['/w', '/v'];
const PATHS = ['/w/CLAUDE.md', '/w/AGENTS.md', '/w/sub/CLAUDE.md', '/w/link.md', '/w/sub/link.md', '/v/AGENTS.md'];
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
  configOff: fc.tuple(fc.subarray(CODES), fc.subarray(CODES)),
});

const op = fc.oneof(
  fc.record({ kind: fc.constant('workspace' as const), found: diagnostics }),
  fc.record({ kind: fc.constant('look' as const), touched: fc.subarray(PATHS, { minLength: 1 }), found: diagnostics }),
  fc.record({ kind: fc.constant('folders' as const), roots: fc.subarray(['/w/sub', '/v', '/w'], { minLength: 1 }), found: diagnostics }),
  fc.record({ kind: fc.constant('chain' as const), list: diagnostics }),
  fc.record({ kind: fc.constant('disk' as const), disk }),
  fc.record({ kind: fc.constant('settings' as const), disabled: fc.subarray(CODES), home: fc.constantFrom('/home/u', '/w') }),
  fc.record({ kind: fc.constant('off' as const) }),
);

type Disk = { texts: string[]; links: [string | undefined, string | undefined]; configOff: [string[], string[]] };

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
        let state = { disk: first as Disk, fs: makeFs(first as Disk), disabled: [] as string[], home: '/home/u' };
        let workspace: Diagnostic[] = [];
        let chain: Diagnostic[] = [];
        const shown = shownProblems();
        /** What the editor shows, as the extension sets it from `take()`. */
        let editor = new Map<string, Diagnostic[]>();
        const root = (file: string) => FOLDERS.find((f) => isInside(file, f, state.fs));
        const options = (): ShowOptions => ({
          fs: state.fs,
          root,
          home: state.home,
          disabled: state.disabled,
          key: JSON.stringify([state.disabled, state.home]),
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
              shown.replace(() => true, step.found);
              break;
            case 'look': {
              const touched = new Set(step.touched);
              workspace = [...workspace.filter((d) => !touched.has(d.path) || d.code === 'glob-no-match'), ...step.found];
              shown.replace((p) => touched.has(p), step.found, (d) => d.code === 'glob-no-match');
              break;
            }
            case 'folders': {
              const inScope = (p: string) => step.roots.some((r) => isInside(p, r, state.fs));
              workspace = [...workspace.filter((d) => !inScope(d.path)), ...step.found];
              shown.replace(inScope, step.found);
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
    const fs = makeFs({ texts: PATHS.map(() => 'plain\n'), links: [undefined, undefined], configOff: [[], []] });
    const problem = (path: string, line: number): Diagnostic => ({ path, line, column: 0, endLine: line, endColumn: 1, severity: 'warning', code: 'import-missing', message: `m${line}`, agents: ['claude-code'] });
    const shown = shownProblems();
    const options: ShowOptions = { fs, root: () => '/w', disabled: [], key: '' };
    shown.replace(() => true, PATHS.map((p, i) => problem(p, i)));
    assert.equal(shown.update(options, -Infinity), undefined);
    let made;
    while (!(made = shown.update(options, -Infinity)));
    assert.deepStrictEqual([...made.keys()].sort(), [...PATHS].sort());
    // A pass over /v: only its file is made again.
    shown.replace((p) => p.startsWith('/v/'), [problem('/v/AGENTS.md', 9)]);
    assert.deepStrictEqual([...shown.update(options)!.keys()], ['/v/AGENTS.md']);
    // The same answer again: nothing changes.
    shown.replace((p) => p.startsWith('/v/'), [problem('/v/AGENTS.md', 9)]);
    assert.deepStrictEqual([...shown.update(options)!.keys()], []);
  });
});
