// Benchmarks on the shapes of large real repositories (../shared/corpora, or BENCH_CORPORA):
// `check` and `chain` against baselines measured in the same run (Node startup, git ls-files,
// find, ripgrep when installed). Figures are medians of warm runs, reported as ratios, since
// these machines are noisy.
//
//   npm run bench [-- --runs 5] [-- --corpus babel]
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, truncateSync, writeFileSync, openSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(repo, 'dist', 'cli.js');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const runs = Number(opt('--runs', 5));
const only = opt('--corpus', undefined);
const corporaDir = process.env.BENCH_CORPORA ?? path.resolve(repo, '..', 'shared', 'corpora');

if (!existsSync(corporaDir)) {
  console.error(`bench: no corpora folder at ${corporaDir} (set BENCH_CORPORA)`);
  process.exit(2);
}

/** Instruction files added to every tree: a root file with an import, nested files, rules. */
function instructionFiles(dirs) {
  const pick = (i) => dirs[Math.floor((i * dirs.length) / 12)];
  const files = {
    'CLAUDE.md': '# Project\n\n@docs/agents.md\n@docs/missing.md\n\nRun the tests before you commit.\n',
    'docs/agents.md': 'Imported guidance.\n',
    'AGENTS.md': '# Agents\n\nUse the project scripts.\n',
    '.claude/rules/tests.md': '---\npaths: ["**/*.test.js", "test/**"]\n---\nTests are deterministic.\n',
    '.claude/rules/nothing.md': '---\npaths: ["**/*.nomatch"]\n---\nNever loaded.\n',
  };
  for (let i = 1; i <= 10; i++) {
    files[`${pick(i)}/CLAUDE.md`] = `Nested rules ${i}.\n`;
    files[`${pick(i)}/AGENTS.md`] = `Nested agents ${i}.\n`;
  }
  return files;
}

function materialize(tsvGz) {
  const rows = gunzipSync(readFileSync(tsvGz)).toString('utf8').split('\n').filter(Boolean).map((l) => {
    const tab = l.indexOf('\t');
    return [Number(l.slice(0, tab)), l.slice(tab + 1)];
  });
  const hash = createHash('sha256').update(readFileSync(tsvGz)).update(readFileSync(fileURLToPath(import.meta.url))).digest('hex').slice(0, 12);
  const root = path.join(tmpdir(), `il-bench-${path.basename(tsvGz, '.tsv.gz')}-${hash}`);
  const dirs = [...new Set(rows.map(([, p]) => path.dirname(p)).filter((d) => d !== '.' && d.split('/').length >= 2))].sort();
  const deepFile = rows.map(([, p]) => p).sort((a, b) => b.split('/').length - a.split('/').length)[0];
  if (existsSync(path.join(root, '.bench-ready'))) return { root, files: rows.length, dirs, deepFile };
  rmSync(root, { recursive: true, force: true });
  for (const [size, rel] of rows) {
    const p = path.join(root, rel);
    mkdirSync(path.dirname(p), { recursive: true });
    closeSync(openSync(p, 'w'));
    if (size > 0) truncateSync(p, size); // sparse filler: the shape, not the bytes
  }
  for (const [rel, text] of Object.entries(instructionFiles(dirs))) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
  const git = (...a) => execFileSync('git', a, { cwd: root, stdio: 'ignore', maxBuffer: 1 << 30 });
  git('init', '-q');
  git('-c', 'core.autocrlf=false', 'add', '-A', '-f');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@localhost', 'commit', '-q', '-m', 'shape');
  writeFileSync(path.join(root, '.bench-ready'), '');
  return { root, files: rows.length, dirs, deepFile };
}

function time(cmd, argv, cwd) {
  const times = [];
  let rss = 0;
  for (let i = 0; i < runs + 1; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(cmd, argv, { cwd, encoding: 'utf8', maxBuffer: 1 << 30, env: { ...process.env, IL_BENCH_RSS: '1' } });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.error) return undefined;
    // check exits 1 when it finds an error (the tree has a broken import on purpose).
    if (r.status > 1 || /Error|instruction-lens:/.test(r.stderr ?? '')) {
      console.error(`bench: ${cmd} ${argv.join(' ')} failed (exit ${r.status}):\n${r.stderr}`);
      process.exit(1);
    }
    const m = /IL_MAXRSS=(\d+)/.exec(r.stderr ?? '');
    if (m) rss = Math.max(rss, Number(m[1]));
    if (i > 0) times.push(ms); // the first run warms the caches
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)], rssKb: rss };
}

const rssHook = path.join(tmpdir(), 'il-bench-rss.cjs');
writeFileSync(rssHook, "process.on('exit', () => { if (process.env.IL_BENCH_RSS) process.stderr.write(`IL_MAXRSS=${process.resourceUsage().maxRSS}\\n`); });\n");
const hasRg = spawnSync('rg', ['--version']).status === 0;

for (const name of ['tc39+test262', 'babel+babel']) {
  if (only && !name.includes(only)) continue;
  const t0 = Date.now();
  const tree = materialize(path.join(corporaDir, `${name}.tsv.gz`));
  console.log(`\n${name}: ${tree.files.toLocaleString('en-US')} files (tree ready in ${((Date.now() - t0) / 1000).toFixed(1)} s) at ${tree.root}`);
  const rows = [];
  const add = (label, r) => r && rows.push([label, r]);
  add('node startup (baseline)', time(process.execPath, ['-e', '0']));
  add("git ls-files -- '*CLAUDE.md' '*AGENTS.md'", time('git', ['ls-files', '--', '*CLAUDE.md', '*AGENTS.md'], tree.root));
  add('find -name CLAUDE.md -o -name AGENTS.md', time('find', ['.', '-name', 'CLAUDE.md', '-o', '-name', 'AGENTS.md'], tree.root));
  if (hasRg) add('rg --files -g CLAUDE.md -g AGENTS.md', time('rg', ['--files', '-g', 'CLAUDE.md', '-g', 'AGENTS.md'], tree.root));
  add('instruction-lens check --agent claude-code', time(process.execPath, ['-r', rssHook, cli, 'check', tree.root, '--agent', 'claude-code', '--format', 'json'], tmpdir()));
  add('instruction-lens check (every agent)', time(process.execPath, ['-r', rssHook, cli, 'check', tree.root, '--format', 'json'], tmpdir()));
  add('instruction-lens chain <deepest file> --json', time(process.execPath, ['-r', rssHook, cli, 'chain', path.join(tree.root, tree.deepFile), '--json'], tmpdir()));
  const base = rows[0][1].ms;
  const git = rows[1][1].ms;
  console.log(`${'command'.padEnd(48)} ${'median ms'.padStart(10)} ${'× node'.padStart(8)} ${'× git'.padStart(7)} ${'max RSS'.padStart(9)}`);
  for (const [label, r] of rows) {
    console.log(`${label.padEnd(48)} ${r.ms.toFixed(0).padStart(10)} ${(r.ms / base).toFixed(2).padStart(8)} ${(r.ms / git).toFixed(2).padStart(7)} ${(r.rssKb ? `${(r.rssKb / 1024).toFixed(0)} MB` : '').padStart(9)}`);
  }
  if (!hasRg) console.log('(ripgrep is not installed: apt-get install ripgrep to add it as a baseline)');
}
