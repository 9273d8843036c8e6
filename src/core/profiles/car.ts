import { diag } from '../diagnostics';
import type { PathApi } from '../fs';
import { newSource, type Diagnostic, type RenderPart, type Source } from '../model';
import { dirsBelow, folderOf, hasExactName } from '../paths';
import { getOrSet, type Profile, type ProfileResult, type ResolveContext } from '../profile';
import { describeReadFailure, readFailureDiagnostic, readText, sizes, type ReadResult } from '../readText';
import { byteCount, fmt } from '../text';

/**
 * CAR (Parslee-ai), `car-server-core` 0.55.0, `coder::project_context`:
 * - `nested_instructions(worktree)` (seed 002; docs.rs/car-server-core/0.55.0, fn.nested_instructions):
 *   nested CLAUDE.md / AGENTS.md found through `git ls-files` only — an untracked file is never
 *   guidance; inlined, each block labelled with the directory it governs; at most
 *   MAX_NESTED_FILES files, MAX_NESTED_FILE_BYTES each, MAX_NESTED_INSTRUCTIONS_BYTES combined;
 *   anything past a budget is listed as a path the model can `read_file`, and the model is told.
 * - The module header (docs.rs/car-server-core/0.55.0/src/car_server_core/coder/project_context.rs,
 *   lines 21-23): "both AGENTS.md and CLAUDE.md at the worktree root, plus any git-tracked
 *   nested ones". The root files are read by `agent_instructions`, not by
 *   `nested_instructions`, so they are NOT nested and take nothing from the nested budgets.
 *
 * The source's body (constant values, exact text) could not be read here: the budgets are
 * settings with defaults chosen below, and the render is a DESIGN from the seed's words, not
 * a port. `agent_instructions` shares its own budget between the two root files (values not
 * public either); root files are shown loaded whole, each as a part of its own.
 */

/**
 * Defaults [design]. CAR's own nested file is 1.2 KB (seed). 8 KiB per file is ~7x that, so a
 * normal scoped file is inlined whole and only a pasted manual becomes a pointer. 8 files and
 * 24 KiB (three full-size files) keep nested rules below the 32 KiB that agents such as Codex
 * allow for all project docs, so a monorepo "degrades to pointers instead of blowing the context".
 */
export const CAR_DEFAULTS = { maxFiles: 8, maxFileBytes: 8 * 1024, maxTotalBytes: 24 * 1024 } as const;

const NAMES = new Set(['CLAUDE.md', 'AGENTS.md']);
const NAME_LIST = [...NAMES];

interface Budgets {
  maxFiles: number;
  maxFileBytes: number;
  maxTotalBytes: number;
}

/** The budgets from the settings; a value that is not a whole number ≥ 0 falls back to its default. */
function budgetsOf(ctx: ResolveContext): Budgets {
  const setting = (key: keyof typeof CAR_DEFAULTS): number => {
    const v = ctx.settings[key];
    return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : CAR_DEFAULTS[key];
  };
  return { maxFiles: setting('maxFiles'), maxFileBytes: setting('maxFileBytes'), maxTotalBytes: setting('maxTotalBytes') };
}

/** The directory a nested file governs, relative to the worktree, with a trailing `/`. */
function governs(path: PathApi, root: string, file: string): string {
  return path.relative(root, path.dirname(file)).split(path.sep).join('/') + '/';
}

function relPath(path: PathApi, root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/');
}

function base(path: PathApi, file: string, extra: Partial<Source>): Source {
  return newSource(file, 'project', path.dirname(file), 'start', extra);
}

// [design] The block's wording is not public; it says what the seed says the model is told.
const HEADER = '# Nested instructions\n\nThese files apply only to the directory they sit in and everything below it.';
const LISTED =
  'Not inlined because they are past the nested-instructions budget; read each with read_file before working in its directory:';

/** What the steps gather, in the order the chain lists it. */
interface Collected {
  sources: Source[];
  diagnostics: Diagnostic[];
}

/**
 * The steps every profile runs (`coder::project_context`): find the sources (the root files of
 * `agent_instructions`, the git-tracked nested files of `nested_instructions`, and the untracked
 * ones it never reads), follow imports (CAR has none), apply the nested budgets, render.
 */
function resolve(ctx: ResolveContext): ProfileResult {
  const out: Collected = { sources: [], diagnostics: [] };
  const { budgets, root, tracked, nested } = worktree(ctx);
  const start = readRootFiles(ctx, root, out);
  out.sources.push(...nested.sources);
  out.diagnostics.push(...nested.diagnostics);
  reportUntracked(ctx, tracked, untrackedOnTheWay(ctx, root, nested.trackedSet), out);
  if (nested.text !== undefined) start.push({ where: 'system', text: nested.text });
  return {
    ...out,
    budget: { unit: 'bytes', limit: budgets.maxTotalBytes, perFile: budgets.maxFileBytes, used: nested.used },
    start,
    onRead: [],
  };
}

/** The worktree of the launch folder: its budgets, root, tracked files and nested block. */
function worktree(ctx: ResolveContext) {
  const budgets = budgetsOf(ctx);
  const gitRoot = ctx.git.root(ctx.launchDir);
  const root = gitRoot ?? ctx.launchDir;
  // `git ls-files` fails outside a repository: then no nested file is read. Only the tracked files
  // with CAR's names are asked for: every other is neither nested guidance (findNested) nor a
  // path `untrackedOnTheWay` looks up, all named so.
  const tracked = gitRoot ? (ctx.git.trackedFilesNamed?.(gitRoot, NAME_LIST) ?? ctx.git.trackedFiles(gitRoot)) : undefined;
  // The nested block is the same for every target of the worktree: worked out once per refresh.
  const key = `${root}\0${budgets.maxFiles}\0${budgets.maxFileBytes}\0${budgets.maxTotalBytes}`;
  const nested = ctx.memo(`nested\0${key}`, () => nestedInstructions(ctx, root, tracked, budgets, key));
  return { budgets, root, tracked, nested };
}

/**
 * For `check`: besides the launch folder, a chain depends on its target only through the
 * untracked instruction files on the way to it (the root files and the nested block are the
 * worktree's). Every folder of a fully committed repository gives the same chain problems.
 */
function checkKey(ctx: ResolveContext): string {
  const { root, nested } = worktree(ctx);
  return untrackedOnTheWay(ctx, root, nested.trackedSet).join('\0');
}

/**
 * Find the sources, root files: `agent_instructions` reads AGENTS.md and CLAUDE.md at the
 * worktree root (project_context.rs, lines 21-23), from the worktree, trimmed; an empty one is
 * skipped. Each is a part of its own (its budget is not public: shown loaded whole).
 */
function readRootFiles(ctx: ResolveContext, root: string, out: Collected): RenderPart[] {
  const path = ctx.fs.path;
  const start: RenderPart[] = [];
  for (const name of ['AGENTS.md', 'CLAUDE.md']) {
    const file = path.join(root, name);
    const r = readText(ctx.fs, file);
    if (r.state === 'missing' || r.state === 'directory') continue;
    if (r.state !== 'ok') {
      out.sources.push(base(ctx.fs.path, file, { status: 'unreadable', reason: `It ${describeReadFailure(r)}, so CAR cannot read it.` }));
      out.diagnostics.push(readFailureDiagnostic(r, file, `This file ${describeReadFailure(r)}: CAR cannot read it.`));
      continue;
    }
    if (r.text.trim() === '') {
      out.sources.push(base(ctx.fs.path, file, { ...sizes(r.text), status: 'excluded', reason: 'It is empty; CAR reads only nonempty root instruction files.' }));
      continue;
    }
    const text = r.text.trim();
    out.sources.push(base(ctx.fs.path, file, { ...sizes(r.text), injectedChars: sizes(text).chars, injectedBytes: sizes(text).bytes, reason: 'Root instruction file: read by agent_instructions into the system prompt (its own budget, not the nested one).' }));
    start.push({ where: 'system', text });
  }
  return start;
}

/** The nested block of a worktree: its sources and diagnostics, the text sent, the bytes inlined. */
interface Nested extends Collected {
  text: string | undefined;
  used: number;
  trackedSet: Set<string>;
}

/** `nested_instructions`: find the tracked nested files, apply the budgets, render the block. */
function nestedInstructions(ctx: ResolveContext, root: string, tracked: string[] | undefined, budgets: Budgets, key: string): Nested {
  const listed = tracked && ofList(tracked);
  let files = listed?.nested.get(root);
  if (!files) {
    files = findNested(ctx.fs.path, root, tracked);
    listed?.nested.set(root, files);
  }
  // Imports: none. CAR inlines each file's text as it is.
  const before = listed?.budgeted.get(key);
  const steps = applyBudget(ctx, root, files, budgets, before?.steps);
  // The text again only when a block or a listed path changed (the same files: the same list), not when only a file's size did.
  const text = before && steps.every((s, i) => s.block === before.steps[i].block && s.listed?.why === before.steps[i].listed?.why)
    ? before.text
    : render(ctx.fs.path, root, steps.flatMap((s) => s.block ?? []), steps.flatMap((s) => s.listed ?? []));
  listed?.budgeted.set(key, { steps, text });
  return { sources: steps.flatMap((s) => s.sources), diagnostics: steps.flatMap((s) => s.diagnostics), used: steps.at(-1)?.usedAfter ?? 0, text, trackedSet: listed?.set ?? new Set() };
}

/**
 * What a tracked list gives, worked out once per list: a refresh carried over an edit keeps git's
 * answers (the same array), so a quick look does not index and filter the repository's paths again.
 */
interface OfList {
  set: Set<string>;
  nested: Map<string, string[]>;
  /** The last budget applied to each root's nested files, by root and budgets (see `applyBudget`). */
  budgeted: Map<string, { steps: Step[]; text: string | undefined }>;
}

const byList = new WeakMap<readonly string[], OfList>();

function ofList(tracked: readonly string[]): OfList {
  let known = byList.get(tracked);
  if (!known) byList.set(tracked, (known = { set: new Set(tracked), nested: new Map(), budgeted: new Map() }));
  return known;
}

/**
 * Find the sources, nested files (`nested_instructions`, seed 002): git-tracked files below the
 * root named exactly CLAUDE.md or AGENTS.md, in git's order (sorted by path, bytewise).
 */
function findNested(path: PathApi, root: string, tracked: string[] | undefined): string[] {
  // The cheap `.md` test first (most of a large repository's files fail it), and each file's sort
  // key made once: `relPath` and a Buffer per comparison cost seconds on a thousand nested files.
  return (tracked ?? [])
    .filter((f) => f.endsWith('.md') && NAMES.has(path.basename(f)) && path.dirname(f) !== root)
    .map((file) => ({ file, key: Buffer.from(relPath(path, root, file)) }))
    .sort((a, b) => Buffer.compare(a.key, b.key))
    .map((k) => k.file);
}

/** A file past a budget: why, for the model's list and the chain's reason. */
interface Listed {
  file: string;
  why: string;
}

/** One nested file under the budget: what it gives, from its text and the bytes and files inlined before it. */
interface Step extends Collected {
  read: ReadResult;
  used: number;
  inlined: number;
  usedAfter: number;
  inlinedAfter: number;
  block?: string;
  listed?: Listed;
}

/**
 * Apply the budget (`nested_instructions`: MAX_NESTED_FILES, MAX_NESTED_FILE_BYTES,
 * MAX_NESTED_INSTRUCTIONS_BYTES): each file inlined, in path order, while it fits; one past a
 * budget is listed by path for the model to `read_file`. A file read as before (the same answer
 * of the refresh's cache, carried over an edit of others) with the same bytes and files inlined
 * before it gives what it gave (`before`, the last budget of the same files): an edit re-budgets
 * only the edited file and those after it whose part changes.
 */
function applyBudget(ctx: ResolveContext, root: string, files: string[], budgets: Budgets, before: Step[] = []): Step[] {
  const steps: Step[] = [];
  let used = 0;
  let inlined = 0;
  files.forEach((file, i) => {
    const read = readText(ctx.fs, file);
    const old = before[i];
    const step = old?.read === read && old.used === used && old.inlined === inlined ? old : budgetStep(ctx, root, file, read, used, inlined, budgets);
    steps.push(step);
    used = step.usedAfter;
    inlined = step.inlinedAfter;
  });
  return steps;
}

function budgetStep(ctx: ResolveContext, root: string, file: string, read: ReadResult, used: number, inlined: number, budgets: Budgets): Step {
  const step: Step = { sources: [], diagnostics: [], read, used, inlined, usedAfter: used, inlinedAfter: inlined };
  const text = readNested(ctx.fs.path, read, file, step);
  if (text === undefined) return step;
  const size = sizes(text.raw);
  const bytes = byteCount(text.trimmed);
  const why = overBudget(file, bytes, used, inlined, budgets, step.diagnostics);
  if (why) {
    const pointer = `- ${relPath(ctx.fs.path, root, file)} (${why})`;
    step.listed = { file, why };
    step.sources.push(base(ctx.fs.path, file, { ...size, status: 'listed', injectedChars: sizes(pointer).chars, injectedBytes: sizes(pointer).bytes, reason: `Not inlined: ${why}. CAR lists its path so the model can read it with read_file.` }));
    return step;
  }
  // [design] Greedy in path order: a later, smaller file still goes in if it fits.
  step.usedAfter = used + bytes;
  step.inlinedAfter = inlined + 1;
  const dir = governs(ctx.fs.path, root, file);
  step.block = `## ${dir} (${relPath(ctx.fs.path, root, file)})\n\n${text.trimmed}`;
  step.sources.push(base(ctx.fs.path, file, { ...size, injectedChars: sizes(step.block).chars, injectedBytes: sizes(step.block).bytes, reason: `Tracked by git: inlined in the system prompt, labelled as the rules for ${dir}.` }));
  return step;
}

/**
 * A tracked nested file's text, raw and trimmed; undefined (reported when there is something to
 * say) when it is deleted in the worktree, unreadable or empty.
 */
function readNested(path: PathApi, r: ReadResult, file: string, out: Collected): { raw: string; trimmed: string } | undefined {
  if (r.state === 'missing' || r.state === 'directory') return undefined; // tracked but deleted in the worktree
  if (r.state !== 'ok') {
    out.sources.push(base(path, file, { status: 'unreadable', reason: `It ${describeReadFailure(r)}, so CAR cannot read it.` }));
    out.diagnostics.push(readFailureDiagnostic(r, file, `This file ${describeReadFailure(r)}: CAR cannot inline it.`));
    return undefined;
  }
  const trimmed = r.text.trim();
  if (trimmed === '') {
    out.sources.push(base(path, file, { ...sizes(r.text), status: 'excluded', reason: 'It is empty, so there is nothing to inline.' }));
    return undefined;
  }
  return { raw: r.text, trimmed };
}

/** Which budget a file of `bytes` passes, checked per file, then file count, then combined; reported. */
function overBudget(file: string, bytes: number, used: number, inlined: number, b: Budgets, diagnostics: Diagnostic[]): string | undefined {
  if (bytes > b.maxFileBytes) {
    diagnostics.push(diag('file-truncated', file, `CAR does not inline this file: at ${fmt(bytes)} bytes it is over the ${fmt(b.maxFileBytes)}-byte per-file budget (maxFileBytes), so the model only gets its path.`));
    return `${fmt(bytes)} bytes, over the ${fmt(b.maxFileBytes)}-byte per-file budget`;
  }
  if (inlined >= b.maxFiles) {
    diagnostics.push(diag('chain-over-budget', file, `CAR does not inline this file: ${fmt(b.maxFiles)} nested files are already inlined (maxFiles), so the model only gets its path.`));
    return `past the ${fmt(b.maxFiles)}-file budget`;
  }
  if (used + bytes > b.maxTotalBytes) {
    diagnostics.push(diag('chain-over-budget', file, `CAR does not inline this file: ${fmt(bytes)} bytes would pass the ${fmt(b.maxTotalBytes)}-byte combined budget (maxTotalBytes), with ${fmt(b.maxTotalBytes - used)} left; the model only gets its path.`));
    return `${fmt(bytes)} bytes would pass the ${fmt(b.maxTotalBytes)}-byte combined budget (${fmt(b.maxTotalBytes - used)} left)`;
  }
  return undefined;
}

/**
 * Render [design] (seed 002: each block labelled with the directory it governs; what is past a
 * budget listed by path, and the model told): the header, the inlined blocks, then the list.
 * No block at all when nothing nested is tracked.
 */
function render(path: PathApi, root: string, blocks: string[], listed: Listed[]): string | undefined {
  if (!blocks.length && !listed.length) return undefined;
  const parts = [HEADER, ...blocks];
  if (listed.length) parts.push(`${LISTED}\n${listed.map((l) => `- ${relPath(path, root, l.file)} (${l.why})`).join('\n')}`);
  return parts.join('\n\n');
}

/**
 * Untracked instruction files on the way to the target (and the target itself when it is one):
 * never guidance, since `nested_instructions` lists files through `git ls-files` only (trust filter).
 */
function untrackedOnTheWay(ctx: ResolveContext, root: string, trackedSet: Set<string>): string[] {
  const path = ctx.fs.path;
  // git lists names as committed and CAR matches them exactly: on a case-insensitive disk a
  // `claude.md` is not an untracked CLAUDE.md, only a file CAR never looks for.
  const untracked = (file: string) => !trackedSet.has(file) && ctx.fs.stat(file)?.type === 'file' && hasExactName(ctx.fs, file);
  // Each folder's once per refresh: `check` asks for every folder below it too.
  const byFolder = ctx.memo(`untrackedIn\0${root}`, () => new Map<string, string[]>());
  const dirs = dirsBelow(root, folderOf(ctx.fs, ctx.target), ctx.fs);
  const out: string[] = [];
  for (const d of dirs) out.push(...getOrSet(byFolder, d, () => [path.join(d, 'AGENTS.md'), path.join(d, 'CLAUDE.md')].filter(untracked)));
  // The target itself, when it is a file of those names the folders did not give.
  const target = ctx.target;
  if (NAMES.has(path.basename(target)) && path.dirname(target) !== root && !dirs.includes(path.dirname(target)) && untracked(target)) out.push(target);
  return out;
}

/** Each untracked file on the way, listed as not read, with its warning. */
function reportUntracked(ctx: ResolveContext, tracked: string[] | undefined, untracked: string[], out: Collected): void {
  for (const file of untracked) {
    const r = readText(ctx.fs, file);
    const size = r.state === 'ok' ? sizes(r.text) : { chars: 0, bytes: 'bytes' in r ? r.bytes : 0 };
    const reason = tracked
      ? 'Not tracked by git: CAR finds nested files through git ls-files only, so an untracked file is never guidance.'
      : 'Not in a git repository: CAR finds nested files through git ls-files only.';
    out.sources.push(base(ctx.fs.path, file, { ...size, status: 'excluded', reason }));
    out.diagnostics.push(diag('untracked', file, tracked
      ? 'CAR ignores this file: it is not tracked by git, and CAR trusts only files a maintainer committed. Commit it (git add) to make it guidance.'
      : 'CAR ignores this file: it finds nested instruction files through git ls-files, and this folder is not in a git repository.'));
  }
}

export const car: Profile = {
  id: 'car',
  order: 70,
  agent: 'CAR nested instructions',
  about: 'the nested CLAUDE.md and AGENTS.md a car-server-core session inlines',
  agentVersion: 'car-server-core 0.55.0',
  verified: 'docs',
  filePatterns: ['**/CLAUDE.md', '**/AGENTS.md'],
  mainFile: 'CLAUDE.md',
  settingsSection: 'car',
  settings: { maxFiles: { default: CAR_DEFAULTS.maxFiles }, maxFileBytes: { default: CAR_DEFAULTS.maxFileBytes }, maxTotalBytes: { default: CAR_DEFAULTS.maxTotalBytes } },
  // CAR keeps no file of its own in a repository: checked only when enabled.
  evidence: { markers: [] },
  notRunnable: 'CAR runs as a hosted service; there is nothing to run on this machine.',
  globalPaths: () => [],
  resolve,
  checkKey,
};
