import * as path from 'node:path';
import { diag } from '../diagnostics';
import type { Diagnostic, RenderPart, Source } from '../model';
import type { Profile, ProfileResult, ResolveContext } from '../profile';
import { describeReadFailure, readFailureDiagnostic, readText, sizes } from '../readText';
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

function setting(ctx: ResolveContext, key: keyof typeof CAR_DEFAULTS): number {
  const v = ctx.settings[key];
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : CAR_DEFAULTS[key];
}


/** The directory a nested file governs, relative to the worktree, with a trailing `/`. */
function governs(root: string, file: string): string {
  return path.relative(root, path.dirname(file)).split(path.sep).join('/') + '/';
}

function relPath(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/');
}

function base(file: string, extra: Partial<Source>): Source {
  return {
    path: file, kind: 'project', scope: path.dirname(file), loads: 'start', status: 'loaded', chars: 0, bytes: 0,
    injectedChars: 0, injectedBytes: 0, reason: '', ...extra,
  };
}

// [design] The block's wording is not public; it says what the seed says the model is told.
const HEADER = '# Nested instructions\n\nThese files apply only to the directory they sit in and everything below it.';
const LISTED =
  'Not inlined because they are past the nested-instructions budget; read each with read_file before working in its directory:';

function resolve(ctx: ResolveContext): ProfileResult {
  const sources: Source[] = [];
  const diagnostics: Diagnostic[] = [];
  const maxFiles = setting(ctx, 'maxFiles');
  const maxFileBytes = setting(ctx, 'maxFileBytes');
  const maxTotalBytes = setting(ctx, 'maxTotalBytes');
  const gitRoot = ctx.git.root(ctx.launchDir);
  const root = gitRoot ?? ctx.launchDir;
  // `git ls-files` fails outside a repository: then no nested file is read.
  const tracked = gitRoot ? ctx.git.trackedFiles(gitRoot) : undefined;
  const start: RenderPart[] = [];

  // Root files: agent_instructions (not nested). Read from the worktree.
  for (const name of ['AGENTS.md', 'CLAUDE.md']) {
    const file = path.join(root, name);
    const r = readText(ctx.fs, file);
    if (r.state === 'missing' || r.state === 'directory') continue;
    if (r.state !== 'ok') {
      sources.push(base(file, { status: 'unreadable', reason: `It ${describeReadFailure(r)}, so CAR cannot read it.` }));
      diagnostics.push(readFailureDiagnostic(r, file, `This file ${describeReadFailure(r)}: CAR cannot read it.`));
      continue;
    }
    if (r.text.trim() === '') {
      sources.push(base(file, { ...sizes(r.text), status: 'excluded', reason: 'It is empty; CAR reads only nonempty root instruction files.' }));
      continue;
    }
    const text = r.text.trim();
    sources.push(base(file, { ...sizes(r.text), injectedChars: sizes(text).chars, injectedBytes: sizes(text).bytes, reason: 'Root instruction file: read by agent_instructions into the system prompt (its own budget, not the nested one).' }));
    start.push({ where: 'system', text });
  }

  // The nested block is the same for every target of the worktree: worked out once per refresh.
  const nested = ctx.memo(`nested\0${root}\0${maxFiles}\0${maxFileBytes}\0${maxTotalBytes}`, () =>
    nestedInstructions(ctx, root, tracked, { maxFiles, maxFileBytes, maxTotalBytes }),
  );
  sources.push(...nested.sources);
  diagnostics.push(...nested.diagnostics);
  const { used, trackedSet } = nested;

  // Untracked instruction files on the way to the target: never guidance (trust filter).
  const targetDir = ctx.fs.stat(ctx.target)?.type === 'dir' ? ctx.target : path.dirname(ctx.target);
  const candidates: string[] = [];
  for (let d = targetDir; d !== root && d.startsWith(root + '/'); d = path.dirname(d)) {
    for (const name of NAMES) candidates.unshift(path.join(d, name));
  }
  if (NAMES.has(path.basename(ctx.target)) && !candidates.includes(ctx.target) && path.dirname(ctx.target) !== root) candidates.push(ctx.target);
  for (const file of candidates) {
    if (trackedSet.has(file) || ctx.fs.stat(file)?.type !== 'file') continue;
    const r = readText(ctx.fs, file);
    const size = r.state === 'ok' ? sizes(r.text) : { chars: 0, bytes: 'bytes' in r ? r.bytes : 0 };
    const reason = tracked
      ? 'Not tracked by git: CAR finds nested files through git ls-files only, so an untracked file is never guidance.'
      : 'Not in a git repository: CAR finds nested files through git ls-files only.';
    sources.push(base(file, { ...size, status: 'excluded', reason }));
    diagnostics.push(diag('untracked', file, tracked
      ? 'CAR ignores this file: it is not tracked by git, and CAR trusts only files a maintainer committed. Commit it (git add) to make it guidance.'
      : 'CAR ignores this file: it finds nested instruction files through git ls-files, and this folder is not in a git repository.'));
  }

  if (nested.text !== undefined) start.push({ where: 'system', text: nested.text });

  return {
    sources,
    budget: { unit: 'bytes', limit: maxTotalBytes, perFile: maxFileBytes, used },
    diagnostics,
    start,
    onRead: [],
  };
}

interface Budgets {
  maxFiles: number;
  maxFileBytes: number;
  maxTotalBytes: number;
}

/**
 * `nested_instructions`: git-tracked files below the root named exactly CLAUDE.md or AGENTS.md,
 * in git's order (sorted by path), inlined within the budgets; the rest listed by path.
 */
function nestedInstructions(ctx: ResolveContext, root: string, tracked: string[] | undefined, { maxFiles, maxFileBytes, maxTotalBytes }: Budgets) {
  const sources: Source[] = [];
  const diagnostics: Diagnostic[] = [];
  const nested = (tracked ?? [])
    .filter((f) => NAMES.has(path.basename(f)) && path.dirname(f) !== root)
    .sort((a, b) => Buffer.compare(Buffer.from(relPath(root, a)), Buffer.from(relPath(root, b))));
  const trackedSet = new Set(tracked ?? []);

  const blocks: string[] = [];
  const listed: { file: string; why: string }[] = [];
  let used = 0;
  let inlined = 0;
  for (const file of nested) {
    const dir = governs(root, file);
    const r = readText(ctx.fs, file);
    if (r.state === 'missing' || r.state === 'directory') continue; // tracked but deleted in the worktree
    if (r.state !== 'ok') {
      sources.push(base(file, { status: 'unreadable', reason: `It ${describeReadFailure(r)}, so CAR cannot read it.` }));
      diagnostics.push(readFailureDiagnostic(r, file, `This file ${describeReadFailure(r)}: CAR cannot inline it.`));
      continue;
    }
    const text = r.text.trim();
    const size = sizes(r.text);
    if (text === '') {
      sources.push(base(file, { ...size, status: 'excluded', reason: 'It is empty, so there is nothing to inline.' }));
      continue;
    }
    const bytes = byteCount(text);
    let why: string | undefined;
    if (bytes > maxFileBytes) {
      why = `${fmt(bytes)} bytes, over the ${fmt(maxFileBytes)}-byte per-file budget`;
      diagnostics.push(diag('file-truncated', file, `CAR does not inline this file: at ${fmt(bytes)} bytes it is over the ${fmt(maxFileBytes)}-byte per-file budget (maxFileBytes), so the model only gets its path.`));
    } else if (inlined >= maxFiles) {
      why = `past the ${fmt(maxFiles)}-file budget`;
      diagnostics.push(diag('chain-over-budget', file, `CAR does not inline this file: ${fmt(maxFiles)} nested files are already inlined (maxFiles), so the model only gets its path.`));
    } else if (used + bytes > maxTotalBytes) {
      why = `${fmt(bytes)} bytes would pass the ${fmt(maxTotalBytes)}-byte combined budget (${fmt(maxTotalBytes - used)} left)`;
      diagnostics.push(diag('chain-over-budget', file, `CAR does not inline this file: ${fmt(bytes)} bytes would pass the ${fmt(maxTotalBytes)}-byte combined budget (maxTotalBytes), with ${fmt(maxTotalBytes - used)} left; the model only gets its path.`));
    }
    if (why) {
      const pointer = `- ${relPath(root, file)} (${why})`;
      listed.push({ file, why });
      sources.push(base(file, { ...size, status: 'listed', injectedChars: sizes(pointer).chars, injectedBytes: sizes(pointer).bytes, reason: `Not inlined: ${why}. CAR lists its path so the model can read it with read_file.` }));
      continue;
    }
    // [design] Greedy in path order: a later, smaller file still goes in if it fits.
    used += bytes;
    inlined++;
    const block = `## ${dir} (${relPath(root, file)})\n\n${text}`;
    blocks.push(block);
    sources.push(base(file, { ...size, injectedChars: sizes(block).chars, injectedBytes: sizes(block).bytes, reason: `Tracked by git: inlined in the system prompt, labelled as the rules for ${dir}.` }));
  }
  let text: string | undefined;
  if (blocks.length || listed.length) {
    const parts = [HEADER, ...blocks];
    if (listed.length) parts.push(`${LISTED}\n${listed.map((l) => `- ${relPath(root, l.file)} (${l.why})`).join('\n')}`);
    text = parts.join('\n\n');
  }
  return { sources, diagnostics, text, used, trackedSet };
}

export const car: Profile = {
  id: 'car',
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
};
