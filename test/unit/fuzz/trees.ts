import fc from 'fast-check';
import { MemoryGitIndex } from '../doubles/memoryGit';
import { MemoryFileSystem } from '../doubles/memoryFs';

/**
 * Random instruction trees for the property tests: nesting, every instruction file name of
 * every profile, and the contents and links that broke things before (see the README's
 * "Robustness" section). A tree is plain data, so fast-check can shrink a failure to a small one.
 */

export const ROOT = '/r';
export const HOME = '/home/u';

/** Folders a file may sit in, relative to the root ('' is the root). */
const FOLDERS = ['', 'a', 'a/b', 'a/b/c', 'pkg', 'pkg/src', 'we ird', 'ünï', 'a/b/c/d/e/f/g/h'];

/** Every instruction file name of every profile, relative to a folder. */
export const NAMES = [
  'CLAUDE.md', 'CLAUDE.local.md', '.claude/CLAUDE.md', '.claude/rules/r.md', '.claude/rules/sub/s.md', 'AGENTS.md',
  'AGENTS.override.md', 'agents.md', '.claude/AGENTS.md', 'GEMINI.md', 'CLAW.md', '.claw/CLAUDE.md', '.claude/instructions.md',
  '.github/copilot-instructions.md', '.github/instructions/x.instructions.md', '.cursor/rules/r.mdc', '.cursor/rules/r.md',
  '.cursorrules', '.claude/skills/s/SKILL.md', '.agents/skills/t/SKILL.md', 'docs/notes.md',
];

/** Files in the home folder the agents read. */
const HOME_FILES = ['.claude/CLAUDE.md', '.claude/rules/h.md', '.codex/AGENTS.md', '.gemini/GEMINI.md', '.copilot/copilot-instructions.md'];

/** `@` references of every kind the issue lists. */
const IMPORTS = [
  '@AGENTS.md', '@CLAUDE.md', '@docs/notes.md', '@./docs/notes.md', '@missing.md', '@../CLAUDE.md', '@../../outside.md',
  '@/etc/passwd', '@~/.claude/CLAUDE.md', '@a/b/c/d/e/f/g/h/CLAUDE.md', '@docs/notes.md,', '@(docs/notes.md)', '@logo.png',
  '@we\\ ird/CLAUDE.md', '@docs/notes.md#section', '@@scope/pkg', '@a/CLAUDE.md', '@chain/0.md',
];

const TEXTS = [
  'Use tabs.', '# Heading', '- item', '  - nested item', '> quote', '', '   ', 'é𝄞 astral 🚀', 'word@example.com',
  '<!-- a comment -->', '<!-- unclosed comment', '-->', '```', '```ts', '~~~', '`inline @AGENTS.md code`', 'x'.repeat(300),
  '| a | b |', '---', '[link](docs/notes.md)', '#tool:readFile', '\t tab',
];

const FRONTMATTER = [
  '---\npaths: ["**/*.ts"]\n---\n', '---\npaths:\n  - "a/**"\n  - "{bad"\n---\n', '---\napplyTo: "**/*.ts"\n---\n',
  '---\nglobs: **/*.ts\nalwaysApply: false\n---\n', '---\ndescription: d\nalwaysApply: true\n---\n', '---\nname: s\ndescription: a skill\n---\n',
  '---\npaths: [\n---\n', '---\n: : :\n---\n', '---\nunclosed: frontmatter\n', '---\nexcludeAgent: "code-review"\napplyTo: "**"\n---\n', '---\n---\n',
];

export type Line = { kind: 'text'; text: string } | { kind: 'import'; ref: string; prefix: string };

export interface FileSpec {
  folder: string;
  name: string;
  frontmatter?: string;
  lines: Line[];
  crlf: boolean;
  bom: boolean;
  /** Raw bytes spliced in: NUL, invalid UTF-8, a lone surrogate's bytes. */
  bad?: 'nul' | 'invalid-utf8' | 'truncated-utf8';
  /** Repeat the body to make a large file. */
  large: boolean;
  committed: 'no' | 'same' | 'different';
}

export type LinkSpec = { from: string; to: string };

export interface TreeSpec {
  files: FileSpec[];
  home: { name: string; lines: Line[] }[];
  links: LinkSpec[];
  /** Length of an import chain under chain/ (0: none). */
  chain: number;
  chainCycle: boolean;
  git: boolean;
  geminiFlat: boolean;
  /** Index into the candidate targets. */
  target: number;
}

const line: fc.Arbitrary<Line> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...TEXTS).map((text): Line => ({ kind: 'text', text })) },
  { weight: 2, arbitrary: fc.record({ ref: fc.constantFrom(...IMPORTS), prefix: fc.constantFrom('', 'See ', '  ', '`', '- ') }).map((r): Line => ({ kind: 'import', ...r })) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }).map((text): Line => ({ kind: 'text', text })) },
);

/** One value of `common` most of the time, else one of `rare`: odd cases stay a minority, so most trees load something. */
function mostly<T>(common: fc.Arbitrary<T>, rare: fc.Arbitrary<T>, commonWeight = 3): fc.Arbitrary<T> {
  return fc.oneof({ weight: commonWeight, arbitrary: common }, { weight: 1, arbitrary: rare });
}

/**
 * Half the files are named after the main file of the profile under test (`MAIN`, laid out by
 * `build`), so most trees give the agent something to load; the rest take any name.
 */
export const MAIN = 'MAIN';

const file: fc.Arbitrary<FileSpec> = fc.record({
  folder: mostly(fc.constant(''), fc.constantFrom(...FOLDERS), 1),
  name: mostly(fc.constant(MAIN), fc.constantFrom(...NAMES), 1),
  frontmatter: mostly(fc.constant(undefined), fc.constantFrom(...FRONTMATTER), 2),
  lines: fc.array(line, { maxLength: 8 }),
  crlf: mostly(fc.constant(false), fc.constant(true)),
  bom: mostly(fc.constant(false), fc.constant(true), 5),
  bad: mostly(fc.constant(undefined), fc.constantFrom('nul' as const, 'invalid-utf8' as const, 'truncated-utf8' as const), 7),
  // A large file (about 45 KB) costs five times a small one: one file in sixteen.
  large: fc.nat({ max: 15 }).map((n) => n === 0),
  committed: fc.constantFrom('no', 'same', 'different'),
});

const LINK_SOURCES = ['a/CLAUDE.md', 'CLAUDE.md', 'linked', 'a/linked', 'a/b/up', '.claude/rules/l.md', 'pkg/AGENTS.md', '.agents/skills'];
const LINK_TARGETS = ['AGENTS.md', '.', '..', 'a', '/outside', '/outside/dir', 'nowhere.md', 'a/b', '../..', '.claude/skills'];

export const treeSpec: fc.Arbitrary<TreeSpec> = fc.record({
  files: fc.array(file, { minLength: 1, maxLength: 7 }),
  home: fc.array(fc.record({ name: fc.constantFrom(...HOME_FILES), lines: fc.array(line, { maxLength: 3 }) }), { maxLength: 2 }),
  links: mostly(fc.constant([]), fc.array(fc.record({ from: fc.constantFrom(...LINK_SOURCES), to: fc.constantFrom(...LINK_TARGETS) }), { minLength: 1, maxLength: 3 }), 1),
  chain: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 12 }) }),
  chainCycle: fc.boolean(),
  git: fc.boolean(),
  geminiFlat: fc.boolean(),
  target: fc.nat(),
});

const enc = new TextEncoder();

function body(f: { frontmatter?: string; lines: Line[] }, crlf: boolean): string {
  const text = (f.frontmatter ?? '') + f.lines.map((l) => (l.kind === 'text' ? l.text : `${l.prefix}${l.ref}`)).join('\n') + '\n';
  return crlf ? text.replace(/\n/g, '\r\n') : text;
}

function bytesOf(f: FileSpec): Uint8Array {
  let text = body(f, f.crlf);
  if (f.large) text = text.repeat(Math.ceil(45_000 / Math.max(1, text.length)));
  if (f.bom) text = '\ufeff' + text;
  const b = enc.encode(text);
  if (!f.bad) return b;
  const extra = f.bad === 'nul' ? [0x00] : f.bad === 'invalid-utf8' ? [0xff, 0xfe] : [0xe2, 0x82];
  const at = Math.floor(b.length / 2);
  return Uint8Array.from([...b.subarray(0, at), ...extra, ...b.subarray(at)]);
}

export interface BuiltTree {
  fs: MemoryFileSystem;
  git: MemoryGitIndex;
  /** Candidate targets: every file and folder of the tree plus a source file in each folder. */
  targets: string[];
}

/** Lay a spec out as an in-memory tree (and its git index), `MAIN` named `mainFile`. */
export function build(spec: TreeSpec, mainFile: string): BuiltTree {
  const fs = new MemoryFileSystem();
  const tracked = new Set<string>();
  const committed = new Map<string, string>();
  const targets = new Set<string>([ROOT]);
  fs.mkdir(ROOT);
  if (spec.git) fs.write(`${ROOT}/.git/HEAD`, 'ref: refs/heads/main\n');
  for (const f of spec.files) {
    const p = [ROOT, f.folder, f.name === MAIN ? mainFile : f.name].filter(Boolean).join('/');
    fs.write(p, bytesOf(f));
    targets.add(p);
    const dir = [ROOT, f.folder].filter(Boolean).join('/');
    targets.add(dir);
    targets.add(`${dir}/src.ts`);
    if (spec.git && f.committed !== 'no') {
      tracked.add(p);
      committed.set(p, f.committed === 'same' ? new TextDecoder().decode(bytesOf(f)) : 'committed text\n');
    }
  }
  for (let i = 0; i < spec.chain; i++) {
    const next = spec.chainCycle && i === spec.chain - 1 ? 0 : i + 1;
    const p = `${ROOT}/chain/${i}.md`;
    fs.write(p, `level ${i}\n@${next}.md\n@./${next}.md\n`);
    if (spec.git) {
      tracked.add(p);
      committed.set(p, `level ${i}\n@${next}.md\n`);
    }
  }
  if (spec.geminiFlat) fs.write(`${ROOT}/.gemini/settings.json`, '{"context":{"importFormat":"flat"}}');
  for (const h of spec.home) fs.write(`${HOME}/${h.name}`, body(h, false));
  fs.write('/outside/CLAUDE.md', 'outside\n');
  fs.write('/outside/dir/AGENTS.md', 'outside dir\n');
  for (const l of spec.links) {
    const from = `${ROOT}/${l.from}`;
    if (fs.stat(from) || fs.isSymlink(from)) continue;
    fs.symlink(from, l.to);
    targets.add(from);
  }
  return { fs, git: new MemoryGitIndex(fs, tracked, committed), targets: [...targets] };
}

/** What the statistics count, so trivial trees cannot pad the number of cases. */
export function features(spec: TreeSpec): string[] {
  const all = spec.files.flatMap((f) => f.lines);
  const out: string[] = [];
  const refs = all.flatMap((l) => (l.kind === 'import' ? [l.ref] : []));
  if (refs.length || spec.chain) out.push('imports');
  const shapes: [string, (r: string) => boolean][] = [
    ['import missing', (r) => r === '@missing.md' || r === '@logo.png'],
    ['import absolute', (r) => r.startsWith('@/')],
    ['import ~/', (r) => r.startsWith('@~/')],
    ['import outside', (r) => r.startsWith('@../')],
    ['import with punctuation', (r) => /[,()#\\]|@@/.test(r)],
  ];
  for (const [name, test] of shapes) if (refs.some(test)) out.push(name);
  if (spec.chain >= 4) out.push('import chain 4+ deep');
  if (spec.chain && spec.chainCycle) out.push('import cycle');
  if (spec.links.length) out.push('symlinks');
  if (spec.links.some((l) => l.to === '.' || l.to === '..' || l.to === '../..')) out.push('symlink loop');
  if (spec.files.some((f) => f.bad)) out.push('bad bytes');
  if (spec.files.some((f) => f.crlf)) out.push('CRLF');
  if (spec.files.some((f) => f.bom)) out.push('BOM');
  if (spec.files.some((f) => f.frontmatter)) out.push('frontmatter');
  if (spec.files.some((f) => f.name === MAIN)) out.push("the agent's main file");
  if (spec.files.some((f) => /rules|instructions|SKILL/.test(f.name))) out.push('rules or skills');
  if (all.some((l) => l.kind === 'text' && /<!--|```|~~~|`/.test(l.text))) out.push('comments or code');
  if (spec.files.some((f) => f.large)) out.push('large file');
  if (spec.git && spec.files.some((f) => f.committed !== 'no')) out.push('committed');
  if (spec.home.length) out.push('home files');
  if (spec.files.some((f) => f.folder.split('/').length >= 4)) out.push('deep folder');
  return out;
}
