import { parse as parseToml, TomlError } from 'smol-toml';
import { diag } from '../diagnostics';
import type { PathApi } from '../fs';
import { newSource, setInjected, type Budget, type Diagnostic, type Source } from '../model';
import { ancestors, dirsBelow, folderOf, platformPath } from '../paths';
import { getOrSet, type LocalRun, type Profile, type ProfileResult, type ResolveContext } from '../profile';
import { describeReadFailure, headProblem, lossyDiagnostic, readFailureDiagnostic, readLossy, readLossyHead, type LossyRead } from '../readText';
import { charCount, decodeLossy, fmt, offsetOfByte, rustTrim } from '../text';

/**
 * Codex CLI 0.171.0 (`codex exec`). Rules from openai/codex `codex-rs/core/src/agents_md.rs`
 * (AgentsMdManager: load_global_instructions, agents_md_paths, read_agents_md, text/render),
 * every one checked against the real binary on loopback probes ("observed on codex 0.171.0").
 * One user message holds the global file and the project docs; nothing is added on read.
 *
 * `resolve` runs the steps every profile runs: find the sources, follow imports (Codex has
 * none), apply the budget, render.
 */

const VERSION = '0.171.0';
/** agents_md.rs LOCAL_AGENTS_MD_FILENAME, DEFAULT_AGENTS_MD_FILENAME. */
const OVERRIDE = 'AGENTS.override.md';
const DEFAULT = 'AGENTS.md';
/** config `project_doc_max_bytes` default: 32 KiB (codex-rs config). */
const DEFAULT_MAX_BYTES = 32 * 1024;
/** agents_md.rs AGENTS_MD_SEPARATOR: between the global file and the first project doc. */
const SEPARATOR = '\n\n--- project-doc ---\n\n';

function resolve(ctx: ResolveContext): ProfileResult {
  const at = launchShare(ctx);
  // This chain's own copies of the sources: the caller may mark them.
  const out: Collected = { sources: at.out.sources.map((x) => ({ ...x })), diagnostics: at.out.diagnostics.slice() };
  const budget = { ...at.budget };
  if (at.fatal) return { ...out, budget, start: [], onRead: [], fatal: at.fatal };
  reportBelowLaunchDir(ctx, at.names, out);
  return { ...out, budget, start: at.start, onRead: [] };
}

/**
 * Everything but the folders below the launch folder: the config, the global file and the project
 * docs from the project root down to the launch folder. The same for every chain of one launch
 * folder, so once per refresh (ctx.memo): `check` resolves a chain per folder holding instruction files.
 */
function launchShare(ctx: ResolveContext): { out: Collected; budget: Budget; fatal?: string; names: string[]; start: ProfileResult['start'] } {
  const home = codexHome(ctx, ctx.fs.path);
  return ctx.memo(`launch\0${JSON.stringify([ctx.launchDir, home, ctx.platform])}`, () => {
    const out: Collected = { sources: [], diagnostics: [] };
    const { config, fatal } = readConfig(ctx, ctx.fs.path.join(home, 'config.toml'), out.diagnostics);
    const budget: Budget = { unit: 'bytes', limit: config.maxBytes, perFile: null, used: 0 };
    if (fatal) return { out, budget, fatal, names: [], start: [] };
    const global = findGlobal(ctx, home, out);
    const names = [OVERRIDE, DEFAULT, ...config.fallbacks.filter((f, i, a) => f !== OVERRIDE && f !== DEFAULT && a.indexOf(f) === i)];
    const picked = findProjectDocs(ctx, config.markers, names);
    // Imports: none. read_agents_md sends each file as it is; an `@path` is plain text to Codex.
    const docs = applyBudget(ctx, picked, config.maxBytes, out);
    budget.used = docs.used;
    return { out, budget, names, start: render(ctx, global, docs.entries) };
  });
}

/** What the steps gather, in the order the chain lists it. */
interface Collected {
  sources: Source[];
  diagnostics: Diagnostic[];
}

function codexHome(env: { home: string; env: Readonly<Record<string, string | undefined>> }, path: PathApi): string {
  return env.env.CODEX_HOME ? path.resolve(env.env.CODEX_HOME) : path.join(env.home, '.codex');
}

function plural(n: number, word: string): string {
  return `${fmt(n)} ${word}${n === 1 ? '' : 's'}`;
}

/** A doc as read here: a lossy read, with the size on disk when only its start was read. */
type DocRead = LossyRead & { size?: number };

/** A source with the sizes of a lossy read (String::from_utf8_lossy: bad bytes become U+FFFD). */
function docSource(p: string, kind: Source['kind'], scope: string, r: DocRead | undefined, fields: Partial<Source>): Source {
  return newSource(p, kind, scope, 'start', { chars: r?.state === 'ok' ? r.chars : 0, bytes: r?.state === 'ok' ? (r.size ?? r.bytes) : 0, ...fields });
}

/**
 * A project doc, of which Codex sends at most `budget` bytes. Codex 0.171.0 reads the whole file
 * and then cuts it (agents_md.rs read_agents_md: `data.truncate(remaining)`; traced: a 5 MiB
 * AGENTS.md is read to its end), so a file over the size Instruction Lens reads whole still sends
 * its first bytes: of such a file only those are read here (three more, to finish a character
 * cut at the budget's end and place the cut).
 */
function readDoc(ctx: ResolveContext, p: string, budget: number): DocRead {
  return readLossyHead(ctx.fs, p, budget + 3);
}

// ---------------------------------------------------------------------------------------------
// config.toml

interface CodexConfig {
  maxBytes: number;
  fallbacks: string[];
  markers: string[];
}

/** How serde names a TOML value in Codex's "invalid type" error. */
function describe(v: unknown): string {
  if (typeof v === 'string') return `string ${JSON.stringify(v)}`;
  if (typeof v === 'bigint') return `integer \`${v}\``;
  if (typeof v === 'number') return `floating point \`${v}\``;
  if (typeof v === 'boolean') return `boolean \`${v}\``;
  if (Array.isArray(v)) return 'a sequence';
  return v instanceof Date ? 'a date' : 'a map';
}

/** Where a top-level key is written (before the first table header), for the diagnostic's place. */
function keyRange(text: string, key: string): { text: string; start: number; end: number } {
  const header = /^[ \t]*\[/m.exec(text);
  const top = header ? text.slice(0, header.index) : text;
  const m = new RegExp(`^[ \\t]*(["']?)${key}\\1[ \\t]*=[ \\t]*`, 'm').exec(top);
  if (!m) return { text, start: 0, end: 0 };
  const start = m.index + m[0].length;
  const lineEnd = text.indexOf('\n', start);
  return { text, start, end: lineEnd < 0 ? text.length : lineEnd };
}

/**
 * `$CODEX_HOME/config.toml`: project_doc_max_bytes, project_doc_fallback_filenames,
 * project_root_markers. A file that does not parse, or a value of the wrong type, makes Codex
 * refuse to start ("Error loading config.toml", observed on codex 0.171.0): the whole file is
 * parsed, tables included, as the `toml` crate does. Only the user config is read: the system
 * file /etc/codex/config.toml and project `.codex/config.toml` layers are not modelled.
 */
function readConfig(ctx: ResolveContext, file: string, diagnostics: Diagnostic[]): { config: CodexConfig; fatal?: string } {
  const config: CodexConfig = { maxBytes: DEFAULT_MAX_BYTES, fallbacks: [], markers: ['.git'] };
  if (ctx.fs.stat(file)?.type !== 'file') return { config };
  const r = readLossy(ctx.fs, file);
  if (r.state !== 'ok') return { config };
  const text = r.text;
  let data: Record<string, unknown>;
  try {
    // Integers as bigint, so `1.0` (a float Codex rejects) stays apart from `1`.
    data = parseToml(text, { integersAsBigInt: true });
  } catch (e) {
    const message = e instanceof TomlError ? e.message.split('\n')[0].replace(/^Invalid TOML document: /, '') : String(e);
    const at = e instanceof TomlError ? offsetOfLine(text, e.line - 1) + e.column - 1 : 0;
    diagnostics.push(diag('config-invalid', file, `Codex refuses to start: config.toml does not parse (${message}).`, { text, start: at, end: Math.min(text.length, at + 1) }));
    return { config, fatal: `Error loading ${file}: ${message}` };
  }
  const fail = (key: string, value: unknown, expected: string) => {
    diagnostics.push(diag('config-invalid', file, `Codex refuses to start: ${key} must be ${expected === 'usize' ? 'a whole number ≥ 0' : 'an array of strings'}.`, keyRange(text, key)));
    return `Error loading config.toml: invalid type: ${describe(value)}, expected ${expected} in \`${key}\``;
  };
  let fatal: string | undefined;
  const max = data.project_doc_max_bytes;
  if (max !== undefined) {
    if (typeof max === 'bigint' && max >= 0n && max <= BigInt(Number.MAX_SAFE_INTEGER)) config.maxBytes = Number(max);
    else fatal ??= fail('project_doc_max_bytes', max, 'usize');
  }
  for (const key of ['project_root_markers', 'project_doc_fallback_filenames'] as const) {
    const value = data[key];
    if (value === undefined) continue;
    if (!Array.isArray(value) || value.some((x) => typeof x !== 'string')) {
      fatal ??= fail(key, value, 'a sequence');
      continue;
    }
    if (key === 'project_root_markers') config.markers = value;
    else config.fallbacks = plainFallbacks(ctx, value, (bad) => diagnostics.push(diag('config-invalid', file, `Codex ignores the fallback name "${bad}": it is not a plain file name.`, keyRange(text, key), undefined, 'warning')));
  }
  return { config, ...(fatal ? { fatal } : {}) };
}

/**
 * "ignoring project_doc_fallback_filenames entry that is not a filename" (codex 0.171.0 binary;
 * observed: `sub/x.md` is ignored). Unsure: what else counts as "not a filename" — modelled as
 * anything with a separator, ".", "..". Empty entries are skipped.
 */
function plainFallbacks(ctx: ResolveContext, list: string[], ignored: (name: string) => void): string[] {
  const kept = list.filter((x) => x !== '' && x !== '.' && x !== '..' && !x.includes('/') && !(ctx.platform === 'win32' && x.includes('\\')));
  for (const bad of list.filter((x) => x !== '' && !kept.includes(x))) ignored(bad);
  return kept;
}

function offsetOfLine(text: string, line: number): number {
  let at = 0;
  for (let i = 0; i < line && at >= 0; i++) at = text.indexOf('\n', at) + 1 || text.length;
  return Math.min(at, text.length);
}

// ---------------------------------------------------------------------------------------------
// 1. Find the sources.

/**
 * load_global_instructions: $CODEX_HOME/AGENTS.override.md, else AGENTS.md; the first one with
 * text after trimming wins (a blank override falls back to AGENTS.md: observed on codex 0.171.0).
 */
function findGlobal(ctx: ResolveContext, home: string, out: Collected): string | undefined {
  let global: string | undefined;
  for (const name of [OVERRIDE, DEFAULT]) {
    const p = ctx.fs.path.join(home, name);
    const st = ctx.fs.stat(p);
    if (!st) continue;
    if (global !== undefined) {
      if (st.type === 'file') out.sources.push(docSource(p, 'user', '/', readLossy(ctx.fs, p), { status: 'excluded', reason: `${OVERRIDE} in ${home} is used instead, so Codex does not read this file.` }));
      continue;
    }
    if (st.type !== 'file') {
      // A directory is skipped (IsADirectory). Unsure: a FIFO would block Codex's read; it is never read here.
      out.sources.push(docSource(p, 'user', '/', undefined, { status: 'excluded', reason: st.type === 'dir' ? 'It is a directory, so Codex skips it.' : 'It is not a regular file, so it is not read.' }));
      continue;
    }
    const r = readLossy(ctx.fs, p);
    if (r.state !== 'ok') {
      out.sources.push(docSource(p, 'user', '/', r, { status: 'unreadable', reason: `It ${describeReadFailure(r)}; Codex warns at startup and skips it.` }));
      out.diagnostics.push(readFailureDiagnostic(r, p, `Codex cannot read this file: it ${describeReadFailure(r)}. Codex skips it.`));
      continue;
    }
    if (r.problem === 'not-utf8') out.diagnostics.push(lossyDiagnostic(p, r.problem, 'Codex replaces the bad bytes with U+FFFD.', 'warning'));
    const trimmed = rustTrim(r.text);
    if (trimmed === '') {
      out.sources.push(docSource(p, 'user', '/', r, { status: 'excluded', reason: name === OVERRIDE ? `It is empty or only white space, so Codex falls back to ${DEFAULT}.` : 'It is empty or only white space, so Codex skips it.' }));
      continue;
    }
    global = trimmed;
    const source = docSource(p, 'user', '/', r, { reason: 'Your global Codex instructions: trimmed and sent first, outside the project-doc budget.' });
    setInjected(source, trimmed);
    out.sources.push(source);
  }
  return global;
}

interface Found {
  path: string;
  dir: string;
  /** Existing candidates this one hides, and entries with a candidate's name that are not files. */
  hidden: string[];
  notFiles: { path: string; what: string }[];
}

/** agents_md_paths, per directory: the first candidate that is a file (symlinks followed). */
function pickInDir(ctx: ResolveContext, dir: string, names: string[]): Found | undefined {
  const notFiles: Found['notFiles'] = [];
  let found: Found | undefined;
  for (const name of names) {
    const p = ctx.fs.path.join(dir, name);
    const st = ctx.fs.stat(p);
    if (!st) continue;
    if (found) {
      if (st.type === 'file') found.hidden.push(p);
      continue;
    }
    // Directories, FIFOs and other non-files are skipped; the next name is tried.
    if (st.type !== 'file') {
      notFiles.push({ path: p, what: st.type === 'dir' ? 'a directory' : 'not a regular file' });
      continue;
    }
    found = { path: p, dir, hidden: [], notFiles };
  }
  if (!found && notFiles.length) return { path: '', dir, hidden: [], notFiles };
  return found;
}


/**
 * agents_md_paths: the project root is the nearest ancestor of the launch dir (itself included)
 * holding a project_root_markers entry (any kind of entry); none = the launch dir alone. Then one
 * file per folder from the root down to the launch dir.
 */
function findProjectDocs(ctx: ResolveContext, markers: string[], names: string[]): Found[] {
  const up = ancestors(ctx.launchDir, ctx.fs);
  const root = markers.length ? up.find((d) => markers.some((m) => ctx.fs.stat(ctx.fs.path.join(d, m)))) : undefined;
  const dirs = root ? up.slice(0, up.indexOf(root) + 1).reverse() : [ctx.launchDir];
  return dirs.map((dir) => pickInDir(ctx, dir, names)).filter((f): f is Found => !!f);
}

// ---------------------------------------------------------------------------------------------
// 3. Apply the budget.

/**
 * read_agents_md: the budget is shared, root first, in bytes: each doc is cut to what is left
 * (lossy UTF-8 at the cut, no marker); a doc that is blank after the cut is skipped and costs
 * nothing; once nothing is left the rest are dropped. project_doc_max_bytes = 0 turns them off.
 * An unreadable doc makes the whole read fail: no project doc is sent (source, not probed).
 */
function applyBudget(ctx: ResolveContext, picked: Found[], limit: number, out: Collected): { entries: string[]; used: number } {
  let remaining = limit;
  const entries: string[] = [];
  const pending: Source[] = [];
  let failed: string | undefined;
  for (const f of picked) {
    for (const nf of f.notFiles) {
      out.sources.push(docSource(nf.path, 'project', f.dir, undefined, { status: 'excluded', reason: `It is ${nf.what}, so Codex skips it and tries the next name.` }));
    }
    if (!f.path) continue;
    const r = readDoc(ctx, f.path, remaining);
    const src = docSource(f.path, 'project', f.dir, r, {});
    out.sources.push(src);
    for (const h of f.hidden) {
      out.sources.push(docSource(h, 'project', f.dir, readDoc(ctx, h, 0), { status: 'excluded', reason: `${ctx.fs.path.basename(f.path)} comes first in this directory, and Codex reads at most one file per directory.` }));
    }
    if (limit === 0) {
      src.status = 'excluded';
      src.reason = 'project_doc_max_bytes is 0 in config.toml, which turns project docs off.';
      continue;
    }
    if (remaining === 0) {
      src.status = 'omitted';
      src.reason = `The ${fmt(limit)}-byte project-doc budget is used up by the files above, so Codex drops this one without a word.`;
      out.diagnostics.push(diag('chain-over-budget', f.path, `Codex drops this file: the ${fmt(limit)}-byte project_doc_max_bytes budget is used up by the files closer to the project root. Nothing in the prompt says so.`));
      continue;
    }
    if (r.state !== 'ok') {
      failed ??= f.path;
      src.status = 'unreadable';
      src.reason = `It ${describeReadFailure(r)}; Codex then logs an error and sends none of the project docs.`;
      out.diagnostics.push(readFailureDiagnostic(r, f.path, `Codex cannot read this file: it ${describeReadFailure(r)}. Codex then drops every project doc, not just this one.`));
      continue;
    }
    // Only bytes Codex sends matter: it says nothing of bad bytes (0.171.0 prints no warning).
    if (r.problem === 'not-utf8' && headProblem(r.raw.subarray(0, remaining)) === 'not-utf8') out.diagnostics.push(lossyDiagnostic(f.path, r.problem, 'Codex replaces the bad bytes it sends with U+FFFD.', 'warning'));
    const text = cutToBudget(ctx, f, r, remaining, limit, src, out);
    if (text === undefined) continue;
    entries.push(text);
    pending.push(src);
    remaining -= src.injectedBytes;
  }
  if (failed) {
    for (const s of pending) {
      s.status = 'omitted';
      s.reason = `Not sent: Codex could not read ${failed} and then sends no project doc at all.`;
      s.injectedChars = 0;
      s.injectedBytes = 0;
    }
    return { entries: [], used: 0 };
  }
  return { entries, used: limit - remaining };
}

/** One doc within what is left of the budget: its text as sent, or undefined when Codex skips it. */
function cutToBudget(ctx: ResolveContext, f: Found, r: Extract<DocRead, { state: 'ok' }>, remaining: number, limit: number, src: Source, out: Collected): string | undefined {
  const size = r.size ?? r.bytes;
  const cut = size > remaining;
  const data = cut ? r.raw.subarray(0, remaining) : r.raw;
  const text = cut ? decodeLossy(data) : r.text;
  if (rustTrim(text) === '') {
    if (cut) {
      src.status = 'omitted';
      src.reason = `Only ${plural(remaining, 'byte')} of the budget were left and they hold only white space, so Codex skips the file (and spends nothing).`;
      out.diagnostics.push(diag('chain-over-budget', f.path, `Codex drops this file: only ${plural(remaining, 'byte')} of the ${fmt(limit)}-byte budget are left, and they hold only white space.`));
    } else {
      src.status = 'excluded';
      src.reason = 'It is empty or only white space, so Codex skips it; it still hides any later name in this directory.';
    }
    return undefined;
  }
  src.injectedChars = charCount(text);
  src.injectedBytes = data.byteLength;
  if (!cut) {
    src.reason = f.dir === ctx.launchDir ? 'In the launch directory: loaded whole.' : `In ${f.dir}, between the project root and the launch directory: loaded whole.`;
    return text;
  }
  const at = offsetOfByte(r.text, remaining);
  const range = { text: r.text, start: at, end: r.text.length };
  const pos = diag('file-truncated', f.path, '', range);
  src.status = 'truncated';
  src.cutAt = { line: pos.line, column: pos.column };
  const dropped = size - remaining;
  const alone = size > limit && remaining === limit;
  src.reason = alone
    ? `It is ${plural(size, 'byte')}, over the ${fmt(limit)}-byte project-doc budget: Codex keeps the first ${plural(remaining, 'byte')}, cut mid-line, with no marker.`
    : `Only ${plural(remaining, 'byte')} of the ${fmt(limit)}-byte budget were left after the files above, so Codex cuts it there, with no marker.`;
  out.diagnostics.push(
    alone
      ? diag('file-truncated', f.path, `Codex keeps the first ${plural(remaining, 'byte')} of this file (project_doc_max_bytes = ${fmt(limit)}) and drops the last ${plural(dropped, 'byte')}, from here on, without a marker.`, range)
      : diag('chain-over-budget', f.path, `Codex cuts this file after ${plural(remaining, 'byte')}: the files closer to the project root used the rest of the ${fmt(limit)}-byte budget. The last ${plural(dropped, 'byte')}, from here on, are dropped without a marker.`, range),
  );
  return text;
}

/** Below the launch dir: never loaded, neither at start nor when a file there is read (observed on codex 0.171.0). */
function reportBelowLaunchDir(ctx: ResolveContext, names: string[], out: Collected): void {
  // The same for every chain through a folder (`check` resolves one per folder): once per refresh,
  // in one map by folder, not a key built for each folder of each chain.
  const folders = ctx.memo(`folders\0${JSON.stringify([ctx.launchDir, names])}`, () => new Map<string, { source: Source; hint?: Diagnostic } | undefined>());
  for (const dir of dirsBelow(ctx.launchDir, folderOf(ctx.fs, ctx.target), ctx.fs)) {
    const below = getOrSet(folders, dir, () => {
      const f = ctx.fs.lacksAll?.(dir, names) ? undefined : pickInDir(ctx, dir, names);
      if (!f?.path) return undefined;
      const why = 'Below the launch directory: Codex reads instruction files only from the project root down to where it starts, and never loads this one, not even when it reads a file here';
      // The same file reached higher up through a link (a root AGENTS.md -> .ai/AGENTS.md): its text is sent already.
      const real = ctx.fs.realPath(f.path);
      const sent = out.sources.find((s) => (s.status === 'loaded' || s.status === 'truncated') && ctx.fs.realPath(s.path) === real);
      const source = docSource(f.path, 'project', dir, readDoc(ctx, f.path, 0), {
        status: 'excluded',
        reason: sent ? `${why}; its text is sent already, as ${ctx.fs.path.relative(ctx.launchDir, sent.path) || sent.path} (the same file through a link).` : `${why}.`,
      });
      if (sent) return { source };
      // By design, not a fault: launching Codex there loads it. A hint, not a problem.
      const hint = diag('not-loaded', f.path, `Codex does not load this file when launched in ${ctx.launchDir}: it reads ${ctx.fs.path.basename(f.path)} files only from the project root down to the launch directory. Start Codex in ${dir} (or below) to load it.`, undefined, undefined, 'hint');
      return { source, hint };
    });
    if (!below) continue;
    out.sources.push({ ...below.source });
    if (below.hint) out.diagnostics.push(below.hint);
  }
}

// ---------------------------------------------------------------------------------------------
// 4. Render.

/**
 * The user message (observed on codex 0.171.0): `# AGENTS.md instructions for <cwd>` when
 * project docs are present, plain `# AGENTS.md instructions` with the global file alone;
 * nothing at all without either. The global file is trimmed, project docs are sent as read.
 */
function render(ctx: ResolveContext, global: string | undefined, entries: string[]): ProfileResult['start'] {
  if (global === undefined && entries.length === 0) return [];
  const body = (global ?? '') + (entries.length ? (global !== undefined ? SEPARATOR : '') + entries.join('\n\n') : '');
  const heading = entries.length ? `# AGENTS.md instructions for ${ctx.launchDir}` : '# AGENTS.md instructions';
  return [{ where: 'user', text: `${heading}\n\n<INSTRUCTIONS>\n${body}\n</INSTRUCTIONS>` }];
}

/** Codex features that reach OpenAI or GitHub at start (plugin marketplace, apps, remote plugins, updates); none touches AGENTS.md loading. */
const FEATURES_OFF = ['plugins', 'remote_plugin', 'plugin_sharing', 'apps', 'in_app_updates', 'daemon_auto_start', 'tool_suggest', 'skill_mcp_dependency_install', 'workspace_dependencies'];

/** `codex exec` with a provider at the fake model, written into config.toml. */
const localRun: LocalRun = {
  npmPackage: '@openai/codex',
  setup: ({ home, url, prompt }) => ({
    args: ['exec', '--skip-git-repo-check', prompt],
    env: { CODEX_HOME: platformPath(process.platform).join(home, '.codex'), FAKE_MODEL_API_KEY: 'fake-key-for-loopback', RUST_LOG: 'error' },
    homeFiles: {
      // A scenario's own config.toml (e.g. project_doc_max_bytes) is kept: its lines go after
      // our top-level keys and before our tables, so its top-level keys stay top-level.
      '.codex/config.toml': (own = '') => [
        `model = "gpt-5.1-codex"`,
        `model_provider = "fake"`,
        `check_for_update_on_startup = false`,
        own,
        ``,
        `[model_providers.fake]`,
        `name = "fake"`,
        `base_url = "${url}/v1"`,
        `wire_api = "responses"`,
        `env_key = "FAKE_MODEL_API_KEY"`,
        `request_max_retries = 0`,
        `stream_max_retries = 0`,
        ``,
        `[analytics]`,
        `enabled = false`,
        ``,
        `[feedback]`,
        `enabled = false`,
        ``,
        `[features]`,
        ...FEATURES_OFF.map((f) => `${f} = false`),
        ``,
      ].join('\n'),
    },
  }),
};

export const codex: Profile = {
  id: 'codex',
  order: 40,
  agent: 'Codex CLI',
  about: "OpenAI's coding agent, in the terminal",
  agentVersion: VERSION,
  verified: 'real agent',
  // Fallback names from config.toml are read too; they cannot be known statically.
  filePatterns: ['**/AGENTS.md', '**/AGENTS.override.md'],
  mainFile: DEFAULT,
  evidence: { markers: ['**/AGENTS.md', '**/AGENTS.override.md', '.codex/**'], cli: { command: 'codex', versionArgs: ['--version'] }, homeDir: '.codex' },
  localRun,
  wireProtocol: 'responses',
  globalPaths: (env) => {
    const path = platformPath(env.platform);
    return [OVERRIDE, DEFAULT, 'config.toml'].map((name) => path.join(codexHome(env, path), name));
  },
  resolve,
};
