import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Chain } from '../../../src/core/model';
import { findCodeRegions, findImports } from '../../../src/core/profiles/geminiCli';
import { chainOf, statuses, tree } from '../fixture';

// Gemini CLI 0.61.0: the bundle's memoryDiscovery / memoryImportProcessor, and the real CLI on
// loopback probes (agents.md "Observed"; the expected texts below are the captured bytes).

const part = (c: Chain, where: string, list: 'start' | 'onRead' = 'start') => {
  const p = c[list].filter((x) => x.where === where);
  if (p.length !== 1) throw new Error(`expected one ${where} part, got ${p.length}`);
  return p[0].text;
};
const ctx = (file: string, text: string) => `--- Context from: ${file} ---\n${text}\n--- End of Context from: ${file} ---`;
const project = (...blocks: string[]) => `<loaded_context>\n<project_context>\n${blocks.join('\n\n')}\n</project_context>\n</loaded_context>`;
const jit = (...blocks: string[]) => `\n\n--- Newly Discovered Project Context ---\n${blocks.join('\n\n')}\n--- End Project Context ---`;
const diagAt = (c: Chain, code: string) => c.diagnostics.filter((d) => d.code === code).map((d) => `${d.path}:${d.line}:${d.column}`);

describe('gemini-cli: discovery and render', () => {
  it('global files end the system instruction, project files go to the first user turn, each trimmed', () => {
    const t = tree({
      '/r/.git/HEAD': 'x',
      '/r/GEMINI.md': '# Root GEMINI.md\n\n<!-- comment kept -->\nRoot gemini rule: be brief.\n',
      '/r/CLAUDE.md': 'ignored',
      '/home/u/.gemini/GEMINI.md': '  User GEMINI.md indented  \n\n',
    });
    const c = chainOf(t, 'gemini-cli', '/r', { launchDir: '/r' });
    assert.deepEqual(statuses(c), ['loaded /home/u/.gemini/GEMINI.md', 'loaded /r/GEMINI.md']);
    assert.equal(part(c, 'system'), `<loaded_context>\n${ctx('/home/u/.gemini/GEMINI.md', 'User GEMINI.md indented')}\n</loaded_context>`);
    assert.equal(part(c, 'user'), project(ctx('/r/GEMINI.md', '# Root GEMINI.md\n\n<!-- comment kept -->\nRoot gemini rule: be brief.')));
    const blocks = ctx('/home/u/.gemini/GEMINI.md', 'User GEMINI.md indented').length + ctx('/r/GEMINI.md', '# Root GEMINI.md\n\n<!-- comment kept -->\nRoot gemini rule: be brief.').length;
    assert.deepEqual(c.budget, { unit: 'chars', limit: null, perFile: null, used: blocks });
  });

  it('launched below the root: every dir up to the root, sorted as strings ("Apps/GEMINI.md" before "GEMINI.md", observed); siblings never', () => {
    const t = tree({ '/r/.git/HEAD': 'x', '/r/GEMINI.md': 'Root gemini.\n', '/r/lib/GEMINI.md': 'never\n', '/r/Apps/GEMINI.md': 'Apps gemini (launch dir).\n', '/r/src/GEMINI.md': 'src\n' });
    const c = chainOf(t, 'gemini-cli', '/r/Apps', { launchDir: '/r/Apps' });
    assert.deepEqual(statuses(c), ['loaded /r/Apps/GEMINI.md', 'loaded /r/GEMINI.md']);
    assert.equal(part(c, 'user'), project(ctx('/r/Apps/GEMINI.md', 'Apps gemini (launch dir).'), ctx('/r/GEMINI.md', 'Root gemini.')));
    const s = chainOf(t, 'gemini-cli', '/r/src', { launchDir: '/r/src' });
    assert.deepEqual(statuses(s), ['loaded /r/GEMINI.md', 'loaded /r/src/GEMINI.md']);
  });

  it('without .git: the launch dir alone', () => {
    const t = tree({ '/r/GEMINI.md': 'root never\n', '/r/src/GEMINI.md': 'src\n' });
    assert.deepEqual(statuses(chainOf(t, 'gemini-cli', '/r/src', { launchDir: '/r/src' })), ['loaded /r/src/GEMINI.md']);
  });

  it('empty and blank files are left out; with nothing left there is no part at all', () => {
    const t = tree({ '/r/.git/HEAD': 'x', '/r/GEMINI.md': '', '/r/src/GEMINI.md': ' \n\t\n', '/r/src/x.ts': 'x\n', '/home/u/.gemini/GEMINI.md': '\n\n' });
    const c = chainOf(t, 'gemini-cli', '/r/src/x.ts', { launchDir: '/r' });
    assert.deepEqual(statuses(c), ['excluded /home/u/.gemini/GEMINI.md', 'excluded /r/GEMINI.md', 'excluded /r/src/GEMINI.md']);
    assert.deepEqual(c.start, []);
    assert.deepEqual(c.onRead, []);
  });

  it('a BOM, CRLF and surrounding blank lines are trimmed away; invalid UTF-8 becomes U+FFFD', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('\r\n  BOM and CRLF\r\nline two with bad byte '), 0xff, ...new TextEncoder().encode('\r\n\r\n')]);
    const t = tree({ '/r/.git/HEAD': 'x', '/r/GEMINI.md': bytes });
    assert.equal(part(chainOf(t, 'gemini-cli', '/r', { launchDir: '/r' }), 'user'), project(ctx('/r/GEMINI.md', 'BOM and CRLF\r\nline two with bad byte \ufffd')));
  });

  it('a directory named GEMINI.md is skipped silently', () => {
    const t = tree({ '/r/.git/HEAD': 'x', '/home/u/.gemini/GEMINI.md/inner.txt': 'dir' });
    const c = chainOf(t, 'gemini-cli', '/r', { launchDir: '/r' });
    assert.deepEqual(statuses(c), ['unreadable /home/u/.gemini/GEMINI.md']);
    assert.deepEqual(c.start, []);
    assert.deepEqual(c.diagnostics, []);
  });

  it('dedupes by device+inode: two links to one file load once; a global file linked into the project wins over the project copy', () => {
    const t = tree({ '/r/.git/HEAD': 'x', '/r/docs/real.md': 'real text imports @sib.md\n', '/r/docs/sib.md': 'sib in docs\n', '/r/sib.md': 'sib at root\n' });
    t.fs.symlink('/r/GEMINI.md', '/r/docs/real.md');
    t.fs.symlink('/r/src/GEMINI.md', '/r/docs/real.md');
    const c = chainOf(t, 'gemini-cli', '/r/src', { launchDir: '/r/src' });
    assert.deepEqual(statuses(c).filter((s) => !s.includes('sib')), ['loaded /r/GEMINI.md', 'duplicate /r/src/GEMINI.md']);
    // Imports resolve against the link's directory, not the target's (observed).
    assert.equal(part(c, 'user'), project(ctx('/r/GEMINI.md', 'real text imports <!-- Imported from: sib.md -->\nsib at root\n\n<!-- End of import from: sib.md -->')));

    const g = tree({ '/r/.git/HEAD': 'x', '/r/GEMINI.md': 'project text shared with global\n' });
    g.fs.symlink('/home/u/.gemini/GEMINI.md', '/r/GEMINI.md');
    const d = chainOf(g, 'gemini-cli', '/r', { launchDir: '/r' });
    assert.deepEqual(statuses(d), ['loaded /home/u/.gemini/GEMINI.md', 'duplicate /r/GEMINI.md']);
    assert.deepEqual(d.start.map((p) => p.where), ['system']);
  });

  it('$GEMINI_CLI_HOME replaces the home folder', () => {
    const t = tree({ '/gh/.gemini/GEMINI.md': 'from GEMINI_CLI_HOME\n', '/home/u/.gemini/GEMINI.md': 'not read\n', '/r/.git/HEAD': 'x' });
    assert.deepEqual(statuses(chainOf(t, 'gemini-cli', '/r', { launchDir: '/r', env: { GEMINI_CLI_HOME: '/gh' } })), ['loaded /gh/.gemini/GEMINI.md']);
  });
});

describe('gemini-cli: context.fileName and other settings', () => {
  it('a string name is read before GEMINI.md, which is always appended (observed)', () => {
    const t = tree({ '/r/.git/HEAD': 'x', '/r/AGENTS.md': 'root AGENTS\n', '/r/GEMINI.md': 'root GEMINI\n', '/home/u/.gemini/settings.json': JSON.stringify({ context: { fileName: 'AGENTS.md' } }), '/home/u/.gemini/GEMINI.md': 'global GEMINI\n', '/home/u/.gemini/AGENTS.md': 'global AGENTS\n' });
    const c = chainOf(t, 'gemini-cli', '/r', { launchDir: '/r' });
    assert.equal(part(c, 'system'), `<loaded_context>\n${ctx('/home/u/.gemini/AGENTS.md', 'global AGENTS')}\n\n${ctx('/home/u/.gemini/GEMINI.md', 'global GEMINI')}\n</loaded_context>`);
    assert.equal(part(c, 'user'), project(ctx('/r/AGENTS.md', 'root AGENTS'), ctx('/r/GEMINI.md', 'root GEMINI')));
  });

  it('the launch dir\'s .gemini/settings.json (comments allowed) overrides the user\'s; project files sorted, global and on-read files in name order (probe gm4)', () => {
    const t = tree({
      '/r/.git/HEAD': 'x',
      '/r/AGENTS.md': 'root AGENTS\n', '/r/GEMINI.md': 'root GEMINI\n', '/r/zeta.md': 'root zeta\n', '/r/CTX.md': 'root CTX\n',
      '/r/src/AGENTS.md': 'src AGENTS\n', '/r/src/GEMINI.md': 'src GEMINI\n', '/r/src/zeta.md': 'src zeta\n',
      '/r/src/in/zeta.md': 'in zeta\n', '/r/src/in/GEMINI.md': 'in GEMINI\n', '/r/src/in/x.ts': 'x\n',
      '/r/src/.gemini/settings.json': '{ // workspace\n "context": { "fileName": ["zeta.md", "AGENTS.md"] } }',
      '/home/u/.gemini/settings.json': JSON.stringify({ context: { fileName: 'CTX.md' } }),
      '/home/u/.gemini/GEMINI.md': 'global GEMINI\n', '/home/u/.gemini/zeta.md': 'global zeta\n', '/home/u/.gemini/AGENTS.md': 'global AGENTS\n', '/home/u/.gemini/CTX.md': 'global CTX\n',
    });
    const c = chainOf(t, 'gemini-cli', '/r/src/in/x.ts', { launchDir: '/r/src' });
    assert.equal(
      part(c, 'system'),
      `<loaded_context>\n${ctx('/home/u/.gemini/zeta.md', 'global zeta')}\n\n${ctx('/home/u/.gemini/AGENTS.md', 'global AGENTS')}\n\n${ctx('/home/u/.gemini/GEMINI.md', 'global GEMINI')}\n</loaded_context>`,
    );
    assert.equal(
      part(c, 'user'),
      project(ctx('/r/AGENTS.md', 'root AGENTS'), ctx('/r/GEMINI.md', 'root GEMINI'), ctx('/r/src/AGENTS.md', 'src AGENTS'), ctx('/r/src/GEMINI.md', 'src GEMINI'), ctx('/r/src/zeta.md', 'src zeta'), ctx('/r/zeta.md', 'root zeta')),
    );
    assert.equal(part(c, 'tool-result', 'onRead'), jit(ctx('/r/src/in/zeta.md', 'in zeta'), ctx('/r/src/in/GEMINI.md', 'in GEMINI')));
    assert.ok(!c.sources.some((s) => s.path.endsWith('CTX.md')));
  });

  it('memoryBoundaryMarkers: another marker moves the root (and bounds imports); an empty list means the launch dir alone', () => {
    const files = {
      '/r/.git/HEAD': 'x',
      '/r/GEMINI.md': 'repo root: above the marker\n',
      '/r/w/pkg.json': '{}',
      '/r/w/GEMINI.md': 'w GEMINI imports @app/a.md and @../GEMINI.md\n',
      '/r/w/app/a.md': 'a text\n',
      '/r/w/app/GEMINI.md': 'app GEMINI\n',
      '/r/w/app/lib/GEMINI.md': 'lib GEMINI\n',
      '/r/w/app/lib/x.ts': 'x\n',
    };
    const t = tree({ ...files, '/home/u/.gemini/settings.json': JSON.stringify({ context: { memoryBoundaryMarkers: ['pkg.json'] } }) });
    const c = chainOf(t, 'gemini-cli', '/r/w/app/lib/x.ts', { launchDir: '/r/w/app' });
    assert.equal(
      part(c, 'user'),
      project(ctx('/r/w/GEMINI.md', 'w GEMINI imports <!-- Imported from: app/a.md -->\na text\n\n<!-- End of import from: app/a.md --> and <!-- Import failed: ../GEMINI.md - Path traversal attempt -->'), ctx('/r/w/app/GEMINI.md', 'app GEMINI')),
    );
    assert.equal(part(c, 'tool-result', 'onRead'), jit(ctx('/r/w/app/lib/GEMINI.md', 'lib GEMINI')));
    const none = tree({ ...files, '/home/u/.gemini/settings.json': JSON.stringify({ context: { memoryBoundaryMarkers: [] } }) });
    assert.deepEqual(statuses(chainOf(none, 'gemini-cli', '/r/w/app', { launchDir: '/r/w/app' })), ['loaded /r/w/app/GEMINI.md']);
  });

  it('a settings file that does not parse is ignored with a warning', () => {
    const t = tree({ '/r/.git/HEAD': 'x', '/r/GEMINI.md': 'g\n', '/r/AGENTS.md': 'a\n', '/home/u/.gemini/settings.json': '{ "context": { "fileName": "AGENTS.md" ' });
    const c = chainOf(t, 'gemini-cli', '/r', { launchDir: '/r' });
    assert.deepEqual(statuses(c), ['loaded /r/GEMINI.md']);
    assert.deepEqual(c.diagnostics.map((d) => `${d.code} ${d.severity}`), ['config-invalid warning']);
  });

  it('settings as strip-json-comments + JSON.parse read them: comments of both kinds pass, a trailing comma or an empty file does not', () => {
    const read = (json: string) => chainOf(tree({ '/r/.git/HEAD': 'x', '/r/GEMINI.md': 'g\n', '/r/AGENTS.md': 'a\n', '/home/u/.gemini/settings.json': json }), 'gemini-cli', '/r', { launchDir: '/r' });
    const commented = read('/* block */ { "context": { // line\n "fileName": "AGENTS.md", "x": "// not a comment" } }');
    assert.deepEqual(statuses(commented), ['loaded /r/AGENTS.md', 'loaded /r/GEMINI.md']);
    assert.deepEqual(commented.diagnostics, []);
    for (const bad of ['{ "context": { "fileName": "AGENTS.md", } }', '']) {
      const c = read(bad);
      assert.deepEqual(statuses(c), ['loaded /r/GEMINI.md'], JSON.stringify(bad));
      assert.deepEqual(c.diagnostics.map((d) => `${d.code} ${d.severity}`), ['config-invalid warning'], JSON.stringify(bad));
    }
  });
});

describe('gemini-cli: imports', () => {
  it('finds imports as the bundle does: after white space, starting with ".", "/" or a letter, up to white space; code regions are backtick runs', () => {
    assert.deepEqual(findImports('@a.md x@b.md\t@./c.md @_d @#e @@f @ g @/h.md,\r\n@i').map((r) => r.path), ['a.md', './c.md', '/h.md,', 'i']);
    assert.deepEqual(findCodeRegions('a `x` b ``y ` z`` ```\nfence\n``` `open'), [[2, 5], [8, 17], [18, 31]]);
  });

  it('inlines, fails and skips exactly as the real CLI (probe gm1)', () => {
    const t = tree({
      '/r/.git/HEAD': 'x',
      '/r/GEMINI.md': [
        '@docs/a.md at the very start',
        'Missing: @docs/missing.md',
        'Inline code: `@docs/a.md` and ``two @docs/b.md ticks``.',
        '```',
        '@docs/a.md in a fence',
        '```',
        'Outside: @../outside/o.md',
        'Absolute inside: @/r/docs/b.md',
        'Mention @someone here.',
        'Punct: (@docs/a.md) and @docs/a.md, done',
        'Dir: @docs',
        'Notdir: @docs/a.md/x',
        'Url: @https://example.com/x.md',
        'Home: @~/h.md',
        'Crlf: @docs/b.md\r',
        'Last line',
      ].join('\n') + '\n',
      '/r/docs/a.md': '\n  A text with spaces  \n\n',
      '/r/docs/b.md': 'B text without newline',
      '/outside/o.md': 'outside text\n',
    });
    const c = chainOf(t, 'gemini-cli', '/r', { launchDir: '/r' });
    const a = '<!-- Imported from: docs/a.md -->\n\n  A text with spaces  \n\n\n<!-- End of import from: docs/a.md -->';
    assert.equal(
      part(c, 'user'),
      project(
        ctx(
          '/r/GEMINI.md',
          [
            `${a} at the very start`,
            "Missing: <!-- Import failed: docs/missing.md - ENOENT: no such file or directory, access '/r/docs/missing.md' -->",
            'Inline code: `@docs/a.md` and ``two @docs/b.md ticks``.',
            '```',
            '@docs/a.md in a fence',
            '```',
            'Outside: <!-- Import failed: ../outside/o.md - Path traversal attempt -->',
            'Absolute inside: <!-- Imported from: /r/docs/b.md -->\nB text without newline\n<!-- End of import from: /r/docs/b.md -->',
            "Mention <!-- Import failed: someone - ENOENT: no such file or directory, access '/r/someone' --> here.",
            "Punct: (@docs/a.md) and <!-- Import failed: docs/a.md, - ENOENT: no such file or directory, access '/r/docs/a.md,' --> done",
            'Dir: <!-- Import failed: docs - EISDIR: illegal operation on a directory, read -->',
            "Notdir: <!-- Import failed: docs/a.md/x - ENOTDIR: not a directory, access '/r/docs/a.md/x' -->",
            'Url: <!-- Import failed: https://example.com/x.md - Path traversal attempt -->',
            'Home: @~/h.md',
            'Crlf: <!-- Imported from: docs/b.md -->\nB text without newline\n<!-- End of import from: docs/b.md -->\r',
            'Last line',
          ].join('\n'),
        ),
      ),
    );
    assert.deepEqual(diagAt(c, 'import-missing'), ['/r/GEMINI.md:1:9', '/r/GEMINI.md:8:8', '/r/GEMINI.md:9:24', '/r/GEMINI.md:11:8']);
    assert.deepEqual(diagAt(c, 'import-outside'), ['/r/GEMINI.md:6:9', '/r/GEMINI.md:12:5']);
    assert.deepEqual(diagAt(c, 'import-in-code'), ['/r/GEMINI.md:2:36', '/r/GEMINI.md:4:0']);
    assert.deepEqual(diagAt(c, 'unreadable'), ['/r/GEMINI.md:10:5']);
    const punct = c.diagnostics.find((d) => d.code === 'import-missing' && d.line === 9);
    assert.equal(punct?.data?.suggestion, 'docs/a.md');
    assert.match(c.diagnostics.find((d) => d.line === 8 && d.code === 'import-missing')?.message ?? '', /backticks/);
    const imp = c.sources.filter((s) => s.kind === 'import').map((s) => `${s.status} ${s.path}`);
    assert.deepEqual(imp, [
      'loaded /r/docs/a.md', 'missing /r/docs/missing.md', 'excluded /outside/o.md', 'loaded /r/docs/b.md', 'missing /r/someone', 'missing /r/docs/a.md,',
      'unreadable /r/docs', 'missing /r/docs/a.md/x', 'excluded /r/https:/example.com/x.md',
    ]);
    assert.ok(c.sources.filter((s) => s.kind === 'import').every((s) => s.importedBy === '/r/GEMINI.md'));
  });

  it('cycles: only the chain of importers counts, so the top file can be inlined once into itself; siblings are inlined twice', () => {
    const t = tree({
      '/r/.git/HEAD': 'x',
      '/r/GEMINI.md': 'Top @docs/c1.md and @docs/s.md @docs/s.md\n',
      '/r/docs/c1.md': 'c1 @c2.md\n',
      '/r/docs/c2.md': 'c2 @c1.md @../GEMINI.md\n',
      '/r/docs/s.md': 'shared\n',
    });
    const c = chainOf(t, 'gemini-cli', '/r', { launchDir: '/r' });
    const s = '<!-- Imported from: docs/s.md -->\nshared\n\n<!-- End of import from: docs/s.md -->';
    const top = (inner: string) => `Top <!-- Imported from: docs/c1.md -->\n${inner}\n<!-- End of import from: docs/c1.md --> and ${s} ${s}`;
    const innerTop = top('<!-- File already processed: docs/c1.md -->').replace('<!-- Imported from: docs/c1.md -->\n<!-- File already processed: docs/c1.md -->\n<!-- End of import from: docs/c1.md -->', '<!-- File already processed: docs/c1.md -->');
    const expected = top(`c1 <!-- Imported from: c2.md -->\nc2 <!-- File already processed: c1.md --> <!-- Imported from: ../GEMINI.md -->\n${innerTop}\n\n<!-- End of import from: ../GEMINI.md -->\n\n<!-- End of import from: c2.md -->\n`);
    assert.equal(part(c, 'user'), project(ctx('/r/GEMINI.md', expected)));
    const cycles = c.diagnostics.filter((d) => d.code === 'import-cycle');
    assert.deepEqual(cycles.map((d) => `${d.path}:${d.line}:${d.column}`), ['/r/docs/c2.md:0:3', '/r/GEMINI.md:0:4']);
    assert.match(cycles[0].message, /GEMINI\.md → c1\.md → c2\.md → c1\.md/);
  });

  it('the file and 5 levels of imports are inlined; the @ of level 5 stays literal (observed)', () => {
    const files: Record<string, string> = { '/r/.git/HEAD': 'x', '/r/GEMINI.md': 'level 0 imports @docs/l1.md\n' };
    for (let i = 1; i <= 7; i++) files[`/r/docs/l${i}.md`] = `level ${i}` + (i < 7 ? ` then @l${i + 1}.md` : '') + '\n';
    const c = chainOf(tree(files), 'gemini-cli', '/r', { launchDir: '/r' });
    assert.equal(
      part(c, 'user'),
      project(
        ctx(
          '/r/GEMINI.md',
          'level 0 imports <!-- Imported from: docs/l1.md -->\nlevel 1 then <!-- Imported from: l2.md -->\nlevel 2 then <!-- Imported from: l3.md -->\nlevel 3 then <!-- Imported from: l4.md -->\nlevel 4 then <!-- Imported from: l5.md -->\nlevel 5 then @l6.md\n\n<!-- End of import from: l5.md -->\n\n<!-- End of import from: l4.md -->\n\n<!-- End of import from: l3.md -->\n\n<!-- End of import from: l2.md -->\n\n<!-- End of import from: docs/l1.md -->',
        ),
      ),
    );
    assert.deepEqual(diagAt(c, 'import-depth'), ['/r/docs/l5.md:0:13']);
    assert.ok(!c.sources.some((s) => s.path.endsWith('l6.md')));
  });

  it('without a marker the import root is the file\'s own directory: going up is a traversal (probe gm7)', () => {
    const t = tree({ '/r/src/GEMINI.md': 'src imports up @../up.md and down @deeper/d.md\n', '/r/up.md': 'up\n', '/r/src/deeper/d.md': 'd text\n' });
    const c = chainOf(t, 'gemini-cli', '/r/src', { launchDir: '/r/src' });
    assert.equal(part(c, 'user'), project(ctx('/r/src/GEMINI.md', 'src imports up <!-- Import failed: ../up.md - Path traversal attempt --> and down <!-- Imported from: deeper/d.md -->\nd text\n\n<!-- End of import from: deeper/d.md -->')));
  });

  it('an import through a link that leaves the project is a traversal; %20 is decoded only for that check', () => {
    const t = tree({ '/r/.git/HEAD': 'x', '/r/GEMINI.md': 'link @docs/out.md\npct @docs/a%20b.md\n', '/r/docs/a b.md': 'ab\n', '/o/real.md': 'outside\n' });
    t.fs.symlink('/r/docs/out.md', '/o/real.md');
    assert.equal(
      part(chainOf(t, 'gemini-cli', '/r', { launchDir: '/r' }), 'user'),
      project(ctx('/r/GEMINI.md', "link <!-- Import failed: docs/out.md - Path traversal attempt -->\npct <!-- Import failed: docs/a%20b.md - ENOENT: no such file or directory, access '/r/docs/a%20b.md' -->")),
    );
  });

  it('global files import inside ~/.gemini only', () => {
    const t = tree({ '/r/.git/HEAD': 'x', '/home/u/.gemini/GEMINI.md': 'Global with import @more.md and @../x.md\n', '/home/u/.gemini/more.md': 'more global text\n', '/home/u/x.md': 'x\n' });
    assert.equal(
      part(chainOf(t, 'gemini-cli', '/r', { launchDir: '/r' }), 'system'),
      `<loaded_context>\n${ctx('/home/u/.gemini/GEMINI.md', 'Global with import <!-- Imported from: more.md -->\nmore global text\n\n<!-- End of import from: more.md --> and <!-- Import failed: ../x.md - Path traversal attempt -->')}\n</loaded_context>`,
    );
  });

  it('context.importFormat "flat": one "--- File:" block per file, the first named after the directory, failures dropped (probe gm10)', () => {
    const t = tree({
      '/r/.git/HEAD': 'x',
      '/r/GEMINI.md': 'top imports @docs/a.md then @docs/b.md, missing @docs/none.md, outside @../o.md, code `@docs/c.md`\n',
      '/r/docs/a.md': 'a imports @c.md and back @../GEMINI.md\n',
      '/r/docs/b.md': '  b text  \n',
      '/r/docs/c.md': 'c text\n',
      '/r/sub/GEMINI.md': 'sub imports @../docs/b.md\n',
      '/r/sub/x.ts': 'x\n',
      '/r/.gemini/settings.json': '{ // comment\n "context": { "importFormat": "flat" } }',
    });
    const c = chainOf(t, 'gemini-cli', '/r/sub/x.ts', { launchDir: '/r' });
    const top = 'top imports @docs/a.md then @docs/b.md, missing @docs/none.md, outside @../o.md, code `@docs/c.md`';
    const file = (p: string, text: string) => `--- File: ${p} ---\n${text}\n--- End of File: ${p} ---`;
    assert.equal(
      part(c, 'user'),
      project(ctx('/r/GEMINI.md', [file('/r', top), file('/r/docs/a.md', 'a imports @c.md and back @../GEMINI.md'), file('/r/GEMINI.md', top), file('/r/docs/c.md', 'c text')].join('\n\n'))),
    );
    // On read, the tree format is used whatever the setting.
    assert.equal(part(c, 'tool-result', 'onRead'), jit(ctx('/r/sub/GEMINI.md', 'sub imports <!-- Imported from: ../docs/b.md -->\n  b text  \n\n<!-- End of import from: ../docs/b.md -->')));
  });
});

describe('gemini-cli: on read', () => {
  it('appends the GEMINI.md files between the launch dir and the read file, outermost first, to the read_file result (observed)', () => {
    const special = 'Quotes "double" and \'single\', ampersand & and <angle> brackets >.';
    const t = tree({
      '/r/.git/HEAD': 'x',
      '/r/GEMINI.md': 'Root GEMINI.md.\n',
      '/r/a/GEMINI.md': `a/GEMINI.md: ${special}\n`,
      '/r/a/b/GEMINI.md': '  \n\n',
      '/r/a/b/c/GEMINI.md': 'a/b/c/GEMINI.md without newline',
      '/r/a/b/c/file.ts': 'export const file = "no final newline";',
    });
    const c = chainOf(t, 'gemini-cli', '/r/a/b/c/file.ts', { launchDir: '/r' });
    assert.deepEqual(statuses(c), ['loaded /r/GEMINI.md', 'on-read /r/a/GEMINI.md', 'excluded /r/a/b/GEMINI.md', 'on-read /r/a/b/c/GEMINI.md']);
    assert.ok(c.sources.slice(1).every((s) => s.loads === 'on-read'));
    assert.deepEqual(c.onRead, [{ where: 'tool-result', text: jit(ctx('/r/a/GEMINI.md', `a/GEMINI.md: ${special}`), ctx('/r/a/b/c/GEMINI.md', 'a/b/c/GEMINI.md without newline')) }]);
  });

  it('a file read through a linked folder: its real folders are searched and named (scenario symlink-shapes)', () => {
    const t = tree({
      '/r/.git/HEAD': 'x',
      '/r/GEMINI.md': 'Root.\n',
      '/r/libs/ui/GEMINI.md': 'Ui.\n',
      '/r/libs/ui/src/button.ts': '',
    });
    t.fs.symlink('/r/packages/ui', '/r/libs/ui');
    const c = chainOf(t, 'gemini-cli', '/r/packages/ui/src/button.ts', { launchDir: '/r' });
    assert.deepEqual(c.onRead, [{ where: 'tool-result', text: jit(ctx('/r/libs/ui/GEMINI.md', 'Ui.')) }]);
  });

  it('imports of a file loaded on read are inlined, and their sources load on read too', () => {
    const t = tree({ '/r/.git/HEAD': 'x', '/r/Apps/GEMINI.md': 'Apps\n', '/r/Apps/x/GEMINI.md': 'x gemini imports @../shared.md\n', '/r/Apps/shared.md': 'shared from Apps\n', '/r/Apps/x/y.ts': 'y\n' });
    const c = chainOf(t, 'gemini-cli', '/r/Apps/x/y.ts', { launchDir: '/r/Apps' });
    assert.deepEqual(c.sources.map((s) => `${s.loads} ${s.status} ${s.path}`), ['start loaded /r/Apps/GEMINI.md', 'on-read on-read /r/Apps/x/GEMINI.md', 'on-read on-read /r/Apps/shared.md']);
    assert.equal(part(c, 'tool-result', 'onRead'), jit(ctx('/r/Apps/x/GEMINI.md', 'x gemini imports <!-- Imported from: ../shared.md -->\nshared from Apps\n\n<!-- End of import from: ../shared.md -->')));
  });

  it('nothing on read for a file in the launch dir or outside it; a nested file already loaded (same inode) is not repeated', () => {
    const t = tree({ '/r/.git/HEAD': 'x', '/r/GEMINI.md': 'root\n', '/r/src/GEMINI.md': 'src\n', '/r/src/x.ts': 'x\n', '/r/lib/GEMINI.md': 'lib\n', '/r/lib/y.ts': 'y\n', '/r/src/in/z.ts': 'z\n' });
    t.fs.symlink('/r/src/in/GEMINI.md', '/r/GEMINI.md');
    assert.deepEqual(chainOf(t, 'gemini-cli', '/r/src/x.ts', { launchDir: '/r/src' }).onRead, []);
    const sibling = chainOf(t, 'gemini-cli', '/r/lib/y.ts', { launchDir: '/r/src' });
    assert.deepEqual(sibling.onRead, []);
    assert.ok(!sibling.sources.some((s) => s.path === '/r/lib/GEMINI.md'));
    const linked = chainOf(t, 'gemini-cli', '/r/src/in/z.ts', { launchDir: '/r/src' });
    assert.deepEqual(linked.onRead, []);
    assert.deepEqual(statuses(linked), ['loaded /r/GEMINI.md', 'loaded /r/src/GEMINI.md', 'duplicate /r/src/in/GEMINI.md']);
  });
});
