// Speed and memory on the shapes of large real repositories, against baselines measured in the
// same run (these machines are shared and noisy: only ratios mean anything).
//
//   npm run bench                        both shapes, every figure, the goals checked
//   npm run bench -- --corpus babel      one shape
//   npm run bench -- --runs 3            fewer timed runs (default 5, after one warm-up run)
//   npm run bench -- --corpus hostile    only the hostile tree (scripts/hostileTree.mjs)
//   npm run bench -- --short             CI: test262's shape, 3 runs, fails only on a figure
//                                        ten times over its goal
//   npm run bench -- --corpus vscode     only the extension in the real VS Code (test262's shape)
//   npm run bench -- --no-vscode         everything but the extension in VS Code
//   IL_BENCH_KEEP=1 npm run bench …      keep the work folder (the VS Code windows' figures and logs)
//
// Trees come from scripts/bench/trees.mjs (cached under the system's temporary folder).
// Baselines: Node's own start-up; `git ls-files` with every agent's file patterns (the floor of
// `check` is the two together); ripgrep listing every instruction file name; beside them, the reads
// every check makes (scripts/bench/reads.mjs), a figure no check can go under. A missing baseline
// fails the bench. Exit 1 when a goal is missed (with --short: missed tenfold).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { profileModules } from './profileModules.mjs';
import { materialize, SHAPES } from './bench/trees.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(repo, 'dist', 'cli.js');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const short = args.includes('--short');
const runs = Number(opt('--runs', short ? 3 : 5));
const only = opt('--corpus', short ? 'test262' : undefined);
/** With --short a goal fails only when missed tenfold: CI catches regressions, not noise. */
const slack = short ? 10 : 1;

function fail(message) {
  console.error(`bench: ${message}`);
  process.exit(1);
}

/** Median wall time (ms) and largest RSS of `runs` runs after a warm-up run. */
function time(cmd, argv, opts) {
  return inTurns([[cmd, argv, opts]])[0];
}

/**
 * `time` of several commands run in turns, one run of each a round (after a warm-up round): a
 * baseline and the figure it judges are then measured side by side, and a drift in the machine's
 * load (another process starting, the page cache refilling) moves both, not one of them. Node's
 * start-up measured once before every other row had put a chain of babel's shape at 1.60 × it,
 * where runs in turns gave 1.22 ×.
 */
function inTurns(commands) {
  const out = commands.map(() => ({ times: [], rss: 0, stdout: '' }));
  for (let i = 0; i < runs + 1; i++) {
    commands.forEach(([cmd, argv, { cwd = tmpdir(), okStatus = [0] } = {}], k) => {
      const t0 = process.hrtime.bigint();
      const r = spawnSync(cmd, argv, { cwd, encoding: 'utf8', maxBuffer: 1 << 30, env: { ...process.env, IL_BENCH_RSS: '1' } });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (r.error) fail(`${cmd}: ${r.error.message} (a baseline is missing: install it)`);
      if (!okStatus.includes(r.status) || /instruction-lens:/.test(r.stderr ?? '')) fail(`${cmd} ${argv.join(' ')} failed (exit ${r.status}):\n${r.stderr}`);
      const m = /IL_MAXRSS=(\d+)/.exec(r.stderr ?? '');
      if (m) out[k].rss = Math.max(out[k].rss, Number(m[1]));
      if (i > 0) out[k].times.push(ms);
      out[k].stdout = r.stdout;
    });
  }
  return out.map(({ times, rss, stdout }) => ({ ms: times.sort((a, b) => a - b)[Math.floor(times.length / 2)], rssMb: rss / 1024, stdout }));
}

// Max RSS of the CLI, reported by a preloaded hook.
const rssHook = path.join(tmpdir(), 'il-bench-rss.cjs');
writeFileSync(rssHook, "process.on('exit', () => { if (process.env.IL_BENCH_RSS) process.stderr.write(`IL_MAXRSS=${process.resourceUsage().maxRSS}\\n`); });\n");
/** The CLI's command line (for `time` and `inTurns`). */
const cliRun = (argv, o) => [process.execPath, ['-r', rssHook, cli, ...argv], { okStatus: [0, 1], ...o }];
const node = (argv, o) => time(...cliRun(argv, o));

// The in-process half (test/bench/inProcess.ts), bundled once.
const work = mkdtempSync(path.join(tmpdir(), 'il-bench-'));
const inProcess = path.join(work, 'inProcess.cjs');
const readsScript = path.join(repo, 'scripts', 'bench', 'reads.mjs');
await build({ entryPoints: [path.join(repo, 'test/bench/inProcess.ts')], outfile: inProcess, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning', define: { __VERSION__: '"bench"' }, plugins: [profileModules] });

const agents = JSON.parse(spawnSync(process.execPath, [cli, 'agents', '--json'], { encoding: 'utf8' }).stdout);

// A repository of one instruction file: a check of every agent there is the CLI's own start (its
// code loaded, its git calls made), the part of any check that the size of the tree does not set.
const oneFile = path.join(work, 'one-file');
mkdirSync(oneFile);
writeFileSync(path.join(oneFile, 'AGENTS.md'), '# Notes\n');
for (const argv of [['init', '-q'], ['add', '-A'], ['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', 'commit', '-qm', 'one file']]) {
  const r = spawnSync('git', argv, { cwd: oneFile, encoding: 'utf8' });
  if (r.status !== 0) fail(`git ${argv.join(' ')} in ${oneFile}: ${r.stderr}`);
}
const patterns = [...new Set(agents.flatMap((a) => a.filePatterns))];
// git pathspecs and ripgrep globs for the same patterns (both match `**/` at any depth).
const pathspecs = patterns.map((p) => `:(glob)${p}`);
const rgGlobs = patterns.flatMap((p) => ['-g', p]);

const goals = [];
/** A figure against its baseline: met when figure ≤ ratio × baseline (× slack with --short). */
function goal(shape, what, figure, baseline, baseName, ratio, unit = 'ms') {
  const met = figure <= ratio * baseline * slack;
  goals.push({ shape, what, figure, baseline, baseName, ratio, unit, met });
}
/** A figure against a fixed bound (in-process latency, where there is no process to compare). */
function bound(shape, what, figure, limit, unit = 'ms') {
  // No baseline of the same run to compare with: with --short (CI, a machine of unknown load)
  // the figure is shown but fails nothing.
  goals.push({ shape, what, figure, baseline: limit, baseName: 'bound', ratio: 1, unit, met: short || figure <= limit });
}

const fmtMs = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));

for (const shape of SHAPES) {
  if (only && !shape.includes(only)) continue;
  const t0 = Date.now();
  let tree;
  try {
    tree = materialize(repo, shape);
  } catch (e) {
    fail(e.message);
  }
  console.log(`\n## ${shape}: ${tree.files.toLocaleString('en-US')} files, ${tree.dirs.toLocaleString('en-US')} folders, ${tree.instructionCount} instruction files (tree ${tree.cached ? 'cached' : 'built'} in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${tree.root})`);
  const rows = [];
  const row = (label, r, extra = '') => {
    rows.push([label, r, extra]);
    return r;
  };
  // The goals' figures and their baselines in turns (`inTurns`); every agent named: by default
  // `check` looks only at the agents the repository shows it uses.
  const chainArgv = ['chain', path.join(tree.root, tree.deepFile), '--json'];
  const everyAgent = agents.flatMap((a) => ['--agent', a.id]);
  const checkArgv = ['check', tree.root, ...everyAgent, '--format', 'json'];
  // The reads any check makes (scripts/bench/reads.mjs) need the files a check finds: one check
  // first names them.
  const first = spawnSync(process.execPath, [cli, ...checkArgv], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (first.status !== 0 && first.status !== 1) fail(`check of ${tree.root} failed (exit ${first.status}):\n${first.stderr}`);
  const checked = JSON.parse(first.stdout).files;
  const readsList = path.join(work, `${shape.replace(/\W/g, '-')}.files`);
  writeFileSync(readsList, checked.join('\n'));
  const [startUp, gitRun, rgRun, readsRun, ownStartRun, allRun, chainRun] = inTurns([
    [process.execPath, ['-e', '0']],
    ['git', ['ls-files', '--', ...pathspecs], { cwd: tree.root }],
    ['rg', ['--files', '--hidden', ...rgGlobs], { cwd: tree.root }],
    [process.execPath, [readsScript, tree.root, readsList]],
    cliRun(['check', oneFile, ...everyAgent, '--format', 'json']),
    cliRun(checkArgv),
    cliRun(chainArgv),
  ]);
  const nodeStart = row('node -e 0 (Node start-up)', startUp);
  const git = row('git ls-files <every agent pattern>', gitRun);
  const floor = nodeStart.ms + git.ms;
  const rg = row('rg --files <every agent pattern>', rgRun);
  const listed = git.stdout.split('\n').filter(Boolean).length;
  const rgListed = rg.stdout.split('\n').filter(Boolean).length;
  const found = checked.length;
  if (found < listed) fail(`check found ${found} instruction files, git lists ${listed}`);
  // Shown before the check: what is left of the goal beyond the reads and the CLI's own start is
  // all a check has for the agents' rules.
  const reads = row("the reads of a check of every agent (git's listing, the instruction files, their folders)", readsRun);
  if (JSON.parse(reads.stdout).files !== found) fail(`scripts/bench/reads.mjs read ${reads.stdout}, check found ${found} files`);
  const ownStart = row("instruction-lens check (every agent) of a repository of one file (the CLI's own start)", ownStartRun);
  const all = row('instruction-lens check (every agent)', allRun);
  goal(shape, 'check, every agent', all.ms, floor, 'floor', 1.5);
  if (!short) {
    for (const a of agents) row(`  check --agent ${a.id}`, node(['check', tree.root, '--agent', a.id, '--format', 'json']), 'share');
  }
  const chain = row(`instruction-lens chain <file ${tree.deepFile.split('/').length - 1} folders deep>`, chainRun);
  goal(shape, 'CLI chain, 12 deep', chain.ms, nodeStart.ms, 'node', 1.5);

  const shares = rows.filter((r) => r[2] === 'share');
  const shareSum = shares.reduce((n, r) => n + (r[1].ms - nodeStart.ms), 0);
  console.log(`${listed} instruction files by git ls-files, ${rgListed} by rg (rg skips tracked files that .gitignore matches), ${found} by check (git also lists untracked ones)\n`);
  console.log(`| command | median ms | × Node start-up | × floor | max RSS |${shares.length ? ' share of check |' : ''}`);
  console.log(`|---|---:|---:|---:|---:|${shares.length ? '---:|' : ''}`);
  for (const [label, r, extra] of rows) {
    const share = extra === 'share' ? `${(((r.ms - nodeStart.ms) / shareSum) * 100).toFixed(0)} %` : '';
    console.log(`| ${label} | ${fmtMs(r.ms)} | ${(r.ms / nodeStart.ms).toFixed(2)} | ${(r.ms / floor).toFixed(2)} | ${r.rssMb ? `${r.rssMb.toFixed(0)} MB` : ''} |${shares.length ? ` ${share} |` : ''}`);
  }
  console.log(`(floor = Node start-up + git ls-files = ${fmtMs(floor)} ms; a share is that agent's check time beyond Node start-up, as a part of all agents' together)`);
  // What no check of this tree can go under: the reads, and the CLI's start beyond Node's. What the
  // goal leaves above it is all the agents' rules may take, over every instruction file and folder.
  const under = reads.ms + ownStart.ms - nodeStart.ms;
  const left = 1.5 * floor - under;
  console.log(`(the reads and the CLI's own start beyond Node's: ${fmtMs(under)} ms, ${(under / floor).toFixed(2)} × the floor; the goal of 1.5 × leaves ${left > 0 ? `${fmtMs(left)} ms` : 'nothing'} for every agent's rules over ${found.toLocaleString('en-US')} instruction files; this check spends ${fmtMs(all.ms - under)} ms on them)`);

  // In process: a chain for the file 12 folders deep, every agent, each in a process of its own:
  // run one after another in one heap, an agent's figures were timed with the garbage the agents
  // before it left (after CAR's and the scaling agent's phases the heap had grown to 250 MB, and a
  // scavenge inside a 0.4 ms chain took 4-8 ms).
  const inProc = {};
  for (const a of agents) {
    const ip = spawnSync(process.execPath, ['--expose-gc', inProcess, tree.root, path.join(tree.root, tree.deepFile), String(short ? 50 : 200), path.join(tree.root, tree.deepestFile), String(short ? 5 : 40), String(short ? 5 : 100)], { encoding: 'utf8', maxBuffer: 1 << 26, env: { ...process.env, BENCH_AGENT: a.id } });
    if (ip.status !== 0) fail(`in-process bench (${a.id}) failed:\n${ip.stderr}`);
    Object.assign(inProc, JSON.parse(ip.stdout));
  }
  console.log('\nIn process, a chain for the file 12 folders deep (ms; a new refresh re-reads disk and git, as after a change; a new file is an editor switch to it in a refresh that has resolved another file; the same file is that chain asked again):\n');
  console.log('| agent | new refresh p50 | new refresh p95 | new file p50 | new file p95 | same file p95 | file-system calls |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const [id, r] of Object.entries(inProc)) {
    console.log(`| ${id} | ${fmtMs(r.fresh.p50)} | ${fmtMs(r.fresh.p95)} | ${fmtMs(r.newFile.p50)} | ${fmtMs(r.newFile.p95)} | ${fmtMs(r.same.p95)} | ${r.fsCalls} |`);
  }
  const worst = (pick) => Object.entries(inProc).reduce((a, [id, r]) => (pick(r) > a.ms ? { id, ms: pick(r) } : a), { id: '', ms: -1 });
  const newFile = worst((r) => r.newFile.p95);
  bound(shape, `in-process chain 12 deep, new file in a warm refresh, p95, every agent (worst: ${newFile.id})`, newFile.ms, 1);
  const same = worst((r) => r.same.p95);
  bound(shape, `in-process chain 12 deep, same file again, p95, every agent (worst: ${same.id})`, same.ms, 1);
}

// The extension in the real VS Code (scripts/bench/vscode.mjs), on test262's shape, beside the
// same window without it. Not in --short: two VS Code windows on 57k files take minutes.
if (!short && !args.includes('--no-vscode') && (!only || only === 'vscode' || 'tc39+test262'.includes(only))) {
  const { benchVscode } = await import('./bench/vscode.mjs');
  const { reportVscode } = await import('./bench/vscodeReport.mjs');
  const tree = materialize(repo, 'tc39+test262');
  console.log(`\n## The extension in VS Code, test262's shape (${tree.files.toLocaleString('en-US')} files), beside the same window without it\n`);
  const figures = await benchVscode({ repo, tree, work });
  for (const g of reportVscode(figures, console.log)) bound('VS Code, test262', g.what, g.figure, g.limit, g.unit);
}

// The hostile tree (scripts/hostileTree.mjs: a 200 MB file, a 2,000-deep import chain, link loops,
// a FIFO, 500 nested folders, 5,000 instruction files …), as ratios to Node's start-up measured
// here. Not in --short: `npm test` runs every command on it with a hang cut-off.
if (!short && (!only || only === 'hostile')) {
  const { buildHostileTree } = await import('./hostileTree.mjs');
  const root = path.join(work, 'hostile');
  const { deepest } = buildHostileTree(root);
  const hostileRuns = Math.min(runs, 3);
  const median = (cmd, argv) => {
    const times = [];
    for (let i = 0; i < hostileRuns; i++) {
      const t0 = process.hrtime.bigint();
      const r = spawnSync(cmd, argv, { encoding: 'utf8', maxBuffer: 1 << 30 });
      if (r.status !== 0 && r.status !== 1) fail(`${argv.slice(1).join(' ')} on the hostile tree: exit ${r.status}\n${r.stderr}`);
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
  };
  const start = median(process.execPath, ['-e', '0']);
  const figures = [
    ['chain <the file 500 folders deep>', median(process.execPath, [cli, 'chain', deepest, '--launch-dir', root, '--json']), 20],
    ['render <the file 500 folders deep>', median(process.execPath, [cli, 'render', deepest, '--launch-dir', root]), 20],
    ['check (every agent)', median(process.execPath, [cli, 'check', root, ...agents.flatMap((a) => ['--agent', a.id]), '--format', 'json']), 300],
  ];
  console.log(`\n## hostile tree (median of ${hostileRuns} runs)\n`);
  console.log('| command | median ms | × Node start-up | goal |');
  console.log('|---|---:|---:|---:|');
  console.log(`| node -e 0 (Node start-up) | ${fmtMs(start)} | 1.00 | |`);
  for (const [what, ms, ratio] of figures) {
    console.log(`| ${what} | ${fmtMs(ms)} | ${(ms / start).toFixed(1)} | ≤ ${ratio} |`);
    goal('hostile tree', what, ms, start, 'node', ratio);
  }
}
// IL_BENCH_KEEP=1 keeps the work folder: each VS Code window's figures (vscode-*.json) and logs.
if (process.env.IL_BENCH_KEEP) console.log(`\nwork folder kept: ${work}`);
else rmSync(work, { recursive: true, force: true });

console.log(`\n## Goals${short ? ' (--short: failing only when missed tenfold)' : ''}\n`);
console.log('| shape | goal | figure | baseline | ratio | goal ratio | result |');
console.log('|---|---|---:|---:|---:|---:|---|');
for (const g of goals) {
  const unit = g.unit === 'ms' ? ' ms' : ` ${g.unit}`;
  const base = g.baseName === 'bound' ? `${g.baseline}${unit} bound` : `${fmtMs(g.baseline)}${unit} (${g.baseName})`;
  const bar = g.baseName === 'bound' ? (short ? 'shown only' : '≤ 1') : `≤ ${g.ratio * slack}`;
  console.log(`| ${g.shape} | ${g.what} | ${fmtMs(g.figure)}${unit} | ${base} | ${(g.figure / g.baseline).toFixed(2)} | ${bar} | ${g.baseName === 'bound' && short ? 'not judged' : g.met ? 'PASS' : '**FAIL**'} |`);
}
const missed = goals.filter((g) => !g.met);
if (missed.length) fail(`${missed.length} goal${missed.length === 1 ? '' : 's'} missed`);
