import { diag } from '../diagnostics';
import { headerWithoutOpening, parseFrontmatter, stringList } from '../frontmatter';
import { findGitRoot } from '../git';
import { globProblem, matchesAny, relativeInside } from '../globs';
import type { Diagnostic, RenderPart, Source, SourceKind } from '../model';
import { compareRustPaths, folderOf, isInside, platformPath, readsAsPath } from '../paths';
import type { PathApi } from '../fs';
import { getOrSet, type ImportRef, type LocalRun, type Profile, type ProfileResult, type ResolveContext } from '../profile';
import { ParseCache } from '../parseCache';
import { describeReadFailure, lossyDiagnostic, readFailureCode, readFailureDiagnostic, readLossy, sizes } from '../readText';

/**
 * GitHub Copilot CLI 1.0.102 (`copilot -p`, own-provider mode). The discovery and prompt logic
 * lives in the native runtime of the package ([bundle] @github/copilot 1.0.102:
 * prebuilds/linux-x64/runtime.node, src/runtime/src/prompts/custom_instructions*.rs and
 * repo_instruction_discovery.rs); its strings are quoted from there and every rule below was
 * settled by probing the real CLI against a fake model (observed on Copilot CLI 1.0.102, probe
 * trees p1–p24, see the report). The JS bundle (cli-main.js) only calls into that runtime.
 *
 * At start everything sits in the system message, right after `</tools>\n\n`:
 *   [<custom_instruction> blocks] [raw always-on instruction files] [nested AGENTS.md table] [path table]
 * On read, one user message after the tool result carries a `<system_reminder>` per file.
 */

const VERSION = '1.0.102';
const AGENT = 'Copilot CLI';

// [bundle] the `Here is a list of instruction files …` and `… nested AGENTS.md files …` strings,
// joined with `\n` exactly as observed (p1, p14).
const TABLE_HEAD = [
  'Here is a list of instruction files that contain rules for modifying or creating new code.',
  'These files are important for ensuring that the code is modified or created correctly.',
  'Please make sure to follow the rules specified in these files when working with the codebase.',
  'If you have not already read the file, use the `view` tool to acquire it.',
  'Make sure to acquire the instructions before making any changes to the code.',
  '| Pattern | File Path | Description |',
  '| ------- | --------- | ----------- |',
].join('\n');
const NESTED_TABLE_HEAD = [
  'Here is a list of nested AGENTS.md files that contain additional agent instructions.',
  'These files provide context-specific instructions for different parts of the codebase.',
  'Please make sure to follow the rules specified in these files when working with the relevant areas.',
  'If you have not already read the file, use the `view` tool to acquire it.',
  'Make sure to acquire the instructions before making any changes to the code in those areas.',
  '| Directory | File Path | Description |',
  '| --------- | --------- | ----------- |',
].join('\n');

/** The names loaded as `<custom_instruction>` blocks in the repository root and the launch dir, in order (observed p1). */
const DIR_FILES = ['.github/copilot-instructions.md', 'AGENTS.md', 'CLAUDE.md', 'GEMINI.md'];
/** In the other folders (between them at start, below on read) `.claude/CLAUDE.md` is read too (observed p25, p26, p27). */
const CHILD_FILES = ['.github/copilot-instructions.md', 'AGENTS.md', 'CLAUDE.md', '.claude/CLAUDE.md', 'GEMINI.md'];
/**
 * These three are found whatever the case of their name: the exact name if it exists, else the
 * first entry of the folder's listing that matches it ignoring case (observed on real repositories:
 * `agents.md`, `claude.md`, `gemini.md`, also `Agents.md`; with `gemini.md` and `Gemini.md` only,
 * the one listed first). A docs page called `gemini.md` is thus sent as instructions.
 */
const ANY_CASE = new Map(['AGENTS.md', 'CLAUDE.md', 'GEMINI.md'].map((n) => [n, n.toLowerCase()])); // name → lower case
const ANY_CASE_LOWER = new Set(ANY_CASE.values());
/** The folders CHILD_FILES and the rules on read are in, besides ANY_CASE's names. */
const DOT_FOLDERS = ['.github', '.claude'];
/** Only these expand `@imports` (observed p3: not GEMINI.md, copilot-instructions.md, rules or instruction files). */
const IMPORTING = new Set(['AGENTS.md', 'CLAUDE.md']);
/** The file plus 8 levels of imports are inlined; the 9th `@` stays text (observed p4). */
const MAX_IMPORT_DEPTH = 8;
/** applyTo values that make a file always-on (observed p2, p21: `**`, `**\/*`, `*`, or no pattern at all). */
const ALWAYS = new Set(['**', '**/*', '*']);

// The `@path` reference: `@` at line start or after a character that cannot be in an e-mail
// address's local part, then a run without white space, quotes, `<`, `>` or backticks (observed
// p19, p20). Trailing `.,;:!?)]}` are not part of the path.
const IMPORT_RE = /(^|[^A-Za-z0-9._%+-])@([^\s<>"'`]+)/gmu;
const TRAILING = /[.,;:!?)\]}]+$/;

/** The `@imports` of a text as the CLI finds them, code spans included (the caller tells them apart). */
function importRefs(text: string): ImportRef[] {
  const out: ImportRef[] = [];
  for (const m of text.matchAll(IMPORT_RE)) {
    const start = (m.index ?? 0) + m[1].length;
    const token = m[2].replace(TRAILING, '');
    if (token) out.push({ start, end: start + 1 + token.length, written: token, path: token });
  }
  return out;
}

interface Size {
  chars: number;
  bytes: number;
}

interface Doc {
  /** Text as the CLI sees it: lossy UTF-8, byte order mark dropped (observed p18, p24). */
  text: string;
  chars: number;
  bytes: number;
}

/** One file of a `.github/instructions` or `.claude/rules` folder. */
interface RuleFile {
  file: string;
  doc: Doc;
  /** Patterns as written (a list is joined with `, ` in the table). */
  patternText: string;
  patterns: string[];
  always: boolean;
  description?: string;
  excluded: boolean;
  /** How the CLI names it to the model: relative to the folder it was found for, or absolute. */
  display: string;
  /** What every chain of the refresh takes of it, made once (the file is kept per refresh, `ruleFile`). */
  patternProblems?: Diagnostic[];
  row?: string;
  globs?: string[];
}

type Group = 'user' | 'root' | 'cwd' | 'extra';

/** How a file's text first arrived in the prompt. */
interface Arrival {
  how: string;
  source: Source;
}

/** The real paths one step asked about (`touched`) and the arrivals it added, while recorded. */
interface Recording {
  touched: Set<string>;
  added: Map<string, Arrival>;
}

class Resolver {
  readonly sources: Source[];
  readonly diagnostics: Diagnostic[];
  readonly root: string;
  readonly cwd: string;
  readonly configDir: string;
  readonly realRoot: string;
  /** Files whose text is in the prompt, by real path: how each arrived first. */
  readonly sent: Map<string, Arrival>;
  /** Above 0 while the imports of a second copy are inlined. */
  private quiet = 0;
  /** While set, what the prompt's state is asked and given (see folderShare). */
  record?: Recording;

  /**
   * A new resolver, or one that goes on from where `from` stopped (with copies of its sources,
   * or, with `empty`, none of them: for a step whose own additions are wanted), leaving `from` as it is.
   */
  constructor(
    readonly ctx: ResolveContext,
    from?: { resolver: Resolver; empty?: boolean },
  ) {
    const base = from?.resolver;
    this.sources = !base || from.empty ? [] : base.sources.map((s) => ({ ...s }));
    this.diagnostics = !base || from.empty ? [] : base.diagnostics.slice();
    this.sent = new Map(base?.sent);
    this.cwd = ctx.launchDir;
    // The repository root, else the launch dir alone (observed p8: without git nothing above is read).
    this.root = base ? base.root : (findGitRoot(ctx.fs, ctx.launchDir) ?? ctx.launchDir);
    this.realRoot = base ? base.realRoot : ctx.fs.realPath(this.root);
    this.configDir = base ? base.configDir : configDir(ctx, ctx.fs.path);
  }

  /** Report a problem (`diag`'s arguments). */
  report(...problem: Parameters<typeof diag>): void {
    this.diagnostics.push(diag(...problem));
  }

  /** The file the CLI reads for `name` in `dir` (see ANY_CASE). */
  locate(dir: string, name: string): string {
    const path = this.ctx.fs.path;
    const exact = path.join(dir, name);
    // On a case-insensitive disk the open of `AGENTS.md` would find `agents.md` too; the name
    // shown is the folder's own, as on Linux, where the CLI can only have found it by listing.
    // Unsure which of the two spellings the CLI itself prints there (not run on macOS).
    if (!ANY_CASE.has(name)) return exact;
    // Most folders hold no such name in any case: their names alone say so, without listing
    // each entry in the file system's order (most of the cost of a large tree's check), and
    // without asking the disk for each name.
    const lower = ANY_CASE.get(name)!;
    if (!this.namesIgnoringCase(dir).has(lower)) return exact;
    if (!this.ctx.fs.caseInsensitive && this.ctx.fs.stat(exact)) return exact;
    const hit = this.filesIgnoringCase(dir).get(lower);
    return hit ? path.join(dir, hit) : exact;
  }

  /** The names of ANY_CASE a folder holds in some case, lower-cased, once per refresh. */
  namesIgnoringCase(dir: string): Set<string> {
    // A map per refresh, by folder: no key string built for each name asked in each folder.
    return getOrSet(this.ctx.memo('namesIgnoringCase', () => new Map<string, Set<string>>()), dir, () => {
      const names = new Set<string>();
      for (const n of this.ctx.fs.readDirNames?.(dir) ?? this.ctx.fs.readDir(dir).map((e) => e.name)) if (ANY_CASE_LOWER.has(n.toLowerCase())) names.add(n.toLowerCase());
      return names;
    });
  }

  /** A folder's files by their lower-case name (the first listed wins), once per refresh: every chain below asks. */
  private filesIgnoringCase(dir: string): Map<string, string> {
    return this.ctx.memo(`filesIgnoringCase\0${dir}`, () => {
      const out = new Map<string, string>();
      for (const e of this.ctx.fs.readDir(dir)) if (e.type === 'file' && !out.has(e.name.toLowerCase())) out.set(e.name.toLowerCase(), e.name);
      return out;
    });
  }

  /** Warn where a file loads only because the CLI matches its name ignoring case. */
  warnCase(file: string, name: string, when: string): void {
    const path = this.ctx.fs.path;
    if (!ANY_CASE.has(name) || path.basename(file) === name) return;
    this.report('name-case', file, `${AGENT} loads ${path.basename(file)} as instructions, because its name matches ${name} ignoring case; the model gets its text ${when}. Rename it if it is not meant for agents.`, undefined, { canonical: name });
  }

  /** Read a file the way the CLI does; undefined (and a source when it exists) when it cannot. */
  read(file: string, kind: SourceKind, scope: string, loads: Source['loads']): Doc | undefined {
    // Most names asked for are in no folder: the cached `stat` says so, without the two reads'
    // answers kept for the path (what readLossy would say, `missing` or `directory`, is the same).
    const st = this.ctx.fs.stat(file);
    if (!st || st.type === 'dir') return undefined;
    const r = readLossy(this.ctx.fs, file);
    if (r.state === 'missing' || r.state === 'directory') return undefined; // a directory with the name is skipped (observed p24)
    if (r.state !== 'ok') {
      this.sources.push(this.source(file, kind, scope, loads, 'unreadable', { chars: 0, bytes: 0 }, `It ${describeReadFailure(r)}, so ${AGENT} cannot read it.`));
      // Observed (1.0.102, scenario huge-files' 5 MiB files, model gpt-4.1): read whole, then the run
      // stops before any request with "Static system messages … exceed the model's usable context budget".
      this.diagnostics.push(
        readFailureCode(r) === 'too-large'
          ? diag('too-large', file, `This file ${describeReadFailure(r)}. ${AGENT} reads it whole and then refuses to send anything when the prompt passes the model's window (observed with a 5 MiB file and gpt-4.1: "Static system messages and tool definitions exceed the model's usable context budget"). It is left out here.`)
          : readFailureDiagnostic(r, file, `This file ${describeReadFailure(r)}; ${AGENT} skips it (unsure: not observed, the probes run as root).`),
      );
      return undefined;
    }
    // The runtime reads lossily: invalid bytes become U+FFFD, NUL bytes are kept (observed p24).
    if (r.problem) this.diagnostics.push(lossyDiagnostic(file, r.problem, `${AGENT} sends it anyway, with replacement characters.`));
    let text = r.text;
    const size = sizes(text);
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    return { text, ...size };
  }

  source(file: string, kind: SourceKind, scope: string, loads: Source['loads'], status: Source['status'], size: { chars: number; bytes: number }, reason: string, extra: Partial<Source> = {}): Source {
    return { path: file, kind, scope, loads, status, ...size, injectedChars: 0, injectedBytes: 0, reason, ...extra };
  }

  /** What a source itself adds to the prompt: its text, less the imported text inlined into it (counted on the imports' own entries). */
  inject(s: Source, text: string, imported: Size = { chars: 0, bytes: 0 }): void {
    const z = sizes(text);
    s.injectedChars = z.chars - imported.chars;
    s.injectedBytes = z.bytes - imported.bytes;
  }

  /**
   * Note one arrival of a file's text in the prompt; the second arrival of the same file (by its
   * real path) is marked "sent twice" and reported, saying both ways (observed on real
   * repositories: an AGENTS.md block, and the same file inlined by a CLAUDE.md's `@AGENTS.md`).
   */
  arrives(s: Source, how: string, place?: { file: string; text: string; start: number; end: number }): void {
    const path = this.ctx.fs.path;
    const real = this.ctx.fs.realPath(s.path);
    this.record?.touched.add(real);
    const first = this.sent.get(real);
    if (!first) {
      this.sent.set(real, { how, source: s });
      this.record?.added.set(real, { how, source: s });
      return;
    }
    s.sentTwice = `Also sent ${first.how}.`;
    // Inside a second copy, every file it inlines is a second copy too: one diagnostic says it.
    if (this.quiet) return;
    const name = path.relative(this.root, s.path).split(path.sep).join('/') || s.path;
    this.report(
      'duplicate-injection', place?.file ?? s.path,
      `${AGENT} sends ${name} twice: ${first.how}, and again ${how}. The second copy costs context and adds nothing.` + (
        path.basename(place?.file ?? '') === 'CLAUDE.md' && path.basename(s.path) === 'AGENTS.md'
          ? ' If the import is there for Claude Code, a CLAUDE.md that is a symlink to AGENTS.md serves both, and this agent then sends the text once.'
          : ' Drop one of the two ways.'),
      place, { first: first.source.path },
    );
  }

  /** The file already sent under another name (its real path arrived before), if any. */
  sentAs(file: string): Source | undefined {
    return this.sent.get(this.ctx.fs.realPath(file))?.source;
  }

  quietIf<T>(on: boolean, fn: () => T): T {
    if (on) this.quiet++;
    try {
      return fn();
    } finally {
      if (on) this.quiet--;
    }
  }

  /** Whether `p` (after symlinks) lies inside the repository root. */
  insideRoot(p: string): boolean {
    const real = this.ctx.fs.realPath(p);
    return isInside(p, this.root, this.ctx.fs) && isInside(real, this.realRoot, this.ctx.fs);
  }

  /**
   * Inline the `@imports` of an AGENTS.md or CLAUDE.md (observed p3, p4, p18–p21): each import is
   * inserted right after its token as `\n\n<imported_custom_instruction source="<abs>">\n…\n</imported_custom_instruction>`,
   * the imported text end-trimmed and its own imports expanded; a file already inlined for the
   * same top file becomes a self-closing `skipped="already-loaded"` marker. Anything else
   * (missing, a directory, absolute, `~/`, outside the repository, 9th level) stays as text, silently.
   */
  expandImports(text: string, file: string, scope: string, loads: Source['loads'], visited: Set<string>, depth: number, stack: string[]): { text: string; imported: Size } {
    const path = this.ctx.fs.path;
    const spans = codeSpans(text);
    const imported: Size = { chars: 0, bytes: 0 };
    let out = '';
    let last = 0;
    for (const { start: at, end, path: token } of importRefs(text)) {
      const place = { text, start: at, end };
      if (insideSpan(spans, at)) {
        this.report('import-in-code', file, `@${token} is inside code, so ${AGENT} does not import it.`, place, { target: path.resolve(path.dirname(file), token) });
        continue;
      }
      const r = this.follow(token, file, scope, loads, visited, depth, stack, place);
      if (r === undefined) continue;
      if (r.imported) {
        const z = sizes(r.insert);
        imported.chars += z.chars;
        imported.bytes += z.bytes;
      }
      out += text.slice(last, end) + r.insert;
      last = end;
    }
    return { text: out + text.slice(last), imported };
  }

  private follow(token: string, importer: string, scope: string, loads: Source['loads'], visited: Set<string>, depth: number, stack: string[], place: { text: string; start: number; end: number }): { insert: string; imported: boolean } | undefined {
    const path = this.ctx.fs.path;
    const target = path.resolve(path.dirname(importer), token);
    const skipped = (status: Source['status'], reason: string) => {
      const st = this.ctx.fs.stat(target);
      this.sources.push(this.source(target, 'import', scope, loads, status, { chars: 0, bytes: st?.type === 'file' ? st.size : 0 }, reason, { importedBy: importer }));
    };
    if (token.startsWith('/') || token.startsWith('~')) {
      // [bundle] "Skipping instruction import '@…' from '…': absolute and home-relative imports are not allowed"
      if (!this.ctx.fs.stat(target) && !token.startsWith('~')) return undefined;
      skipped('excluded', `${AGENT} refuses absolute and home-relative imports; the line stays as written.`);
      this.report('import-outside', importer, `@${token}: ${AGENT} does not follow absolute or ~/ imports; the line is sent as written.`, place);
      return undefined;
    }
    const st = this.ctx.fs.stat(target);
    if (!st || st.type !== 'file') {
      skipped('missing', `The import target ${st ? 'is a directory' : 'does not exist'}; ${AGENT} leaves the line as it is, silently.`);
      // A handle or package name (`@octocat`, `@acme/cli`) stays in the text as written, as meant;
      // so does one that is a link's text (`[@acme/cli](docs/cli.md)`: the token runs on into its target).
      if (st || (!token.includes('](') && readsAsPath(this.ctx.fs, importer, target))) this.report('import-missing', importer, `@${token} points to ${target}, which ${st ? 'is a directory' : 'does not exist'}; ${AGENT} leaves the line as it is, silently.`, place, { target });
      return undefined;
    }
    if (!this.insideRoot(target)) {
      // [bundle] "… is outside the allowed instruction import root" (observed p4: also through a symlink).
      skipped('excluded', `Outside the repository root (${this.root}); ${AGENT} does not import it.`);
      this.report('import-outside', importer, `@${token} resolves outside the repository root (${this.root}); ${AGENT} leaves the line as written.`, place, { target });
      return undefined;
    }
    if (visited.has(target)) {
      const cycle = stack.includes(target);
      skipped('duplicate', cycle ? 'An import cycle: this file is already being inlined, so the CLI inserts an "already-loaded" marker.' : 'Already inlined earlier for the same file; the CLI inserts an "already-loaded" marker instead.');
      if (cycle) this.report('import-cycle', importer, `@${token} leads back to ${path.basename(target)}, which is already being inlined; ${AGENT} inserts an "already-loaded" marker.`, place);
      return { insert: `\n\n<imported_custom_instruction source="${target}" skipped="already-loaded" />`, imported: false };
    }
    if (depth + 1 > MAX_IMPORT_DEPTH) {
      skipped('excluded', `${depth + 1} imports deep; ${AGENT} inlines at most ${MAX_IMPORT_DEPTH} levels and leaves this line as text.`);
      this.report('import-depth', importer, `@${token} is ${depth + 1} imports deep; ${AGENT} inlines ${MAX_IMPORT_DEPTH} levels and sends this one as text.`, place);
      return undefined;
    }
    const doc = this.read(target, 'import', scope, loads);
    if (!doc) return undefined;
    visited.add(target);
    const s = this.source(target, 'import', scope, loads, loads === 'start' ? 'loaded' : 'on-read', doc, '', { importedBy: importer });
    s.reason = loads === 'start' ? `Imported by ${path.basename(importer)}: inlined right after the @ line.` : `Imported by ${path.basename(importer)}, which loads when ${AGENT} reads a file here.`;
    this.sources.push(s);
    // Only the tags that would close or open an import block are neutralised (observed p4, p18).
    const own = doc.text.replace(/<(\/?)imported_custom_instruction/g, '&lt;$1imported_custom_instruction');
    const rel = (p: string) => path.relative(this.root, p).split(path.sep).join('/');
    const within = stack[0] !== importer ? ` (inside ${rel(stack[0])}'s block)` : '';
    this.arrives(s, `inlined into ${rel(importer)}${within} by its @${token}${loads === 'on-read' ? ' when the agent reads a file there' : ''}`, { file: importer, ...place });
    const expanded = this.quietIf(!!s.sentTwice, () => this.expandImports(own, target, scope, loads, visited, depth + 1, [...stack, target]));
    const body = expanded.text.trimEnd();
    const insert = `\n\n<imported_custom_instruction source="${target}">\n${body}\n</imported_custom_instruction>`;
    this.inject(s, insert, expanded.imported);
    return { insert, imported: true };
  }

  /**
   * Parse a `.github/instructions` / `.claude/rules` file, once per refresh (every chain of a
   * `check` pass reads the launch folder's rules): the file and its diagnostics are the same for each.
   */
  ruleFile(file: string, doc: Doc, display: string): RuleFile {
    // By file, then by name shown: no key string built for each file of each chain.
    const byFile = this.ctx.memo('ruleFiles', () => new Map<string, Map<string, { rf: RuleFile; problems: Diagnostic[] }>>());
    const parsed = getOrSet(getOrSet(byFile, file, () => new Map()), display, () => {
      const problems: Diagnostic[] = [];
      return { rf: parseRuleFile(file, doc, display, problems), problems };
    });
    this.diagnostics.push(...parsed.problems);
    return parsed.rf;
  }

  /** Patterns for matching and their diagnostics (once per refresh, as `ruleFile`). */
  checkPatterns(r: RuleFile): void {
    this.diagnostics.push(...(r.patternProblems ??= patternProblems(r)));
  }
}

/** A `.github/instructions` / `.claude/rules` file as the CLI reads it; its problems go to `diagnostics`. */
function parseRuleFile(file: string, doc: Doc, display: string, diagnostics: Diagnostic[]): RuleFile {
  const fm = parseFrontmatter(doc.text);
  headerWithoutOpening(file, doc.text, diagnostics);
  let data: Record<string, unknown> | undefined = fm?.data;
  if (fm && !data) {
    // The runtime still reads `key: value` lines of a header YAML rejects (observed p13: m1, m2).
    data = lineFrontmatter(fm.raw);
    diagnostics.push(diag('frontmatter-invalid', file, `The frontmatter is not valid YAML (${fm.error?.message ?? 'not a mapping'}); ${AGENT} falls back to reading its "key: value" lines.`));
  }
  data ??= {};
  // `applyTo` and `paths` are read in both folders (observed p13: p1, r4).
  const value = data.applyTo !== undefined ? data.applyTo : data.paths;
  const patterns = patternList(value);
  // The table shows the patterns split, trimmed and joined with ", " (observed: copilot-instruction-files scenario).
  const patternText = patterns.join(', ');
  const always = patterns.length === 0 || patterns.every((p) => ALWAYS.has(p));
  const ex = data.excludeAgent;
  const excluded = (Array.isArray(ex) ? ex : [ex]).some((v) => v === 'coding-agent'); // exact, case-sensitive (observed p13)
  // From YAML only: the `key: value` lines read from a header YAML rejects give none (observed: scenario rules-unquoted).
  const d = fm?.data?.description;
  const description = typeof d === 'string' ? d.trim().replace(/\s*\r?\n\s*/g, ' ') : undefined;
  return { file, doc, patternText, patterns, always, description, excluded, display };
}

/** The problems of a rule file's patterns. */
function patternProblems(r: RuleFile): Diagnostic[] {
  const out: Diagnostic[] = [];
  const text = r.doc.text;
  for (const p of r.patterns) {
    const problem = globProblem(p);
    const i = Math.max(0, text.indexOf(p));
    const place = { text, start: i, end: i + p.length };
    if (problem) out.push(diag('glob-invalid', r.file, `The pattern "${p}" is invalid (${problem}); ${AGENT} ignores it.`, place));
    else if (p.startsWith('/')) out.push(diag('glob-no-match', r.file, `"${p}" never matches: ${AGENT} matches patterns against paths relative to the repository root, without a leading "/".`, place));
  }
  return out;
}

function configDir(env: { home: string; env: Readonly<Record<string, string | undefined>>; platform: NodeJS.Platform }, path: PathApi = platformPath(env.platform)): string {
  // COPILOT_HOME is the config directory itself (observed p14b), else ~/.copilot.
  return env.env.COPILOT_HOME ? path.resolve(env.env.COPILOT_HOME) : path.join(env.home, '.copilot');
}

/** Patterns of an applyTo/paths value: comma-separated (braces kept whole), trimmed, empty ones dropped. */
function patternList(value: unknown): string[] {
  if (typeof value !== 'string' && !Array.isArray(value)) return [];
  return stringList(value) ?? [];
}

/** The `key: value` lines of a header block, for a header YAML rejects. */
function lineFrontmatter(raw: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const line of raw.split(/\r?\n/).slice(1)) {
    // A ` #` comment ends a plain value (observed: scenario instructions-unquoted).
    const m = /^([A-Za-z_][\w-]*):[ \t]*(".*"|'.*'|.*?)[ \t]*(?:[ \t]#.*)?$/.exec(line);
    if (!m || m[1] in out) continue;
    let v = m[2];
    if (/^(".*"|'.*')$/.test(v)) v = v.slice(1, -1);
    out[m[1]] = v;
  }
  return out;
}

/** Whether a path matches a pattern the way the CLI matches (observed p2, p9, p22). */
export function cliMatches(rel: string, pattern: string): boolean {
  const glob = cliGlob.get(pattern);
  return typeof glob === 'boolean' ? glob : matchesAny(rel, glob, CLI_GLOB);
}

/** How the CLI's globs are matched: one object, not one per test (`check` tests every file against each rule). */
const CLI_GLOB = { basenameAnywhere: true } as const;

/**
 * What a pattern means to the CLI: a glob to match (as the one-glob list `matchesAny` takes, made
 * once), or a fixed answer. Kept by pattern: `check` asks for every file.
 */
const cliGlob = new ParseCache((pattern: string): readonly string[] | boolean => {
  const glob = cliPattern(pattern);
  return typeof glob === 'boolean' ? glob : [glob];
});

/** A pattern as the CLI reads it: the glob to match, or a fixed answer. */
function cliPattern(pattern: string): string | boolean {
  let p = pattern.trim();
  if (!p || p.startsWith('/') || globProblem(p)) return false; // a leading "/" never matches; malformed patterns are ignored
  while (p.startsWith('./')) p = p.slice(2);
  if (p === '**/') return true;
  if (p.endsWith('/') || p.includes('//')) return false; // directories do not match the files in them
  // A pattern without "/" matches the file name at any depth; case-sensitive. `[!x]` negates
  // (picomatch reads it as a literal, hence the rewrite to `[^x]`).
  return p.replace(/\[!/g, '[^');
}

/** Offsets of fenced code blocks and inline code spans, where `@` is not an import (observed p19, p20). */
/**
 * Whether `at` falls in one of `spans` (in order, not overlapping): a binary search, since a file
 * of 20,000 imports and as many code spans took seconds when each import scanned every span.
 */
function insideSpan(spans: { start: number; end: number }[], at: number): boolean {
  let lo = 0;
  let hi = spans.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (spans[mid].start <= at) lo = mid;
    else hi = mid - 1;
  }
  return spans.length > 0 && spans[lo].start <= at && at < spans[lo].end;
}

function codeSpans(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let offset = 0;
  let fence: { char: string; len: number; start: number } | undefined;
  for (const line of text.split(/(?<=\n)/)) {
    const trimmed = line.trimStart();
    const m = /^(`{3,}|~{3,})/.exec(trimmed);
    if (fence) {
      if (m && m[1][0] === fence.char && m[1].length >= fence.len && /^\s*$/.test(trimmed.slice(m[1].length))) {
        out.push({ start: fence.start, end: offset + line.length });
        fence = undefined;
      }
    } else if (m) {
      fence = { char: m[1][0], len: m[1].length, start: offset };
    } else {
      for (const c of line.matchAll(/`[^`\n]+`/g)) out.push({ start: offset + (c.index ?? 0), end: offset + (c.index ?? 0) + c[0].length });
    }
    offset += line.length;
  }
  if (fence) out.push({ start: fence.start, end: text.length });
  return out;
}


/** Files under `dir` (recursively) whose name passes `keep`, sorted as the CLI sorts them. */
function listTree(ctx: ResolveContext, dir: string, keep: (name: string) => boolean, skip: (rel: string) => boolean = () => false): string[] {
  const path = ctx.fs.path;
  const out: string[] = [];
  const seen = new Set<string>();
  const walk = (d: string, rel: string) => {
    const real = ctx.fs.realPath(d);
    if (seen.has(real)) return;
    seen.add(real);
    for (const e of ctx.fs.readDir(d)) {
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (skip(childRel)) continue;
      if (e.type === 'dir') walk(path.join(d, e.name), childRel);
      else if (e.type === 'file' && keep(e.name)) out.push(childRel);
    }
  };
  walk(dir, '');
  return out.sort(compareRustPaths).map((rel) => path.join(dir, rel));
}

const isInstructionsFile = (name: string) => name.toLowerCase().endsWith('.instructions.md'); // case-insensitive (observed p12)
const isRuleFile = (name: string) => name.toLowerCase().endsWith('.md');


function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

// [bundle] `\|`; a backslash is doubled too (observed p2, p11, p22).
const escapeCell = (s: string) => s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|');

function reminder(display: string, content: string): string {
  return `\n<system_reminder>\nCustom instructions from ${display}. Apply these to any code you write here:\n\n${escapeHtml(content)}\n</system_reminder>`;
}

/**
 * The steps every profile runs: find the sources (the `<custom_instruction>` blocks, then the
 * instruction files and rules, then on read the folders below the launch dir), follow imports
 * (Resolver.expandImports, as each AGENTS.md or CLAUDE.md is read), apply the budget (the CLI
 * sets none), render.
 */
function resolve(ctx: ResolveContext): ProfileResult {
  const at = startOf(ctx);
  // This chain's own copy: what follows depends on the target.
  const r = new Resolver(ctx, { resolver: at.r });
  const { between, blocks, groups, extras } = at;
  const targetRel = relativeInside(r.root, ctx.target, ctx.fs);
  const files = findInstructionFiles(r, groups, targetRel);
  const nestedRows = listExtraAgentsMd(r, extras);
  const onReadText = [...files.matched.map((rf) => reminder(rf.display, rf.doc.text)), ...(targetRel === undefined ? [] : findOnRead(r, between, targetRel, at))];
  const startText = renderStart(blocks, files.rawItems, nestedRows, files.rows);
  const start: RenderPart[] = startText ? [{ where: 'system', text: startText }] : [];
  const onRead: RenderPart[] = onReadText.length ? [{ where: 'after-tool-result', text: onReadText.join('') }] : [];
  const used = r.sources.filter((s) => s.loads === 'start' && (s.status === 'loaded')).reduce((n, s) => n + s.injectedChars, 0);
  return { sources: r.sources, budget: { unit: 'chars', limit: null, perFile: null, used }, diagnostics: r.diagnostics, start, onRead };
}

/** What every chain of one launch folder finds before its target matters. */
interface Start {
  /** The resolver after the blocks and the files not read (not to be changed: chains copy it). */
  r: Resolver;
  between: string[];
  blocks: string[];
  groups: { group: Group; base: string; files: string[] }[];
  extras: string[];
  /** Everything it depends on besides the disk: the key of the folders' shares (folderShare). */
  key: string;
}

/**
 * The blocks, the files not read and the instruction files found: the same for every chain of one
 * launch folder, so once per refresh (ctx.memo) for `check`, which resolves a chain per folder.
 */
function startOf(ctx: ResolveContext): Start {
  const key = JSON.stringify([ctx.launchDir, ctx.home, ctx.platform, ctx.env.COPILOT_HOME ?? null, ctx.env.COPILOT_CUSTOM_INSTRUCTIONS_DIRS ?? null]);
  return ctx.memo(`start\0${key}`, () => {
    const path = ctx.fs.path;
    const r = new Resolver(ctx);
    const { root, cwd } = r;
    const between: string[] = [];
    for (let d = path.dirname(cwd); isInside(d, root, ctx.fs) && d !== root; d = path.dirname(d)) between.push(d);
    const dirs = cwd === root ? [root] : [root, cwd];
    const blocks = findBlocks(r, dirs, between);
    reportNotRead(r, dirs, between);
    return { r, between, blocks, ...instructionGroups(r, dirs), key };
  });
}

// ---------------------------------------------------------------------------------------------
// 1. Find the sources (imports are inlined as each AGENTS.md or CLAUDE.md is read).

/**
 * `<custom_instruction>` blocks, in the CLI's order (observed p1, p14b): the user file; the
 * repository's and the launch dir's .github/copilot-instructions.md; the root's and the launch
 * dir's AGENTS.md, CLAUDE.md, GEMINI.md; then the folders between them, the launch dir's parent
 * first, each with the same four names.
 */
function findBlocks(r: Resolver, dirs: string[], between: string[]): string[] {
  const path = r.ctx.fs.path;
  const candidates: { file: string; name: string; scope: string; kind: SourceKind }[] = [{ file: path.join(r.configDir, 'copilot-instructions.md'), name: 'copilot-instructions.md', scope: '/', kind: 'user' }];
  for (const d of dirs) candidates.push({ file: r.locate(d, DIR_FILES[0]), name: DIR_FILES[0], scope: d, kind: 'project' });
  for (const d of dirs) for (const name of DIR_FILES.slice(1)) candidates.push({ file: r.locate(d, name), name, scope: d, kind: 'project' });
  for (const d of between) for (const name of CHILD_FILES) candidates.push({ file: r.locate(d, name), name, scope: d, kind: 'project' });
  const blocks: string[] = [];
  const seenText = new Map<string, string>();
  for (const c of candidates) {
    const doc = r.read(c.file, c.kind, c.scope, 'start');
    if (!doc) continue;
    // Identical text is sent once, first wins; an empty file still makes an empty block (observed p5, p6, p7).
    const first = seenText.get(doc.text);
    if (first !== undefined) {
      r.sources.push(r.source(c.file, c.kind, c.scope, 'start', 'duplicate', doc, `Same text as ${first}; ${AGENT} sends identical instruction text once.`));
      // A link to the same file (CLAUDE.md -> AGENTS.md) shares it on purpose: nothing to fix.
      const sameFile = r.ctx.fs.realPath(c.file) === r.ctx.fs.realPath(first);
      if (!sameFile) r.report('duplicate-content', c.file, `${AGENT} drops this file: its text is identical to ${first}.`, undefined, { first });
      continue;
    }
    seenText.set(doc.text, c.file);
    const s = r.source(c.file, c.kind, c.scope, 'start', 'loaded', doc, '');
    r.sources.push(s);
    r.warnCase(c.file, c.name, 'at start, in every session');
    r.arrives(s, 'as its own block at start');
    const expanded = IMPORTING.has(c.name) ? r.quietIf(!!s.sentTwice, () => r.expandImports(doc.text, c.file, c.scope, 'start', new Set([c.file]), 0, [c.file])) : { text: doc.text, imported: undefined };
    const content = expanded.text;
    s.reason = reasonForBlock(c.scope, r, content !== doc.text);
    r.inject(s, content, expanded.imported);
    blocks.push(`<custom_instruction>\n${content}\n</custom_instruction>`);
  }
  return blocks;
}

/** Files it never reads, named so the user is not surprised (observed: basic capture, p1). */
function reportNotRead(r: Resolver, dirs: string[], between: string[]): void {
  const path = r.ctx.fs.path;
  for (const d of dirs) {
    for (const name of ['CLAUDE.local.md', path.join('.claude', 'CLAUDE.md')]) notRead(r, path.join(d, name), d, `${AGENT} never reads ${name}; put shared instructions in AGENTS.md or CLAUDE.md.`);
  }
  notRead(r, path.join(r.ctx.home, '.claude', 'CLAUDE.md'), '/', `${AGENT} never reads ~/.claude; user instructions go in ${path.join(r.configDir, 'copilot-instructions.md')}.`);
  for (const d of between) {
    for (const sub of [path.join('.github', 'instructions'), path.join('.claude', 'rules')]) {
      const folder = path.join(d, sub);
      for (const f of listTree(r.ctx, folder, sub.includes('rules') ? isRuleFile : isInstructionsFile)) {
        notRead(r, f, d, `${AGENT} reads ${sub.split(path.sep).join('/')} only in the repository root and the launch directory, not in the folders between them.`);
      }
    }
  }
}

/** Instruction files by group: the user's, the root's and the launch dir's, then COPILOT_CUSTOM_INSTRUCTIONS_DIRS (observed p1, p2, p14, p16). */
function instructionGroups(r: Resolver, dirs: string[]): { groups: { group: Group; base: string; files: string[] }[]; extras: string[] } {
  const path = r.ctx.fs.path;
  const { ctx, root, cwd } = r;
  const rulesOf = (d: string) => [...listTree(ctx, path.join(d, '.github', 'instructions'), isInstructionsFile), ...listTree(ctx, path.join(d, '.claude', 'rules'), isRuleFile)];
  const groups: { group: Group; base: string; files: string[] }[] = [];
  groups.push({ group: 'user', base: r.configDir, files: listTree(ctx, path.join(r.configDir, 'instructions'), isInstructionsFile) });
  for (const d of dirs) groups.push({ group: d === root ? 'root' : 'cwd', base: d, files: rulesOf(d) });
  const extras = (ctx.env.COPILOT_CUSTOM_INSTRUCTIONS_DIRS ?? '').split(',').map((s) => s.trim()).filter(Boolean).map((s) => path.resolve(cwd, s));
  for (const e of extras) groups.push({ group: 'extra', base: e, files: rulesOf(e) });
  // Then, after every extra folder's .github/instructions and .claude/rules, the other
  // *.instructions.md anywhere in them (observed p16; the walk's exclusions are unsure).
  for (const e of extras) {
    const skipDirs = (rel: string) => /^(\.git|node_modules)$/.test(rel) || rel === '.github/instructions' || rel === '.claude/rules';
    groups.push({ group: 'extra', base: e, files: listTree(ctx, e, isInstructionsFile, skipDirs) });
  }
  return { groups, extras };
}

/** Always-on files are sent raw; the rest become table rows, and those matching the target arrive on read. */
function findInstructionFiles(r: Resolver, groups: { group: Group; base: string; files: string[] }[], targetRel: string | undefined): { rawItems: string[]; rows: string[]; matched: RuleFile[] } {
  const path = r.ctx.fs.path;
  const root = r.root;
  const out = { rawItems: [] as string[], rows: [] as string[], matched: [] as RuleFile[] };
  for (const g of groups) {
    for (const file of g.files) {
      const kind: SourceKind = g.group === 'user' ? 'user' : 'rule';
      const doc = r.read(file, kind, root, 'start');
      if (!doc) continue;
      const display = g.group === 'user' || g.group === 'extra' ? file : path.relative(g.base, file).split(path.sep).join('/');
      const rf = r.ruleFile(file, doc, display);
      if (rf.excluded) {
        r.sources.push(r.source(file, kind, root, 'start', 'excluded', doc, `excludeAgent names "coding-agent", so ${AGENT} skips this file entirely.`));
        continue;
      }
      if (rf.always) {
        // Sent raw, frontmatter and all, with no wrapper (observed p1, p2).
        const s = r.source(file, kind, root, 'start', 'loaded', doc, rf.patterns.length ? `applyTo "${rf.patternText}" means every file, so it is sent at start, frontmatter included.` : `No applyTo/paths pattern, so ${AGENT} sends it at start, frontmatter included.`);
        r.inject(s, doc.text);
        r.sources.push(s);
        out.rawItems.push(doc.text);
        continue;
      }
      r.checkPatterns(rf);
      out.rows.push((rf.row ??= `| ${escapeCell(rf.patternText)} | '${escapeCell(rf.display)}' | ${escapeCell(rf.description ?? '')} |`));
      const hit = targetRel !== undefined && targetRel !== '' && matchesTarget(rf, targetRel);
      const globs = globsOf(rf);
      const s = r.source(file, kind, root, 'on-read', hit ? 'on-read' : 'not-matched', doc, hit
        ? `Its pattern (${rf.patternText}) matches this file: listed in the table at start, and its text arrives when ${AGENT} reads the file.`
        : `Its pattern (${rf.patternText}) does not match this file; ${AGENT} only lists it in the table of path-scoped files.`, { globs });
      r.sources.push(s);
      if (hit) {
        r.inject(s, doc.text);
        out.matched.push(rf);
      }
    }
  }
  return out;
}

/** Extra folders' AGENTS.md are listed, not inlined (observed p14, p16). */
function listExtraAgentsMd(r: Resolver, extras: string[]): string[] {
  const path = r.ctx.fs.path;
  const rows: string[] = [];
  for (const e of extras) {
    const file = path.join(e, 'AGENTS.md');
    const doc = r.read(file, 'project', e, 'start');
    if (!doc) continue;
    const relDir = path.relative(r.root, e).split(path.sep).join('/');
    rows.push(`| ${escapeCell(`${relDir}/`)} | '${escapeCell(`${relDir}/AGENTS.md`)}' | Agent instructions for ${escapeCell(relDir)}/**/* |`);
    r.sources.push(r.source(file, 'project', e, 'start', 'listed', doc, `In a COPILOT_CUSTOM_INSTRUCTIONS_DIRS folder: ${AGENT} names it in the table of nested AGENTS.md files for the model to read.`));
  }
  return rows;
}

/**
 * On read (observed p1, p7, p11, p17, p23, basic, nested-deep): for each folder from the target's
 * up to the repository root that was not loaded at start, innermost first, its AGENTS.md,
 * CLAUDE.md and GEMINI.md, then its instruction files and rules that apply.
 */
function findOnRead(r: Resolver, between: string[], targetRel: string, start: Start): string[] {
  const path = r.ctx.fs.path;
  const { ctx, root, cwd } = r;
  const loadedDirs = new Set([root, cwd, ...between]);
  const texts: string[] = [];
  const sentOnRead = new Map<string, string>();
  // The real paths the folders below asked about: a folder's share stands only if it asked about none of them.
  const asked = new Set<string>();
  // The folders' shares of this start, by folder: one map, not a key built for each folder of each chain.
  const shares = ctx.memo(`folders\0${start.key}`, () => new Map<string, Share>());
  for (let d = folderOf(ctx.fs, ctx.target); isInside(d, root, ctx.fs) && d !== root; d = path.dirname(d)) {
    if (loadedDirs.has(d)) continue;
    const share = folderShare(start, shares, d);
    // Indexed loops: `check` runs in V8's baseline tier, where each step of a `for...of` allocates.
    if (share.touched.some((real) => asked.has(real))) {
      // The same file arrives from a folder below too: this folder's step depends on that one, so it runs here.
      r.record = { touched: asked, added: new Map() };
      texts.push(...onReadFolderFiles(r, d, sentOnRead));
      r.record = undefined;
    } else {
      for (let i = 0; i < share.sources.length; i++) r.sources.push({ ...share.sources[i] });
      r.diagnostics.push(...share.diagnostics);
      for (let i = 0; i < share.added.length; i++) r.sent.set(share.added[i][0], share.added[i][1]);
      for (let i = 0; i < share.sentOnRead.length; i++) sentOnRead.set(share.sentOnRead[i][0], share.sentOnRead[i][1]);
      for (let i = 0; i < share.touched.length; i++) asked.add(share.touched[i]);
      texts.push(...share.texts);
    }
    texts.push(...onReadRules(r, d, targetRel));
  }
  return texts;
}

/** What a folder's AGENTS.md, CLAUDE.md and GEMINI.md add on read, as the first folder read after the start. */
interface Share {
  sources: Source[];
  diagnostics: Diagnostic[];
  texts: string[];
  /** The real paths it asked the prompt's state about, and the arrivals it added (a Recording's, as lists). */
  touched: string[];
  added: [string, Arrival][];
  sentOnRead: [string, string][];
}

/**
 * A folder's step on read, once per refresh and launch folder (ctx.memo): every chain through the
 * folder reads, checks and inlines the same files. Chains read the folders innermost first, so a
 * folder's step is made from the start alone; a chain takes it as it is unless a folder below
 * already asked about one of the same files (a file sent twice), and then runs the step itself.
 */
function folderShare(start: Start, shares: Map<string, Share>, d: string): Share {
  return getOrSet(shares, d, () => {
    // A folder holding none of the files read from it on read (CHILD_FILES, the rules' folders) adds nothing.
    if (start.r.ctx.fs.lacksAll?.(d, DOT_FOLDERS) && !start.r.namesIgnoringCase(d).size) return NO_SHARE;
    const r = new Resolver(start.r.ctx, { resolver: start.r, empty: true });
    const sentOnRead = new Map<string, string>();
    const record: Recording = (r.record = { touched: new Set(), added: new Map() });
    const texts = onReadFolderFiles(r, d, sentOnRead);
    return { sources: r.sources, diagnostics: r.diagnostics, texts, touched: [...record.touched], added: [...record.added], sentOnRead: [...sentOnRead] };
  });
}

/** The share of a folder holding none of the files read on read. */
const NO_SHARE: Share = { sources: [], diagnostics: [], texts: [], touched: [], added: [], sentOnRead: [] };

/** A folder's AGENTS.md, CLAUDE.md, GEMINI.md when a file below it is read. */
function onReadFolderFiles(r: Resolver, d: string, sentOnRead: Map<string, string>): string[] {
  const path = r.ctx.fs.path;
  const fs = r.ctx.fs;
  const texts: string[] = [];
  for (const name of CHILD_FILES) {
    const file = r.locate(d, name);
    const doc = r.read(file, 'project', d, 'on-read');
    if (!doc) continue;
    if (!r.insideRoot(file)) {
      // [bundle] "Instruction resolves outside its declaring workspace" (observed p10).
      r.sources.push(r.source(file, 'project', d, 'on-read', 'excluded', doc, `A symlink to a file outside the repository; ${AGENT} does not load it on read.`));
      continue;
    }
    if (doc.text.trim() === '') {
      r.sources.push(r.source(file, 'project', d, 'on-read', 'excluded', doc, `Empty or only white space; ${AGENT} skips it on read.`));
      continue;
    }
    // A second name for a file already sent on read (CLAUDE.md → AGENTS.md) is skipped; two
    // files with the same text are both sent (observed on real repositories).
    const real = fs.realPath(file);
    r.record?.touched.add(real);
    const sameFile = sentOnRead.get(real);
    if (sameFile) {
      r.sources.push(r.source(file, 'project', d, 'on-read', 'duplicate', doc, `A link to ${path.basename(sameFile)}, which ${AGENT} already sends for this folder; it sends the file once.`));
      continue;
    }
    sentOnRead.set(real, file);
    const s = r.source(file, 'project', d, 'on-read', 'on-read', doc, `Below the launch directory: ${AGENT} adds it in a reminder when it reads a file here.`);
    r.sources.push(s);
    r.warnCase(file, name, 'when the agent reads a file in this folder');
    // .claude/CLAUDE.md is Claude Code's project file, kept for Claude Code; that this agent
    // sends it again when it reads a file of the agent configuration in .claude/ is not worth
    // a problem (the chain still marks the copy "sent twice").
    r.quietIf(path.basename(d) === '.claude', () => r.arrives(s, `in the reminder for ${path.relative(r.root, d).split(path.sep).join('/')}/ when the agent reads a file there`));
    const expanded = IMPORTING.has(path.basename(name)) ? r.quietIf(!!s.sentTwice, () => r.expandImports(doc.text, file, d, 'on-read', new Set([file]), 0, [file])) : { text: doc.text, imported: undefined };
    const content = expanded.text;
    r.inject(s, content, expanded.imported);
    // Named by its real path, relative to the repository root (observed p23).
    texts.push(reminder(path.relative(r.realRoot, fs.realPath(file)).split(path.sep).join('/'), content));
  }
  return texts;
}

/** A folder's instruction files and rules when a file below it is read; patterns are relative to the repository root. */
function onReadRules(r: Resolver, d: string, targetRel: string): string[] {
  const path = r.ctx.fs.path;
  const { ctx, root } = r;
  const texts: string[] = [];
  // The same for every chain through the folder: listed once per refresh.
  const files = getOrSet(ctx.memo('rulesByFolder', () => new Map<string, string[]>()), d, () => ctx.fs.lacksAll?.(d, DOT_FOLDERS) ? [] : [
    ...listTree(ctx, path.join(d, '.github', 'instructions'), isInstructionsFile),
    ...listTree(ctx, path.join(d, '.claude', 'rules'), isRuleFile),
  ]);
  for (let i = 0; i < files.length; i++) {
    const file = files[i];
    const doc = r.read(file, 'rule', root, 'on-read');
    if (!doc) continue;
    const display = path.relative(root, file).split(path.sep).join('/');
    const rf = r.ruleFile(file, doc, display);
    if (rf.excluded) {
      r.sources.push(r.source(file, 'rule', root, 'on-read', 'excluded', doc, `excludeAgent names "coding-agent", so ${AGENT} skips this file entirely.`));
      continue;
    }
    if (!rf.always) r.checkPatterns(rf);
    const hit = rf.always || (targetRel !== '' && matchesTarget(rf, targetRel));
    const globs = rf.always ? undefined : globsOf(rf);
    const s = r.source(file, 'rule', root, 'on-read', hit ? 'on-read' : 'not-matched', doc, hit
      ? `In a folder below the launch directory; ${AGENT} adds it in a reminder when it reads ${rf.always ? 'a file here' : 'a file its pattern matches'} (patterns are relative to the repository root).`
      : `Its pattern (${rf.patternText}) does not match this file; patterns of nested instruction files are relative to the repository root, not to their folder.`, globs ? { globs } : {});
    r.sources.push(s);
    if (hit) {
      r.inject(s, doc.text);
      texts.push(reminder(display, doc.text));
    }
  }
  return texts;
}

// 3. Apply the budget: the CLI sets none.

// ---------------------------------------------------------------------------------------------
// 4. Render.

/**
 * The span between `</tools>\n\n` and the next section (observed q1–q7): the blocks, then the
 * rest (raw instruction files, the nested AGENTS.md table, the path-scoped table), each list
 * joined by a blank line; with both, one more `\n` ends it.
 */
function renderStart(blocks: string[], rawItems: string[], nestedRows: string[], rows: string[]): string {
  const rest = [...rawItems];
  if (nestedRows.length) rest.push(`${NESTED_TABLE_HEAD}\n${nestedRows.join('\n')}`);
  if (rows.length) rest.push(`${TABLE_HEAD}\n${rows.join('\n')}`);
  const blocksText = blocks.join('\n\n');
  const restText = rest.join('\n\n');
  return blocksText && restText ? `${blocksText}\n\n${restText}\n` : blocksText || restText;
}

/** Whether one of a rule file's patterns matches the target. */
function matchesTarget(rf: RuleFile, targetRel: string): boolean {
  for (let i = 0; i < rf.patterns.length; i++) if (cliMatches(targetRel, rf.patterns[i])) return true;
  return false;
}

/** A rule file's patterns as globs `check` can test, made once: every chain lists the file. */
function globsOf(rf: RuleFile): string[] {
  return (rf.globs ??= rf.patterns.map(effectiveGlob).filter((p): p is string => p !== undefined));
}

/** A pattern as a glob `check` can test against paths relative to the repository root. */
function effectiveGlob(p: string): string | undefined {
  let g = p.trim();
  if (!g || g.startsWith('/') || globProblem(g)) return undefined;
  while (g.startsWith('./')) g = g.slice(2);
  g = g.replace(/\[!/g, '[^');
  return g.includes('/') ? g : `**/${g}`;
}

function reasonForBlock(scope: string, r: Resolver, imported: boolean): string {
  if (scope === '/') return 'User instructions: sent first, in a <custom_instruction> block, for every project.';
  const where = scope === r.root ? 'the repository root' : scope === r.cwd ? 'the launch directory' : 'a folder between the repository root and the launch directory';
  return `In ${where}: sent at start in a <custom_instruction> block${imported ? ', with the files it imports inlined' : ''}.`;
}

function notRead(r: Resolver, file: string, scope: string, reason: string): void {
  const path = r.ctx.fs.path;
  const doc = r.read(file, 'project', scope, 'start');
  if (!doc) return;
  const kind = path.basename(file) === 'CLAUDE.local.md' ? 'local' : scope === '/' ? 'user' : 'project';
  // A second name (a symlink) for a file it sends anyway, e.g. .claude/CLAUDE.md and AGENTS.md
  // both linking to one document: its text arrives, nothing is lost, so no problem is reported.
  const same = r.sentAs(file);
  if (same) {
    const name = path.relative(r.root, same.path).split(path.sep).join('/') || same.path;
    r.sources.push(r.source(file, kind, scope, 'start', 'excluded', doc, `${reason.split(';')[0]}, but it is the same file as ${name}, which ${AGENT} sends.`));
    return;
  }
  r.sources.push(r.source(file, kind, scope, 'start', 'excluded', doc, reason));
  r.report('not-loaded', file, reason);
}

/** A glob matching `name` in any case: `AGENTS.md` → `[Aa][Gg][Ee][Nn][Tt][Ss].[Mm][Dd]`. */
function anyCase(name: string): string {
  return name.replace(/[A-Za-z]/g, (c) => `[${c.toUpperCase()}${c.toLowerCase()}]`);
}

/** Print mode, offline, with its own-provider settings at the fake model. */
const localRun: LocalRun = {
  npmPackage: '@github/copilot',
  // Its package may run a newer bundle from its cache than its package.json says.
  versionFromCli: true,
  bundleCache: { env: 'COPILOT_PKG_CACHE_HOME', installDir: 'copilot-pkg', userCacheDir: 'copilot' },
  setup: ({ url, prompt }) => ({
    args: ['-p', prompt],
    env: {
      COPILOT_OFFLINE: 'true',
      COPILOT_PROVIDER_BASE_URL: `${url}/v1`,
      COPILOT_PROVIDER_API_KEY: 'fake-key-for-loopback',
      COPILOT_MODEL: 'gpt-4.1',
      COPILOT_ALLOW_ALL: 'true',
      COPILOT_AUTO_UPDATE: 'false',
      // Own-provider models get a small default prompt budget; the oversize scenarios
      // (4 × 45,000 chars) would make it refuse with "Static system messages … exceed the
      // model's usable context budget". Raise it so the request is sent.
      COPILOT_PROVIDER_MAX_PROMPT_TOKENS: '1000000',
    },
  }),
};

export const copilotCli: Profile = {
  id: 'copilot-cli',
  order: 90,
  agent: 'GitHub Copilot CLI',
  about: "GitHub's Copilot coding agent, in the terminal",
  agentVersion: VERSION,
  verified: 'real agent',
  filePatterns: [
    ...[...ANY_CASE.keys()].map((name) => `**/${anyCase(name)}`), '**/.github/copilot-instructions.md',
    '**/.github/instructions/**/*.instructions.md', '**/.claude/rules/**/*.md',
  ],
  mainFile: 'AGENTS.md',
  matchesGlob: cliMatches,
  importRefs,
  evidence: {
    markers: ['.github/copilot-instructions.md', '.github/instructions/**', '.github/agents/**'],
    cli: { command: 'copilot', versionArgs: ['--version'] },
    homeDir: '.copilot',
  },
  localRun,
  wireProtocol: 'chat',
  globalPaths: (env) => {
    const path = platformPath(env.platform);
    return [path.join(configDir(env), 'copilot-instructions.md'), path.join(configDir(env), 'instructions')];
  },
  resolve,
};
