import fc from 'fast-check';
import { describe, it } from 'node:test';
import { PROFILES } from '../../src/core/profiles';
import { runCase, type Case } from './fuzz/properties';
import { features, treeSpec } from './fuzz/trees';

// Property-based tests: random instruction trees, every profile, the invariants in
// fuzz/properties.ts. `npm test` runs a fixed-seed pass of 5,000 cases; `npm run test:fuzz` the
// long one, 100,000 cases (IL_FUZZ_RUNS and IL_FUZZ_SEED change either). Both print what the
// cases covered.

const LONG = process.env.npm_lifecycle_event === 'test:fuzz';
const RUNS = Number(process.env.IL_FUZZ_RUNS ?? (LONG ? 100_000 : 5000));
// The short pass keeps one seed, so it fails the same way for everyone; the long one takes a
// fresh seed each time (printed, to replay a failure with IL_FUZZ_SEED) unless told one.
const seedSetting = process.env.IL_FUZZ_SEED ?? (LONG ? 'random' : '20261201');
const SEED = seedSetting === 'random' ? Date.now() % 2 ** 31 : Number(seedSetting);

const cases: fc.Arbitrary<Case> = fc.record({
  spec: treeSpec,
  profile: fc.constantFrom(...PROFILES.map((p) => p.id)),
  // `check` walks every folder for the profile: one case in eight runs it too.
  withCheck: fc.integer({ min: 0, max: 7 }).map((n) => n === 0),
});

/** Counts of labels over the cases run, printed as percentages. */
function tally(counts: Map<string, number>, labels: string[]): void {
  for (const l of labels) counts.set(l, (counts.get(l) ?? 0) + 1);
}

function report(title: string, counts: Map<string, number>, total: number): void {
  process.stdout.write(`# ${title}\n`);
  for (const [label, n] of [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))) {
    process.stdout.write(`#   ${label.padEnd(40, '.')} ${((100 * n) / total).toFixed(2).padStart(6)}% (${n})\n`);
  }
}

describe('property-based: every profile on random trees', () => {
  it(`${RUNS.toLocaleString('en-US')} cases (seed ${SEED}): no exception, documented shape, budgets add up, same answer twice, no write`, { timeout: 24 * 3_600_000 }, () => {
    const results = new Map<string, number>();
    const started = Date.now();
    fc.assert(
      fc.property(cases, (c) => {
        tally(results, runCase(c));
      }),
      { numRuns: RUNS, seed: SEED, includeErrorInReport: true },
    );
    const seconds = (Date.now() - started) / 1000;
    process.stdout.write(`# fuzz: ${RUNS} cases in ${seconds.toFixed(1)} s (${(RUNS / seconds) | 0} cases/s), seed ${SEED}\n`);
    // What the cases covered, so trivial trees cannot pad the count: fc.statistics of the inputs
    // (on the same generator and seed), then what the answers held.
    const lines: string[] = [];
    fc.statistics(cases, (c) => [...features(c.spec), `agent ${c.profile}`, ...(c.withCheck ? ['with check'] : [])], { numRuns: RUNS, seed: SEED, logger: (s) => lines.push(s) });
    process.stdout.write('# fc.statistics of the inputs:\n');
    for (const l of lines.join('\n').split('\n')) if (l.trim()) process.stdout.write(`#   ${l.trim()}\n`);
    report('what the answers held (share of cases):', results, RUNS);
  });
});
