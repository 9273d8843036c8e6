import picomatch from 'picomatch';
import { diag, nearestExisting } from '../diagnostics';
import type { PathApi } from '../fs';
import { headerWithoutOpening, parseFrontmatter, stringList } from '../frontmatter';
import { globProblem, matchesAny, relativeInside } from '../globs';
import { findClaudeImports, MAX_MARKDOWN_NESTING, stripBlockComments, tooDeepToParse } from '../markdown';
import { ParseCache } from '../parseCache';
import { newSource, setInjected, type Diagnostic, type RenderPart, type Source, type SourceKind } from '../model';
import { dirsBelow, filesBelow, folderOf, isInside, platformPath, readsAsPath, sameName } from '../paths';
import { getOrSet, type LocalRun, type Profile, type ProfileResult, type ResolveContext } from '../profile';
import { describeReadFailure, lossyDiagnostic, readFailureCode, readFailureDiagnostic, readLossy, readText, sizes } from '../readText';
import { charCount, fmt, isShortNote } from '../text';

/**
 * Claude Code 2.1.332, as observed on the real CLI (../shared/agents.md, "Observed") and read
 * in its bundle [RE]. Memory files load at start into the first user message; directories
 * below the launch dir and path-scoped rules load when the Read tool reads a file there.
 */

type MemoryType = 'Managed' | 'User' | 'Project' | 'Local';

const LABEL: Record<MemoryType, string> = {
  Managed: ' (organization-managed policy instructions)',
  User: " (user's private global instructions for all projects)",
  Project: ' (project instructions, checked into the codebase)',
  Local: " (user's private project instructions, not checked in)",
};

const PREAMBLE =
  'Codebase and user instructions are shown below. Be sure to adhere to these instructions. IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written.';

/** Imports deeper than this are not followed (CLAUDE.md is depth 0; depth 5 is refused). */
const MAX_INCLUDE_DEPTH = 5;
/** Over this a file is flagged "Large CLAUDE.md" but still loaded whole. */
const LARGE_FILE_CHARS = 40_000;
/**
 * A memory file (or import) over this many bytes is skipped whole, without a word in the prompt:
 * "[CLAUDE.md] skipping …: not a regular file or exceeds 4194304 byte limit" (the 2.1.332 binary;
 * observed: a 5 MiB CLAUDE.md sends nothing, scenario `huge-files`). The same as MAX_READ_BYTES,
 * so such a file is never read here either.
 */
const MAX_MEMORY_FILE_BYTES = 4 * 1024 * 1024;

/** Extensions an @import may name; a file with no extension is allowed too [RE]. */
const TEXT_EXTENSIONS = new Set(
  ('.md .txt .text .json .yaml .yml .toml .xml .csv .html .htm .css .scss .sass .less .js .ts .tsx .jsx .mjs .cjs .mts ' +
    '.cts .py .pyi .pyw .rb .erb .rake .go .rs .java .kt .kts .scala .c .cpp .cc .cxx .h .hpp .hxx .cs .swift .sh .bash ' +
    '.zsh .fish .ps1 .bat .cmd .env .ini .cfg .conf .config .properties .sql .graphql .gql .proto .vue .svelte .astro ' +
    '.ejs .hbs .pug .jade .php .pl .pm .lua .r .R .dart .ex .exs .erl .hrl .clj .cljs .cljc .edn .hs .lhs .elm .ml .mli ' +
    '.f .f90 .f95 .for .cmake .make .makefile .gradle .sbt .rst .adoc .asciidoc .org .tex .latex .lock .log .diff .patch').split(' '),
);

// The frontmatter pattern Claude Code strips: the closing `---` need not start a line, and
// the white space after it goes too [RE].
const FRONTMATTER = /^---\s*\n([\s\S]*?)---\s*\n?/;

function managedDir(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return '/Library/Application Support/ClaudeCode';
  if (platform === 'win32') return 'C:\\ProgramData\\ClaudeCode';
  return '/etc/claude-code';
}

function userDir(ctx: { home: string; env: Readonly<Record<string, string | undefined>>; platform: NodeJS.Platform }): string {
  return ctx.env.CLAUDE_CONFIG_DIR || platformPath(ctx.platform).join(ctx.home, '.claude');
}

/** A memory file's text after Claude Code's transforms, and its `paths:` globs. */
interface Parsed {
  /** Text after the frontmatter, before comments are removed (imports are found here). */
  afterFrontmatter: string;
  /** Offset of `afterFrontmatter` in the file. */
  bodyOffset: number;
  /** What is injected. */
  content: string;
  paths?: string[];
  frontmatterError?: string;
}

function parseMemory(text: string): Parsed {
  return parsedMemory.get(text);
}

const parsedMemory = new ParseCache(parseMemoryText);

/**
 * What Claude Code parses when a frontmatter block is not YAML (2.1.332, read in its bundle): each
 * `key: value` line whose value holds a YAML indicator (`*`, `{`, `&`, `#`, `: `…) and is neither
 * quoted nor a list has its value quoted, and each leading tab becomes two spaces. So
 * `paths: **\/*.tsx`, an alias to YAML, scopes the rule (observed with the real agent: the rule
 * loads when a `.tsx` file is read, and only then).
 */
function quoteValues(block: string): string {
  return block
    .split('\n')
    .map((line) => {
      const [, key, v = ''] = /^([a-zA-Z_-]+):\s+(\S.*)$/.exec(line) ?? [];
      const kept = /^(["'])(.*\1)?$/.test(v) || (v[0] === '[' && v.endsWith(']') && Array.isArray(parseFrontmatter(`---\nv: ${v}\n---\n`)?.data?.v));
      return !key || kept || !/[{}[\]*&#!|>%@`]|: /.test(v) ? line : `${key}: "${v.replace(/["\\]/g, '\\$&')}"`;
    })
    .join('\n')
    .replace(/^\t+/gm, (t) => '  '.repeat(t.length));
}

function parseMemoryText(text: string): Parsed {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const t = text.slice(bom);
  const m = t.indexOf('---', 3) < 0 ? null : FRONTMATTER.exec(t);
  let afterFrontmatter = text;
  let bodyOffset = 0;
  let paths: string[] | undefined;
  let frontmatterError: string | undefined;
  if (m) {
    afterFrontmatter = t.slice(m[0].length);
    bodyOffset = bom + m[0].length;
    const yaml = (block: string) => parseFrontmatter(`---\n${block}\n---\n`);
    let fm = yaml(m[1]);
    // A block that is not YAML is read once more, its plain values quoted (`quoteValues`).
    const again = fm?.error && yaml(quoteValues(m[1]));
    if (again && !again.error) fm = again;
    if (fm?.error) frontmatterError = fm.error.message;
    const list = stringList(fm?.data?.paths);
    if (list) {
      // A trailing `/**` is dropped; all-`**` means unconditional.
      const globs = list.map((g) => (g.endsWith('/**') ? g.slice(0, -3) : g)).filter((g) => g.length > 0);
      paths = globs.every((g) => g === '**') ? undefined : globs;
    }
  }
  return { afterFrontmatter, bodyOffset, content: stripBlockComments(afterFrontmatter).text, paths, frontmatterError };
}

interface Entry {
  source: Source;
  type: MemoryType;
  content: string;
}

interface Ref {
  file: string;
  text: string;
  start: number;
  end: number;
}

class MemoryLoader {
  readonly sources: Source[];
  readonly diagnostics: Diagnostic[];
  private readonly processed: Set<string>;
  private readonly approved: boolean;
  private readonly excludes: string[];

  /**
   * A new loader, or one that goes on from where `from.loader` stopped (its sources passed
   * through `from.source`, which may copy them), leaving `from.loader` as it is.
   */
  constructor(
    private readonly ctx: ResolveContext,
    from?: { loader: MemoryLoader; source: (s: Source) => Source },
  ) {
    this.sources = from ? from.loader.sources.map(from.source) : [];
    this.diagnostics = from ? from.loader.diagnostics.slice() : [];
    this.processed = new Set(from?.loader.processed);
    this.approved = from ? from.loader.approved : externalIncludesApproved(ctx);
    this.excludes = from ? from.loader.excludes : excludePatterns(ctx);
  }

  /** Report a problem (`diag`'s arguments). */
  report(...problem: Parameters<typeof diag>): void {
    this.diagnostics.push(diag(...problem));
  }

  /** Whether a path (or its real path) was already loaded. */
  seen(file: string): boolean {
    return this.processed.has(file) || this.processed.has(this.ctx.fs.realPath(file));
  }

  /**
   * Load one memory file and, depth first, what it imports (processMemoryFile). Returns the
   * entries in injection order. `scope` is the directory the file governs.
   */
  load(
    file: string,
    type: MemoryType,
    kind: SourceKind,
    scope: string,
    loads: Source['loads'],
    opts: { depth?: number; importer?: string; stack?: string[]; rule?: boolean } = {},
  ): { entries: Entry[]; paths?: string[]; exists: boolean } {
    const depth = opts.depth ?? 0;
    const stack = [...(opts.stack ?? []), file];
    const base = (extra: Partial<Source>): Source => ({
      path: file, kind, scope, loads, status: 'loaded', chars: 0, bytes: 0, injectedChars: 0, injectedBytes: 0,
      ...(opts.importer ? { importedBy: opts.importer } : {}), reason: '', ...extra,
    });
    if (!this.ctx.fs.stat(file)) return { entries: [], exists: false }; // most names asked: no real path worked out; past here it exists
    if (this.seen(file)) {
      this.sources.push(base({ status: 'duplicate', reason: 'Already loaded earlier in the chain; Claude Code loads each file once.' }));
      return { entries: [], exists: true };
    }
    if ((type === 'User' || type === 'Project' || type === 'Local') && this.excludes.length && picomatch.isMatch(file.replace(/\\/g, '/'), this.excludes, { dot: true })) {
      this.sources.push(base({ status: 'excluded', reason: 'Matched by claudeMdExcludes, so Claude Code skips it.' }));
      return { entries: [], exists: true };
    }
    const r = readLossy(this.ctx.fs, file);
    if (r.state === 'missing' || r.state === 'directory') return { entries: [], exists: false };
    if (r.state !== 'ok') {
      if (readFailureCode(r) === 'too-large') {
        const said = `It is ${fmt(r.state === 'unreadable' ? (r.bytes ?? 0) : 0)} bytes, over the ${fmt(MAX_MEMORY_FILE_BYTES)} bytes Claude Code reads of a CLAUDE.md or an import`;
        this.sources.push(base({ bytes: r.state === 'unreadable' ? (r.bytes ?? 0) : 0, status: 'unreadable', reason: `${said}: it skips the whole file, and the prompt does not say so.` }));
        this.report('too-large', file, `${said}: Claude Code skips the whole file without a word. Split it, or keep the guidance it needs in a shorter file.`);
        return { entries: [], exists: true };
      }
      this.sources.push(base({ status: 'unreadable', reason: `It ${describeReadFailure(r)}; Claude Code skips it.` }));
      this.diagnostics.push(readFailureDiagnostic(r, file, `This file ${describeReadFailure(r)}: Claude Code skips it silently.`));
      return { entries: [], exists: true };
    }
    // Claude Code reads as UTF-8 regardless; invalid bytes become U+FFFD.
    if (r.problem) this.diagnostics.push(lossyDiagnostic(file, r.problem, 'Claude Code reads it anyway and the model gets replacement characters.'));
    const text = r.text;
    this.processed.add(file);
    this.processed.add(this.ctx.fs.realPath(file));
    const parsed = parseMemory(text);
    const size = sizes(text);
    if (parsed.frontmatterError) {
      this.report('frontmatter-invalid', file, `The frontmatter is not valid YAML (${parsed.frontmatterError}); Claude Code strips it and ignores its settings.`);
    }
    if (parsed.content.trim() === '') {
      this.sources.push(base({ ...size, status: 'excluded', reason: 'Nothing is left once frontmatter and HTML comments are removed, so Claude Code adds no entry.' }));
      return { entries: [], paths: parsed.paths, exists: true };
    }
    if (opts.rule) this.ruleProblems(file, text, parsed);
    if (opts.rule && parsed.paths) {
      // A conditional rule: loaded on read of a matching file, never at start.
      return { entries: [{ source: base({ ...size }), type, content: parsed.content }], paths: parsed.paths, exists: true };
    }
    const source = base({ ...size });
    this.sources.push(source);
    if (size.chars > LARGE_FILE_CHARS) {
      this.report('large-file', file, `${size.chars.toLocaleString('en-US')} characters: Claude Code warns "Large CLAUDE.md" but still loads all of it, which costs context on every request.`);
    }
    const entries: Entry[] = [{ source, type, content: parsed.content }];
    if (tooDeepToParse(parsed.afterFrontmatter)) {
      this.report('too-deep', file, `Quotes or lists nest more than ${MAX_MARKDOWN_NESTING} levels deep (or very deep for the file's size): Instruction Lens reads this file as plain text, so code and HTML comments are not told apart and what is shown may differ from what Claude Code sends. Claude Code parses it with the same markdown library, which takes minutes and gigabytes on such nesting.`);
    }
    // Observed: @imports in .claude/rules files are never expanded, at start or on read.
    if (opts.rule) return { entries, exists: true };
    const found = findClaudeImports(parsed.afterFrontmatter);
    for (const ref of found.inCode) {
      this.report('import-in-code', file, `@${ref.written} is inside code, so Claude Code does not import it.`, { text, start: parsed.bodyOffset + ref.start, end: parsed.bodyOffset + ref.end }, { target: resolveImport(this.ctx.fs.path, ref.path, file, this.ctx.home) });
    }
    for (const ref of found.inComment) {
      this.report('import-in-code', file, `@${ref.written} is inside an HTML comment, which Claude Code removes; it is not imported.`, { text, start: parsed.bodyOffset + ref.start, end: parsed.bodyOffset + ref.end }, { target: resolveImport(this.ctx.fs.path, ref.path, file, this.ctx.home) });
    }
    for (const ref of found.imports) {
      const target = resolveImport(this.ctx.fs.path, ref.path, file, this.ctx.home);
      const at: Ref = { file, text, start: parsed.bodyOffset + ref.start, end: parsed.bodyOffset + ref.end };
      entries.push(...this.follow(target, ref.written, type, scope, loads, depth + 1, file, stack, at));
    }
    return { entries, paths: parsed.paths, exists: true };
  }

  /**
   * A rule's own problems: a header without its opening line (`headerWithoutOpening`), and its
   * @imports, which stay text: said where they are written, for those meant as imports: a path,
   * as CLAUDE.md's missing imports are told (`@docs/x.md`), or a file that is there. A word after
   * an `@` in prose (`@media` queries, `@Bug` tags) was never meant to load anything.
   */
  private ruleProblems(file: string, text: string, parsed: Parsed): void {
    const fs = this.ctx.fs;
    headerWithoutOpening(file, text, this.diagnostics);
    for (const ref of findClaudeImports(parsed.afterFrontmatter).imports) {
      const target = resolveImport(fs.path, ref.path, file, this.ctx.home);
      if (!readsAsPath(fs, file, target) && !fs.stat(target)) continue;
      this.report('not-loaded', file, `@${ref.written} is not imported: Claude Code does not expand @imports in .claude/rules files; the model sees the line as written.`, { text, start: parsed.bodyOffset + ref.start, end: parsed.bodyOffset + ref.end });
    }
  }

  /** One @import: the checks Claude Code makes before it reads the target. */
  private follow(target: string, written: string, type: MemoryType, scope: string, loads: Source['loads'], depth: number, importer: string, stack: string[], at: Ref): Entry[] {
    const fs = this.ctx.fs;
    const path = fs.path;
    const place = { text: at.text, start: at.start, end: at.end };
    const skipped = (status: Source['status'], reason: string) => {
      const st = fs.stat(target);
      const sz = st?.type === 'file' ? { chars: 0, bytes: st.size } : { chars: 0, bytes: 0 };
      this.sources.push({ path: target, kind: 'import', scope, loads, status, ...sz, injectedChars: 0, injectedBytes: 0, importedBy: importer, reason });
    };
    // `@a.md,` names a file "a.md," — say so plainly, and point at the file meant.
    const bare = target.replace(TRAILING_PUNCTUATION, '');
    let punctuation: Diagnostic | undefined;
    if (bare !== target && !fs.stat(target)) {
      const exists = fs.stat(bare)?.type === 'file';
      const near = exists ? bare : nearestExisting(fs, bare);
      const suggestion = near ? path.relative(path.dirname(at.file), near) : undefined;
      const hint = exists ? ' Remove the punctuation or put a space before it.' : suggestion ? ` ${path.basename(bare)} does not exist either; did you mean ${suggestion}?` : '';
      punctuation = diag('import-missing', at.file, `Claude Code reads @${written} as a path ending in "${target.slice(bare.length)}", which does not exist, and ignores it silently.${hint}`, place, { target, ...(suggestion ? { suggestion } : {}) });
    }
    // A handle or package name (`@octocat`, `@acme/cli.`) stays in the text as written, as meant.
    if (punctuation && !readsAsPath(fs, at.file, bare)) punctuation = undefined;
    const ext = path.extname(target).toLowerCase();
    if (ext && !TEXT_EXTENSIONS.has(ext)) {
      skipped('excluded', `Claude Code imports only text file types; "${ext}" is skipped.`);
      // Said of a file that is there or a name that reads as one, not of `@app.cell` in prose.
      if (punctuation || (ext !== '.' && (fs.stat(target) || readsAsPath(fs, at.file, target)))) this.diagnostics.push(punctuation ?? diag('import-not-text', at.file, `Claude Code skips @${written}: "${ext}" files are not imported, even when they hold text.`, place));
      return [];
    }
    // Observed: user memory (and what it imports) may import from anywhere.
    if (type !== 'User' && !isInside(target, this.ctx.launchDir, fs) && !this.approved) {
      skipped('excluded', 'Outside the launch directory, and external imports are not approved for this project.');
      // Said where approving would load a file: one that is there, or a file's path (`@../x.md`);
      // not a path alias in prose (`@/mocks`), where nothing is and nothing was meant to load.
      if (fs.stat(target) || ext) this.report('import-outside', at.file, `@${written} is outside the launch directory (${this.ctx.launchDir}); Claude Code drops it unless this project's external CLAUDE.md imports are approved.`, place, { target });
      return [];
    }
    if (depth >= MAX_INCLUDE_DEPTH) {
      skipped('excluded', `Nested ${depth} imports deep; Claude Code follows at most ${MAX_INCLUDE_DEPTH - 1} levels of imports.`);
      this.report('import-depth', at.file, `@${written} is ${depth} imports deep from the top file; Claude Code stops at ${MAX_INCLUDE_DEPTH - 1} levels and does not load it.`, place);
      return [];
    }
    if (this.seen(target)) {
      const cycle = stack.includes(target) || stack.some((s) => fs.realPath(s) === fs.realPath(target));
      skipped('duplicate', cycle ? 'An import cycle: this file is already being loaded.' : 'Already loaded earlier in the chain; Claude Code loads each file once.');
      if (cycle) this.report('import-cycle', at.file, `@${written} leads back to a file that is already loading (${[...stack, target].map((s) => path.basename(s)).join(' → ')}); Claude Code loads it once and stops.`, place);
      return [];
    }
    const { entries, exists } = this.load(target, type, 'import', scope, loads, { depth, importer, stack });
    if (!exists) {
      skipped('missing', `The import target ${fs.stat(target)?.type === 'dir' ? 'is a folder' : 'does not exist'}; Claude Code ignores the import without a word.`);
      const backslashed = this.endedAtBackslash(written, importer, at);
      if (backslashed) {
        this.diagnostics.push(backslashed);
        return entries;
      }
      if (punctuation) {
        this.diagnostics.push(punctuation);
        return entries;
      }
      // A folder is there: the @ names it in prose (`@src/app/`), it does not lose a file.
      if (bare !== target || !readsAsPath(fs, at.file, target) || fs.stat(target)) return entries;
      const near = nearestExisting(fs, target);
      const hint = near ? ` Did you mean ${path.relative(path.dirname(at.file), near)}?` : '';
      this.report('import-missing', at.file, `@${written} points to ${target}, which does not exist; Claude Code silently ignores it.${hint}`, place, { target, ...(near ? { suggestion: path.relative(path.dirname(at.file), near) } : {}) });
    }
    return entries;
  }

  /**
   * `@docs\x.md`, a Windows path: Claude Code's import pattern ends the path at a backslash
   * that does not escape a space, on every platform, so it reads `@docs` and loads nothing
   * (observed with the real agent: `docs/x.md` is not sent). Reported when the path written with
   * `/` is a file, with that spelling as the fix.
   */
  private endedAtBackslash(written: string, importer: string, at: Ref): Diagnostic | undefined {
    const rest = /^\\(?! )\S*/.exec(at.text.slice(at.end))?.[0].replace(TRAILING_PUNCTUATION, '');
    if (!rest) return undefined;
    const meant = (written + rest).replace(/\\(?! )/g, '/');
    const file = resolveImport(this.ctx.fs.path, meant.replace(/#.*$/, '').replace(/\\ /g, ' '), importer, this.ctx.home);
    if (this.ctx.fs.stat(file)?.type !== 'file') return undefined;
    const place = { text: at.text, start: at.start, end: at.end + rest.length };
    return diag('import-missing', at.file, `Claude Code ends an import's path at a backslash: it reads @${written}${rest} as @${written} and loads nothing. Write @${meant}.`, place, { suggestion: meant });
  }
}

/** Punctuation a sentence glues onto a path (`@a.md,`), which Claude Code reads as part of it. */
const TRAILING_PUNCTUATION = /[,.;:!?)\]"']+$/;

function resolveImport(path: PathApi, p: string, importer: string, home: string): string {
  if (p.startsWith('~/')) return path.join(home, p.slice(2));
  if (path.isAbsolute(p)) return path.normalize(p);
  return path.resolve(path.dirname(importer), p);
}


/** `~/.claude.json` → projects[<git root or launch dir>].hasClaudeMdExternalIncludesApproved, or the setting. */
function externalIncludesApproved(ctx: ResolveContext): boolean {
  const path = ctx.fs.path;
  if (typeof ctx.settings.approveExternalImports === 'boolean') return ctx.settings.approveExternalImports;
  const configFile = ctx.env.CLAUDE_CONFIG_DIR ? path.join(ctx.env.CLAUDE_CONFIG_DIR, '.claude.json') : path.join(ctx.home, '.claude.json');
  const config = readJson(ctx, configFile) as { projects?: Record<string, { hasClaudeMdExternalIncludesApproved?: boolean }> } | undefined;
  const key = ctx.git.root(ctx.launchDir) ?? ctx.launchDir;
  return config?.projects?.[key]?.hasClaudeMdExternalIncludesApproved === true;
}

/** `claudeMdExcludes` from the settings files Claude Code reads, plus the extension's setting. */
function excludePatterns(ctx: ResolveContext): string[] {
  const path = ctx.fs.path;
  const files = [
    path.join(managedDir(ctx.platform), 'managed-settings.json'),
    path.join(userDir(ctx), 'settings.json'),
    path.join(ctx.launchDir, '.claude', 'settings.json'),
    path.join(ctx.launchDir, '.claude', 'settings.local.json'),
  ];
  const out: string[] = [];
  for (const f of files) {
    const v = (readJson(ctx, f) as { claudeMdExcludes?: unknown } | undefined)?.claudeMdExcludes;
    if (Array.isArray(v)) out.push(...v.filter((x): x is string => typeof x === 'string'));
  }
  const extra = ctx.settings.excludes;
  if (Array.isArray(extra)) out.push(...extra.filter((x): x is string => typeof x === 'string'));
  return out;
}

function readJson(ctx: ResolveContext, file: string): unknown {
  const r = readText(ctx.fs, file);
  if (r.state !== 'ok') return undefined;
  try {
    return JSON.parse(r.text);
  } catch {
    return undefined;
  }
}


interface Conditional {
  entry: Entry;
  globs: string[];
  base: string;
}

/** What the steps gather: entries sent at start, on read (and the AGENTS.md fallback's), and rules waiting for a match. */
interface Found {
  loader: MemoryLoader;
  start: Entry[];
  nested: Entry[];
  nestedAgents: Entry[];
  conditional: Conditional[];
}

/**
 * The steps every profile runs: find the sources (imports are followed as each file loads, in
 * MemoryLoader.load), match the conditional rules, apply the budget (Claude Code sets none; it
 * only warns about a large file), render.
 */
function resolve(ctx: ResolveContext): ProfileResult {
  // The target's own copy: matching and measuring set the status and reason of its sources.
  const found = copyFound(ctx, walkedTo(ctx, folderOf(ctx.fs, ctx.target)).found, true);
  const matched = matchRules(ctx, found);
  measure(ctx.fs.path, found, matched);
  return render(found, matched);
}

/** What the chain holds once the folders down to one folder are loaded, before the target's rules are matched. */
interface Walked {
  found: Found;
  /** Whether a CLAUDE.md-type file with content exists from the root down to the launch folder. */
  hasClaudeMd: boolean;
}

/**
 * The chain down to `folder`: the start (findAtStart), then each folder below the launch folder,
 * outermost first (onReadFolder). What a folder adds depends only on the folders above it, so
 * every chain of one refresh through a folder shares that folder's step (ctx.memo): `check`
 * resolves a chain for every folder holding instruction files, and each went through every
 * folder above its own again, reading, parsing and following the same imports. A step goes on
 * from a copy of its parent's, which nothing changes afterwards.
 */
function walkedTo(ctx: ResolveContext, folder: string): Walked {
  // Everything a step depends on besides the disk and the folders: the launch folder, the home,
  // the settings (approved imports, excludes).
  const key = JSON.stringify([ctx.launchDir, ctx.home, ctx.platform, ctx.env.CLAUDE_CONFIG_DIR ?? null, ctx.settings]);
  let at = ctx.memo(`start\0${key}`, (): Walked => {
    const found: Found = { loader: new MemoryLoader(ctx), start: [], nested: [], nestedAgents: [], conditional: [] };
    return { found, hasClaudeMd: findAtStart(ctx, found) };
  });
  // Each folder's step by its path, in one map for the key: a key of its own per folder (the
  // settings' JSON and the path) was made and hashed for every folder of every chain.
  const steps = ctx.memo(`folders\0${key}`, () => new Map<string, Walked>());
  const dirs = dirsBelow(ctx.launchDir, folder, ctx.fs);
  for (let i = 0; i < dirs.length; i++) {
    const above = at;
    at = getOrSet(steps, dirs[i], (): Walked => {
      if (ctx.fs.lacksAll?.(dirs[i], FOLDER_NAMES)) return above;
      const found = copyFound(ctx, above.found, false);
      onReadFolder(ctx, found, above.hasClaudeMd, dirs[i]);
      return { found, hasClaudeMd: above.hasClaudeMd };
    });
  }
  return at;
}

/**
 * A copy of what a walk found, to add to: with `fresh`, its sources and entries are copies too,
 * for the steps that change them (matching, measuring); else they are shared, since loading
 * more files never changes the sources already loaded.
 */
function copyFound(ctx: ResolveContext, f: Found, fresh: boolean): Found {
  const sources = new Map<Source, Source>();
  const entries = new Map<Entry, Entry>();
  const source = (s: Source): Source => {
    if (!fresh) return s;
    let c = sources.get(s);
    if (!c) sources.set(s, (c = { ...s }));
    return c;
  };
  const entry = (e: Entry): Entry => {
    if (!fresh) return e;
    let c = entries.get(e);
    if (!c) entries.set(e, (c = { ...e, source: source(e.source) }));
    return c;
  };
  return {
    loader: new MemoryLoader(ctx, { loader: f.loader, source }),
    start: f.start.map(entry),
    nested: f.nested.map(entry),
    nestedAgents: f.nestedAgents.map(entry),
    conditional: f.conditional.map((c) => ({ ...c, entry: entry(c.entry) })),
  };
}

/** Rules of one `.claude/rules` folder: unconditional ones join `into`, the rest wait for a read. */
function findRules(ctx: ResolveContext, found: Found, rulesDir: string, type: MemoryType, scope: string, base: string, into: Entry[], loads: Source['loads']): void {
  for (const file of filesBelow(ctx.fs, rulesDir, (name) => name.endsWith('.md'))) {
    const r = found.loader.load(file, type, 'rule', scope, loads, { rule: true });
    if (r.paths && r.entries.length) {
      for (const g of r.paths) {
        const problem = globProblem(g);
        if (problem) found.loader.report('glob-invalid', file, `The paths: glob "${g}" is invalid (${problem}); Claude Code will not match it.`);
      }
      found.conditional.push({ entry: r.entries[0], globs: r.paths, base });
    } else into.push(...r.entries);
  }
}

/**
 * At start: 1. managed policy, 2. user memory and rules, 3. every directory from the top down to
 * the launch dir. AGENTS.md is a fallback for the whole chain: it loads only when no CLAUDE.md-type
 * file with content exists up the chain. Returns whether one does.
 */
function findAtStart(ctx: ResolveContext, found: Found): boolean {
  const path = ctx.fs.path;
  const { loader, start } = found;
  const managed = managedDir(ctx.platform);
  start.push(...loader.load(path.join(managed, 'CLAUDE.md'), 'Managed', 'managed', '/', 'start').entries);
  findRules(ctx, found, path.join(managed, '.claude', 'rules'), 'Managed', '/', ctx.launchDir, start, 'start');
  const user = userDir(ctx);
  start.push(...loader.load(path.join(user, 'CLAUDE.md'), 'User', 'user', '/', 'start').entries);
  findRules(ctx, found, path.join(user, 'rules'), 'User', '/', ctx.launchDir, start, 'start');
  const dirs = dirsBelow(path.parse(ctx.launchDir).root, ctx.launchDir, ctx.fs);
  const hasClaudeMd = dirs.some((d) => claudeTypeFiles(ctx.fs.path, d).some((f) => hasContent(ctx, f)));
  for (const dir of dirs) {
    start.push(...loader.load(path.join(dir, 'CLAUDE.md'), 'Project', 'project', dir, 'start').entries);
    start.push(...loader.load(path.join(dir, '.claude', 'CLAUDE.md'), 'Project', 'project', dir, 'start').entries);
    findRules(ctx, found, path.join(dir, '.claude', 'rules'), 'Project', dir, dir, start, 'start');
    for (const name of ['AGENTS.md', path.join('.claude', 'AGENTS.md')]) {
      const agents = path.join(dir, name);
      if (!hasClaudeMd) start.push(...loader.load(agents, 'Project', 'project', dir, 'start').entries);
      else if (ctx.fs.stat(agents)?.type === 'file') shadowed(ctx, loader, agents, dir, 'start');
    }
    start.push(...loader.load(path.join(dir, 'CLAUDE.local.md'), 'Local', 'local', dir, 'start').entries);
  }
  return hasClaudeMd;
}

/** The names `onReadFolder` looks for in a folder: without any of them, the folder adds nothing. */
const FOLDER_NAMES = ['CLAUDE.md', '.claude', 'AGENTS.md', 'CLAUDE.local.md'];

/** On read: one directory below the launch dir, on the way down to the target's. */
function onReadFolder(ctx: ResolveContext, found: Found, hasClaudeMd: boolean, dir: string): void {
  const path = ctx.fs.path;
  const { loader, nested } = found;
  const dirHasClaude = claudeTypeFiles(ctx.fs.path, dir).some((f) => hasContent(ctx, f));
  nested.push(...loader.load(path.join(dir, 'CLAUDE.md'), 'Project', 'project', dir, 'on-read').entries);
  nested.push(...loader.load(path.join(dir, '.claude', 'CLAUDE.md'), 'Project', 'project', dir, 'on-read').entries);
  findRules(ctx, found, path.join(dir, '.claude', 'rules'), 'Project', dir, dir, nested, 'on-read');
  const agents = path.join(dir, 'AGENTS.md');
  if (!hasClaudeMd && !dirHasClaude) found.nestedAgents.push(...loader.load(agents, 'Project', 'project', dir, 'on-read').entries);
  else if (ctx.fs.stat(agents)?.type === 'file') shadowed(ctx, loader, agents, dir, 'on-read');
  nested.push(...loader.load(path.join(dir, 'CLAUDE.local.md'), 'Local', 'local', dir, 'on-read').entries);
}

/** A rule with `paths:` loads on read of a file they match, relative to the folder above its `.claude`. */
function matchRules(ctx: ResolveContext, found: Found): Entry[] {
  const matched: Entry[] = [];
  for (const c of found.conditional) {
    const rel = relativeInside(c.base, ctx.target, ctx.fs);
    const hit = rel !== undefined && rel !== '' && matchesAny(rel, c.globs, GLOBS);
    c.entry.source.globs = c.globs;
    c.entry.source.loads = 'on-read';
    c.entry.source.scope = c.base;
    if (hit) {
      c.entry.source.status = 'on-read';
      c.entry.source.reason = `Its paths: (${c.globs.join(', ')}) match this file, so it loads when Claude Code reads it.`;
      matched.push(c.entry);
    } else {
      c.entry.source.status = 'not-matched';
      c.entry.source.reason = `Its paths: (${c.globs.join(', ')}) do not match this file; it loads only when Claude Code reads a file they match.`;
    }
    found.loader.sources.push(c.entry.source);
  }
  return matched;
}

/** No budget: every entry is sent whole (trimmed at start); record what each sends, and why. */
function measure(path: PathApi, found: Found, matched: Entry[]): void {
  for (const e of found.start) {
    e.source.reason ||= reasonAtStart(path, e);
    setInjected(e.source, e.content.trim());
  }
  for (const e of [...found.nested, ...found.nestedAgents, ...matched]) {
    e.source.loads = 'on-read';
    e.source.status = 'on-read';
    e.source.reason ||= e.source.importedBy
      ? `Imported by ${path.basename(e.source.importedBy)}, which loads when Claude Code reads a file here.`
      : 'Below the launch directory: Claude Code loads it the first time its Read tool reads a file in this directory.';
    setInjected(e.source, e.content);
  }
}

/**
 * At start one `<system-reminder>` in the first user message; on read one block per file after
 * the tool result. With the AGENTS.md fallback, the nested AGENTS.md files arrive together as
 * hook context in one `role: system` message after the tool result, outermost first, joined by a
 * line break (observed: three folders, each with only an AGENTS.md).
 */
function render(found: Found, matched: Entry[]): ProfileResult {
  const { start, nested, nestedAgents, loader } = found;
  const startParts: RenderPart[] = start.length
    ? [{ where: 'user', text: `<system-reminder>\n${PREAMBLE}\n\n${start.map((e) => `Contents of ${e.source.path}${LABEL[e.type]}:\n\n${e.content.trim()}`).join('\n\n')}\n</system-reminder>` }]
    : [];
  const readBlocks = [...nested, ...matched];
  const onRead: RenderPart[] = readBlocks.map((e, i) => ({
    where: 'after-tool-result',
    text: `<system-reminder>\nContents of ${e.source.path}:\n\n${e.content}\n</system-reminder>${i < readBlocks.length - 1 ? '\n' : ''}`,
  }));
  if (nestedAgents.length) {
    onRead.push({ where: 'after-tool-result', text: `tool.call hook additional context: ${nestedAgents.map((e) => `Contents of ${e.source.path}:\n\n${e.content}`).join('\n')}` });
  }
  const used = start.reduce((n, e) => n + charCount(e.content.trim()), 0);
  return { sources: loader.sources, budget: { unit: 'chars', limit: null, perFile: null, used }, diagnostics: loader.diagnostics, start: startParts, onRead };
}

function claudeTypeFiles(path: PathApi, dir: string): string[] {
  return [path.join(dir, 'CLAUDE.md'), path.join(dir, '.claude', 'CLAUDE.md'), path.join(dir, 'CLAUDE.local.md')];
}

function hasContent(ctx: ResolveContext, file: string): boolean {
  const r = readText(ctx.fs, file);
  return r.state === 'ok' && parseMemory(r.text).content.trim() !== '';
}

function shadowed(ctx: ResolveContext, loader: MemoryLoader, file: string, dir: string, loads: Source['loads']): void {
  const path = ctx.fs.path;
  // Loaded already through an import (a CLAUDE.md that is `@AGENTS.md`) or a CLAUDE.md symlink
  // to it: the import's entry says how it loads (observed: ../shared/agents.md, "imports of AGENTS.md").
  if (loader.seen(file)) return;
  const r = readText(ctx.fs, file);
  const size = r.state === 'ok' ? sizes(r.text) : { chars: 0, bytes: 0 };
  // Observed: the fix that works is a CLAUDE.md beside the AGENTS.md that imports it; one higher
  // up does not load a nested AGENTS.md.
  const beside = path.join(path.dirname(file), 'CLAUDE.md');
  const exists = ctx.fs.stat(beside)?.type === 'file';
  const fix = exists ? 'add a line "@AGENTS.md" to the CLAUDE.md beside it' : 'create a CLAUDE.md beside it containing "@AGENTS.md"';
  const skipped = `Claude Code reads AGENTS.md only when no CLAUDE.md with content exists up the chain`;
  // Skipped, but nothing is lost: no problem to report, and the chain says why.
  const pointer = r.state === 'ok' ? loadedClaudeMdNamed(ctx, loader, file, r.text) : undefined;
  const copy = r.state === 'ok' && !pointer && copiedInto(ctx, loader, beside, r.text);
  const skill = skillFolder(ctx, file);
  const shipped = !pointer && !copy && !skill && dir !== ctx.launchDir && shipsWithPackage(ctx, dir);
  const reason = pointer
    ? `${skipped}; this one only points to ${path.relative(path.dirname(file), pointer)}, which Claude Code loads.`
    : copy
      ? `${skipped}; the CLAUDE.md beside it holds a copy of its text, which Claude Code loads.`
      : skill
      ? `${skipped}; this one belongs to the skill "${path.basename(skill)}" and is read with it, not as instructions for its folder.`
      : shipped
      ? `${skipped}; this one ships with the package (its package.json "files" lists it), for the agents of the package's users.`
      : `${skipped}; to load it, ${fix}.`;
  loader.sources.push(newSource(file, 'project', dir, loads, { status: 'excluded', ...size, reason }));
  if (pointer || copy || skill || shipped) return;
  // The CLAUDE.md-type file that shadows it from its own folder (`.claude/CLAUDE.md`), else one above.
  const own = claudeTypeFiles(path, dir).find((f) => hasContent(ctx, f));
  const besideText = exists ? readText(ctx.fs, beside) : undefined;
  // A CLAUDE.md that says "read AGENTS.md" sends that sentence; the file is read only if the model follows it.
  const named = besideText?.state === 'ok' && besideText.text.includes('AGENTS.md');
  const why = exists ? 'the CLAUDE.md beside it does not import it' : own ? `a CLAUDE.md is in its folder (${path.relative(dir, own)})` : 'a CLAUDE.md exists higher up';
  const lead = named
    ? 'Claude Code does not load this AGENTS.md: the CLAUDE.md beside it only names it, so the model gets that sentence, not the file, and reads it only if it follows it'
    : `Claude Code never reads this AGENTS.md: it skips AGENTS.md files when ${why}`;
  loader.report('not-loaded', file, `${lead}; to load it, ${fix}.`, undefined, { importInto: beside, importLine: '@AGENTS.md' });
}

/**
 * Whether the package in `dir` publishes its AGENTS.md (`"files": ["AGENTS.md", …]` in its
 * package.json): written for the agents of the package's users, not for work in this repository
 * (seen on reviewed repositories: each package of a monorepo shipping one).
 */
function shipsWithPackage(ctx: ResolveContext, dir: string): boolean {
  const r = readText(ctx.fs, ctx.fs.path.join(dir, 'package.json'));
  if (r.state !== 'ok') return false;
  try {
    const files: unknown = JSON.parse(r.text)?.files;
    return Array.isArray(files) && files.some((f) => f === 'AGENTS.md' || f === './AGENTS.md');
  } catch {
    return false;
  }
}

/**
 * The CLAUDE.md a short AGENTS.md points to, when Claude Code loads it already in this chain
 * (`See CLAUDE.md`, `Please read \`./CLAUDE.md\``, `[rules](../CLAUDE.md)`, `@CLAUDE.md`). Such a file
 * is there for the agents that read only AGENTS.md; Claude Code skipping it loses nothing. A longer
 * file may say more than the pointer, and is still reported.
 */
function loadedClaudeMdNamed(ctx: ResolveContext, loader: MemoryLoader, file: string, text: string): string | undefined {
  const path = ctx.fs.path;
  if (!isShortNote(text)) return undefined;
  for (const m of text.matchAll(/(?<![\w.\/-])((?:\.{1,2}\/|[\w.-]+\/)*(?:\.claude\/)?CLAUDE\.md)(?![\w-])/g)) {
    const target = path.resolve(path.dirname(file), m[1]);
    if (loader.seen(target) && ctx.fs.stat(target)?.type === 'file') return target;
  }
  return undefined;
}

/**
 * Whether `claudeMd`, which Claude Code loads in this chain, holds a copy of an AGENTS.md's text:
 * all its non-blank lines but one in twenty (a code fence's language, a title). The same guidance
 * reaches the model, and the import the advice asks for would send it twice (seen on reviewed
 * repositories: a CLAUDE.md kept as a copy of AGENTS.md on purpose).
 */
function copiedInto(ctx: ResolveContext, loader: MemoryLoader, claudeMd: string, text: string): boolean {
  const r = loader.seen(claudeMd) ? readText(ctx.fs, claudeMd) : undefined;
  if (r?.state !== 'ok') return false;
  const held = new Set(r.text.split('\n').map((l) => l.trim()));
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  return lines.filter((l) => !held.has(l)).length <= Math.floor(lines.length / 20);
}

/**
 * The skill folder a file belongs to: its own folder, or one above it below the launch folder,
 * holding a SKILL.md. An AGENTS.md there is part of the skill (its compiled guide, read when the
 * skill is used), not instructions for the folder, so Claude Code skipping it is not a problem.
 */
function skillFolder(ctx: ResolveContext, file: string): string | undefined {
  const path = ctx.fs.path;
  const dir = path.dirname(file);
  if (hasSkill(ctx, dir)) return dir;
  // Each folder's answer once a pass, from its parent's: every AGENTS.md skipped asks it.
  const nearest = ctx.memo(`skills\0${ctx.launchDir}`, () => new Map<string, string | null>());
  return skillAtOrAbove(ctx, nearest, dir) ?? undefined;
}

function hasSkill(ctx: ResolveContext, dir: string): boolean {
  return ctx.fs.stat(ctx.fs.path.join(dir, 'SKILL.md'))?.type === 'file';
}

/** The deepest folder from `dir` up, strictly below the launch folder, holding a SKILL.md (as `dirsBelow` walks them); null: none. */
function skillAtOrAbove(ctx: ResolveContext, nearest: Map<string, string | null>, dir: string): string | null {
  const path = ctx.fs.path;
  if (sameName(ctx.fs, dir, ctx.launchDir) || !isInside(dir, ctx.launchDir, ctx.fs) || path.dirname(dir) === dir) return null;
  let found = nearest.get(dir);
  if (found === undefined) nearest.set(dir, (found = hasSkill(ctx, dir) ? dir : skillAtOrAbove(ctx, nearest, path.dirname(dir))));
  return found;
}

function reasonAtStart(path: PathApi, e: Entry): string {
  if (e.source.importedBy) return `Imported by ${path.basename(e.source.importedBy)}; loaded at start right after it.`;
  switch (e.type) {
    case 'Managed':
      return 'Managed policy file: loaded first, for every project.';
    case 'User':
      return 'User memory: loaded at start for every project.';
    case 'Local':
      return 'Private project memory in an ancestor of the launch directory: loaded at start.';
    default:
      return e.source.kind === 'rule' ? 'A rule without paths: loaded at start.' : 'In the launch directory or an ancestor: loaded at start.';
  }
}

/**
 * How `paths:` globs match: a pattern without `/` matches a file name at any depth, and a
 * pattern that matches a folder matches everything in it (observed on Claude Code 2.1.332).
 */
const GLOBS = { basenameAnywhere: true, folders: true } as const;

/** Print mode with only the Read tool, its API at the fake model, every side service off. */
const localRun: LocalRun = {
  npmPackage: '@anthropic-ai/claude-code',
  setup: ({ url, prompt }) => ({
    args: ['-p', prompt, '--allowedTools', 'Read'],
    env: {
      ANTHROPIC_BASE_URL: url,
      ANTHROPIC_API_KEY: 'sk-ant-fake-key-for-loopback',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1',
      DISABLE_BUG_COMMAND: '1',
      CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: '1',
      CLAUDE_CODE_USE_BEDROCK: '',
      CLAUDE_CODE_USE_VERTEX: '',
    },
  }),
};

export const claudeCode: Profile = {
  id: 'claude-code',
  order: 10,
  agent: 'Claude Code',
  about: "Anthropic's coding agent, in the terminal",
  agentVersion: '2.1.332',
  verified: 'real agent',
  filePatterns: ['**/CLAUDE.md', '**/CLAUDE.local.md', '**/.claude/CLAUDE.md', '**/.claude/rules/**/*.md', '**/AGENTS.md', '**/.claude/AGENTS.md'],
  mainFile: 'CLAUDE.md',
  matchesGlob: (rel, glob) => matchesAny(rel, [glob], GLOBS),
  settingsSection: 'claudeCode',
  // null: read the project's hasClaudeMdExternalIncludesApproved from ~/.claude.json, as Claude Code does.
  settings: { approveExternalImports: { default: null } },
  importRefs: (text) => findClaudeImports(text).imports,
  evidence: { markers: ['**/CLAUDE.md', '**/CLAUDE.local.md', '**/.claude/**'], cli: { command: 'claude', versionArgs: ['--version'] }, homeDir: '.claude' },
  localRun,
  wireProtocol: 'anthropic',
  globalPaths: (env) => {
    const path = platformPath(env.platform);
    return [path.join(managedDir(env.platform), 'CLAUDE.md'), path.join(managedDir(env.platform), '.claude', 'rules'), path.join(userDir(env), 'CLAUDE.md'), path.join(userDir(env), 'rules')];
  },
  resolve,
};
