// The real-world review (test/review): the matching rules on small inputs, `npm run review`'s
// program end to end on a checkout made here, and the replay of the committed verdicts on every
// reviewed repository whose checkout is present (IL_REVIEW_REPOS: a folder of `owner+name`
// checkouts at the reviewed commits).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { compare, headCommit, messageHash, readVerdicts, type Reported, type VerdictRow } from '../review/review';

const REVIEW = path.resolve(__dirname, '../review/review.js');
const VERDICTS = path.resolve(__dirname, '../../../test/review');

function row(over: Partial<VerdictRow>): VerdictRow {
  return {
    repo: 'o/r', commit: 'c', agents: ['claude-code'], code: 'import-missing', severity: 'error', path: 'CLAUDE.md', line: 3, column: 1,
    msg: messageHash('m'), verdict: 'true', reason: 'r', found: 'test', ...over,
  };
}

function reported(over: Partial<Reported>): Reported {
  return { path: 'CLAUDE.md', line: 3, column: 1, severity: 'error', code: 'import-missing', message: 'anything', ...over };
}

describe('review: matching diagnostics to verdicts', () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'il-review-m-')));
  before(() => {
    fs.writeFileSync(path.join(root, 'AGENTS.md'), 'x\n');
    fs.symlinkSync('AGENTS.md', path.join(root, 'CLAUDE.md'));
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));
  const meta = { repo: 'o/r', commit: 'c' };

  it('one entry naming several agents stands for each agent\'s row, and is true when any of them is', () => {
    const rows = [row({ agents: ['claude-code'], verdict: 'true' }), row({ agents: ['copilot-cli'], verdict: 'noise' })];
    const r = compare(root, [reported({ agents: ['claude-code', 'copilot-cli'] })], rows, meta);
    assert.deepEqual([r.visible, r.counts.true, r.precision, r.lost.length], [1, 1, 1, 0]);
  });

  it('a true row reported only as a hint is demoted, and a true row not reported is lost', () => {
    const rows = [row({ line: 3 }), row({ line: 9 })];
    const r = compare(root, [reported({ severity: 'hint', agents: ['claude-code'] })], rows, meta);
    assert.deepEqual([r.visible, r.demoted.map((x) => x.line), r.lost.map((x) => x.line)], [0, [3], [9]]);
  });

  it('an agent with no row of its own is not covered by another agent\'s verdict: the diagnostic is unjudged', () => {
    const r = compare(root, [reported({ agents: ['codex'] })], [row({ agents: ['claude-code'] })], meta);
    assert.deepEqual([r.counts.unjudged, r.lost.length], [1, 1]);
  });

  it('a file and its symlink are one place: a row at CLAUDE.md matches a diagnostic at AGENTS.md', () => {
    const r = compare(root, [reported({ path: path.join(root, 'AGENTS.md'), agents: ['claude-code'] })], [row({ path: 'CLAUDE.md' })], meta);
    assert.deepEqual([r.counts.true, r.lost.length], [1, 0]);
  });

  it('without agent ids (the first release), the message hash tells per-agent copies apart', () => {
    const rows = [row({ agents: ['claude-code'], msg: messageHash('a'), verdict: 'true' }), row({ agents: ['codex'], msg: messageHash('b'), verdict: 'wrong' })];
    const r = compare(root, [reported({ message: 'b' })], rows, meta);
    assert.deepEqual(r.counts, { true: 0, wrong: 1, noise: 0, unjudged: 0 });
  });
});

describe('npm run review: the program on a checkout made here', () => {
  let tmp: string;
  let checkout: string;
  let verdicts: string;
  let commit: string;
  const review = (...args: string[]) => spawnSync(process.execPath, [REVIEW, '--verdicts', verdicts, ...args], { encoding: 'utf8' });

  before(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'il-review-e2e-')));
    checkout = path.join(tmp, 'o+r');
    verdicts = path.join(tmp, 'verdicts');
    fs.mkdirSync(checkout, { recursive: true });
    fs.mkdirSync(verdicts);
    // A broken import (a problem for Claude Code), a package name in a code span (none).
    fs.writeFileSync(path.join(checkout, 'CLAUDE.md'), '# Rules\n\nUse `@scope/pkg` for HTTP.\n@docs/missing.md\n');
    const git = (...a: string[]) => spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...a], { cwd: checkout, encoding: 'utf8' });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'x');
    commit = headCommit(checkout)!;
    fs.writeFileSync(path.join(verdicts, 'repos.json'), JSON.stringify([{ repo: 'o/r', commit, checkout: 'o+r', files: 1, instructionFiles: 1, setup: '1 CLAUDE.md' }]));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const write = (rows: VerdictRow[]) => fs.writeFileSync(path.join(verdicts, 'verdicts.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');

  /** A row judging the broken import as reported now (agent ids where the release gives them, else the message). */
  let brokenImport: VerdictRow;
  it('with no verdicts every visible diagnostic is unjudged, and the broken import is among them', () => {
    write([]);
    const r = review('--json', checkout);
    assert.equal(r.status, 0, r.stderr);
    const judged: { diagnostic: Reported; rel: string; verdict: string }[] = JSON.parse(r.stdout).repositories[0].judged;
    assert.ok(judged.length > 0 && judged.every((j) => j.verdict === 'unjudged'));
    const d = judged.find((j) => j.diagnostic.code === 'import-missing' && j.rel === 'CLAUDE.md' && j.diagnostic.line === 4)!.diagnostic;
    brokenImport = row({ commit, agents: d.agents ?? ['claude-code'], path: 'CLAUDE.md', line: 4, column: d.column, msg: messageHash(d.message) });
  });

  it('a true verdict still reported: exit 0, counted true; everything else reported is listed as unjudged', () => {
    write([brokenImport]);
    const r = review('--json', checkout);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.totals.true, 1);
    assert.equal(out.totals.lost, 0);
    assert.equal(out.totals.visible, out.totals.true + out.totals.unjudged);
    const text = review(checkout);
    assert.match(text.stdout, /^o\/r @ [0-9a-f]{12}: \d+ visible, 1 true, 0 wrong, 0 noise, \d+ unjudged; precision /m);
  });

  it('a true verdict no longer reported fails, naming it', () => {
    write([brokenImport, { ...brokenImport, line: 9, reason: 'gone now' }]);
    const r = review(checkout);
    assert.equal(r.status, 1);
    assert.match(r.stdout, /LOST {5}CLAUDE\.md:9:\d+ import-missing \[[a-z-, ]+\]: judged true \(gone now\)/);
    assert.match(r.stdout, /1 true lost, 0 true demoted to hints\.$/m);
  });

  it('--strict also fails on a visible diagnostic judged wrong', () => {
    write([{ ...brokenImport, verdict: 'wrong' }]);
    assert.equal(review(checkout).status, 0);
    assert.equal(review('--strict', checkout).status, 1);
  });

  it('a checkout at a commit nobody reviewed is refused', () => {
    fs.writeFileSync(path.join(verdicts, 'repos.json'), '[]');
    const r = review(checkout);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /is no reviewed commit/);
    fs.writeFileSync(path.join(verdicts, 'repos.json'), JSON.stringify([{ repo: 'o/r', commit, checkout: 'o+r', files: 1, instructionFiles: 1, setup: '' }]));
  });
});

describe('the committed review', () => {
  const { repos, rows } = readVerdicts(VERDICTS);

  it('judges every diagnostic of every reviewed repository, with facts only', () => {
    assert.ok(repos.length >= 15, `${repos.length} repositories`);
    for (const r of rows) {
      assert.ok(repos.some((x) => x.repo === r.repo && x.commit === r.commit), `${r.repo}@${r.commit} is listed in repos.json`);
      assert.ok(['true', 'wrong', 'noise'].includes(r.verdict), `${r.repo} ${r.path}:${r.line} has a verdict`);
      assert.ok(r.reason.length > 10 && r.reason.length < 240, `${r.repo} ${r.path}:${r.line} has a one-line reason`);
      assert.ok(r.agents.length > 0);
    }
  });

  it('replays on every reviewed repository checked out under IL_REVIEW_REPOS: nothing judged true is lost or demoted', (t) => {
    const dir = process.env.IL_REVIEW_REPOS;
    const present = dir ? repos.filter((r) => headCommit(path.join(dir, r.checkout)) === r.commit) : [];
    t.diagnostic(`replayed ${present.length} of ${repos.length} reviewed repositories${dir ? ` found in ${dir}` : ' (set IL_REVIEW_REPOS to a folder of owner+name checkouts to replay them)'}`);
    if (!present.length) return;
    const r = spawnSync(process.execPath, [REVIEW, '--json', ...present.map((p) => path.join(dir!, p.checkout))], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    assert.ok(r.status === 0 || r.status === 1, r.stderr);
    const out = JSON.parse(r.stdout);
    t.diagnostic(`precision ${(100 * out.totals.precision).toFixed(1)}% (${out.totals.true} true of ${out.totals.visible} visible; ${out.totals.wrong} wrong, ${out.totals.noise} noise, ${out.totals.unjudged} unjudged)`);
    const lost = out.repositories.flatMap((x: { repo: string; lost: VerdictRow[]; demoted: VerdictRow[] }) => [...x.lost, ...x.demoted].map((l) => `${x.repo} ${l.path}:${l.line} ${l.code}`));
    assert.deepEqual(lost, []);
  });
});
