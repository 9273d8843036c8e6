import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';
import * as os from 'node:os';
import { checkKey, refreshHost, resolveChain, resolveContext, type ChainRequest, type Host } from './chain';
import { readConfig, suppress } from './config';
import { diag, RULES, uniqueDiagnostics } from './diagnostics';
import { mergeDiagnostics } from './merge';
import { PROFILES } from './profiles';
import { matchesAny, relativeInside, SegmentIndex } from './globs';
import { firstNotBelow, isInside, pathKey, SKIP_DIRS, type PathRules } from './paths';
import type { Chain, Diagnostic, Source } from './model';
import { governedFolders } from './patterns';
import type { Profile } from './profile';
import { readText } from './readText';

export interface CheckResult {
  root: string;
  /** The profile ids checked. */
  agents: string[];
  /** Where they came from: the caller, the repository's configuration file, or detection. */
  agentsFrom: 'pinned' | 'config' | 'detected';
  /** The repository's configuration file, when it has one. */
  configFile?: string;
  /** Instruction files found, absolute. */
  files: string[];
  /** How they were found. */
  via: 'git' | 'walk';
  diagnostics: Diagnostic[];
}

/**
 * Every file under `root` (git: tracked plus untracked-not-ignored; otherwise a walk that
 * honours every `.gitignore` on the way, as git does), relative with `/`.
 */
export function listFiles(host: Host, root: string): { files: string[]; via: 'git' | 'walk'; loops?: string[] } {
  const gitRoot = host.git.root(root);
  if (gitRoot) {
    // Untracked instruction files are linted too: they are what the user is writing now.
    const listed = gitRoot === root ? host.git.workTreeRelative?.(gitRoot) : folderListing(host, gitRoot, root);
    if (listed) return { files: listed, via: 'git' };
    const tracked = host.git.workTreeFiles?.(gitRoot) ?? host.git.trackedFiles(gitRoot);
    if (tracked) {
      const files = tracked.map((f) => relativeInside(root, f, host.fs)).filter((f): f is string => !!f);
      return { files, via: 'git' };
    }
  }
  return { ...walk(host, root), via: 'walk' };
}

/**
 * The files under `root`, a folder inside the repository at `gitRoot`, from git's listing of that
 * folder alone (what the extension checks after an edit: one folder of a 57k files' repository).
 */
function folderListing(host: Host, gitRoot: string, root: string): string[] | undefined {
  const folder = listedFolder(host, gitRoot, root);
  return folder ? host.git.workTreeUnder?.(gitRoot, folder)?.map((f) => f.slice(folder.length + 1)) : undefined;
}

/**
 * `root` relative to `gitRoot`, when `check` lists that folder alone (`GitIndex.workTreeUnder`):
 * not for the repository's root, nor on a disk that ignores case, where the folder may be spelled
 * otherwise than git keeps it and a pathspec would not match it (the whole list is cut back there).
 */
export function listedFolder(host: Host, gitRoot: string, root: string): string | undefined {
  return host.fs.caseInsensitive ? undefined : relativeInside(gitRoot, root, host.fs) || undefined;
}

/** The `.gitignore` of one folder, with the folder it speaks for (relative to the walk's root). */
interface IgnoreFile {
  base: string;
  rules: Ignore;
}

/**
 * A walk that skips what git would ignore: each folder's `.gitignore` applies below it, a
 * deeper file's rules (negations included) win over a shallower one's, and nothing below an
 * ignored folder comes back (as in git). `.git/info/exclude` and the global excludes file are
 * not read.
 */
function walk(host: Host, root: string): { files: string[]; loops: string[] } {
  const path = host.fs.path;
  const out: string[] = [];
  const loops: string[] = [];
  // Each folder's real path comes from its parent's, and is asked of the disk only through a
  // link: resolving every folder from the root costs one lstat per level, quadratic in depth
  // (500 nested folders took 125,000 lstat calls).
  const stack: { rel: string; ignores: IgnoreFile[]; parentReal?: string; real?: string }[] = [{ rel: '', ignores: [] }];
  // Each real folder once: a link back up (`ln -s . loop`) would list every file again per
  // level, and two such links multiply (git lists a link as a file and never follows it). A
  // link to a folder it sits in is a loop, returned so `check` can say so.
  const visited = new Set<string>(); // path keys of real folders
  while (stack.length) {
    const { rel, ignores: above, parentReal, real: known } = stack.pop()!;
    const dir = path.join(root, rel);
    const real = known ?? host.fs.realPath(dir);
    if (visited.has(pathKey(host.fs, real))) {
      if (parentReal !== undefined && isInside(parentReal, real, host.fs) && host.fs.isSymlink(dir)) loops.push(dir);
      continue;
    }
    visited.add(pathKey(host.fs, real));
    const own = readIgnore(host, dir, rel);
    const ignores = own ? [...above, own] : above;
    for (const e of host.fs.readDir(dir)) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.type === 'dir') {
        if (!SKIP_DIRS.has(e.name) && !isIgnored(ignores, child, true)) {
          const through = host.fs.isSymlink(path.join(dir, e.name));
          stack.push({ rel: child, ignores, parentReal: real, ...(through ? {} : { real: path.join(real, e.name) }) });
        }
        // A FIFO or socket named like an instruction file is listed too, so its chain reports it.
      } else if (!isIgnored(ignores, child, false)) out.push(child);
    }
  }
  return { files: out.sort(), loops: loops.sort() };
}

function readIgnore(host: Host, dir: string, base: string): IgnoreFile | undefined {
  const r = readText(host.fs, host.fs.path.join(dir, '.gitignore'));
  return r.state === 'ok' ? { base, rules: ignore().add(r.text) } : undefined;
}

/** Whether git ignores `rel`: the deepest `.gitignore` with a rule for it decides. */
function isIgnored(ignores: readonly IgnoreFile[], rel: string, isDir: boolean): boolean {
  for (let i = ignores.length - 1; i >= 0; i--) {
    const { base, rules } = ignores[i];
    const sub = base ? rel.slice(base.length + 1) : rel;
    const verdict = rules.test(isDir ? `${sub}/` : sub);
    if (verdict.ignored) return true;
    if (verdict.unignored) return false;
  }
  return false;
}

/**
 * Lint every instruction file under `root` for the given agents: resolve the chain each agent
 * builds for every folder that holds instruction files, keep the diagnostics about files
 * under `root`, and check every conditional rule's globs against the files that exist.
 */
export interface CheckOptions {
  home?: string;
  env?: Record<string, string | undefined>;
  settings?: Record<string, Record<string, unknown>>;
  /**
   * Where the agent starts for a folder being checked: a directory, or a function of the folder
   * (the extension's `fileFolder` mode). Default: the root of the repository holding the folder, else `root`.
   */
  launchDir?: string | ((folder: string) => string);
  /** Merge what several agents report at one place into one diagnostic (default); false keeps one per agent. */
  merge?: boolean;
  /**
   * Resolve every folder for every agent, even where a profile's `checkKey` says the answer is
   * one already found (the tests compare the two ways).
   */
  everyFolder?: boolean;
  /**
   * The files to check, relative with `/`, in place of the listing of `root` (`listFiles`): the
   * CLI's first pass, on the tracked files alone while git walks the work tree for the others.
   */
  listed?: { files: readonly string[]; via: 'git'; loops?: string[] };
  /**
   * Chains of this refresh by profile id and folder (`${id}\0${folder}`), which the pass takes as
   * they are (a chain is the same whenever it is resolved in one refresh)…
   */
  chains?: ReadonlyMap<string, Chain & { fatal?: string }>;
  /** …and where it keeps each chain it resolves (the CLI's first pass, for the second). */
  keep?: Map<string, Chain & { fatal?: string }>;
  /** Of the agents chosen, those the pass checks (the CLI's first pass leaves out those that ask git for more than its index). */
  only?: (profile: Profile) => boolean;
  /** Where the list of files can be searched as a whole (the CLI's: git's text of it). */
  search?: ListSearch;
}

/**
 * Questions about every path of a list, answered by a search of the list as a whole, where testing
 * each path costs more (57,000 on test262's shape): the CLI searches git's own text of its
 * listing (src/cliListText.ts). Each answer is the one a test of every path gives.
 */
export interface ListSearch {
  /** Whether it can search `list` (it knows that list). */
  covers(list: readonly string[]): boolean;
  /** The paths of `list` that `isInstruction` accepts, in order (`patterns`: what it tests); undefined when it cannot search `list`. */
  instructionFiles(list: readonly string[], patterns: readonly string[], isInstruction: (rel: string) => boolean): string[] | undefined;
  /** Whether a path of `list` from `lo` to `hi` holds every one of `runs` (`requiredRuns`) after `from`, and `matches` from there. */
  someMatch(list: readonly string[], lo: number, hi: number, from: number, runs: readonly string[], matches: (rel: string) => boolean): boolean;
}

/**
 * The file a path really is, spelled under `root` (a symlink's target inside the folder), so a
 * file and its links are reported once; paths leading outside keep their own spelling.
 */
export function realPathUnder(host: Host, root: string): (p: string) => string {
  const realRoot = host.fs.realPath(root);
  return (p) => {
    const rel = relativeInside(realRoot, host.fs.realPath(p), host.fs);
    return rel === undefined ? p : rel === '' ? root : host.fs.path.join(root, rel);
  };
}

/**
 * `agents`: the profiles to check, or a choice made from the folder's files (relative, with `/`),
 * as agent detection makes it.
 */
export function check(host: Host, root: string, agents: Agents, opts: CheckOptions = {}): CheckResult {
  const steps = checkSteps(host, root, agents, opts);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

export type Agents = readonly Profile[] | ((files: readonly string[]) => readonly Profile[]);

/**
 * `check` for a thread that must stay responsive (the extension host): the same pass, giving the
 * event loop a turn after every `sliceMs` of work, and giving up (undefined) at the first turn
 * after `cancelled()` turns true, when a newer pass has made this one stale.
 */
export async function checkInSlices(host: Host, root: string, agents: Agents, opts: CheckOptions, slices: { sliceMs?: number; cancelled?: () => boolean } = {}): Promise<CheckResult | undefined> {
  const { sliceMs = 10, cancelled = () => false } = slices;
  const steps = checkSteps(host, root, agents, opts);
  let started = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - started < sliceMs) continue;
    await new Promise((resolve) => setImmediate(resolve));
    if (cancelled()) return undefined;
    started = performance.now();
  }
}

/**
 * The pass, yielding after each chain and each stretch of the file list: where it may pause.
 * `home` is asked of the system once, not in each chain's context; a chain's key and the chain
 * share one context.
 */
function* checkSteps(host: Host, root: string, agents: Agents, opts: CheckOptions, home = opts.home ?? os.homedir()): Generator<void, CheckResult, void> {
  // One refresh for the whole pass: every profile and folder shares the file-system and git
  // answers, and each profile's whole-workspace work (ResolveContext.memo).
  const path = (host = refreshHost(host)).fs.path;
  root = path.resolve(root);
  const { files, via, loops = [] } = opts.listed ?? listFiles(host, root);
  const config = readConfig(host.fs, root, { agents: PROFILES.map((p) => p.id), codes: Object.keys(RULES) });
  // Pinned agents win; else the repository's configuration names them; else they are detected.
  const profiles = (typeof agents !== 'function' ? agents : config.agents ? PROFILES.filter((p) => config.agents!.includes(p.id)) : agents(files)).filter(opts.only ?? (() => true));
  const patterns = [...new Set(profiles.flatMap((p) => p.filePatterns))];
  const isInstruction = anyPattern(patterns, host.fs.caseInsensitive);
  const instructionFiles = opts.search?.instructionFiles(files, patterns, isInstruction) ?? files.filter(isInstruction);
  // By default each folder is checked from the git repository holding it, as `chain` assumes: a
  // folder of several repositories (itself none) is not where agents start, each repository is.
  const pinned = typeof opts.launchDir === 'string' ? path.resolve(opts.launchDir) : undefined;
  const launchFor = typeof opts.launchDir === 'function' ? opts.launchDir : (dir: string) => pinned ?? host.git.root(dir) ?? root;
  // The folder each file governs: its own, or the one above the folders a pattern names (.claude/rules/x.md → .).
  const governed = governedFolders(patterns, root, path);
  const dirs = instructionFiles.map((f) => governed(path.join(root, f)));
  const targets = [...new Set([root, ...dirs])].filter((d) => isInside(d, launchFor(d), host.fs));
  // Diagnostics in the order they are found; a conditional rule's globs hold a place, filled
  // after one pass over the file list answers every rule's globs together.
  const found: (Diagnostic | GlobRule)[] = [];
  // Chains of one pass share memoized answers, so the same diagnostic object comes back from
  // many chains: skip it by identity before the full comparison at the end.
  const seen = new Set<Diagnostic>(), globChecked = new Map<string, GlobRule>();
  for (const profile of profiles) {
    // Folders whose chain gives what an earlier folder's gave (the profile's `checkKey`): their
    // diagnostics and rules would all be repeats, so they are not resolved.
    const keys = new Set<string>();
    for (const target of targets) {
      const req: ChainRequest = { profile, target, launchDir: launchFor(target), home, env: opts.env, settings: opts.settings?.[profile.id] };
      const ctx = resolveContext(req, host), key = opts.everyFolder ? undefined : checkKey(req, host, ctx);
      if (key !== undefined) {
        if (keys.has(key)) continue;
        keys.add(key);
      }
      const known = `${profile.id}\0${target}`, chain = opts.chains?.get(known) ?? resolveChain(req, host, ctx);
      opts.keep?.set(known, chain);
      for (const d of chain.diagnostics) {
        if (seen.has(d)) continue;
        seen.add(d);
        if ((chain.fatal && d.severity === 'error') || isInside(d.path, root, host.fs)) found.push(d);
      }
      for (const rule of globRules(chain.sources, profile, globChecked)) if (rule.path !== root && isInside(rule.path, root, host.fs)) found.push(rule);
      yield;
    }
  }
  const dead = yield* deadGlobs(host.fs, root, files, found.filter((x): x is GlobRule => 'globs' in x), opts.search);
  const diagnostics = found.flatMap((x) => {
    if (!('globs' in x)) return [x];
    const globs = dead.get(x);
    if (!globs?.length) return [];
    const where = path.relative(root, x.scope) ? `under ${path.relative(root, x.scope)}/` : 'in the workspace folder';
    const all = globs.length === x.globs.length;
    // A rule the agent also lists for the model to read (Cursor's with a description, VS Code's
    // instructions list) is not lost: only its attaching by those patterns is.
    const loss = x.listed ? `never attaches this rule by ${globs.length === 1 ? 'it' : 'them'}${all ? '; it only lists the rule for the model, which reads it if it judges it relevant' : ''}` : `will never load this rule${all ? '' : ' for those patterns'}`;
    const message = `${globs.map((g) => `"${g}"`).join(', ')} ${globs.length === 1 ? 'matches' : 'match'} no file ${where}; ${x.profile.agent} ${loss}.`;
    // A rule whose other globs match still loads: one unused pattern is a fact, not a loss.
    return [{ ...diag('glob-no-match', x.path, message, undefined, undefined, all ? 'warning' : 'hint'), agents: [x.profile.id] }];
  });
  const unique = uniqueDiagnostics(diagnostics);
  const shown = opts.merge === false ? unique : mergeDiagnostics(unique, { realPath: realPathUnder(host, root), root, home, sep: path.sep });
  // After merging, which would fold a link into the folder it leads to.
  const loopDiagnostics = loops.map((link) =>
    diag('symlink-loop', link, `This link leads back to ${path.relative(root, host.fs.realPath(link)) || 'the checked folder'}, a folder it sits in: the files below it are checked once, under their real folder.`),
  );
  return {
    root,
    agents: profiles.map((p) => p.id),
    agentsFrom: typeof agents !== 'function' ? 'pinned' : config.agents ? 'config' : 'detected',
    ...(config.file ? { configFile: config.file } : {}),
    files: instructionFiles.map((f) => path.join(root, f)),
    via,
    // What the repository turned off, in its configuration or inline, is not reported.
    diagnostics: [...config.problems, ...suppress([...loopDiagnostics, ...shown], host.fs, config.disable)],
  };
}

/**
 * The conditional rules of a chain's sources not yet seen (`seen`, by path and scope): the agent
 * checked first speaks for a rule, and a later chain of the same agent that lists it marks it listed.
 */
function globRules(sources: readonly Source[], profile: Profile, seen: Map<string, GlobRule>): GlobRule[] {
  const out: GlobRule[] = [];
  for (const s of sources) {
    if (!s.globs) continue;
    const key = `${s.path}\0${s.scope}`, known = seen.get(key);
    if (known) {
      if (known.profile === profile) known.listed ||= s.status === 'listed';
      continue;
    }
    const rule: GlobRule = { profile, path: s.path, scope: s.scope, globs: s.globs, listed: s.status === 'listed' };
    seen.set(key, rule);
    out.push(rule);
  }
  return out;
}

/** A conditional rule whose globs `check` tests against the files that exist. */
export interface GlobRule {
  profile: Profile;
  path: string;
  scope: string;
  globs: string[];
  /** Whether a chain lists the rule for the model to read where its globs miss (status `listed`). */
  listed?: boolean;
}

/**
 * A test of a relative path against any of the patterns. A pattern is tried only on paths that
 * hold its last literal folder or file name (`**\/.cursor/rules/*` only on paths through a
 * `rules` folder), found by one look-up per segment of the path: `check` asks it of every file
 * in the repository, and a regular expression per pattern for each would cost more than git.
 */
export function anyPattern(patterns: readonly string[], nocase = false): (rel: string) => boolean {
  // On a disk that ignores case an agent opening CLAUDE.md by name reads a claude.md: list it too.
  const index = new SegmentIndex<RegExp>(nocase);
  for (const p of patterns) index.add(p, picomatch.makeRe(p, { dot: true, nocase }));
  // Patterns without a literal name (`**\/[Aa][Gg][Ee][Nn][Tt][Ss].[Mm][Dd]`): their last segment
  // is tried on the file name first, a far cheaper expression.
  const always = index.always.map(({ glob, value: re }) => {
    const last = glob.slice(glob.lastIndexOf('/') + 1);
    return { name: last.includes('**') ? undefined : picomatch.makeRe(last, { dot: true, nocase }), re };
  });
  // Their name expressions together (when each has one): most file names match none of them.
  const flags = always[0]?.name?.flags;
  const anyName = always.length && always.every((a) => a.name?.flags === flags) ? new RegExp(always.map((a) => `(?:${a.name!.source})`).join('|'), flags) : undefined;
  const test = (re: RegExp) => re.test(current);
  let current = '';
  return (rel) => {
    // Indexed: V8's baseline code makes an object for each step of a `for...of`, an empty one too.
    if (always.length) {
      const name = rel.slice(rel.lastIndexOf('/') + 1);
      if (!anyName || anyName.test(name)) for (let i = 0; i < always.length; i++) if ((!always[i].name || always[i].name!.test(name)) && always[i].re.test(rel)) return true;
    }
    current = rel;
    return index.some(rel, test);
  };
}

/**
 * The plain runs of a glob (`src`, `.ts` in `src/**\/*.ts`) that every path it matches holds, in
 * lower case, whichever agent's matcher reads it: those matchers differ in case, in a pattern
 * without `/` matching at any depth, in a folder matching what it holds, in `,` lists and `{}`,
 * never in a letter, digit, `.`, `_` or `-` outside them. Only for globs made of those, `/` and
 * `*`, with no `.` or `..` segment (`./x` is `x` to some); undefined otherwise.
 */
export function requiredRuns(glob: string): string[] | undefined {
  if (!/^[\w.\/*-]+$/.test(glob) || glob.split('/').some((seg) => /^\.+$/.test(seg))) return undefined;
  return glob.toLowerCase().split(/[/*]+/).filter(Boolean);
}

/** One glob of one rule, matched yet or not. */
interface Pending {
  rule: GlobRule;
  glob: string;
  matched: boolean;
}

/** One glob with one matcher in one folder, and the rules waiting on it. */
interface GlobTest {
  matches: (rel: string) => boolean;
  /** What every path the glob matches holds, in lower case (`requiredRuns`). */
  needs: string[] | undefined;
  waiting: Pending[];
}

/**
 * The tests of the rules' globs, by the folder relative to `root` each rule speaks for ('' for
 * `root` itself), each distinct glob of a folder once however many rules and agents share it (with
 * the same matcher); and every rule's globs.
 */
function globTests(fs: PathRules, root: string, rules: readonly GlobRule[]): { byScope: Map<string, GlobTest[]>; all: Pending[] } {
  const defaultMatcher = (rel: string, glob: string) => matchesAny(rel, [glob]);
  const byKey = new Map<string, Map<string, GlobTest>>();
  const matcherIds = new Map<(rel: string, glob: string) => boolean, number>();
  const all: Pending[] = [];
  for (const rule of rules) {
    const prefix = relativeInside(root, rule.scope, fs);
    const matcher = rule.profile.matchesGlob ?? defaultMatcher;
    if (!matcherIds.has(matcher)) matcherIds.set(matcher, matcherIds.size);
    // A scope above the checked folder (an agent that matches from the git root, a subfolder of
    // the repository opened) holds files that were not listed: whether its globs match is unknown.
    if (prefix === undefined) continue;
    for (const glob of rule.globs) {
      const p = { rule, glob, matched: false };
      all.push(p);
      const tests = byKey.get(prefix) ?? new Map<string, GlobTest>();
      byKey.set(prefix, tests);
      const key = `${matcherIds.get(matcher)}\0${glob}`;
      const test = tests.get(key) ?? { matches: (rel: string) => matcher(rel, glob), needs: requiredRuns(glob), waiting: [] };
      tests.set(key, test);
      test.waiting.push(p);
    }
  }
  return { byScope: new Map([...byKey].map(([prefix, tests]) => [prefix, [...tests.values()]])), all };
}

/**
 * The globs of each rule that match no file under its scope, searched folder by folder, each
 * folder's files found by halving the list (in git's order, or sorted). A file is tested only
 * against the globs still unmatched in its folder (`globTests`), so a glob that matches stops
 * costing anything; the test allocates nothing but what it needs (the path below the folder, in
 * lower case). With a `search` of the list, a glob made of plain runs is asked of it instead: a
 * glob that matches nothing (`**\/*.nomatch` in the workspace folder) was tested on every file.
 */
export function* deadGlobs(fs: PathRules, root: string, files: readonly string[], rules: readonly GlobRule[], search?: ListSearch): Generator<void, Map<GlobRule, string[]>, void> {
  const { byScope, all } = globTests(fs, root, rules);
  /** The file being tested in lower case, once a test needs it (null when that changes its length: offsets would not agree). */
  let lower: string | null | undefined;
  /** Test one file against a folder's tests (its path there starts at `from`); drop the folder once nothing in it waits. */
  const test = (prefix: string, f: string, from: number) => {
    const tests = byScope.get(prefix);
    if (!tests) return;
    let rel: string | undefined;
    for (let k = 0; k < tests.length; k++) {
      const t = tests[k];
      // A glob that no agent will ever match here (`**\/*.nomatch`) is asked of every file below
      // its folder: a look for its plain text spares most of them the glob's expression.
      if (t.needs) {
        if (lower === undefined) {
          const l = f.toLowerCase();
          lower = l.length === f.length ? l : null;
        }
        if (lower !== null && !holdsAll(lower, t.needs, from)) continue;
      }
      if (!t.matches((rel ??= from ? f.slice(from) : f))) continue;
      for (const p of t.waiting) p.matched = true;
      tests.splice(k--, 1);
    }
    if (!tests.length) byScope.delete(prefix);
  };
  // A list in a few ascending stretches (git's: the untracked files, then the tracked ones, each
  // sorted; any other is sorted first): a folder's files are one range of each stretch, found by
  // halving, and only they are tested against its globs, not every file of the repository (a glob
  // waiting in a folder deep in the tree kept a pass over the list going over all 57,000 files of
  // test262's shape).
  let list = files;
  const stretches = byScope.size ? (ascendingStretches(files, MAX_STRETCHES) ?? [[0, (list = [...files].sort()).length]]) : [];
  if (!search?.covers(list)) search = undefined;
  let tested = 0;
  for (const prefix of [...byScope.keys()]) {
    const from = prefix ? prefix.length + 1 : 0;
    const ranges = stretches.map(([start, end]) => (prefix ? [firstAtLeast(list, start, end, `${prefix}/`), firstAtLeast(list, start, end, `${prefix}0`)] : [start, end]));
    if (search) {
      // The globs with plain runs by a search of the list, each once; the others file by file.
      const tests = byScope.get(prefix)!;
      for (const t of tests) {
        if (t.needs?.length && ranges.some(([lo, hi]) => search.someMatch(list, lo, hi, from, t.needs!, t.matches))) for (const p of t.waiting) p.matched = true;
        yield;
      }
      const others = tests.filter((t) => !t.needs?.length);
      if (!others.length) {
        byScope.delete(prefix);
        continue;
      }
      byScope.set(prefix, others);
    }
    for (const [lo, hi] of ranges) {
      for (let n = lo; n < hi && byScope.has(prefix); n++) {
        if (++tested % 2048 === 0) yield;
        lower = undefined;
        test(prefix, list[n], from);
      }
    }
  }
  const dead = new Map<GlobRule, string[]>();
  for (const p of all) if (!p.matched) dead.set(p.rule, [...(dead.get(p.rule) ?? []), p.glob]);
  return dead;
}

/** More stretches than this and the list is taken as in no order. */
const MAX_STRETCHES = 16;

/** The `[start, end)` stretches of `list` in ascending order, as JavaScript compares strings; undefined past `max` of them. */
function ascendingStretches(list: readonly string[], max: number): [number, number][] | undefined {
  const out: [number, number][] = [];
  let start = 0;
  for (let i = 1; i < list.length; i++) {
    if (list[i - 1] < list[i]) continue;
    if (out.push([start, i]) >= max) return undefined;
    start = i;
  }
  if (list.length) out.push([start, list.length]);
  return out;
}

/** The first index from `start` to `end` of an ascending stretch of `list` whose string is not below `p` (`end` when none). */
function firstAtLeast(list: readonly string[], start: number, end: number, p: string): number {
  return firstNotBelow(start, end, (i) => list[i] < p);
}

/** Whether `text` holds every one of `runs` at or after `from`. */
function holdsAll(text: string, runs: readonly string[], from: number): boolean {
  for (let i = 0; i < runs.length; i++) if (!text.includes(runs[i], from)) return false;
  return true;
}
