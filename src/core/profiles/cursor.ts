import * as path from 'node:path';
import { diag } from '../diagnostics';
import { parseFrontmatter, stringList } from '../frontmatter';
import { globProblem, matchesAny, relativeInside } from '../globs';
import type { Diagnostic, RenderPart, Source, SourceKind } from '../model';
import { filesBelow, isInside } from '../paths';
import type { Profile, ProfileResult, ResolveContext } from '../profile';
import { describeReadFailure, readText, sizes } from '../readText';
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

/** The settings this profile reads. `surface: 'cli'` models the Cursor CLI (reads root CLAUDE.md). */
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


/** Directories strictly below `top` down to `dir`, outermost first. */
function dirsBelow(top: string, dir: string): string[] {
  const out: string[] = [];
  for (let d = dir; d !== top && isInside(d, top); d = path.dirname(d)) out.push(d);
  return out.reverse();
}

function resolve(ctx: ResolveContext): ProfileResult {
  const sources: Source[] = [];
  const diagnostics: Diagnostic[] = [];
  const start: RenderPart[] = [];
  const onRead: RenderPart[] = [];
  const root = ctx.launchDir;
  const targetDir = ctx.fs.stat(ctx.target)?.type === 'dir' ? ctx.target : path.dirname(ctx.target);
  const rel = (p: string) => path.relative(root, p) || '.';

  const base = (file: string, kind: SourceKind, scope: string, loads: Source['loads']): Source => ({
    path: file, kind, scope, loads, status: 'loaded', chars: 0, bytes: 0, injectedChars: 0, injectedBytes: 0, reason: '',
  });

  /** Read a file Cursor would load; report it and return its text, or undefined when it cannot. */
  const read = (s: Source): string | undefined => {
    const r = readText(ctx.fs, s.path);
    if (r.state === 'missing' || r.state === 'directory') return undefined;
    if (r.state !== 'ok') {
      const what = describeReadFailure(r);
      sources.push({ ...s, status: 'unreadable', bytes: 'bytes' in r ? r.bytes : 0, reason: `It ${what}, so Cursor cannot use it.` });
      diagnostics.push(diag(r.state === 'binary' ? 'binary' : r.state === 'not-utf8' ? 'not-utf8' : 'unreadable', s.path, `This file ${what}: Cursor cannot use it as a rule.`));
      return undefined;
    }
    Object.assign(s, sizes(r.text));
    return r.text;
  };

  const inject = (s: Source, text: string) => {
    const sz = sizes(text);
    s.injectedChars = sz.chars;
    s.injectedBytes = sz.bytes;
  };

  /** One `.cursor/rules` folder owned by `owner` (the launch dir, or a nested folder on the target's path). */
  const rulesOf = (owner: string) => {
    const nested = owner !== root;
    const loads: Source['loads'] = nested ? 'on-read' : 'start';
    for (const file of filesBelow(ctx.fs, path.join(owner, '.cursor', 'rules'), (name) => /\.mdc?$/i.test(name)).sort()) {
      const s = base(file, 'rule', owner, loads);
      const text = read(s);
      if (text === undefined) continue;
      if (/\.md$/i.test(file)) {
        // Current docs: "A plain .md file in .cursor/rules is ignored by the rules system";
        // an earlier copy of the page accepted .md too (unsure which your version follows).
        sources.push({ ...s, status: 'excluded', reason: 'Cursor reads only .mdc files in .cursor/rules; a plain .md rule is ignored.' });
        diagnostics.push(diag('rule-invalid', file, 'Cursor ignores .md files in .cursor/rules (current docs): rename it to .mdc and add frontmatter to use it as a rule.'));
        continue;
      }
      const parsed = parseRule(text);
      if (parsed.state === 'invalid') {
        // Malformed frontmatter: Cursor skips the rule without a word.
        sources.push({ ...s, status: 'excluded', reason: `Its frontmatter is malformed (${parsed.message}); Cursor skips the rule silently.` });
        const lines = text.split('\n');
        const line = Math.min(parsed.line, lines.length - 1);
        const startOffset = lines.slice(0, line).reduce((n, l) => n + l.length + 1, 0);
        diagnostics.push(diag('frontmatter-invalid', file, `The frontmatter is malformed (${parsed.message}): Cursor skips this rule without a warning.`, { text, start: startOffset, end: startOffset + lines[line].length }));
        continue;
      }
      const data = parsed.state === 'ok' ? parsed.data : {};
      const body = parsed.body.trim();
      // alwaysApply counts only as the boolean true; the string "true" counts as false.
      const always = data.alwaysApply === true;
      if (typeof data.alwaysApply === 'string' && data.alwaysApply.trim().toLowerCase() === 'true') {
        const at = text.indexOf('alwaysApply');
        diagnostics.push(diag('frontmatter-invalid', file, 'alwaysApply is the string "true", which Cursor reads as false: write alwaysApply: true without quotes.', at >= 0 ? { text, start: at, end: text.indexOf('\n', at) < 0 ? text.length : text.indexOf('\n', at) } : undefined));
      }
      const globs = (parsed.state === 'ok' && parsed.rawGlobs !== undefined ? stringList(parsed.rawGlobs) : stringList(data.globs)) ?? [];
      const description = typeof data.description === 'string' && data.description.trim() ? data.description.trim() : undefined;
      for (const g of globs) {
        const problem = globProblem(g);
        if (problem) diagnostics.push(diag('glob-invalid', file, `The glob "${g}" is invalid (${problem}); Cursor will not match it.`));
      }
      const type: RuleType = always ? 'always' : globs.length ? 'auto' : description ? 'agent' : 'manual';
      if (globs.length) s.globs = globs;
      const rule: Rule = { source: s, body, type, description };
      place(rule, nested);
    }
  };

  /** Status, reason and render of one rule. */
  const place = (r: Rule, nested: boolean) => {
    const s = r.source;
    const where = nested ? ` (nested rules in ${rel(s.scope)}/ attach when a file there is referenced)` : '';
    const targetRel = relativeInside(root, ctx.target);
    const scopeRel = relativeInside(s.scope, ctx.target);
    // Globs are matched against the path from the workspace root; a nested rule's globs are
    // also tried from its own folder (which one Cursor uses is not documented: unsure).
    const hit = (g: string[]) => [targetRel, nested ? scopeRel : undefined].some((p) => p !== undefined && p !== '' && matchesAny(p, g));
    const loadBody = (status: 'loaded' | 'on-read', reason: string) => {
      s.status = status;
      s.reason = reason;
      inject(s, r.body);
      (status === 'loaded' ? start : onRead).push({ where: 'system', text: r.body });
    };
    switch (r.type) {
      case 'always':
        if (nested) loadBody('on-read', `Always Apply rule in a nested folder: attached once a file under ${rel(s.scope)}/ is referenced.`);
        else loadBody('loaded', 'Always Apply (alwaysApply: true): included in every chat.');
        break;
      case 'auto':
        if (hit(s.globs!)) {
          // Cursor attaches it when a matching file is in context (read, edited or @-mentioned).
          s.loads = 'on-read';
          loadBody('on-read', `Its globs (${s.globs!.join(', ')}) match this file: attached when the file is in context${where}.`);
        } else if (r.description) {
          // Globs miss, but alwaysApply is false and there is a description: the docs say the
          // description is then presented to the Agent (how the two combine is not documented).
          s.status = 'listed';
          s.reason = `Its globs (${s.globs!.join(', ')}) do not match this file; its description is still offered to the Agent, which decides whether to read it.`;
          inject(s, r.description);
          (nested ? onRead : start).push({ where: 'system', text: r.description });
        } else {
          s.loads = 'on-read';
          s.status = 'not-matched';
          s.reason = `Its globs (${s.globs!.join(', ')}) do not match this file; it attaches only when a matching file is in context.`;
        }
        break;
      case 'agent':
        s.status = 'listed';
        s.reason = `Agent Requested: only its description is offered; the Agent reads the rule if it judges it relevant${where}.`;
        inject(s, r.description!);
        (nested ? onRead : start).push({ where: 'system', text: r.description! });
        break;
      case 'manual':
        s.status = 'excluded';
        s.reason = 'Manual rule (no alwaysApply, globs or description): used only when @-mentioned in chat.';
        break;
    }
    sources.push(s);
  };

  /** A plain Markdown file Cursor loads whole (AGENTS.md, CLAUDE.md, .cursorrules). */
  const plain = (file: string, scope: string, loads: Source['loads'], reason: string) => {
    const s = base(file, 'project', scope, loads);
    const text = read(s);
    if (text === undefined) return undefined;
    const body = text.trim();
    s.status = loads === 'start' ? 'loaded' : 'on-read';
    s.reason = reason;
    inject(s, body);
    (loads === 'start' ? start : onRead).push({ where: 'system', text: body });
    sources.push(s);
    return s;
  };

  // 1. Project rules of the workspace root, then nested rule folders on the way to the target.
  rulesOf(root);
  const below = isInside(targetDir, root) ? dirsBelow(root, targetDir) : [];
  for (const dir of below) rulesOf(dir);

  // 2. AGENTS.md: root always; nested ones "automatically applied when working with files in
  // that directory or its children".
  plain(path.join(root, 'AGENTS.md'), root, 'start', 'AGENTS.md in the workspace root: included in every chat.');
  for (const dir of below) plain(path.join(dir, 'AGENTS.md'), dir, 'on-read', `Nested AGENTS.md: applied when working with files in ${rel(dir)}/, combined with the ones above it.`);

  // 3. Root CLAUDE.md: the Cursor CLI reads it (CLI docs); the IDE docs name only AGENTS.md.
  const claude = path.join(root, 'CLAUDE.md');
  if (surfaceOf(ctx) === 'cli') plain(claude, root, 'start', 'CLAUDE.md in the project root: the Cursor CLI applies it as a rule.');
  else if (ctx.fs.stat(claude)?.type === 'file') {
    const s = base(claude, 'project', root, 'start');
    const text = read(s);
    if (text !== undefined) sources.push({ ...s, status: 'excluded', reason: "Cursor's IDE docs name only AGENTS.md; the Cursor CLI does read a root CLAUDE.md (setting surface: cli)." });
  }

  // 4. Legacy `.cursorrules` in the workspace root: still loaded, deprecated.
  const legacy = plain(path.join(root, '.cursorrules'), root, 'start', 'Legacy .cursorrules in the workspace root: still loaded into every chat, but deprecated.');
  if (legacy) diagnostics.push(diag('deprecated', legacy.path, '.cursorrules is still supported but will be deprecated: move its rules to .cursor/rules/*.mdc or AGENTS.md.'));

  const used = start.reduce((n, p) => n + charCount(p.text), 0);
  return { sources, budget: { unit: 'chars', limit: null, perFile: null, used }, diagnostics, start, onRead };
}

export const cursor: Profile = {
  id: 'cursor',
  agent: 'Cursor',
  agentVersion: 'docs (cursor.com/docs/rules, 2026)',
  verified: 'docs',
  filePatterns: ['**/.cursor/rules/**/*.mdc', '**/.cursor/rules/**/*.md', '**/AGENTS.md', '.cursorrules', 'CLAUDE.md'],
  mainFile: 'AGENTS.md',
  globalPaths: () => [],
  resolve,
};
