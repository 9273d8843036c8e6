// `npm run review -- <checkout> [<checkout> …]`: see review.ts.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compare, formatReview, headCommit, pct, readVerdicts, runCheck, totals, type RepoReview } from './review';

function main(argv: string[]): number {
  const here = path.resolve(__dirname, '../../..');
  let verdictDir = path.join(here, 'test/review');
  let cli = path.join(here, 'dist/cli.js');
  let json = false;
  let strict = false;
  let verbose = false;
  const checkouts: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') json = true;
    else if (a === '--strict') strict = true;
    else if (a === '--verbose') verbose = true;
    else if (a === '--verdicts' || a === '--cli') {
      const v = argv[++i];
      if (!v) return usage(`${a} needs a path`);
      if (a === '--verdicts') verdictDir = path.resolve(v);
      else cli = path.resolve(v);
    } else if (a === '-h' || a === '--help') return usage();
    else if (a.startsWith('-')) return usage(`unknown option ${a}`);
    else checkouts.push(a);
  }
  if (!checkouts.length) return usage('name at least one checkout');
  const { repos, rows } = readVerdicts(verdictDir);
  const reviews: RepoReview[] = [];
  for (const c of checkouts) {
    const root = fs.realpathSync(path.resolve(c));
    const commit = headCommit(root);
    const repo = repos.find((r) => r.commit === commit);
    if (!repo) {
      process.stderr.write(`instruction-lens review: ${c}: HEAD ${commit ?? '(not a git checkout)'} is no reviewed commit (see ${path.join(verdictDir, 'repos.json')})\n`);
      return 2;
    }
    const mine = rows.filter((r) => r.repo === repo.repo && r.commit === repo.commit);
    reviews.push(compare(root, runCheck(cli, root), mine, { repo: repo.repo, commit: repo.commit }));
  }
  const t = totals(reviews);
  if (json) process.stdout.write(JSON.stringify({ totals: t, repositories: reviews }, null, 2) + '\n');
  else {
    for (const r of reviews) process.stdout.write(formatReview(r, verbose) + '\n');
    process.stdout.write(
      `\n${t.repositories} repositor${t.repositories === 1 ? 'y' : 'ies'}: ${t.visible} visible diagnostics, ${t.true} true, ${t.wrong} wrong, ${t.noise} noise, ${t.unjudged} unjudged; precision ${pct(t.precision)}; ${t.lost} true lost, ${t.demoted} true demoted to hints.\n`,
    );
  }
  const failed = t.lost + t.demoted > 0 || (strict && (t.wrong > 0 || (t.precision ?? 1) < 0.9));
  return failed ? 1 : 0;
}

function usage(problem?: string): number {
  if (problem) process.stderr.write(`instruction-lens review: ${problem}\n`);
  process.stderr.write('Usage: npm run review -- <checkout> [<checkout> …] [--json] [--strict] [--verbose] [--verdicts <dir>] [--cli <dist/cli.js>]\n');
  return problem ? 2 : 0;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (e) {
  process.stderr.write(`instruction-lens review: ${(e as Error).message}\n`);
  process.exitCode = 1;
}
