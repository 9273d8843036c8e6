import { diag } from '../diagnostics';
import { newSource, setInjected, type Diagnostic, type Source, type SourceKind } from '../model';
import { ancestors, compareRustPaths, isInside, type PathRules } from '../paths';
import type { Profile, ProfileResult, ResolveContext } from '../profile';
import { describeReadFailure, readFailureCode, readText } from '../readText';
import { charCount, fmt, offsetOfChar, rustLines, rustTrim, rustTrimEnd, rustTrimStart, takeChars } from '../text';

/**
 * claw-code (ultraworkers/claw-code), `rust/crates/runtime/src/prompt.rs`.
 * Default: the spring-2026 version of seed 000 (commit 6b533157). Variant `claw-code@head`:
 * commit 08106b0c, which stops at the git root, reads seven names plus rule folders and
 * other frameworks' rule files, and heads the section `# Project instructions`.
 */

const MAX_FILE_CHARS = 4_000; // prompt.rs MAX_INSTRUCTION_FILE_CHARS
const MAX_TOTAL_CHARS = 12_000; // prompt.rs MAX_TOTAL_INSTRUCTION_CHARS
const TRUNCATED = '\n\n[truncated]';
const OMITTED = '_Additional instruction content omitted after reaching the prompt budget._';

interface Variant {
  id: string;
  order: number;
  version: string;
  heading: string;
  /** Directories to read, root first. */
  dirs(ctx: ResolveContext): string[];
  /** Candidate files of one directory, in order. */
  candidates(ctx: ResolveContext, dir: string): string[];
}

const seed: Variant = {
  id: 'claw-code',
  order: 20,
  version: '6b533157 (spring 2026)',
  heading: '# Claude instructions',
  dirs: (ctx) => ancestors(ctx.launchDir, ctx.fs).reverse(),
  candidates: (ctx, dir) => [
    ctx.fs.path.join(dir, 'CLAUDE.md'),
    ctx.fs.path.join(dir, 'CLAUDE.local.md'),
    ctx.fs.path.join(dir, '.claude', 'CLAUDE.md'),
    ctx.fs.path.join(dir, '.claude', 'instructions.md'),
  ],
};

const head: Variant = {
  id: 'claw-code@head',
  order: 30,
  version: '08106b0c (head)',
  heading: '# Project instructions',
  // instruction_discovery_dirs: up to the nearest `.git` (dir or file); without one, the launch dir alone.
  dirs: (ctx) => {
    const all = ancestors(ctx.launchDir, ctx.fs);
    const root = all.find((d) => ctx.fs.stat(ctx.fs.path.join(d, '.git')));
    return (root ? all.slice(0, all.indexOf(root) + 1) : [ctx.launchDir]).reverse();
  },
  candidates: (ctx, dir) => [
    ctx.fs.path.join(dir, 'CLAUDE.md'),
    ctx.fs.path.join(dir, 'CLAW.md'),
    ctx.fs.path.join(dir, 'AGENTS.md'),
    ctx.fs.path.join(dir, 'CLAUDE.local.md'),
    ctx.fs.path.join(dir, '.claw', 'CLAUDE.md'),
    ctx.fs.path.join(dir, '.claude', 'CLAUDE.md'),
    ctx.fs.path.join(dir, '.claw', 'instructions.md'),
    ...ruleDir(ctx, ctx.fs.path.join(dir, '.claw', 'rules')),
    ...ruleDir(ctx, ctx.fs.path.join(dir, '.claw', 'rules.local')),
    // push_framework_imports with the default `rulesImport: auto`: every framework.
    ctx.fs.path.join(dir, '.cursorrules'),
    ...ruleDir(ctx, ctx.fs.path.join(dir, '.cursor', 'rules')),
    ctx.fs.path.join(dir, '.github', 'copilot-instructions.md'),
    ctx.fs.path.join(dir, '.windsurfrules'),
    ...ruleDir(ctx, ctx.fs.path.join(dir, '.windsurfrules')),
    ctx.fs.path.join(dir, '.plandex', 'instructions.md'),
    ctx.fs.path.join(dir, '.crush', 'CLAUDE.md'),
    ...ruleDir(ctx, ctx.fs.path.join(dir, '.crush', 'rules')),
  ],
};

/** push_rules_dir: files with extension md, txt or mdc (any case), sorted by ctx.fs.path. */
function ruleDir(ctx: ResolveContext, dir: string): string[] {
  return ctx.fs
    .readDir(dir)
    .filter((e) => e.type === 'file' && /\.(md|txt|mdc)$/i.test(e.name))
    .map((e) => ctx.fs.path.join(dir, e.name))
    .sort((a, b) => compareRustPaths(a, b, ctx.fs.path.sep));
}



/** normalize_instruction_content: collapse runs of blank lines, trim line ends, trim. */
export function normalizeForDedupe(content: string): string {
  let result = '';
  let previousBlank = false;
  for (const line of rustLines(content)) {
    const blank = rustTrim(line) === '';
    if (blank && previousBlank) continue;
    result += rustTrimEnd(line) + '\n';
    previousBlank = blank;
  }
  return rustTrim(result);
}

/** truncate_instruction_content: trim, then cut to min(4000, remaining) chars with a marker. */
function truncate(content: string, remaining: number): string {
  const limit = Math.min(MAX_FILE_CHARS, remaining);
  const trimmed = rustTrim(content);
  if (charCount(trimmed) <= limit) return trimmed;
  return takeChars(trimmed, limit) + TRUNCATED;
}

function kindOf(fs: PathRules, file: string): SourceKind {
  const name = fs.path.basename(file);
  if (name === 'CLAUDE.local.md') return 'local';
  if (/[/\\]\.(claw|cursor|windsurfrules|crush)[/\\]rules(\.local)?[/\\]/.test(file) || /[/\\]\.windsurfrules[/\\]/.test(file)) return 'rule';
  return 'project';
}


function makeProfile(v: Variant): Profile {
  return {
    id: v.id,
    order: v.order,
    agent: 'claw-code',
    about: 'the open-source agent harness ultraworkers/claw-code',
    agentVersion: v.version,
    verified: 'source',
    filePatterns:
      v === seed
        ? ['**/CLAUDE.md', '**/CLAUDE.local.md', '**/.claude/CLAUDE.md', '**/.claude/instructions.md']
        : [
            '**/CLAUDE.md', '**/CLAW.md', '**/AGENTS.md', '**/CLAUDE.local.md', '**/.claw/CLAUDE.md', '**/.claude/CLAUDE.md',
            '**/.claw/instructions.md', '**/.claw/rules/*', '**/.claw/rules.local/*', '**/.cursorrules', '**/.cursor/rules/*',
            '**/.github/copilot-instructions.md', '**/.windsurfrules', '**/.windsurfrules/*', '**/.plandex/instructions.md',
            '**/.crush/CLAUDE.md', '**/.crush/rules/*',
          ],
    mainFile: 'CLAUDE.md',
    evidence: { markers: ['**/CLAW.md', '**/.claw/**', '.claw.json'], cli: { command: 'claw', versionArgs: ['--version'] }, homeDir: '.claw' },
    notRunnable: 'claw-code is modelled from its source at a fixed commit; it has no released CLI to run here.',
    globalPaths: () => [],
    resolve: (ctx) => resolve(v, ctx),
    // Every file is read from the launch folder up (prompt.rs): a chain does not depend on its
    // target at all, so `check` resolves one per launch folder.
    checkKey: () => '',
  };
}

/** A file found with text: its source and what it holds. */
interface Found {
  source: Source;
  content: string;
}

/**
 * The steps every profile runs (rust/crates/runtime/src/prompt.rs): find the sources
 * (discover_instruction_files), follow imports (claw-code has none), drop duplicates
 * (dedupe_instruction_files), apply the budget and render (render_instruction_files).
 */
function resolve(v: Variant, ctx: ResolveContext): ProfileResult {
  const out = { sources: [] as Source[], diagnostics: [] as Diagnostic[] };
  const { found, fatal } = findFiles(v, ctx, out);
  const kept = dropDuplicates(found, out.diagnostics);
  const { sections, used } = applyBudget(ctx.fs, v, kept, out.diagnostics);
  return {
    ...out,
    budget: { unit: 'chars', limit: MAX_TOTAL_CHARS, perFile: MAX_FILE_CHARS, used },
    // The section exists only when at least one file was found.
    start: fatal || kept.length === 0 ? [] : [{ where: 'system', text: sections.join('\n\n') }],
    onRead: [],
    ...(fatal ? { fatal } : {}),
  };
}

/**
 * Discovery: every candidate, root first. Missing and blank files are skipped; any other read
 * error makes the real program fail to build its prompt (push_context_file).
 */
function findFiles(v: Variant, ctx: ResolveContext, out: { sources: Source[]; diagnostics: Diagnostic[] }): { found: Found[]; fatal?: string } {
  const found: Found[] = [];
  let fatal: string | undefined;
  for (const dir of v.dirs(ctx)) {
    for (const file of v.candidates(ctx, dir)) {
      const r = readText(ctx.fs, file);
      if (r.state === 'missing') continue;
      // HEAD skips a directory with a candidate's name (`path.is_dir()`); the seed fails on it.
      if (r.state === 'directory' && v === head) continue;
      const base = newSource(file, kindOf(ctx.fs, file), dir, 'start', { chars: r.state === 'ok' ? r.chars : 0, bytes: r.state === 'ok' ? r.bytes : 'bytes' in r ? r.bytes : 0 });
      if (r.state !== 'ok' && readFailureCode(r) === 'too-large') {
        // claw-code would read it whole; Instruction Lens does not, so this chain leaves it out.
        out.diagnostics.push(diag('too-large', file, `This file ${describeReadFailure(r)}.`));
        out.sources.push({ ...base, status: 'unreadable', reason: `It ${describeReadFailure(r)}: left out here.` });
        continue;
      }
      if (r.state !== 'ok') {
        const what = describeReadFailure(r);
        fatal ??= `claw-code cannot build its prompt: ${file} ${what}`;
        const code = readFailureCode(r);
        out.diagnostics.push(diag(code, file, `This file ${what}: claw-code stops with an error instead of building its prompt.`));
        out.sources.push({ ...base, status: 'unreadable', reason: `It ${what}, so claw-code fails to build its prompt.` });
        continue;
      }
      if (rustTrim(r.text) === '') {
        out.sources.push({ ...base, status: 'excluded', reason: 'It is empty or only white space, so claw-code skips it.' });
        continue;
      }
      found.push({ source: base, content: r.text });
      out.sources.push(base);
    }
  }
  return { found, ...(fatal ? { fatal } : {}) };
}

/** dedupe_instruction_files: equal normalized text = duplicate; the first one stays. */
function dropDuplicates(found: Found[], diagnostics: Diagnostic[]): Found[] {
  const kept: Found[] = [];
  const seen = new Map<string, string>();
  for (const f of found) {
    const key = normalizeForDedupe(f.content);
    const first = seen.get(key);
    if (first) {
      f.source.status = 'duplicate';
      f.source.reason = `Same text as ${first} once white space is normalized; claw-code keeps only the first.`;
      diagnostics.push(diag('duplicate-content', f.source.path, `claw-code drops this file: its text is the same as ${first}.`, undefined, { first }));
      continue;
    }
    seen.set(key, f.source.path);
    kept.push(f);
  }
  return kept;
}

/**
 * render_instruction_files: the budget is shared root first; a file's cost is its rendered
 * length (marker included), capped at what is left; once nothing is left the rest are omitted.
 */
function applyBudget(fs: PathRules, v: Variant, kept: Found[], diagnostics: Diagnostic[]): { sections: string[]; used: number } {
  const sections = [v.heading];
  let remaining = MAX_TOTAL_CHARS;
  const omitted: string[] = [];
  for (const f of kept) {
    if (remaining === 0) {
      if (omitted.length === 0) sections.push(OMITTED);
      omitted.push(f.source.path);
      f.source.status = 'omitted';
      f.source.reason = `The ${fmt(MAX_TOTAL_CHARS)}-character budget is used up by earlier files, so claw-code omits it.`;
      continue;
    }
    const rendered = truncate(truncate(f.content, remaining), MAX_FILE_CHARS);
    const limit = Math.min(MAX_FILE_CHARS, remaining);
    remaining -= Math.min(charCount(rendered), remaining);
    sections.push(`## ${fs.path.basename(f.source.path)} (scope: ${scopeLabel(fs, f.source.path, kept.map((k) => k.source.path))})`);
    sections.push(rendered);
    setInjected(f.source, rendered);
    reportCut(f, limit, diagnostics);
  }
  for (const p of omitted) {
    diagnostics.push(diag('chain-over-budget', p, `claw-code omits this file: earlier files use up its ${fmt(MAX_TOTAL_CHARS)}-character budget.`));
  }
  return { sections, used: MAX_TOTAL_CHARS - remaining };
}

/** Where a file over `limit` characters is cut (after trimming), and why: the per-file or the total budget. */
function reportCut(f: Found, limit: number, diagnostics: Diagnostic[]): void {
  const trimmed = rustTrim(f.content);
  if (charCount(trimmed) <= limit) {
    f.source.reason = 'Found in an ancestor of the launch directory; loaded whole.';
    return;
  }
  const cut = f.content.length - rustTrimStart(f.content).length + offsetOfChar(trimmed, limit);
  const dropped = charCount(trimmed) - limit;
  const byBudget = limit < MAX_FILE_CHARS;
  f.source.status = 'truncated';
  f.source.reason = byBudget
    ? `Only ${fmt(limit)} characters of the ${fmt(MAX_TOTAL_CHARS)}-character budget were left, so claw-code cuts it there and adds [truncated].`
    : `Over the ${fmt(MAX_FILE_CHARS)}-character per-file budget: claw-code keeps the first ${fmt(MAX_FILE_CHARS)} and adds [truncated].`;
  const at = { text: f.content, start: cut, end: f.content.length };
  const pos = diag('file-truncated', f.source.path, '', at);
  f.source.cutAt = { line: pos.line, column: pos.column };
  diagnostics.push(
    byBudget
      ? diag('chain-over-budget', f.source.path, `claw-code cuts this file after ${fmt(limit)} characters because earlier files used the rest of its ${fmt(MAX_TOTAL_CHARS)}-character budget; the last ${fmt(dropped)} characters are dropped.`, at)
      : diag('file-truncated', f.source.path, `claw-code keeps the first ${fmt(MAX_FILE_CHARS)} characters of this file; the last ${fmt(dropped)} characters, from here on, are dropped.`, at),
  );
}

/** describe_instruction_file: the directory of the first file whose directory contains this one. */
function scopeLabel(fs: PathRules, file: string, files: string[]): string {
  const parent = files.map((f) => fs.path.dirname(f)).find((dir) => isInside(file, dir, fs));
  return parent ?? 'workspace';
}


export const clawCode = makeProfile(seed);
export const clawCodeHead = makeProfile(head);
