// Benchmark trees: the shape of a large real repository (../shared/corpora: every tracked file's
// size and path, no contents) made real on disk, with instruction files for every agent in about
// one folder in twelve, some `@imports` (a few broken), conditional rules (a few dead), and a
// file twelve folders deep. Git-committed and packed, as a real clone. Trees are kept under the system's
// temporary folder, keyed by a hash of the corpus and of this file, so reruns start at once.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

/**
 * The corpora: `BENCH_CORPORA`, else `shared/corpora` beside the repository (for a git worktree,
 * beside its main checkout).
 */
export function corporaDir(repo) {
  if (process.env.BENCH_CORPORA) {
    if (!existsSync(process.env.BENCH_CORPORA)) throw new Error(`BENCH_CORPORA=${process.env.BENCH_CORPORA}: no such folder`);
    return process.env.BENCH_CORPORA;
  }
  const beside = path.resolve(repo, '..', 'shared', 'corpora');
  if (existsSync(beside)) return beside;
  try {
    const common = execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const main = path.resolve(path.dirname(common), '..', 'shared', 'corpora');
    if (existsSync(main)) return main;
  } catch {
    // not a git checkout: only the folder beside it counts
  }
  throw new Error(`no corpora folder at ${beside}: put shared/corpora beside the repository or set BENCH_CORPORA`);
}

export const SHAPES = ['tc39+test262', 'babel+babel'];

/** How deep the chain benchmark's file sits: folders below the root. */
export const DEEP = 12;

/** A paragraph of plausible guidance, a few hundred bytes, different for each `i`. */
function prose(i, topic) {
  return [
    `# ${topic}`,
    '',
    `These rules apply to the code in this folder (${i}). Keep changes small and covered by tests.`,
    'Run the formatter before you commit, and never edit generated files by hand.',
    '',
    '- Prefer the helpers of this package over new ones.',
    `- Name test files after the feature they cover; fixture ${i} is shared, do not change it.`,
    '',
  ].join('\n');
}

/**
 * The instruction files of a tree, by relative path. `dirs` are every folder of the corpus,
 * sorted; one in twelve gets an AGENTS.md, and some of those also a CLAUDE.md (a quarter of
 * which import a notes file, one in ten of those a missing one), a GEMINI.md, a Claude rule,
 * a Copilot instructions file or a Cursor rule.
 */
export function instructionFiles(dirs) {
  const files = {
    'CLAUDE.md': `${prose(0, 'Project')}\n@docs/agents.md\n`,
    'AGENTS.md': prose(0, 'Agents'),
    'GEMINI.md': prose(0, 'Gemini'),
    'docs/agents.md': prose(0, 'Imported guidance'),
    '.github/copilot-instructions.md': prose(0, 'Copilot'),
    '.github/instructions/tests.instructions.md': `---\napplyTo: "**/*.js"\n---\n${prose(0, 'Tests')}`,
    '.claude/rules/tests.md': `---\npaths: ["**/*.js", "test/**"]\n---\n${prose(0, 'Tests')}`,
    '.claude/rules/nothing.md': `---\npaths: ["**/*.nomatch"]\n---\n${prose(0, 'Never loaded')}`,
    '.cursor/rules/style.mdc': `---\ndescription: Style\nglobs: "**/*.js"\n---\n${prose(0, 'Style')}`,
    '.claude/skills/release/SKILL.md': '---\nname: release\ndescription: Cut a release of the project.\n---\nSteps to cut a release.\n',
  };
  const picked = dirs.filter((_, i) => i % 12 === 5);
  picked.forEach((d, k) => {
    files[`${d}/AGENTS.md`] = prose(k, `Agents in ${d}`);
    if (k % 3 === 0) {
      const imports = k % 4 === 0 ? `\n@NOTES.md\n${k % 40 === 0 ? `@missing-${k}.md\n` : ''}` : '';
      files[`${d}/CLAUDE.md`] = prose(k, `Claude in ${d}`) + imports;
      if (imports) files[`${d}/NOTES.md`] = prose(k, 'Notes');
    }
    if (k % 6 === 1) files[`${d}/GEMINI.md`] = prose(k, `Gemini in ${d}`);
    if (k % 10 === 3) {
      const glob = k % 50 === 3 ? '**/*.nomatch' : '**/*.js';
      files[`${d}/.claude/rules/r${k}.md`] = `---\npaths: ["${glob}"]\n---\n${prose(k, 'Rule')}`;
    }
    if (k % 15 === 7) files[`${d}/.github/instructions/i${k}.instructions.md`] = `---\napplyTo: "**/*.js"\n---\n${prose(k, 'Instructions')}`;
    if (k % 20 === 9) files[`${d}/.cursor/rules/c${k}.mdc`] = `---\ndescription: Rule ${k}\nglobs: "**/*.js"\n---\n${prose(k, 'Cursor rule')}`;
  });
  return files;
}

/**
 * Materialize one shape (cached). Returns the root, the counts, the deepest real file and a
 * file `DEEP` folders below the root (the deepest real folder extended) with instruction
 * files at some of its levels.
 */
export function materialize(repo, name) {
  const tsvGz = path.join(corporaDir(repo), `${name}.tsv.gz`);
  const gz = readFileSync(tsvGz);
  const rows = gunzipSync(gz).toString('utf8').split('\n').filter(Boolean).map((l) => {
    const tab = l.indexOf('\t');
    return [Number(l.slice(0, tab)), l.slice(tab + 1)];
  });
  const hash = createHash('sha256').update(gz).update(readFileSync(fileURLToPath(import.meta.url))).digest('hex').slice(0, 12);
  const root = path.join(tmpdir(), `il-bench-${name}-${hash}`);
  const dirSet = new Set();
  for (const [, p] of rows) for (let d = path.posix.dirname(p); d !== '.'; d = path.posix.dirname(d)) dirSet.add(d);
  const dirs = [...dirSet].sort();
  const deepestFile = rows.map(([, p]) => p).reduce((a, b) => (b.split('/').length > a.split('/').length ? b : a));
  const deepDirs = path.posix.dirname(deepestFile).split('/');
  for (let i = 1; deepDirs.length < DEEP; i++) deepDirs.push(`level-${i}`);
  const deepFile = [...deepDirs.slice(0, DEEP), 'deep.test.js'].join('/');
  const extra = instructionFiles(dirs);
  // Guidance at every third level on the way to the deep file.
  for (let i = 3; i <= DEEP; i += 3) extra[`${deepDirs.slice(0, i).join('/')}/CLAUDE.md`] ??= prose(i, `Level ${i}`);
  extra[deepFile] = 'test("deep", () => {});\n';
  const instructionCount = Object.keys(extra).filter((p) => !/NOTES\.md$|docs\/agents\.md$|\.js$/.test(p)).length;
  const info = { root, files: rows.length + Object.keys(extra).length, dirs: dirs.length, instructionCount, deepestFile, deepFile };
  if (existsSync(path.join(root, '.bench-ready'))) return { ...info, cached: true };

  // Build beside the final folder and rename at the end, so an interrupted build is never used.
  const building = `${root}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  for (const [size, rel] of rows) {
    const p = path.join(building, rel);
    mkdirSync(path.dirname(p), { recursive: true });
    closeSync(openSync(p, 'w'));
    if (size > 0) truncateSync(p, size); // sparse filler: the shape, not the bytes
  }
  for (const [rel, text] of Object.entries(extra)) {
    mkdirSync(path.dirname(path.join(building, rel)), { recursive: true });
    writeFileSync(path.join(building, rel), text);
  }
  const git = (...a) => execFileSync('git', a, { cwd: building, stdio: 'ignore', maxBuffer: 1 << 30 });
  git('init', '-q', '-b', 'main');
  git('-c', 'core.autocrlf=false', 'add', '-A', '-f');
  // Packed, as a clone is. The commit leaves every object loose, and its automatic gc, when it
  // starts, packs them in the background, so a tree was packed or not by chance (and a
  // benchmark could run beside the packing); reading a commit's tree from thousands of loose
  // objects costs several times what it does from a pack.
  git('-c', 'gc.auto=0', '-c', 'user.name=bench', '-c', 'user.email=bench@localhost', 'commit', '-q', '-m', 'shape');
  git('gc', '-q');
  writeFileSync(path.join(building, '.git', 'info', 'exclude'), '.bench-ready\n');
  writeFileSync(path.join(building, '.bench-ready'), '');
  rmSync(root, { recursive: true, force: true });
  renameSync(building, root);
  return { ...info, cached: false };
}
