// A hostile tree, built at test time (nothing large is committed): every shape of instruction
// file that once crashed, hung or hid the rest. Used by the hostile-tree test
// (test/unit/hostile.test.ts) and the bench. Not a git repository: `check` walks it.
//
//   node scripts/hostileTree.mjs <dir>     build it in <dir> (must not exist)
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, symlinkSync, writeFileSync, ftruncateSync, chmodSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The problems planted, each with the file that holds it and the code `check` must report. */
export const PLANTED = [
  { file: 'huge/CLAUDE.md', code: 'too-large' },
  { file: 'binary/CLAUDE.md', code: 'binary' },
  { file: 'latin1/CLAUDE.md', code: 'not-utf8' },
  { file: 'chain/CLAUDE.md', code: 'import-depth' },
  { file: 'cycle/b.md', code: 'import-cycle' },
  { file: 'fifo/CLAUDE.md', code: 'unreadable' },
  { file: 'loop', code: 'symlink-loop' },
  { file: 'chain/up', code: 'symlink-loop' },
  { file: 'frontmatter/.claude/rules/bad.md', code: 'frontmatter-invalid' },
  { file: 'quotes/CLAUDE.md', code: 'too-deep' },
  { file: 'stairs/CLAUDE.md', code: 'too-deep' },
  { file: 'many/p0/CLAUDE.md', code: 'import-missing' },
];

/** Sizes, so a test can build a smaller tree than the bench. */
export const DEFAULTS = { hugeBytes: 200 * 1024 * 1024, chainDepth: 2000, folderDepth: 500, manyFiles: 5000 };

function write(root, rel, content) {
  const p = path.join(root, rel);
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, content);
  return p;
}

/**
 * Build the tree in `root`, which must not exist. Returns the deepest file (for `chain`) and the
 * file without read permission (unreadable only to a user other than root).
 */
export function buildHostileTree(root, sizes = {}) {
  const { hugeBytes, chainDepth, folderDepth, manyFiles } = { ...DEFAULTS, ...sizes };
  mkdirSync(root, { recursive: false, mode: 0o755 });
  write(root, 'CLAUDE.md', '# Hostile tree\n\nSee @AGENTS.md for the rest.\n');
  write(root, 'AGENTS.md', '# Agents\n\nRun the tests.\n');

  // A 200 MB instruction file: sparse, so it costs no disk and no time to make.
  const huge = openSync(write(root, 'huge/CLAUDE.md', ''), 'r+');
  ftruncateSync(huge, hugeBytes);
  closeSync(huge);
  write(root, 'binary/CLAUDE.md', Buffer.from([0x23, 0x20, 0x00, 0x01, 0xff, 0x89, 0x50, 0x4e, 0x47, 0x0a]));
  write(root, 'latin1/CLAUDE.md', Buffer.from('Caf\xe9 na\xefve r\xe9sum\xe9\n', 'latin1'));

  // A 2,000-deep import chain, for every agent that imports (Claude Code, Gemini CLI, Copilot CLI).
  for (let i = 0; i < chainDepth; i++) write(root, `chain/c/${i}.md`, `Level ${i}.\n@${i + 1}.md\n`);
  write(root, 'chain/CLAUDE.md', 'Start.\n@c/0.md\n');
  write(root, 'chain/GEMINI.md', 'Start.\n@c/0.md\n');
  write(root, 'cycle/CLAUDE.md', '@a.md\n');
  write(root, 'cycle/a.md', '@b.md\n');
  write(root, 'cycle/b.md', '@a.md\n');

  // A FIFO and a folder, both named like instruction files.
  mkdirSync(path.join(root, 'fifo'));
  execFileSync('mkfifo', [path.join(root, 'fifo', 'CLAUDE.md')]);
  mkdirSync(path.join(root, 'folder', 'CLAUDE.md'), { recursive: true });
  write(root, 'folder/CLAUDE.md/AGENTS.md', 'Inside a folder named CLAUDE.md.\n');

  // A link loop, a second loop, and a link out of the tree.
  symlinkSync('.', path.join(root, 'loop'));
  symlinkSync('..', path.join(root, 'chain', 'up'));
  symlinkSync('/usr/share', path.join(root, 'outside'));

  // No read permission (root reads it anyway: the test runs that case as an unprivileged user).
  const secret = write(root, 'secret/CLAUDE.md', 'Secret.\n');
  chmodSync(secret, 0o000);

  write(root, 'frontmatter/.claude/rules/bad.md', '---\npaths: ["**/*.ts"\n  - : [\n---\nBroken frontmatter.\n');
  write(root, 'frontmatter/.claude/rules/deep.md', `---\npaths: ${'['.repeat(5000)}\n---\nDeep frontmatter.\n`);
  write(root, 'frontmatter/.github/instructions/x.instructions.md', `---\napplyTo: ${'{a: '.repeat(5000)}\n---\nDeep header.\n`);
  write(root, 'quotes/CLAUDE.md', '>'.repeat(20_000) + ' quoted\n');
  write(root, 'stairs/CLAUDE.md', Array.from({ length: 2000 }, (_, i) => '>'.repeat(i + 1) + ' x').join('\n') + '\n');

  // 500 nested folders, with an instruction file at the bottom.
  const deepDir = Array.from({ length: folderDepth }, (_, i) => `d${i}`).join('/');
  write(root, `deep/${deepDir}/CLAUDE.md`, 'The deepest file.\n');
  const deepest = write(root, `deep/${deepDir}/file.ts`, 'export {};\n');

  // 5,000 instruction files, one broken import among them.
  for (let i = 0; i < manyFiles; i++) write(root, `many/p${Math.floor(i / 4)}/${['CLAUDE.md', 'AGENTS.md', 'GEMINI.md', '.claude/rules/r.md'][i % 4]}`, i === 0 ? '@missing.md\n' : `File ${i}.\n`);
  return { deepest, secret };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node scripts/hostileTree.mjs <dir>');
    process.exit(2);
  }
  const { deepest } = buildHostileTree(path.resolve(dir));
  console.log(`hostile tree in ${dir}; deepest file ${deepest}`);
}
