// The real-world review, replayed: run the current `check` on a checkout of a reviewed public
// repository and hold its diagnostics against the verdicts a maintainer's eye gave the first
// release's output on the same commit (test/review/verdicts.jsonl).
//
//   npm run review -- <checkout> [<checkout> …] [--json] [--strict] [--verbose]
//
// A checkout is recognised by its HEAD commit (test/review/repos.json). For each one this
// prints the precision (visible diagnostics judged true / visible diagnostics), every
// diagnostic judged true that is no longer visible or was demoted to a hint (a failure), every
// visible diagnostic judged wrong or noise, and every diagnostic no verdict covers (to judge).
// Exit 1 when a true diagnostic is gone or demoted (with --strict also on a wrong one or a
// precision under 90%), 2 on bad arguments.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export type Verdict = 'true' | 'wrong' | 'noise';

/** One judged diagnostic: facts about it, never the repository's text. */
export interface VerdictRow {
  repo: string;
  commit: string;
  /** The agent profiles that reported it. */
  agents: string[];
  code: string;
  /** As reported when judged. */
  severity: string;
  /** Relative to the checkout, with `/`. */
  path: string;
  /** 1-based, as `check --format json` prints. */
  line: number;
  column: number;
  /** First 10 hex digits of the SHA-1 of the message judged (tells apart per-agent copies). */
  msg: string;
  verdict: Verdict;
  reason: string;
  /** Which release of `check` first showed it. */
  found: string;
}

export interface ReviewedRepo {
  repo: string;
  commit: string;
  /** Folder name of its checkout under a checkouts folder (`owner+name`). */
  checkout: string;
  files: number;
  instructionFiles: number;
  setup: string;
}

/** A diagnostic as `check --format json` prints it (older releases lack `agents`). */
export interface Reported {
  path: string;
  line: number;
  column: number;
  severity: string;
  code: string;
  message: string;
  agents?: string[];
}

export interface Judged {
  diagnostic: Reported;
  /** Relative path. */
  rel: string;
  verdict: Verdict | 'unjudged';
  rows: VerdictRow[];
}

export interface RepoReview {
  repo: string;
  commit: string;
  visible: number;
  counts: Record<Verdict | 'unjudged', number>;
  /** true / visible; null when nothing is visible. */
  precision: number | null;
  /** Verdict-true rows no visible diagnostic covers any more. */
  lost: VerdictRow[];
  /** Verdict-true rows now covered only by hints. */
  demoted: VerdictRow[];
  judged: Judged[];
  hints: Judged[];
}

export const messageHash = (message: string): string => createHash('sha1').update(message).digest('hex').slice(0, 10);

const VISIBLE = new Set(['error', 'warning', 'info']);

/** Relative to the checkout, through symlinks: a file and its symlink are one place. */
function relPath(root: string, p: string): string {
  let abs = path.isAbsolute(p) ? p : path.join(root, p);
  try {
    abs = fs.realpathSync(abs);
  } catch {
    // A missing file (an import target) keeps its written path.
  }
  return path.relative(root, abs).split(path.sep).join('/');
}

/** Verdict rows a reported diagnostic stands for: same file and code, an agent in common, the same place. */
export function rowsFor(d: Reported, rel: string, rows: VerdictRow[]): VerdictRow[] {
  let c = rows.filter((r) => r.path === rel && r.code === d.code);
  if (d.agents) c = c.filter((r) => r.agents.some((a) => d.agents!.includes(a)));
  const atLine = c.filter((r) => r.line === d.line);
  const atColumn = atLine.filter((r) => r.column === d.column);
  const found = atColumn.length ? atColumn : atLine;
  // Without agent ids (the first release), only the message tells apart per-agent copies.
  return d.agents ? found : found.filter((r) => r.msg === messageHash(d.message));
}

/** A diagnostic standing for several rows is true when any of them is: one entry naming the agents for a real problem. */
function verdictOf(rows: VerdictRow[]): Verdict | 'unjudged' {
  if (!rows.length) return 'unjudged';
  if (rows.some((r) => r.verdict === 'true')) return 'true';
  if (rows.some((r) => r.verdict === 'wrong')) return 'wrong';
  return 'noise';
}

/** Hold one checkout's diagnostics against its verdict rows. */
export function compare(root: string, diagnostics: Reported[], rows: VerdictRow[], meta: { repo: string; commit: string }): RepoReview {
  rows = rows.map((r) => ({ ...r, path: relPath(root, r.path) }));
  const all = diagnostics.map((d) => {
    const rel = relPath(root, d.path);
    const matched = rowsFor(d, rel, rows);
    return { diagnostic: d, rel, verdict: verdictOf(matched), rows: matched };
  });
  const judged = all.filter((j) => VISIBLE.has(j.diagnostic.severity));
  const hints = all.filter((j) => !VISIBLE.has(j.diagnostic.severity));
  const coveredVisible = new Set(judged.flatMap((j) => j.rows));
  const coveredHint = new Set(hints.flatMap((j) => j.rows));
  const trueRows = rows.filter((r) => r.verdict === 'true');
  const counts = { true: 0, wrong: 0, noise: 0, unjudged: 0 };
  for (const j of judged) counts[j.verdict]++;
  return {
    ...meta,
    visible: judged.length,
    counts,
    precision: judged.length ? counts.true / judged.length : null,
    lost: trueRows.filter((r) => !coveredVisible.has(r) && !coveredHint.has(r)),
    demoted: trueRows.filter((r) => !coveredVisible.has(r) && coveredHint.has(r)),
    judged,
    hints,
  };
}

export function readVerdicts(dir: string): { repos: ReviewedRepo[]; rows: VerdictRow[] } {
  const repos = JSON.parse(fs.readFileSync(path.join(dir, 'repos.json'), 'utf8')) as ReviewedRepo[];
  const rows = fs
    .readFileSync(path.join(dir, 'verdicts.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as VerdictRow);
  return { repos, rows };
}

/** `check --format json` of the CLI on a checkout, hints included where the CLI has them. */
export function runCheck(cli: string, root: string): Reported[] {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'il-review-home-'));
  try {
    const run = (args: string[]) =>
      spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, env: { ...process.env, HOME: home } });
    // A release without --verbose prints every diagnostic anyway.
    const verbose = run(['--help']).stdout.includes('--verbose') ? ['--verbose'] : [];
    const r = run(['check', root, '--format', 'json', '--home', home, ...verbose]);
    if (r.status !== 0 && r.status !== 1) throw new Error(`check failed on ${root} (exit ${r.status}): ${r.stderr.trim().split('\n')[0]}`);
    return (JSON.parse(r.stdout) as { diagnostics: Reported[] }).diagnostics;
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

export function headCommit(root: string): string | undefined {
  const r = spawnSync('git', ['-C', root, 'rev-parse', 'HEAD'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

export const pct = (x: number | null) => (x === null ? 'n/a' : `${(100 * x).toFixed(1)}%`);
const where = (r: { path: string; line: number; column: number }) => `${r.path}:${r.line}:${r.column}`;

export function formatReview(r: RepoReview, verbose = false): string {
  const out = [
    `${r.repo} @ ${r.commit.slice(0, 12)}: ${r.visible} visible, ${r.counts.true} true, ${r.counts.wrong} wrong, ${r.counts.noise} noise, ${r.counts.unjudged} unjudged; precision ${pct(r.precision)}; ${r.hints.length} hint${r.hints.length === 1 ? '' : 's'}`,
  ];
  for (const row of r.lost) out.push(`  LOST     ${where(row)} ${row.code} [${row.agents.join(', ')}]: judged true (${row.reason}), no longer reported`);
  for (const row of r.demoted) out.push(`  DEMOTED  ${where(row)} ${row.code} [${row.agents.join(', ')}]: judged true (${row.reason}), now only a hint`);
  for (const j of r.judged.filter((x) => x.verdict === 'wrong' || (verbose && x.verdict === 'noise')))
    out.push(`  ${j.verdict.toUpperCase().padEnd(8)} ${j.rel}:${j.diagnostic.line}:${j.diagnostic.column} ${j.diagnostic.code}: ${j.rows[0].reason}`);
  if (!verbose && r.counts.noise) {
    const byCode = new Map<string, number>();
    for (const j of r.judged.filter((x) => x.verdict === 'noise')) byCode.set(j.diagnostic.code, (byCode.get(j.diagnostic.code) ?? 0) + 1);
    out.push(`  NOISE    ${[...byCode].map(([c, n]) => `${c} ×${n}`).join(', ')} (--verbose lists them)`);
  }
  for (const j of r.judged.filter((x) => x.verdict === 'unjudged'))
    out.push(`  NEW      ${j.rel}:${j.diagnostic.line}:${j.diagnostic.column} ${j.diagnostic.severity} ${j.diagnostic.code}${j.diagnostic.agents ? ` [${j.diagnostic.agents.join(', ')}]` : ''}: ${j.diagnostic.message}`);
  return out.join('\n');
}

export function totals(reviews: RepoReview[]) {
  const visible = reviews.reduce((n, r) => n + r.visible, 0);
  const sum = (k: Verdict | 'unjudged') => reviews.reduce((n, r) => n + r.counts[k], 0);
  return {
    repositories: reviews.length,
    visible,
    true: sum('true'),
    wrong: sum('wrong'),
    noise: sum('noise'),
    unjudged: sum('unjudged'),
    hints: reviews.reduce((n, r) => n + r.hints.length, 0),
    precision: visible ? sum('true') / visible : null,
    lost: reviews.reduce((n, r) => n + r.lost.length, 0),
    demoted: reviews.reduce((n, r) => n + r.demoted.length, 0),
  };
}
