import { requiredRuns, type ListSearch } from './core/check';
import { firstNotBelow } from './core/paths';

/**
 * The CLI's listings of the work tree kept as git printed them (`-z`: each path ended by `\0`,
 * after a tag of `tag` characters with `-t`), by the list of paths made of each. `check` asks
 * questions of every path of the list (which are instruction files, which globs match none), and
 * one search of git's text by the engine answers them for less than a test of each path
 * (`gitListSearch`). The CLI's alone: the extension's bundles, counted against their cap, do not
 * carry it.
 */
const texts = new WeakMap<readonly string[], { text: string; tag: number }>();

/** Keep `text` as the text `list` was made of; `list` itself. */
export function withText<T extends readonly string[]>(list: T, text: string, tag = 0): T {
  texts.set(list, { text, tag });
  return list;
}

/** The text `list` was made of, untagged (`withText`). */
export function textOf(list: readonly string[]): string | undefined {
  const known = texts.get(list);
  return known && !known.tag ? known.text : undefined;
}

/** A list's text, with where each path starts in it (and where one more would). */
interface ListText {
  text: string;
  starts: Int32Array;
}

const searchable = new WeakMap<readonly string[], ListText | undefined>();

/**
 * `list`'s text, with its paths' offsets, made once. Undefined without one, or when the text
 * holds a letter whose lower case is another length or a plain letter (`İ`, the Kelvin sign): a
 * search that ignores case does not find there what a test of the path's lower case finds.
 */
function listText(list: readonly string[]): ListText | undefined {
  if (searchable.has(list)) return searchable.get(list);
  const known = texts.get(list);
  let found: ListText | undefined;
  if (known && !/[\u0130\u212a]/.test(known.text)) {
    const starts = new Int32Array(list.length + 1);
    let at = 0;
    for (let i = 0; i < list.length; i++) {
      starts[i] = at + known.tag;
      at += known.tag + list[i].length + 1;
    }
    starts[list.length] = at + known.tag;
    // A list that is not what the text holds (changed since) is not searched.
    if (at === known.text.length) found = { text: known.text, starts };
  }
  searchable.set(list, found);
  return found;
}

/** A run of plain text as an expression that finds it ignoring case (the runs are letters, digits, `_`, `.` and `-`). */
function ignoringCase(runs: readonly string[]): RegExp {
  return new RegExp(runs.map((r) => r.replace(/[.]/g, '\\.')).join('|'), 'gi');
}

/** Where `re` (global) is first found in `text` from `at`, or -1. */
function find(re: RegExp, text: string, at: number): number {
  re.lastIndex = at;
  return re.exec(text)?.index ?? -1;
}

/** The path of a list's text that holds offset `at` (the last that starts at or before it), from `lo` to `hi`. */
function pathAt(starts: Int32Array, lo: number, hi: number, at: number): number {
  return firstNotBelow(lo, hi, (i) => starts[i + 1] <= at);
}

/**
 * Short runs such that every path one of `patterns` matches holds one of them, ignoring case: three
 * letters of each pattern's plain runs (`requiredRuns`; `[Aa]` read as the letter), as few as
 * cover every pattern (the agents' take two: `.md`, `rul`). A search for a few runs is machine
 * code; for one run per pattern, seventeen, it took longer than a test of each path. Undefined
 * when a pattern has no plain run.
 */
function coveringRuns(patterns: readonly string[]): string[] | undefined {
  const grams = patterns.map((p) => {
    const runs = requiredRuns(p.replace(/\[([a-z])([a-z])\]/gi, (m, a: string, b: string) => (a.toLowerCase() === b.toLowerCase() ? a : m)));
    return new Set(runs?.flatMap((r) => (r.length <= 3 ? [r] : Array.from({ length: r.length - 2 }, (_, i) => r.slice(i, i + 3)))));
  });
  if (grams.some((g) => !g.size)) return undefined;
  const out: string[] = [];
  for (let left = grams; left.length; ) {
    const count = new Map<string, number>();
    for (const g of left) for (const x of g) count.set(x, (count.get(x) ?? 0) + 1);
    const best = [...count].reduce((a, b) => (b[1] > a[1] ? b : a))[0];
    out.push(best);
    left = left.filter((g) => !g.has(best));
  }
  return out;
}

/**
 * The paths of `list` from the `from`th on that are named one of `names` (whole, or after a `/` or
 * `\\`), in the list's order, as `namedAny` picks them: each name looked for at the end of a path
 * of git's text. Undefined without that text.
 */
export function namedIn(list: readonly string[], names: readonly string[], from = 0): string[] | undefined {
  const known = listText(list);
  if (!known) return undefined;
  const { text, starts } = known;
  const hits: number[] = [];
  for (const name of new Set(names)) {
    const ending = `${name}\0`;
    for (let at = text.indexOf(ending, starts[from]); at >= 0; at = text.indexOf(ending, at + 1)) {
      const n = pathAt(starts, from, list.length, at);
      // The text ends each path with `\0`: a name found before one ends its path.
      if (at === starts[n] || text[at - 1] === '/' || text[at - 1] === '\\') hits.push(n);
    }
  }
  return [...new Set(hits.sort((a, b) => a - b))].map((n) => list[n]);
}

/** The expressions for each glob's runs, made once per glob (`someMatch` is asked once per folder's range). */
const runExpressions = new WeakMap<readonly string[], { longest: RegExp; all: RegExp[] }>();

/** `check`'s questions about every path of a listing the CLI keeps git's text of (`withText`). */
export const gitListSearch: ListSearch = {
  covers: (list) => listText(list) !== undefined,

  instructionFiles(list, patterns, isInstruction) {
    // No agent chosen: no pattern, and no run to search for (an empty one would match everywhere).
    if (!patterns.length) return [];
    const known = listText(list);
    const runs = known && coveringRuns(patterns);
    if (!runs) return undefined;
    const { text, starts } = known!;
    const re = ignoringCase(runs);
    const out: string[] = [];
    for (let hit = find(re, text, 0); hit >= 0; ) {
      const n = pathAt(starts, 0, list.length, hit);
      // Only a path holding the run is tested, once; then the search goes on from the next path.
      if (hit < starts[n] + list[n].length && isInstruction(list[n])) out.push(list[n]);
      hit = find(re, text, starts[n + 1]);
    }
    return out;
  },

  someMatch(list, lo, hi, from, runs, matches) {
    const { text, starts } = listText(list)!;
    let known = runExpressions.get(runs);
    if (!known) {
      const all = runs.map((r) => ignoringCase([r]));
      runExpressions.set(runs, (known = { all, longest: all.reduce((a, b) => (b.source.length > a.source.length ? b : a)) }));
    }
    // The range's part of the text alone (a slice shares the text's characters): a run missing
    // there is not searched for to the end of the text. Offsets below are in it.
    const base = starts[lo];
    const part = text.slice(base, starts[hi]);
    for (let at = 0; at < part.length; ) {
      const hit = find(known.longest, part, at);
      if (hit < 0) return false;
      const n = pathAt(starts, lo, hi, hit + base);
      const begin = starts[n] - base + from;
      const end = starts[n] - base + list[n].length;
      // In the folder's part of the path: looked for again after it.
      if (hit < begin) at = begin;
      else if (known.all.every((re) => find(re, part, begin) >= 0 && re.lastIndex <= end) && matches(list[n].slice(from))) return true;
      else at = starts[n + 1] - base;
    }
    return false;
  },
};
