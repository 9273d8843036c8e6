import { yamlLib } from '../lazy';
import { diag, editDistance } from '../diagnostics';
import { headerWithoutOpening, splitOutsideBraces, stringList } from '../frontmatter';
import { globProblem, matchesAny, relativeInside } from '../globs';
import { newSource, setInjected, type Diagnostic, type RenderPart, type Source, type SourceKind } from '../model';
import { isInside, platformPath, SKIP_DIRS } from '../paths';
import type { PathApi } from '../fs';
import type { Profile, ProfileResult, ResolveContext } from '../profile';
import { ParseCache } from '../parseCache';
import { describeReadFailure, readFailureDiagnostic, readText } from '../readText';

/**
 * GitHub Copilot Chat in VS Code (agent mode), Copilot Chat 0.67.0 in VS Code 1.139.1: the
 * fidelity suite runs it in the VS Code server of test/host (scripts/agents/copilotChat.mjs)
 * against the fake model, with the worked-on file attached and then read. The rules are read
 * from the sources, cited per rule, and what the suite observed says so:
 *   [vscode]  microsoft/vscode src/vs/workbench/contrib/chat/common/promptSyntax/
 *             computeAutomaticInstructions.ts (collect, _matches, _getCustomizationsIndex),
 *             service/promptsServiceImpl.ts (listAgentInstructions, getInstructionsDiscoveryInfo),
 *             promptFileParser.ts (header, body file references, evaluateApplyToPattern),
 *             config/promptFileLocations.ts (DEFAULT_INSTRUCTIONS_SOURCE_FOLDERS),
 *             utils/promptFilesLocator.ts (files of a location), languageProviders/promptValidator.ts,
 *             and the settings registered in chat.contribution.ts;
 *   [chat]    microsoft/vscode-copilot-chat src/extension/prompts/node/panel/customInstructions.tsx
 *             (how the attachments become prompt text) and the prompt-tsx `Tag` element.
 * Observed: the placement (system message), the index's wording, the order of attachments and
 * their whitespace. From the source only: settings the suite leaves at their defaults except
 * those its scenarios set (see the README's profile table).
 */

const INTRO = 'When generating code, please follow these user provided coding instructions.'; // [chat] CustomInstructions
const CONFLICT = ' You can ignore an instruction if it contradicts a system message.'; // [chat]
// [vscode] _getCustomizationsIndex, as Copilot Chat 0.67.0 sends it (observed); `#tool:readFile`
// is replaced by `'read_file'` before sending ([chat] resolveToolReferencesInPrompt).
const INDEX_HEAD = [
  '<instructions>',
  'Here is a list of instruction files that contain rules for working with this codebase.',
  'These files are important for understanding the codebase structure, conventions, and best practices.',
  'When an instruction file applies to your task (based on its description or applyTo pattern), follow the rules specified in it.',
  "If the file content is not already included in the context, use the 'read_file' tool to read it before proceeding. Use the exact value from the <file> element as-is with the tool; do not add or remove prefixes or otherwise modify it.",
  'Only load instruction files when they are relevant to the current task. Do not eagerly load all instructions upfront.',
  'When modifying or creating files, check for instructions whose applyTo pattern matches the file path and follow them.',
];

/** The settings this profile reads, with VS Code's defaults ([vscode] chat.contribution.ts). */
const DEFAULTS = {
  'chat.useAgentsMdFile': true,
  'chat.useClaudeMdFile': true,
  'chat.useNestedAgentsMdFiles': false,
  'github.copilot.chat.codeGeneration.useInstructionFiles': true,
  'chat.includeApplyingInstructions': true,
  'chat.includeReferencedInstructions': false,
  'chat.useCustomizationsInParentRepositories': false,
  // On by default since Copilot Chat 0.6x (its package.json; observed with 0.67.0).
  'github.copilot.chat.customInstructionsInSystemMessage': true,
  /** Whether the read-file tool is enabled (the instructions index is only sent with it). */
  readFileTool: true,
  // [vscode] DEFAULT_INSTRUCTIONS_SOURCE_FOLDERS
  'chat.instructionsFilesLocations': { '.github/instructions': true, '.claude/rules': true, '~/.copilot/instructions': true, '~/.claude/rules': true } as Record<string, boolean>,
};
type Settings = typeof DEFAULTS;

function settingsOf(ctx: ResolveContext): Settings {
  const out = { ...DEFAULTS };
  for (const key of Object.keys(DEFAULTS) as (keyof Settings)[]) {
    const v = ctx.settings[key];
    if (v !== undefined && typeof v === typeof DEFAULTS[key]) (out as Record<string, unknown>)[key] = v;
  }
  return out;
}

/** The parsed header of an instructions file, as promptFileParser.ts reads it. */
interface Header {
  applyTo?: string;
  paths?: string[];
  description?: string;
  /** Attribute name, whether its value is a plain scalar/list, and where it sits. */
  attributes: { key: string; kind: 'scalar' | 'sequence' | 'map' | 'null'; value: unknown; start: number; end: number }[];
  errors: { message: string; start: number; end: number }[];
}

interface Parsed {
  header?: Header;
  /** Offset of the body in the text. */
  bodyStart: number;
}

/**
 * [vscode] A top-level `key: value` line's plain value, as VS Code's own YAML reader takes it
 * (vs/base/common/yaml.ts, 1.139): the text up to a ` #` comment, whatever YAML indicators it
 * holds. A header YAML rejects, or whose value YAML reads as an alias (`applyTo: **\/*.ts`), is
 * read again with such values quoted (observed: scenario instructions-unquoted).
 */
const PLAIN = /^([^\s#:'"][^:\r\n]*:[ \t]+)([^\s'"[{|>][^\r\n]*?)(?=[ \t]*(?:[ \t]#[^\r\n]*)?\r?$)/gm;

/** [vscode] PromptFileParser.parse: a first line `---`, up to the next `---` line (or the end). */
function parsePromptFile(text: string): Parsed {
  return parsedPromptFiles.get(text);
}

/** Kept by text: every chain of a refresh reads the same few instruction files. */
const parsedPromptFiles = new ParseCache(parsePromptText);

function parsePromptText(text: string): Parsed {
  const lines = text.split(/(?<=\n)/);
  if (!lines.length || !/^---[\s\r\n]*$/.test(lines[0])) return { bodyStart: 0 };
  let end = lines.findIndex((l, i) => i > 0 && /^---[\s\r\n]*$/.test(l));
  if (end === -1) end = lines.length;
  const headerStart = lines[0].length;
  const headerText = lines.slice(1, end).join('');
  const bodyStart = lines.slice(0, Math.min(end + 1, lines.length)).join('').length;
  const { parseDocument, isAlias, isMap, isScalar, isSeq } = yamlLib();
  const read = (t: string) => parseDocument(t, { prettyErrors: false, uniqueKeys: false });
  let doc = read(headerText);
  /** Where an offset of the text read lies in the file. */
  let at = (o: number) => headerStart + o;
  if (doc.errors.length || (isMap(doc.contents) && doc.contents.items.some((i) => isAlias(i.value)))) {
    // Where each quoted value opens in the text read again, and how much longer quoting made it.
    const shifts: { at: number; by: number }[] = [];
    let grown = 0;
    const quoted = headerText.replace(PLAIN, (_, key: string, v: string, o: number) => {
      const q = `'${v.replace(/'/g, "''")}'`;
      shifts.push({ at: o + grown + key.length, by: q.length - v.length });
      grown += q.length - v.length;
      return key + q;
    });
    const again = read(quoted);
    if (!again.errors.length) {
      doc = again;
      at = (o) => headerStart + shifts.reduce((n, s) => (s.at < o ? n - s.by : n), o);
    }
  }
  const header: Header = { attributes: [], errors: doc.errors.map((e) => ({ message: e.message.split('\n')[0], start: at(e.pos[0]), end: at(e.pos[1]) })) };
  const scalar = (n: unknown): string | undefined => (isScalar(n) && n.value !== null && n.value !== undefined ? String(n.value) : undefined);
  if (doc.contents && !isMap(doc.contents)) header.errors.push({ message: 'Invalid header, expecting <key: value> pairs', start: headerStart, end: headerStart + headerText.length });
  if (isMap(doc.contents)) {
    for (const item of doc.contents.items) {
      const key = scalar(item.key);
      if (key === undefined) continue;
      const v = item.value;
      const kind = isSeq(v) ? 'sequence' : isMap(v) ? 'map' : isScalar(v) && v.value !== null ? 'scalar' : 'null';
      const range = (item.key as { range?: [number, number, number] }).range;
      const vr = (v as { range?: [number, number, number] } | null)?.range;
      header.attributes.push({ key, kind, value: isScalar(v) ? v.value : v, start: at(range?.[0] ?? 0), end: at(vr?.[1] ?? range?.[1] ?? 0) });
      // getStringAttribute: scalars only; paths: a scalar or the scalars of a sequence.
      if (key === 'applyTo' && kind === 'scalar') header.applyTo ??= scalar(v);
      if (key === 'description' && kind === 'scalar') header.description ??= scalar(v);
      if (key === 'paths' && header.paths === undefined) {
        if (kind === 'scalar') header.paths = [scalar(v)!];
        else if (isSeq(v)) header.paths = v.items.map(scalar).filter((s): s is string => s !== undefined);
      }
    }
  }
  return { header, bodyStart };
}

/** The file references in the body of a prompt file: a Markdown link or `#file:` ([vscode] PromptBody.getParsedBody). */
function fileReferences(text: string): readonly { ref: string; start: number; end: number }[] {
  return referencesOf.get(text);
}

/** Kept by text, as the parse: the body starts where the text's header ends. */
const referencesOf = new ParseCache((text: string) => findFileReferences(text, parsePromptFile(text).bodyStart));

function findFileReferences(text: string, from: number): { ref: string; start: number; end: number }[] {
  const out: { ref: string; start: number; end: number }[] = [];
  let fence: { char: string; len: number } | undefined;
  let offset = 0;
  for (const line of text.split(/(?<=\n)/)) {
    const lineStart = offset;
    offset += line.length;
    if (lineStart < from) continue;
    const trimmed = line.trimStart();
    const m = /^(`{3,}|~{3,})/.exec(trimmed);
    if (m) {
      if (!fence) fence = { char: m[1][0], len: m[1].length };
      else if (fence.char === m[1][0] && m[1].length >= fence.len && /^\s*$/.test(trimmed.slice(m[1].length))) fence = undefined;
      continue;
    }
    if (fence) continue;
    const code = [...line.matchAll(/`[^`]+`/g)].map((c) => ({ s: c.index ?? 0, e: (c.index ?? 0) + c[0].length }));
    const inCode = (i: number) => code.some((c) => i >= c.s && i < c.e);
    const links: { s: number; e: number }[] = [];
    for (const l of line.matchAll(/\[(.*?)\]\((.+?)\)/g)) {
      const i = l.index ?? 0;
      if ((i > 0 && line[i - 1] === '!') || inCode(i)) continue;
      const s = i + l[0].length - l[2].length - 1;
      out.push({ ref: l[2], start: lineStart + s, end: lineStart + s + l[2].length });
      links.push({ s: i, e: i + l[0].length });
    }
    for (const f of line.matchAll(/#file:([^\s#]+)/gi)) {
      const i = f.index ?? 0;
      if (links.some((l) => i <= l.e && i + f[0].length >= l.s) || inCode(i)) continue;
      out.push({ ref: f[1], start: lineStart + i + 6, end: lineStart + i + f[0].length });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/** [vscode] splitGlobAware + _matches: comma-separated (braces kept whole), trimmed, empty ones skipped. */
function patternsOf(pattern: string): string[] {
  return stringList(pattern) ?? [];
}

const ALWAYS = new Set(['**', '**/*', '*']); // [vscode] _matches: "add the instructions file even if no files are attached"

/** [vscode] _matches: `**\/` is prepended unless the pattern starts with `/` or `**\/`; matched against the absolute path, ignoring case. */
export function vscodeMatches(file: string, pattern: string, sep = '/'): boolean {
  return matchesPrepared(matchedPath(file, sep), pattern);
}

/** The path `vscodeMatches` matches a pattern against: with `/`, without the one at its start. */
function matchedPath(file: string, sep: string): string {
  const slashed = sep === '/' ? file : file.split(sep).join('/');
  return slashed.charCodeAt(0) === 47 ? slashed.slice(1) : slashed;
}

const NOCASE = { nocase: true } as const;

/** `vscodeMatches` of a path made by `matchedPath`. */
function matchesPrepared(rel: string, pattern: string): boolean {
  const globs = prepared(pattern);
  return globs === true || (globs.length > 0 && matchesAny(rel, globs, NOCASE));
}

/**
 * Each `applyTo` pattern as `vscodeMatches` tests it: true when one of its parts matches every
 * file, else its parts as globs. Kept by the pattern: `check` tests every instruction file's
 * pattern against every folder, and split and rewrote each one every time.
 */
function prepared(pattern: string): readonly string[] | true {
  let globs = preparedPatterns.get(pattern);
  if (globs === undefined) {
    const parts = patternsOf(pattern);
    globs = parts.some((p) => ALWAYS.has(p)) ? true : parts.map((p) => (p.startsWith('/') || p.startsWith('**/') ? p : `**/${p}`).replace(/\[!/g, '[^'));
    if (preparedPatterns.size > 5000) preparedPatterns.clear();
    preparedPatterns.set(pattern, globs);
  }
  return globs;
}

const preparedPatterns = new Map<string, readonly string[] | true>();

interface InstructionFile {
  file: string;
  text: string;
  size: { chars: number; bytes: number };
  kind: SourceKind;
  pattern?: string;
  description?: string;
  claudeRule: boolean;
}

class Resolver {
  readonly sources: Source[] = [];
  readonly diagnostics: Diagnostic[] = [];
  constructor(readonly ctx: ResolveContext, readonly s: Settings) {}

  read(file: string, kind: SourceKind, scope: string): { text: string; size: { chars: number; bytes: number } } | undefined {
    const r = readText(this.ctx.fs, file);
    if (r.state === 'missing' || r.state === 'directory') return undefined;
    if (r.state !== 'ok') {
      this.sources.push(this.source(file, kind, scope, 'unreadable', { chars: 0, bytes: 'bytes' in r ? (r.bytes ?? 0) : 0 }, `It ${describeReadFailure(r)}; VS Code cannot attach it as text.`));
      this.diagnostics.push(readFailureDiagnostic(r, file, `This file ${describeReadFailure(r)}.`));
      return undefined;
    }
    return { text: r.text, size: { chars: r.chars, bytes: r.bytes } };
  }

  source(file: string, kind: SourceKind, scope: string, status: Source['status'], size: { chars: number; bytes: number }, reason: string, extra: Partial<Source> = {}): Source {
    return newSource(file, kind, scope, 'start', { status, ...size, reason, ...extra });
  }

  /** [vscode] PromptValidator for an instructions file (`target` Claude for `.claude/rules`). */
  validate(file: string, text: string, parsed: Parsed, claudeRule: boolean): void {
    const path = this.ctx.fs.path;
    const h = parsed.header;
    headerWithoutOpening(file, text, this.diagnostics);
    if (h) {
      // A malformed header or attribute, an error in VS Code's validator.
      const invalid = (message: string, at: { start: number; end: number }) => this.diagnostics.push(diag('frontmatter-invalid', file, message, { ...at, text }, undefined, 'error'));
      for (const e of h.errors) invalid(e.message, e);
      const valid = claudeRule ? ['description', 'paths'] : ['name', 'description', 'applyTo', 'excludeAgent'];
      const supported = claudeRule ? 'description, paths' : 'applyTo, description, name'; // recommended names, sorted
      // Whether the rule carries a scope VS Code reads in its own format: another format's beside
      // it is then kept for that format's agent (one file read as both, a `.claude/rules` link to
      // a `.github/instructions` file), and loses nothing.
      const scoped = (claudeRule ? h.paths : h.applyTo) !== undefined;
      for (const a of h.attributes) {
        const at = { text, start: a.start, end: a.end };
        if (!valid.includes(a.key)) {
          if (!meantForAgents(a.key, scoped)) continue;
          this.diagnostics.push(diag('attribute-unknown', file, `Attribute '${a.key}' is not supported in instructions files. Supported: ${supported}.`, at));
          continue;
        }
        if (a.key === 'description') {
          if (a.kind !== 'scalar') invalid("The 'description' attribute must be a string.", a);
          else if (String(a.value).trim() === '') invalid("The 'description' attribute should not be empty.", a);
        }
        if (a.key === 'applyTo') {
          if (a.kind !== 'scalar') invalid("The 'applyTo' attribute must be a string.", a);
          else {
            // [vscode] validateApplyTo (1.139): split at the commas outside braces, a last empty
            // part dropped; an empty part is invalid, a blank one is not. A part whose braces or
            // brackets do not close is reported too: VS Code reads it, but as no one meant it.
            const raw = splitOutsideBraces(String(a.value));
            if (raw.at(-1) === '') raw.pop();
            if (!raw.length || raw.some((p) => p === '' || (p.trim() !== '' && globProblem(p.trim()) !== undefined))) this.diagnostics.push(diag('glob-invalid', file, "The 'applyTo' attribute must be a valid glob pattern.", at));
          }
        }
        // [vscode] validateExcludeAgent (1.139): a string or a list.
        if (a.key === 'excludeAgent' && a.kind === 'map') invalid("The 'excludeAgent' attribute must be a string or an array.", a);
      }
    }
    // Body file references that do not exist ([vscode] promptValidator.fileNotFound, a warning).
    for (const ref of fileReferences(text)) {
      if (/^[a-zA-Z]+:\//.test(ref.ref)) continue; // another scheme: not checked
      // A link's #fragment or ?query names a place in the file, not part of its path.
      const refPath = ref.ref.replace(/[#?].*$/s, '');
      if (!refPath) continue;
      // A bare word with no folder and no extension (`[InterfaceName](link)` in a template the
      // rule describes) is a placeholder, not a file the author meant: said only if it exists.
      if (/^[A-Za-z_][\w-]*$/.test(refPath)) continue;
      const target = refPath.startsWith('/') ? refPath : path.join(path.dirname(file), refPath);
      if (this.ctx.fs.stat(target)) continue;
      // A rule reached through a symlink (.claude/rules/x.md -> ../../shared/x.md) whose link is
      // right beside its real file: the author wrote it from there, and VS Code follows no link
      // by default (chat.includeReferencedInstructions), so nothing is lost.
      if (!refPath.startsWith('/') && this.ctx.fs.stat(path.join(path.dirname(this.ctx.fs.realPath(file)), refPath))) continue;
      this.diagnostics.push(diag('import-missing', file, `File '${ref.ref}' not found at '${target}'.`, { text, start: ref.start, end: ref.end }, { target }, 'warning'));
    }
  }
}

/** Frontmatter keys that scope or describe a rule in some agent's format, compared without case, `-` or `_`. */
const AGENT_KEYS = ['applyto', 'paths', 'path', 'globs', 'glob', 'alwaysapply', 'excludeagent', 'description', 'name'];

/**
 * Whether an attribute VS Code does not support was meant for an agent, its intent lost: another
 * format's key that scopes a rule (`applyTo` in a Claude rule, Cursor's `globs`; the first six of
 * AGENT_KEYS) where the rule has no scope of its own format (`scoped`), or a near-miss of any
 * (`descripton`). VS Code's validator flags every unknown key, as an unneeded one; a key a team
 * keeps for its own tools (`owner`, `profile`), or another format's that scopes nothing
 * (`excludeAgent` in a Claude rule), loses nothing, so it is not a problem here.
 */
function meantForAgents(key: string, scoped: boolean): boolean {
  const k = key.toLowerCase().replace(/[-_\s]/g, '');
  const i = AGENT_KEYS.indexOf(k);
  return i < 0 ? k.length >= 5 && AGENT_KEYS.some((a) => editDistance(a, k) <= 2) : i < 6 && !scoped;
}

/** How deep [vscode] resolveFilesAtLocation descends below an instructions location (MAX_INSTRUCTIONS_RECURSION_DEPTH). */
const MAX_DEPTH = 5;

/**
 * Files of one location ([vscode] PromptFilesLocator.resolveFilesAtLocation): its files, and for
 * instructions those of its subfolders down to 5 levels, each folder's entries by name with
 * subfolders expanded in place (observed with Copilot Chat 0.67.0: `.claude/rules/sub/x.md`
 * between `string.md` and `trailing.md`); not below a location that is the workspace folder.
 */
function filesAt(ctx: ResolveContext, dir: string): string[] {
  const path = ctx.fs.path;
  const claude = `/${dir.split(path.sep).join('/')}/`.includes('/.claude/rules/');
  const out: string[] = [];
  const walk = (folder: string, depth: number) => {
    const entries = [...ctx.fs.readDir(folder)].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const file = path.join(folder, e.name);
      if (e.type === 'file' && (e.name.endsWith('.instructions.md') || (claude && e.name.endsWith('.md') && e.name !== 'README.md'))) out.push(file);
      else if (e.type === 'dir' && depth < MAX_DEPTH && !(depth === 0 && dir === ctx.launchDir)) walk(file, depth + 1);
    }
  };
  walk(dir, 0);
  return out;
}

/**
 * The steps every profile runs: find the sources (instruction files of the configured locations,
 * agent instruction files, nested AGENTS.md), follow imports (the Markdown links of attached
 * files), apply the budget (VS Code sets none), render ([chat] CustomInstructions).
 */
function resolve(ctx: ResolveContext): ProfileResult {
  const s = settingsOf(ctx);
  const r = new Resolver(ctx, s);
  const instructionFiles = findInstructionFiles(r);
  const attached = new Attachments();
  const applying = attachApplying(r, instructionFiles, attached);
  attached.add(followLinks(r, applying));
  const agents = findAgentInstructions(r);
  // copilot-instructions.md first, with its linked files, then the others in the sorted order.
  const copilotFirst = agents.filter((a) => a.type === 'copilot');
  attached.add(copilotFirst);
  attached.add(followLinks(r, copilotFirst));
  attached.add(agents);
  const nested = findNestedAgentsMd(r);
  const start = render(r, attached.list, instructionFiles, nested);
  const used = r.sources.filter((x) => x.status === 'loaded').reduce((n, x) => n + x.injectedChars, 0);
  return { sources: r.sources, budget: { unit: 'chars', limit: null, perFile: null, used }, diagnostics: r.diagnostics, start, onRead: [] };
}

/**
 * For `check`: besides the launch folder (the workspace VS Code was opened on, which decides the
 * settings and every other file), a chain depends on its target only through which instruction
 * files' `applyTo` match it: those are attached, and their links followed. Folders matched by the
 * same files give the same chain problems.
 */
function checkKey(ctx: ResolveContext): string {
  const s = settingsOf(ctx);
  // The files' patterns once a pass: `check` asks the key of every folder holding instruction files.
  const patterns = ctx.memo(`patterns\0${ctx.launchDir}\0${ctx.home}\0${JSON.stringify(s)}`, () => findInstructionFiles(new Resolver(ctx, s)).map((f) => f.pattern));
  const rel = matchedPath(ctx.target, ctx.fs.path.sep);
  let key = '';
  for (let i = 0; i < patterns.length; i++) {
    const p = patterns[i];
    key += p !== undefined && matchesPrepared(rel, p) ? '1' : '0';
  }
  return key;
}

/** A file attached to the request, with its text and its source in the chain. */
interface Attached {
  file: string;
  text: string;
  source: Source;
}

/** Attached files in the order they become chat variables, each once ([vscode] collect). */
class Attachments {
  readonly list: Attached[] = [];
  private readonly files = new Set<string>();

  add(items: readonly Attached[]): void {
    for (const a of items) {
      if (this.files.has(a.file)) continue;
      this.files.add(a.file);
      this.list.push(a);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// 1. Find the sources.

/** Instruction files from the configured locations: user (~/) first, then the workspace. */
function findInstructionFiles(r: Resolver): InstructionFile[] {
  const path = r.ctx.fs.path;
  const { ctx, s } = r;
  const ws = ctx.launchDir;
  const locations = Object.entries(s['chat.instructionsFilesLocations']).filter(([, on]) => on === true).map(([p]) => p);
  const home = locations.filter((p) => p.startsWith('~/')).map((p) => ({ dir: path.join(ctx.home, p.slice(2)), kind: 'user' as SourceKind }));
  const local = locations.filter((p) => !p.startsWith('~/')).map((p) => ({ dir: path.resolve(ws, p), kind: 'rule' as SourceKind }));
  const out: InstructionFile[] = [];
  for (const loc of [...home, ...local]) {
    for (const file of filesAt(ctx, loc.dir)) {
      const doc = r.read(file, loc.kind, ws);
      if (!doc) continue;
      const parsed = parsePromptFile(doc.text);
      const claudeRule = `/${file.split(path.sep).join('/')}`.includes('/.claude/rules/');
      r.validate(file, doc.text, parsed, claudeRule);
      // [vscode] evaluateApplyToPattern: Claude rules use `paths` (default `**`), others `applyTo`.
      const pattern = claudeRule ? (parsed.header?.paths?.join(', ') ?? '**') : parsed.header?.applyTo;
      out.push({ file, text: doc.text, size: doc.size, kind: loc.kind, pattern, description: parsed.header?.description, claudeRule });
    }
  }
  return out;
}

/** Each instruction file listed; those whose pattern matches the target attached ([vscode] collect, _matches). */
function attachApplying(r: Resolver, instructionFiles: InstructionFile[], attached: Attachments): Attached[] {
  const { ctx, s } = r;
  const applying: Attached[] = [];
  for (const f of instructionFiles) {
    const globs = f.pattern ? patternsOf(f.pattern).filter((p) => !ALWAYS.has(p) && !p.startsWith('/')).map((p) => (p.startsWith('**/') ? p : `**/${p}`)) : undefined;
    const base = r.source(f.file, f.kind, ctx.launchDir, 'listed', f.size, '', globs?.length ? { globs } : {});
    r.sources.push(base);
    const hit = f.pattern !== undefined && vscodeMatches(ctx.target, f.pattern, ctx.fs.path.sep);
    if (hit && s['chat.includeApplyingInstructions']) {
      base.status = 'loaded';
      base.reason = patternsOf(f.pattern!).some((p) => ALWAYS.has(p)) ? 'Automatically attached as pattern is **.' : `Automatically attached as pattern ${f.pattern} matches this file.`;
      applying.push({ file: f.file, text: f.text, source: base });
    } else if (!s.readFileTool) {
      base.status = 'not-matched';
      base.reason = f.pattern === undefined ? 'No applyTo: VS Code attaches it only when you add it by hand.' : `Its applyTo (${f.pattern}) does not match this file, and without the read tool it is not listed either.`;
    } else {
      base.reason = f.pattern === undefined
        ? 'No applyTo: VS Code names it in the instructions list for the model to read when relevant.'
        : hit ? 'chat.includeApplyingInstructions is off: VS Code only names it in the instructions list.' : `Its applyTo (${f.pattern}) does not match this file; VS Code names it, with its pattern, in the instructions list.`;
    }
  }
  attached.add(applying);
  return applying;
}

type AgentFile = { file: string; type: 'copilot' | 'agents' | 'claude'; setting: string };

/**
 * [vscode] listAgentInstructions: copilot-instructions.md, AGENTS.md and CLAUDE.md files of the
 * workspace (and its parents up to the repository, when enabled) and ~/.claude/CLAUDE.md; plain
 * files first, then symlinks whose target is not already in, sorted by URI.
 */
function findAgentInstructions(r: Resolver): (Attached & AgentFile)[] {
  const path = r.ctx.fs.path;
  const { ctx, s } = r;
  const fs = ctx.fs;
  const found: AgentFile[] = [];
  const disabled: AgentFile[] = [];
  const inDir = (dir: string, names: string[], type: AgentFile['type'], setting: keyof Settings) => {
    for (const e of fs.readDir(dir)) {
      if (e.type !== 'file' || !names.some((n) => n.toLowerCase() === e.name.toLowerCase())) continue; // equalsIgnoreCase
      (s[setting] ? found : disabled).push({ file: path.join(dir, e.name), type, setting });
    }
  };
  for (const root of agentRoots(r)) {
    inDir(path.join(root, '.github'), ['copilot-instructions.md'], 'copilot', 'github.copilot.chat.codeGeneration.useInstructionFiles');
    inDir(root, ['AGENTS.md'], 'agents', 'chat.useAgentsMdFile');
    inDir(root, ['CLAUDE.md', 'CLAUDE.local.md'], 'claude', 'chat.useClaudeMdFile');
    inDir(path.join(root, '.claude'), ['CLAUDE.md'], 'claude', 'chat.useClaudeMdFile');
  }
  inDir(path.join(ctx.home, '.claude'), ['CLAUDE.md'], 'claude', 'chat.useClaudeMdFile');
  for (const d of disabled) {
    const doc = r.read(d.file, 'project', path.dirname(d.file));
    if (doc) r.sources.push(r.source(d.file, 'project', path.dirname(d.file), 'excluded', doc.size, `${d.setting} is off, so VS Code does not attach it.`));
  }
  const out: (Attached & AgentFile)[] = [];
  for (const a of withoutSymlinkTwins(r, found)) {
    const kind: SourceKind = a.file.startsWith(path.join(ctx.home, '.claude') + path.sep) ? 'user' : path.basename(a.file).toLowerCase() === 'claude.local.md' ? 'local' : 'project';
    const doc = r.read(a.file, kind, path.dirname(a.file));
    if (!doc) continue;
    const source = r.source(a.file, kind, path.dirname(a.file), 'loaded', doc.size, `Automatically attached to every request as setting ${a.setting} is enabled.`);
    r.sources.push(source);
    out.push({ ...a, text: doc.text, source });
    if (a.type === 'copilot') r.validate(a.file, doc.text, parsePromptFile(doc.text), false);
  }
  return out;
}

/**
 * The workspace, and with chat.useCustomizationsInParentRepositories the folders above it up to
 * the repository root, when there is one and it is not above the home folder (the trust check of
 * findParentRepoFolders is not modelled).
 */
function agentRoots(r: Resolver): string[] {
  const path = r.ctx.fs.path;
  const { ctx, s } = r;
  const ws = ctx.launchDir;
  const roots = [ws];
  if (!s['chat.useCustomizationsInParentRepositories']) return roots;
  const parents: string[] = [];
  for (let d = ws; ; d = path.dirname(d)) {
    if (d !== ws) parents.push(d);
    if (ctx.fs.stat(path.join(d, '.git'))) return [...roots, ...parents];
    if (path.dirname(d) === d || path.dirname(d) === ctx.home) return roots;
  }
}

/** Plain files first, then symlinks whose target is not already in ([vscode] "Skipping symlinked agent instructions file"); sorted by URI. */
function withoutSymlinkTwins(r: Resolver, found: AgentFile[]): AgentFile[] {
  const path = r.ctx.fs.path;
  const fs = r.ctx.fs;
  const agents: AgentFile[] = [];
  const seenReal = new Set<string>();
  for (const a of found.filter((a) => !fs.isSymlink(a.file))) {
    agents.push(a);
    seenReal.add(a.file);
  }
  for (const a of found.filter((a) => fs.isSymlink(a.file))) {
    const real = fs.realPath(a.file);
    if (seenReal.has(real)) {
      const doc = r.read(a.file, 'project', path.dirname(a.file));
      if (doc) r.sources.push(r.source(a.file, 'project', path.dirname(a.file), 'duplicate', doc.size, `A symlink to ${real}, which is already attached; VS Code skips it.`));
      continue;
    }
    agents.push(a);
    seenReal.add(real);
  }
  // URI.file(p).toString(): `/` separators, and on Windows the drive letter lower-cased with its
  // colon escaped (`file:///c%3A/repo/AGENTS.md`).
  const uri = (p: string) => {
    const s = p.split(path.sep).join('/');
    return `file://${/^[A-Za-z]:/.test(s) ? `/${s[0].toLowerCase()}%3A${s.slice(2)}` : s}`;
  };
  // Each URI made once, not at each of the sort's comparisons (every AGENTS.md of the tree).
  return agents.map((a) => [uri(a.file), a] as const).sort(([x], [y]) => x.localeCompare(y)).map(([, a]) => a);
}

/**
 * Nested AGENTS.md ([vscode] listNestedAgentMDs: `**\/AGENTS.md`, listed, not inlined). The same
 * for every target of the workspace: worked out once per refresh. VS Code lists them in the order
 * its file search returns them (findAgentMDsInFolder, no sort): with several nested files that
 * order changed between two runs of the same tree, so ours (by path) matches one of them.
 */
function findNestedAgentsMd(r: Resolver): string[] {
  const path = r.ctx.fs.path;
  const { ctx, s } = r;
  const ws = ctx.launchDir;
  const list = (files: readonly string[]) => {
    const sub = new Resolver(ctx, s);
    const nested: string[] = [];
    for (const file of files) {
      if (path.dirname(file) === ws) {
        if (s['chat.useAgentsMdFile'] && s['chat.useNestedAgentsMdFiles']) nested.push(file); // the root one is listed too
        continue;
      }
      const doc = sub.read(file, 'project', path.dirname(file));
      if (!doc) continue;
      const on = s['chat.useAgentsMdFile'] && s['chat.useNestedAgentsMdFiles'] && s.readFileTool;
      sub.sources.push(sub.source(file, 'project', path.dirname(file), on ? 'listed' : 'excluded', doc.size, on
        ? `VS Code names it in the instructions list as "Instructions for folder '${path.relative(ws, path.dirname(file)).split(path.sep).join('/')}'"; the model reads it when it works there.`
        : 'Nested AGENTS.md files are ignored unless chat.useNestedAgentsMdFiles is on (off by default).'));
      if (on) nested.push(file);
    }
    return { sources: sub.sources, diagnostics: sub.diagnostics, nested };
  };
  // Each nested file is read (even when off, for the chain view to show) and its problems are its
  // own: for one file's problems (a look after an edit) that file alone is read, none for a file
  // of another name, and git is not asked for them.
  const only = ctx.problemsIn;
  const listed = only === undefined
    ? ctx.memo(`nestedAgents\0${ws}\0${s['chat.useAgentsMdFile']}\0${s['chat.useNestedAgentsMdFiles']}\0${s.readFileTool}`, () => list(agentsMdFiles(ctx, ws)))
    : list(path.basename(only).toLowerCase() === 'agents.md' ? agentsMdFiles(ctx, ws).filter((f) => f === only) : []);
  r.sources.push(...listed.sources);
  r.diagnostics.push(...listed.diagnostics);
  return listed.nested;
}

// ---------------------------------------------------------------------------------------------
// 2. Follow imports.

/**
 * Linked files of attached instruction files ([vscode] _addReferencedInstructions, needs
 * chat.includeReferencedInstructions, off by default): prompt files, or files of the workspace;
 * only instruction files are followed further.
 */
function followLinks(r: Resolver, from: readonly { file: string; text: string }[]): Attached[] {
  const path = r.ctx.fs.path;
  const { ctx, s } = r;
  const ws = ctx.launchDir;
  const todo = [...from];
  const out: Attached[] = [];
  const seen = new Set(from.map((f) => f.file));
  while (todo.length) {
    const next = todo.pop()!;
    for (const ref of fileReferences(next.text)) {
      if (/^[a-zA-Z]+:\//.test(ref.ref)) continue;
      const file = ref.ref.startsWith('/') ? ref.ref : path.join(path.dirname(next.file), ref.ref);
      if (seen.has(file)) continue;
      const isPromptFile = /\.(instructions|prompt)\.md$/.test(file) || path.basename(file) === 'copilot-instructions.md';
      if (!isPromptFile && relativeInside(ws, file, ctx.fs) === undefined) continue;
      seen.add(file);
      if (ctx.fs.stat(file)?.type !== 'file') {
        r.sources.push(r.source(file, 'import', ws, 'missing', { chars: 0, bytes: 0 }, `Linked from ${path.basename(next.file)} but it does not exist.`, { importedBy: next.file }));
        continue;
      }
      const doc = r.read(file, 'import', ws);
      if (!doc) continue;
      if (!s['chat.includeReferencedInstructions']) {
        r.sources.push(r.source(file, 'import', ws, 'excluded', doc.size, `Linked from ${path.basename(next.file)}; VS Code attaches linked files only when chat.includeReferencedInstructions is on (off by default).`, { importedBy: next.file }));
        continue;
      }
      const source = r.source(file, 'import', ws, 'loaded', doc.size, `Referenced by ${path.basename(next.file)}.`, { importedBy: next.file });
      r.sources.push(source);
      out.push({ file, text: doc.text, source });
      if (isPromptFile) todo.push({ file, text: doc.text });
    }
  }
  return out;
}

// 3. Apply the budget: VS Code sets none for instructions.

// ---------------------------------------------------------------------------------------------
// 4. Render ([chat] CustomInstructions).

/**
 * The instructions index, then each attached file once by content ([chat] CustomInstructions).
 * In the system message (the default): a `<instructions>` element holding the index, the
 * skills and agents lists (built into Copilot Chat, not rendered here) and the attachments,
 * observed with Copilot Chat 0.67.0 — two parts, since the lists sit between them. In the
 * user message (customInstructionsInSystemMessage off): after the introduction, from the
 * source only.
 */
function render(r: Resolver, attached: Attached[], instructionFiles: InstructionFile[], nested: string[]): RenderPart[] {
  const { ctx, s } = r;
  const chunks: string[] = [];
  const seenContent = new Map<string, string>();
  for (const a of attached) {
    const content = a.text.trim();
    if (!content) {
      a.source.status = 'excluded';
      a.source.reason = 'Empty or only white space; VS Code attaches nothing for it.';
      continue;
    }
    const first = seenContent.get(content);
    if (first) {
      a.source.status = 'duplicate';
      a.source.reason = `Same text as ${first}; VS Code attaches identical instruction text once.`;
      // A link to the same file (a `.claude/rules` link to copilot-instructions.md) shares it on purpose: nothing to fix.
      if (ctx.fs.realPath(a.file) !== ctx.fs.realPath(first)) r.diagnostics.push(diag('duplicate-content', a.file, `VS Code drops this file from the request: its text is identical to ${first}.`, undefined, { first }));
      continue;
    }
    seenContent.set(content, a.file);
    setInjected(a.source, content);
    chunks.push(`<attachment filePath=${JSON.stringify(fsPathOf(a.file))}>\n${content}\n</attachment>\n`);
  }
  const index = s.readFileTool && (instructionFiles.length || nested.length) ? instructionsIndex(ctx.fs.path, ctx.launchDir, instructionFiles, nested) : '';
  if (!chunks.length && !index) return [];
  if (s['github.copilot.chat.customInstructionsInSystemMessage']) {
    const parts: RenderPart[] = [];
    if (index) parts.push({ where: 'system', text: index });
    if (chunks.length) parts.push({ where: 'system', text: `${chunks.join('')}\n</instructions>` });
    return parts;
  }
  return [{ where: 'user', text: `${INTRO}${CONFLICT}\n<instructions>\n${index}${chunks.join('')}\n</instructions>\n` }];
}

/**
 * [vscode] URI.fsPath, how the chat writes a file's path: on Windows with the drive letter
 * lower-cased (uriToFsPath: `C:\\repo\\AGENTS.md` → `c:\\repo\\AGENTS.md`). From VS Code's source; not
 * run on Windows here.
 */
function fsPathOf(p: string): string {
  return /^[A-Z]:\\/.test(p) ? p[0].toLowerCase() + p.slice(1) : p;
}

/** [vscode] _getCustomizationsIndex: every instruction file, then every nested AGENTS.md; text escaped as its `escapeXml`. */
function instructionsIndex(path: PathApi, ws: string, instructionFiles: InstructionFile[], nested: string[]): string {
  const xml = (t: string) => t.replace(/[<>&]/g, (c) => (c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&amp;'));
  const entries = [...INDEX_HEAD];
  for (const f of instructionFiles) {
    entries.push('<instruction>', `<file>${fsPathOf(f.file)}</file>`);
    if (f.description) entries.push(`<description>${xml(f.description)}</description>`);
    if (f.pattern) entries.push(`<applyTo>${xml(f.pattern)}</applyTo>`);
    entries.push('</instruction>');
  }
  for (const file of nested) {
    const folder = path.relative(ws, path.dirname(file)).split(path.sep).join('/');
    entries.push('<instruction>', `<file>${fsPathOf(file)}</file>`, `<description>${xml(folder.trim() ? `Instructions for folder '${folder}'` : 'Instructions for the workspace')}</description>`, '</instruction>');
  }
  entries.push('</instructions>', '', '');
  return entries.join('\n');
}

/**
 * `**\/AGENTS.md` in the workspace. In a repository: the files git lists (so `.gitignore` is
 * honoured, as VS Code's search does); elsewhere a walk skipping `.git`, `node_modules` and the
 * other folders VS Code's default `files.exclude` and `search.exclude` hide (SKIP_DIRS).
 * `files.exclude` is not modelled.
 */
function agentsMdFiles(ctx: ResolveContext, ws: string): string[] {
  // The same for every target of the workspace: once per refresh.
  return ctx.memo(`agentsMd\0${ws}`, () => findAgentsMdFiles(ctx, ws));
}

function findAgentsMdFiles(ctx: ResolveContext, ws: string): string[] {
  const path = ctx.fs.path;
  // In a repository the git index answers without walking the tree.
  const repo = ctx.git.root(ws);
  // Only the AGENTS.md files: git picks them out, so the chain holds no list of every file.
  const listed = repo ? (ctx.git.workTreeFilesNamed?.(repo, 'AGENTS.md') ?? ctx.git.workTreeFiles?.(repo)) : undefined;
  if (listed) return listed.filter((f) => path.basename(f) === 'AGENTS.md' && isInside(f, ws, ctx.fs)).sort();
  const out: string[] = [];
  const stack = [ws];
  // Each real folder once: a link back up (`ln -s . loop`) would be walked until the path
  // grows too long, and two such links multiply.
  const visited = new Set<string>();
  while (stack.length) {
    const dir = stack.pop()!;
    const real = ctx.fs.realPath(dir);
    if (visited.has(real)) continue;
    visited.add(real);
    for (const e of ctx.fs.readDir(dir)) {
      if (e.type === 'dir' && !SKIP_DIRS.has(e.name)) stack.push(path.join(dir, e.name));
      else if (e.type === 'file' && e.name === 'AGENTS.md') out.push(path.join(dir, e.name));
    }
  }
  return out.sort();
}

export const copilot: Profile = {
  id: 'copilot',
  order: 100,
  agent: 'GitHub Copilot in VS Code',
  about: 'Copilot Chat and its agent mode, in this editor',
  agentVersion: 'Copilot Chat 0.67.0 (VS Code 1.139.1)',
  verified: 'real agent',
  filePatterns: [
    '**/.github/copilot-instructions.md', '**/AGENTS.md', '**/CLAUDE.md', '**/CLAUDE.local.md', '**/.claude/CLAUDE.md',
    '**/.github/instructions/*.instructions.md', '**/.claude/rules/*.md',
  ],
  mainFile: '.github/copilot-instructions.md',
  matchesGlob: vscodeMatches,
  editorSettings: Object.keys(DEFAULTS).filter((k) => k !== 'readFileTool'),
  // The nested AGENTS.md files of the workspace (agentsMdFiles).
  workTreeNames: ['AGENTS.md'],
  evidence: {
    markers: ['.github/copilot-instructions.md', '.github/instructions/**', '.github/prompts/**', '.github/chatmodes/**', '.github/agents/**'],
    vscodeExtension: 'github.copilot-chat',
  },
  notRunnable: 'Copilot Chat runs inside VS Code: this command does not start one (the fidelity suite runs it in a VS Code server, with a bring-your-own-key model pointed at the fake model).',
  // What that bring-your-own-key model is sent.
  wireProtocol: 'chat',
  globalPaths: (env) => {
    const path = platformPath(env.platform);
    return [path.join(env.home, '.copilot', 'instructions'), path.join(env.home, '.claude', 'rules'), path.join(env.home, '.claude', 'CLAUDE.md')];
  },
  resolve,
  checkKey,
};
