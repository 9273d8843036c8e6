import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { stringList } from '../../../src/core/frontmatter';
import { matchesAny } from '../../../src/core/globs';
import type { Chain } from '../../../src/core/model';
import { vscodeMatches } from '../../../src/core/profiles/copilot';
import { chainOf, statuses, tree } from '../fixture';

// GitHub Copilot in VS Code, from the sources (microsoft/vscode promptSyntax/, vscode-copilot-chat
// customInstructions.tsx); the placement and the index text as Copilot Chat 0.67.0 sends them
// (test/agents/, agent `copilot`).
const INTRO = 'When generating code, please follow these user provided coding instructions. You can ignore an instruction if it contradicts a system message.';
const att = (p: string, content: string) => `<attachment filePath="${p}">\n${content}\n</attachment>\n`;
const INDEX =
  '<instructions>\n' +
  'Here is a list of instruction files that contain rules for working with this codebase.\n' +
  'These files are important for understanding the codebase structure, conventions, and best practices.\n' +
  'When an instruction file applies to your task (based on its description or applyTo pattern), follow the rules specified in it.\n' +
  "If the file content is not already included in the context, use the 'read_file' tool to read it before proceeding. Use the exact value from the <file> element as-is with the tool; do not add or remove prefixes or otherwise modify it.\n" +
  'Only load instruction files when they are relevant to the current task. Do not eagerly load all instructions upfront.\n' +
  'When modifying or creating files, check for instructions whose applyTo pattern matches the file path and follow them.\n';
const entry = (file: string, applyTo?: string, description?: string) =>
  `<instruction>\n<file>${file}</file>\n${description ? `<description>${description}</description>\n` : ''}${applyTo ? `<applyTo>${applyTo}</applyTo>\n` : ''}</instruction>\n`;
/**
 * The start parts, in the system message: the index, then the attachments closing the
 * `<instructions>` element (Copilot Chat's skills and agents lists sit between the two).
 */
const wrap = (...chunks: string[]) => {
  const index = chunks.filter((c) => c.startsWith(INDEX));
  const attachments = chunks.filter((c) => !c.startsWith(INDEX));
  return [
    ...index.map((text) => ({ where: 'system', text })),
    ...(attachments.length ? [{ where: 'system', text: `${attachments.join('')}\n</instructions>` }] : []),
  ];
};
const vs = (t: ReturnType<typeof tree>, target: string, settings: Record<string, unknown> = {}) => chainOf(t, 'copilot', target, { launchDir: '/w', settings });
const codes = (c: Chain) => c.diagnostics.map((d) => `${d.code} ${d.path.replace('/w/', '')}`);

describe('copilot (VS Code)', () => {
  it('attaches matching instruction files, then copilot-instructions.md, then the other agent files sorted by URI, then the instructions list, in the system message', () => {
    const t = tree({
      '/w/src/x.ts': '',
      '/w/.github/instructions/ts.instructions.md': '---\napplyTo: "src/**/*.ts"\ndescription: TS rules\n---\nUse strict TS.\n',
      '/w/.github/instructions/py.instructions.md': '---\napplyTo: "**/*.py"\n---\nPython.\n',
      '/w/.github/copilot-instructions.md': '  Repo wide.  \n',
      '/w/AGENTS.md': 'agents\n',
      '/w/CLAUDE.md': 'claude\n',
      '/w/CLAUDE.local.md': 'local\n',
      '/w/.claude/CLAUDE.md': 'dot claude\n',
      '/home/u/.claude/CLAUDE.md': 'user claude\n',
    });
    const c = vs(t, '/w/src/x.ts');
    assert.deepEqual(
      c.start,
      wrap(
        att('/w/.github/instructions/ts.instructions.md', '---\napplyTo: "src/**/*.ts"\ndescription: TS rules\n---\nUse strict TS.'),
        att('/w/.github/copilot-instructions.md', 'Repo wide.'),
        att('/home/u/.claude/CLAUDE.md', 'user claude'),
        att('/w/.claude/CLAUDE.md', 'dot claude'),
        att('/w/AGENTS.md', 'agents'),
        att('/w/CLAUDE.local.md', 'local'),
        att('/w/CLAUDE.md', 'claude'),
        INDEX + entry('/w/.github/instructions/py.instructions.md', '**/*.py') + entry('/w/.github/instructions/ts.instructions.md', 'src/**/*.ts', 'TS rules') + '</instructions>\n\n',
      ),
    );
    assert.equal(c.sources.find((s) => s.path.endsWith('py.instructions.md'))?.status, 'listed');
    assert.deepEqual(c.sources.find((s) => s.path.endsWith('ts.instructions.md'))?.globs, ['**/src/**/*.ts']);
    assert.deepEqual(c.onRead, []);
  });

  it('matches applyTo as VS Code does: comma-separated, **/ prepended, case-insensitive; **, **/* and * always; a leading / is absolute', () => {
    const pats = ['src/*.ts', 'SRC/X.TS', 'lib/**, a/src/*.ts', '**', '*', '**/*', '/w/a/src/x.ts', '/a/src/x.ts', 'x.js', 'src/{x,y}.ts'];
    const files: Record<string, string> = { '/w/a/src/x.ts': '' };
    pats.forEach((p, i) => { files[`/w/.github/instructions/g${i}.instructions.md`] = `---\napplyTo: "${p}"\n---\nG${i}\n`; });
    const c = vs(tree(files), '/w/a/src/x.ts');
    const loaded = c.sources.filter((s) => s.status === 'loaded').map((s) => s.path.replace(/.*\/g(\d)\..*/, '$1'));
    assert.deepEqual(loaded, ['0', '1', '2', '3', '4', '5', '6', '9']);
  });

  it('.claude/rules: a rule without paths always applies; paths are joined with ", " (evaluateApplyToPattern)', () => {
    const t = tree({ '/w/x.ts': '', '/w/.claude/rules/a.md': 'always\n', '/w/.claude/rules/b.md': '---\npaths:\n  - "src/**"\n  - "lib/**"\n---\nB\n', '/w/.claude/rules/README.md': 'not a rule\n' });
    const c = vs(t, '/w/x.ts');
    assert.deepEqual(c.start, wrap(att('/w/.claude/rules/a.md', 'always'), INDEX + entry('/w/.claude/rules/a.md', '**') + entry('/w/.claude/rules/b.md', 'src/**, lib/**') + '</instructions>\n\n'));
  });

  it('reads instruction locations down to five folder levels, each folder by name with subfolders in place; not below the workspace folder itself', () => {
    const all = (n: string) => `---\napplyTo: "**"\n---\n${n}\n`;
    const t = tree({
      '/w/x.ts': '',
      '/w/.claude/rules/a.md': 'A\n',
      '/w/.claude/rules/sub/b.md': 'B\n',
      '/w/.claude/rules/z.md': 'Z\n',
      '/w/.github/instructions/1/2/3/4/5/deep.instructions.md': all('five levels down'),
      '/w/.github/instructions/1/2/3/4/5/6/deeper.instructions.md': all('six levels down'),
      '/w/pkg/root.instructions.md': all('below the workspace folder'),
    });
    const c = vs(t, '/w/x.ts', { 'chat.instructionsFilesLocations': { '.github/instructions': true, '.claude/rules': true, '.': true } });
    assert.deepEqual(statuses(c).filter((s) => s.startsWith('loaded')), [
      'loaded /w/.github/instructions/1/2/3/4/5/deep.instructions.md',
      'loaded /w/.claude/rules/a.md',
      'loaded /w/.claude/rules/sub/b.md',
      'loaded /w/.claude/rules/z.md',
    ]);
  });

  it('reads the user locations ~/.copilot/instructions and ~/.claude/rules first, and follows chat.instructionsFilesLocations', () => {
    const all = (n: string) => `---\napplyTo: "**"\n---\n${n}\n`;
    const t = tree({ '/w/x.ts': '', '/home/u/.copilot/instructions/u.instructions.md': all('U'), '/w/.github/instructions/g.instructions.md': all('G'), '/w/docs/ai/d.instructions.md': all('D') });
    const loc = { 'chat.instructionsFilesLocations': { '.github/instructions': false, 'docs/ai': true, '~/.copilot/instructions': true } };
    const c = vs(t, '/w/x.ts', loc);
    assert.deepEqual(statuses(c), ['loaded /home/u/.copilot/instructions/u.instructions.md', 'loaded /w/docs/ai/d.instructions.md']);
  });

  it('respects the settings that switch agent files off, and says so', () => {
    const t = tree({ '/w/x.ts': '', '/w/AGENTS.md': 'a\n', '/w/CLAUDE.md': 'c\n', '/w/.github/copilot-instructions.md': 'g\n' });
    const c = vs(t, '/w/x.ts', { 'chat.useClaudeMdFile': false, 'chat.useAgentsMdFile': false, 'github.copilot.chat.codeGeneration.useInstructionFiles': false });
    assert.deepEqual(c.start, []);
    assert.deepEqual(statuses(c).sort(), ['excluded /w/.github/copilot-instructions.md', 'excluded /w/AGENTS.md', 'excluded /w/CLAUDE.md']);
  });

  it('matches agent file names ignoring case, skips a symlink to a file already attached, identical text and empty files', () => {
    const t = tree({ '/w/x.ts': '', '/w/agents.md': 'same\n', '/w/.claude/CLAUDE.md': ' same \n', '/w/CLAUDE.local.md': '\n' });
    t.fs.symlink('/w/CLAUDE.md', '/w/agents.md');
    const c = vs(t, '/w/x.ts');
    assert.deepEqual(c.start, wrap(att('/w/.claude/CLAUDE.md', 'same')));
    // Sorted by URI with localeCompare: agents.md before CLAUDE.local.md.
    assert.deepEqual(statuses(c), ['duplicate /w/CLAUDE.md', 'loaded /w/.claude/CLAUDE.md', 'duplicate /w/agents.md', 'excluded /w/CLAUDE.local.md']);
    assert.deepEqual(codes(c), ['duplicate-content agents.md']);
  });

  it('attaches files linked from copilot-instructions.md only with chat.includeReferencedInstructions, and warns on a missing one', () => {
    const t = tree({ '/w/x.ts': '', '/w/.github/copilot-instructions.md': 'See [style](style.md), `[no](code.md)` and #file:../docs/x.md and [gone](gone.md).\n', '/w/.github/style.md': 'style\n', '/w/docs/x.md': 'x doc\n' });
    const off = vs(t, '/w/x.ts');
    assert.deepEqual(statuses(off), ['loaded /w/.github/copilot-instructions.md', 'excluded /w/.github/style.md', 'excluded /w/docs/x.md', 'missing /w/.github/gone.md']);
    assert.deepEqual(codes(off), ['import-missing .github/copilot-instructions.md']);
    assert.equal(off.diagnostics[0].severity, 'warning');
    const on = vs(t, '/w/x.ts', { 'chat.includeReferencedInstructions': true });
    assert.deepEqual(on.start, wrap(att('/w/.github/copilot-instructions.md', 'See [style](style.md), `[no](code.md)` and #file:../docs/x.md and [gone](gone.md).'), att('/w/.github/style.md', 'style'), att('/w/docs/x.md', 'x doc')));
  });

  it('lists nested AGENTS.md files only with chat.useNestedAgentsMdFiles, as "Instructions for folder"', () => {
    const t = tree({ '/w/x.ts': '', '/w/AGENTS.md': 'root\n', '/w/pkg/a/AGENTS.md': 'nested\n', '/w/node_modules/m/AGENTS.md': 'skip\n' });
    const off = vs(t, '/w/x.ts');
    assert.deepEqual(off.start, wrap(att('/w/AGENTS.md', 'root')));
    assert.equal(off.sources.find((s) => s.path === '/w/pkg/a/AGENTS.md')?.status, 'excluded');
    const on = vs(t, '/w/x.ts', { 'chat.useNestedAgentsMdFiles': true });
    assert.deepEqual(
      on.start,
      wrap(att('/w/AGENTS.md', 'root'), INDEX + "<instruction>\n<file>/w/AGENTS.md</file>\n<description>Instructions for the workspace</description>\n</instruction>\n<instruction>\n<file>/w/pkg/a/AGENTS.md</file>\n<description>Instructions for folder 'pkg/a'</description>\n</instruction>\n</instructions>\n\n"),
    );
    assert.equal(on.sources.find((s) => s.path === '/w/pkg/a/AGENTS.md')?.status, 'listed');
  });

  it('puts the block after the introduction in the user message when customInstructionsInSystemMessage is off; no list without the read tool', () => {
    const t = tree({ '/w/x.ts': '', '/w/AGENTS.md': 'a\n', '/w/.github/instructions/p.instructions.md': '---\napplyTo: "**/*.py"\n---\nP\n' });
    const c = vs(t, '/w/x.ts', { 'github.copilot.chat.customInstructionsInSystemMessage': false, readFileTool: false });
    assert.deepEqual(c.start, [{ where: 'user', text: `${INTRO}\n<instructions>\n${att('/w/AGENTS.md', 'a')}\n</instructions>\n` }]);
    assert.equal(c.sources.find((s) => s.path.endsWith('p.instructions.md'))?.status, 'not-matched');
  });

  it('mirrors VS Code\'s validator (1.139): unknown attributes meant for an agent, applyTo not a string or not a glob, excludeAgent neither a string nor a list, empty description; excludeAgent excludes nothing', () => {
    const t = tree({
      '/w/x.ts': '',
      '/w/.github/instructions/a.instructions.md': '---\napplyTo: ["**"]\nglobs: 1\ndescription: ""\n---\nA\n',
      '/w/.github/instructions/b.instructions.md': '---\napplyTo: "src/**,,lib/**"\nexcludeAgent: "coding-agent"\n---\nB\n',
      '/w/.github/instructions/c.instructions.md': '---\napplyTo: "**"\nexcludeAgent: ["coding-agent"]\n---\nC\n',
      // Commas inside braces do not split a pattern; a blank part and an empty last one are no error.
      '/w/.github/instructions/d.instructions.md': '---\napplyTo: "ui/src/**/*.{ts,tsx}, ,"\nexcludeAgent:\n  agent: coding-agent\n---\nD\n',
      '/w/.claude/rules/r.md': '---\napplyTo: "**"\n---\nR\n',
    });
    const c = vs(t, '/w/x.ts');
    assert.deepEqual(
      c.diagnostics.map((d) => `${d.code} ${d.path.replace('/w/', '')}:${d.line + 1} ${d.message}`),
      [
        "frontmatter-invalid .github/instructions/a.instructions.md:2 The 'applyTo' attribute must be a string.",
        "attribute-unknown .github/instructions/a.instructions.md:3 Attribute 'globs' is not supported in instructions files. Supported: applyTo, description, name.",
        "frontmatter-invalid .github/instructions/a.instructions.md:4 The 'description' attribute should not be empty.",
        "glob-invalid .github/instructions/b.instructions.md:2 The 'applyTo' attribute must be a valid glob pattern.",
        "frontmatter-invalid .github/instructions/d.instructions.md:3 The 'excludeAgent' attribute must be a string or an array.",
        "attribute-unknown .claude/rules/r.md:2 Attribute 'applyTo' is not supported in instructions files. Supported: description, paths.",
      ],
    );
    assert.equal(c.sources.find((s) => s.path.endsWith('c.instructions.md'))?.status, 'loaded');
    assert.equal(c.sources.find((s) => s.path.endsWith('a.instructions.md'))?.status, 'listed'); // a list is not a string: no pattern
  });

  it("reads a header YAML rejects as VS Code's own YAML reader does: a plain value as written, up to a comment; problems placed in the file as written", () => {
    const t = tree({
      '/w/src/x.ts': '',
      // YAML reads each of these as an alias, or fails on `: ` in a plain value.
      '/w/.github/instructions/alias.instructions.md': '---\napplyTo: **/*.ts\n---\nAlias\n',
      '/w/.github/instructions/comment.instructions.md': '---\r\napplyTo: src/**/*.ts # the sources\r\ndescription: Note: sources only\r\n---\r\nComment\n',
      '/w/.github/instructions/miss.instructions.md': '---\napplyTo: **/*.py\n---\nMiss\n',
      // After two values quoted: an unclosed brace and an empty description, where each is in the file.
      '/w/.github/instructions/bad.instructions.md': "---\napplyTo: **/*.{ts\nname: it's: two\ndescription: ''\n---\nBad\n",
      '/w/.claude/rules/r.md': '---\npaths: **/*.ts\n---\nR\n',
    });
    const c = vs(t, '/w/src/x.ts');
    const status = (name: string) => c.sources.find((s) => s.path.endsWith(name))?.status;
    assert.deepEqual(
      ['alias.instructions.md', 'comment.instructions.md', 'miss.instructions.md', 'r.md'].map(status),
      ['loaded', 'loaded', 'listed', 'loaded'],
    );
    assert.match(c.start.map((p) => p.text).join(''), /<file>\/w\/.github\/instructions\/comment.instructions.md<\/file>\n<description>Note: sources only<\/description>\n<applyTo>src\/\*\*\/\*.ts<\/applyTo>/);
    assert.deepEqual(
      c.diagnostics.map((d) => `${d.code} ${d.path.replace('/w/', '')}:${d.line + 1}:${d.column + 1}-${d.endLine + 1}:${d.endColumn + 1} ${d.message}`),
      [
        "glob-invalid .github/instructions/bad.instructions.md:2:1-2:18 The 'applyTo' attribute must be a valid glob pattern.",
        "frontmatter-invalid .github/instructions/bad.instructions.md:4:1-4:16 The 'description' attribute should not be empty.",
      ],
    );
  });
});

// `check` asks every instruction file's `applyTo` of every folder: each pattern is split and
// rewritten once, then tested; the answers must be those of the test that did it each time.
describe("Copilot's applyTo matching, each pattern prepared once", () => {
  const ALWAYS = new Set(['**', '**/*', '*']);
  function defined(file: string, pattern: string, sep = '/'): boolean {
    for (let p of (stringList(pattern) ?? [])) {
      if (ALWAYS.has(p)) return true;
      if (!p.startsWith('/') && !p.startsWith('**/')) p = `**/${p}`;
      if (matchesAny(file.split(sep).join('/').replace(/^\//, ''), [p.replace(/\[!/g, '[^')], { nocase: true })) return true;
    }
    return false;
  }

  it('matches as the definition does (random files and patterns, POSIX and Windows paths)', () => {
    const seg = fc.constantFrom('src', 'SRC', 'a', 'b.ts', 'x.md', '.github', 'deep');
    const glob = fc.constantFrom('**', '*', '**/*', '*.ts', 'src/**', '/src/*.ts', '**/b.ts', '[!a]*', 'src/{a,b.ts}', '', ' ', '**/*.MD', 'a/', '{a,src}/**');
    const pattern = fc.array(glob, { minLength: 1, maxLength: 3 }).map((g) => g.join(','));
    let hits = 0;
    fc.assert(
      fc.property(fc.array(seg, { minLength: 1, maxLength: 4 }), pattern, fc.boolean(), (segs, p, windows) => {
        const [file, sep] = windows ? [`C:\\${segs.join('\\')}`, '\\'] : [`/${segs.join('/')}`, '/'];
        const got = vscodeMatches(file, p, sep);
        assert.equal(got, defined(file, p, sep), `${file} ${p}`);
        if (got) hits++;
      }),
      { numRuns: 5_000, seed: 20261203 },
    );
    assert.ok(hits > 500 && hits < 4_500, `${hits} matches`);
  });
});
