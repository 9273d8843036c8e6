import { diag } from '../diagnostics';
import { headerWithoutOpening, parseFrontmatter, stringList } from '../frontmatter';
import { globProblem, matchesAny, relativeInside } from '../globs';
import { newSource, setInjected, type Diagnostic, type RenderPart, type Source } from '../model';
import { dirsBelow, filesBelow, folderOf, isInside, sameName } from '../paths';
import type { Profile, ProfileResult, ResolveContext } from '../profile';
import { describeReadFailure, readFailureDiagnostic, readText, sizes } from '../readText';
import { charCount } from '../text';

/**
 * Cursor (Agent), from its docs only — Cursor is closed and does not run here:
 * - Rules page, https://cursor.com/docs/rules (stored 2026 copy; earlier copy at
 *   /docs/context/rules): project rules in `.cursor/rules` (folders allowed), frontmatter
 *   `description`, `globs`, `alwaysApply`; four types; nested `.cursor/rules` "automatically
 *   attach when files in their directory are referenced"; `AGENTS.md` in the root and in
 *   subdirectories ("combined with parent directories"); legacy root `.cursorrules` "still
 *   supported but will be deprecated".
 * - CLI page, https://docs.cursor.com/cli/using: the CLI also reads `AGENTS.md` and `CLAUDE.md`
 *   at the project root.
 *
 * Cursor's prompt format is not public. Each part holds what Cursor is documented to send:
 * a rule's body ("rule contents are included at the start of the model context", so
 * `where: 'system'`), or for an Agent Requested rule its description. The wrapper around
 * them, and their order, are NOT known; the body is given trimmed, frontmatter removed.
 * Budget: Cursor documents none. User and Team rules live in Cursor's settings and
 * dashboard, not in files, so they are not in the chain.
 */

type RuleType = 'always' | 'auto' | 'agent' | 'manual';

interface Rule {
  source: Source;
  body: string;
  type: RuleType;
  description?: string;
}

/** Which Cursor is modelled (setting `surface`): the editor, or the Cursor CLI, which also reads the root CLAUDE.md. */
function surfaceOf(ctx: ResolveContext): 'ide' | 'cli' {
  return ctx.settings.surface === 'cli' ? 'cli' : 'ide';
}


const OPEN = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSE = /^---[ \t]*(?:\r?\n|$)/m;

type Parsed =
  | { state: 'none'; body: string }
  | { state: 'invalid'; message: string; line: number }
  | { state: 'ok'; data: Record<string, unknown>; body: string; rawGlobs?: string };

/**
 * Cursor's frontmatter. Cursor's own rule editor writes `globs: **\/*.ts,src/**` unquoted, which
 * is not valid YAML (`*` starts an alias), so an unquoted `globs:` value is taken as written;
 * the rest must parse as a YAML mapping, else the rule is malformed. Where Cursor's parser
 * draws that line exactly is not documented (unsure).
 */
function parseRule(text: string): Parsed {
  const open = OPEN.exec(text);
  if (!open) return { state: 'none', body: text };
  const rest = text.slice(open[0].length);
  const close = CLOSE.exec(rest);
  if (!close) return { state: 'invalid', message: 'the frontmatter opened with --- is never closed', line: 0 };
  let rawGlobs: string | undefined;
  const yamlText = rest
    .slice(0, close.index)
    .split('\n')
    .map((line) => {
      const m = /^globs:[ \t]*(.*?)\r?$/.exec(line);
      if (!m || !m[1] || /^["'[]/.test(m[1])) return line;
      rawGlobs = m[1].replace(/[ \t]+#.*$/, '');
      return `globs: ${JSON.stringify(rawGlobs)}`;
    })
    .join('\n');
  const fm = parseFrontmatter(`---\n${yamlText}\n---\n`);
  const body = rest.slice(close.index + close[0].length);
  if (!fm) return { state: 'invalid', message: 'the frontmatter does not parse', line: 0 };
  if (fm.error) return { state: 'invalid', message: fm.error.message, line: fm.error.line };
  if (!fm.data) return { state: 'invalid', message: 'the frontmatter is not a list of key: value pairs', line: 0 };
  return { state: 'ok', data: fm.data, body, ...(rawGlobs !== undefined ? { rawGlobs } : {}) };
}

/** What a folder below the workspace root may hold for Cursor. */
const NESTED = ['.cursor', 'AGENTS.md'];

/**
 * The steps every profile runs: find the sources (rule folders of the workspace root and of the
 * folders on the way to the target, AGENTS.md files, the root CLAUDE.md, legacy .cursorrules),
 * follow imports (Cursor documents none: an `@file` in a rule is a mention), apply the budget
 * (Cursor documents none), render (each part as the docs describe it, in this order).
 */
function resolve(ctx: ResolveContext): ProfileResult {
  const path = ctx.fs.path;
  const chain = new CursorChain(ctx);
  const root = ctx.launchDir;
  // The folders on the way that hold a rules folder or an AGENTS.md: the others add nothing.
  const below = dirsBelow(root, folderOf(ctx.fs, ctx.target), ctx.fs).filter((d) => !ctx.fs.lacksAll?.(d, NESTED));
  // 1. Project rules of the workspace root, then nested rule folders on the way to the target.
  for (const dir of [root, ...below]) chain.rulesOf(dir);
  // 2. AGENTS.md: root always; nested ones "automatically applied when working with files in
  // that directory or its children".
  chain.plain(path.join(root, 'AGENTS.md'), root, 'start', 'AGENTS.md in the workspace root: included in every chat.');
  for (const dir of below) chain.plain(path.join(dir, 'AGENTS.md'), dir, 'on-read', `Nested AGENTS.md: applied when working with files in ${chain.rel(dir)}/, combined with the ones above it.`);
  // 3. Root CLAUDE.md: the Cursor CLI reads it (CLI docs); the IDE docs name only AGENTS.md.
  chain.rootClaudeMd(surfaceOf(ctx));
  // 4. Legacy `.cursorrules` in the workspace root: still loaded, deprecated.
  const legacy = chain.plain(path.join(root, '.cursorrules'), root, 'start', 'Legacy .cursorrules in the workspace root: still loaded into every chat, but deprecated.');
  if (legacy) chain.diagnostics.push(diag('deprecated', legacy.path, '.cursorrules is still supported but will be deprecated: move its rules to .cursor/rules/*.mdc or AGENTS.md.'));
  const used = chain.start.reduce((n, p) => n + charCount(p.text), 0);
  return { sources: chain.sources, budget: { unit: 'chars', limit: null, perFile: null, used }, diagnostics: chain.diagnostics, start: chain.start, onRead: chain.onRead };
}

/**
 * For `check`: besides the launch folder and the settings, what a chain reports (its problems,
 * its rules and their globs) depends on its folder only through the folders on the way that hold
 * a `.cursor` or an AGENTS.md; the target itself decides only which rules match, not what is
 * reported. Folders below the same such folders give the same answer.
 */
function checkKey(ctx: ResolveContext): string {
  // Each folder's key once a pass, from its parent's: `check` asks it of every folder holding
  // instruction files, and each walked every folder above its own again.
  const keys = ctx.memo(`keys\0${ctx.launchDir}`, () => new Map<string, string>());
  return keyOf(ctx, keys, folderOf(ctx.fs, ctx.target));
}

/** The folders from below the launch folder down to `dir` that hold a `.cursor` or an AGENTS.md, joined (as `dirsBelow` walks them). */
function keyOf(ctx: ResolveContext, keys: Map<string, string>, dir: string): string {
  const path = ctx.fs.path;
  if (sameName(ctx.fs, dir, ctx.launchDir) || !isInside(dir, ctx.launchDir, ctx.fs) || path.dirname(dir) === dir) return '';
  let key = keys.get(dir);
  if (key === undefined) {
    const above = keyOf(ctx, keys, path.dirname(dir));
    const own = !!(ctx.fs.stat(path.join(dir, '.cursor')) || ctx.fs.stat(path.join(dir, 'AGENTS.md')));
    keys.set(dir, (key = own ? (above ? `${above}\0${dir}` : dir) : above));
  }
  return key;
}

/** What the steps gather: sources in chain order, diagnostics, and the parts sent at start and on read. */
class CursorChain {
  readonly sources: Source[] = [];
  readonly diagnostics: Diagnostic[] = [];
  readonly start: RenderPart[] = [];
  readonly onRead: RenderPart[] = [];
  private readonly root: string;

  constructor(private readonly ctx: ResolveContext) {
    this.root = ctx.launchDir;
  }

  rel(p: string): string {
    const path = this.ctx.fs.path;
    return path.relative(this.root, p) || '.';
  }

  /** Read a file Cursor would load; report it and return its text, or undefined when it cannot. */
  private read(s: Source): string | undefined {
    const r = readText(this.ctx.fs, s.path);
    if (r.state === 'missing' || r.state === 'directory') return undefined;
    if (r.state !== 'ok') {
      const what = describeReadFailure(r);
      this.sources.push({ ...s, status: 'unreadable', bytes: 'bytes' in r ? (r.bytes ?? 0) : 0, reason: `It ${what}, so Cursor cannot use it.` });
      this.diagnostics.push(readFailureDiagnostic(r, s.path, `This file ${what}: Cursor cannot use it as a rule.`));
      return undefined;
    }
    Object.assign(s, sizes(r.text));
    return r.text;
  }

  /** The rules of one `.cursor/rules` folder owned by `owner` (the launch dir, or a nested folder on the target's path), in file order. */
  rulesOf(owner: string): void {
    const path = this.ctx.fs.path;
    const loads: Source['loads'] = owner !== this.root ? 'on-read' : 'start';
    for (const file of filesBelow(this.ctx.fs, path.join(owner, '.cursor', 'rules'), (name) => /\.mdc?$/i.test(name)).sort()) {
      const s = newSource(file, 'rule', owner, loads);
      const text = this.read(s);
      if (text === undefined) continue;
      if (/\.md$/i.test(file)) {
        // Current docs: "A plain .md file in .cursor/rules is ignored by the rules system";
        // an earlier copy of the page accepted .md too (unsure which your version follows).
        this.sources.push({ ...s, status: 'excluded', reason: 'Cursor reads only .mdc files in .cursor/rules; a plain .md rule is ignored.' });
        this.diagnostics.push(diag('rule-invalid', file, 'Cursor ignores .md files in .cursor/rules (current docs): rename it to .mdc and add frontmatter to use it as a rule.'));
        continue;
      }
      const rule = this.ruleOf(s, text);
      if (rule) this.place(rule, owner !== this.root);
    }
  }

  /** One rule file's type, globs and body from its frontmatter; undefined when Cursor skips it. */
  private ruleOf(s: Source, text: string): Rule | undefined {
    const file = s.path;
    const parsed = parseRule(text);
    headerWithoutOpening(file, text, this.diagnostics);
    if (parsed.state === 'invalid') {
      // Malformed frontmatter: Cursor skips the rule without a word.
      this.sources.push({ ...s, status: 'excluded', reason: `Its frontmatter is malformed (${parsed.message}); Cursor skips the rule silently.` });
      const lines = text.split('\n');
      const line = Math.min(parsed.line, lines.length - 1);
      const startOffset = lines.slice(0, line).reduce((n, l) => n + l.length + 1, 0);
      this.diagnostics.push(diag('frontmatter-invalid', file, `The frontmatter is malformed (${parsed.message}): Cursor skips this rule without a warning.`, { text, start: startOffset, end: startOffset + lines[line].length }));
      return undefined;
    }
    const data = parsed.state === 'ok' ? parsed.data : {};
    // alwaysApply counts only as the boolean true; the string "true" counts as false.
    const always = data.alwaysApply === true;
    if (typeof data.alwaysApply === 'string' && data.alwaysApply.trim().toLowerCase() === 'true') {
      const at = text.indexOf('alwaysApply');
      this.diagnostics.push(diag('frontmatter-invalid', file, 'alwaysApply is the string "true", which Cursor reads as false: write alwaysApply: true without quotes.', at >= 0 ? { text, start: at, end: text.indexOf('\n', at) < 0 ? text.length : text.indexOf('\n', at) } : undefined));
    }
    const globs = (parsed.state === 'ok' && parsed.rawGlobs !== undefined ? stringList(parsed.rawGlobs) : stringList(data.globs)) ?? [];
    const description = typeof data.description === 'string' && data.description.trim() ? data.description.trim() : undefined;
    for (const g of globs) {
      const problem = globProblem(g);
      if (problem) this.diagnostics.push(diag('glob-invalid', file, `The glob "${g}" is invalid (${problem}); Cursor will not match it.`));
    }
    const type: RuleType = always ? 'always' : globs.length ? 'auto' : description ? 'agent' : 'manual';
    if (globs.length) s.globs = globs;
    return { source: s, body: parsed.body.trim(), type, description };
  }

  /** Status, reason and render of one rule. */
  private place(r: Rule, nested: boolean): void {
    const s = r.source;
    const where = nested ? ` (nested rules in ${this.rel(s.scope)}/ attach when a file there is referenced)` : '';
    switch (r.type) {
      case 'always':
        if (nested) this.send(s, r.body, 'on-read', `Always Apply rule in a nested folder: attached once a file under ${this.rel(s.scope)}/ is referenced.`);
        else this.send(s, r.body, 'loaded', 'Always Apply (alwaysApply: true): included in every chat.');
        break;
      case 'auto':
        if (this.globsHit(s.globs!, s.scope, nested)) {
          // Cursor attaches it when a matching file is in context (read, edited or @-mentioned).
          s.loads = 'on-read';
          this.send(s, r.body, 'on-read', `Its globs (${s.globs!.join(', ')}) match this file: attached when the file is in context${where}.`);
        } else if (r.description) {
          // Globs miss, but alwaysApply is false and there is a description: the docs say the
          // description is then presented to the Agent (how the two combine is not documented).
          this.send(s, r.description, nested ? 'on-read' : 'loaded', `Its globs (${s.globs!.join(', ')}) do not match this file; its description is still offered to the Agent, which decides whether to read it.`);
          s.status = 'listed';
        } else {
          s.loads = 'on-read';
          s.status = 'not-matched';
          s.reason = `Its globs (${s.globs!.join(', ')}) do not match this file; it attaches only when a matching file is in context.`;
        }
        break;
      case 'agent':
        this.send(s, r.description!, nested ? 'on-read' : 'loaded', `Agent Requested: only its description is offered; the Agent reads the rule if it judges it relevant${where}.`);
        s.status = 'listed';
        break;
      case 'manual':
        s.status = 'excluded';
        s.reason = 'Manual rule (no alwaysApply, globs or description): used only when @-mentioned in chat.';
        break;
    }
    this.sources.push(s);
  }

  /**
   * Globs are matched against the path from the workspace root; a nested rule's globs are also
   * tried from its own folder (which one Cursor uses is not documented: unsure).
   */
  private globsHit(globs: string[], scope: string, nested: boolean): boolean {
    const targetRel = relativeInside(this.root, this.ctx.target, this.ctx.fs);
    const scopeRel = relativeInside(scope, this.ctx.target, this.ctx.fs);
    return [targetRel, nested ? scopeRel : undefined].some((p) => p !== undefined && p !== '' && matchesAny(p, globs));
  }

  /** Send `text` for a source, at start (`loaded`) or on read, as a system part. */
  private send(s: Source, text: string, status: 'loaded' | 'on-read', reason: string): void {
    s.status = status;
    s.reason = reason;
    setInjected(s, text);
    (status === 'loaded' ? this.start : this.onRead).push({ where: 'system', text });
  }

  /** A plain Markdown file Cursor loads whole (AGENTS.md, CLAUDE.md, .cursorrules). */
  plain(file: string, scope: string, loads: Source['loads'], reason: string): Source | undefined {
    const s = newSource(file, 'project', scope, loads);
    const text = this.read(s);
    if (text === undefined) return undefined;
    this.send(s, text.trim(), loads === 'start' ? 'loaded' : 'on-read', reason);
    this.sources.push(s);
    return s;
  }

  /** The root CLAUDE.md: loaded by the Cursor CLI, listed as not read by the IDE. */
  rootClaudeMd(surface: 'ide' | 'cli'): void {
    const path = this.ctx.fs.path;
    const claude = path.join(this.root, 'CLAUDE.md');
    if (surface === 'cli') {
      this.plain(claude, this.root, 'start', 'CLAUDE.md in the project root: the Cursor CLI applies it as a rule.');
      return;
    }
    if (this.ctx.fs.stat(claude)?.type !== 'file') return;
    const s = newSource(claude, 'project', this.root, 'start');
    if (this.read(s) !== undefined) this.sources.push({ ...s, status: 'excluded', reason: "Cursor's IDE docs name only AGENTS.md; the Cursor CLI does read a root CLAUDE.md (setting surface: cli)." });
  }
}

export const cursor: Profile = {
  id: 'cursor',
  order: 60,
  agent: 'Cursor',
  about: "the Cursor editor's agent and its project rules",
  agentVersion: 'cursor.com/docs/rules (2026)',
  verified: 'docs',
  filePatterns: ['**/.cursor/rules/**/*.mdc', '**/.cursor/rules/**/*.md', '**/AGENTS.md', '.cursorrules', 'CLAUDE.md'],
  mainFile: 'AGENTS.md',
  settingsSection: 'cursor',
  settings: { surface: { default: 'ide' } },
  evidence: { markers: ['.cursorrules', '**/.cursor/**'], cli: { command: 'cursor-agent', versionArgs: ['--version'] }, homeDir: '.cursor' },
  notRunnable: "Cursor's agent runs inside the Cursor editor against Cursor's servers; it cannot be pointed at a local model.",
  globalPaths: () => [],
  resolve,
  checkKey,
  // Unsure: the docs do not say whether a glob with no `/` (`*.tsx`) matches below the root, as a
  // file-name pattern does in .gitignore; `glob-no-match` tries it on the file's name too, so a
  // rule is not called dead on a guess.
  matchesGlob: (rel, glob) => matchesAny(rel, [glob]) || (!glob.includes('/') && matchesAny(rel.slice(rel.lastIndexOf('/') + 1), [glob])),
};
