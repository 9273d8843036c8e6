import * as path from 'node:path';
import { diag } from '../diagnostics';
import type { Diagnostic, Source } from '../model';
import { ancestors, isInside } from '../paths';
import type { Profile, ProfileResult, ResolveContext } from '../profile';
import { byteCount, charCount, decodeLossy, decodeUtf8, fmt, rustTrim } from '../text';

/**
 * Codex CLI 0.171.0 (`codex exec`). Rules from openai/codex `codex-rs/core/src/agents_md.rs`
 * (AgentsMdManager: load_global_instructions, agents_md_paths, read_agents_md, text/render),
 * every one checked against the real binary on loopback probes ("observed on codex 0.171.0").
 * One user message holds the global file and the project docs; nothing is added on read.
 */

const VERSION = '0.171.0';
/** agents_md.rs LOCAL_AGENTS_MD_FILENAME, DEFAULT_AGENTS_MD_FILENAME. */
const OVERRIDE = 'AGENTS.override.md';
const DEFAULT = 'AGENTS.md';
/** config `project_doc_max_bytes` default: 32 KiB (codex-rs config). */
const DEFAULT_MAX_BYTES = 32 * 1024;
/** agents_md.rs AGENTS_MD_SEPARATOR: between the global file and the first project doc. */
const SEPARATOR = '\n\n--- project-doc ---\n\n';

interface CodexConfig {
  maxBytes: number;
  fallbacks: string[];
  markers: string[];
}

type Read = { ok: true; bytes: Uint8Array; text: string; valid: boolean } | { ok: false; code: string };

function readBytes(ctx: ResolveContext, p: string): Read {
  try {
    const bytes = ctx.fs.readFile(p);
    const strict = decodeUtf8(bytes);
    // String::from_utf8_lossy: invalid sequences become U+FFFD, a BOM is kept.
    return { ok: true, bytes, text: decodeLossy(bytes), valid: strict.ok || strict.problem === 'binary' };
  } catch (e) {
    return { ok: false, code: (e as { code?: string }).code ?? 'EIO' };
  }
}

function codexHome(env: { home: string; env: Readonly<Record<string, string | undefined>> }): string {
  return env.env.CODEX_HOME ? path.resolve(env.env.CODEX_HOME) : path.join(env.home, '.codex');
}


function plural(n: number, word: string): string {
  return `${fmt(n)} ${word}${n === 1 ? '' : 's'}`;
}

/** The UTF-16 offset of the character holding byte `n` (the first byte dropped by a cut). */
function offsetAtByte(s: string, n: number): number {
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const cp = s.codePointAt(i)!;
    const len = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (bytes + len > n) return i;
    bytes += len;
    if (cp >= 0x10000) i++;
  }
  return s.length;
}

// ---------------------------------------------------------------------------------------------
// config.toml: the three top-level keys Codex reads for project docs. A small reader, not a
// TOML parser: it walks the top-level key/value pairs (strings of all four kinds, integers,
// arrays over several lines, inline tables, comments) up to the first [table] header.

type TomlValue =
  | { kind: 'string'; value: string }
  | { kind: 'integer'; value: number }
  | { kind: 'array'; items: TomlValue[] }
  | { kind: 'other'; raw: string };

interface TopKey {
  key: string[];
  value: TomlValue;
  start: number;
  end: number;
}

class TomlError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** Top-level `key = value` pairs of a TOML text (before the first table header). */
export function readTomlTopLevel(text: string): TopKey[] {
  let i = 0;
  const n = text.length;
  const out: TopKey[] = [];
  const skipBlank = (newlines: boolean) => {
    for (;;) {
      while (i < n && (text[i] === ' ' || text[i] === '\t' || (newlines && (text[i] === '\n' || text[i] === '\r')))) i++;
      if (i < n && text[i] === '#') {
        while (i < n && text[i] !== '\n') i++;
        continue;
      }
      return;
    }
  };
  const key = (): string[] => {
    const parts: string[] = [];
    for (;;) {
      skipBlank(false);
      if (text[i] === '"' || text[i] === "'") {
        const v = str();
        parts.push(v);
      } else {
        const m = /^[A-Za-z0-9_-]+/.exec(text.slice(i, i + 200));
        if (!m) throw new TomlError('a key was expected', i);
        parts.push(m[0]);
        i += m[0].length;
      }
      skipBlank(false);
      if (text[i] !== '.') return parts;
      i++;
    }
  };
  const str = (): string => {
    const q = text[i];
    const triple = text.startsWith(q.repeat(3), i);
    const start = i;
    i += triple ? 3 : 1;
    if (triple && text[i] === '\n') i++;
    else if (triple && text.startsWith('\r\n', i)) i += 2;
    let v = '';
    for (;;) {
      if (i >= n) throw new TomlError('a string is never closed', start);
      const c = text[i];
      if (!triple && c === '\n') throw new TomlError('a string is never closed', start);
      if (triple ? text.startsWith(q.repeat(3), i) && !text.startsWith(q.repeat(4), i) : c === q) {
        i += triple ? 3 : 1;
        return v;
      }
      if (q === '"' && c === '\\') {
        const e = text[i + 1];
        const simple: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', e: '\x1b', '"': '"', '\\': '\\' };
        if (e in simple) {
          v += simple[e];
          i += 2;
        } else if (e === 'u' || e === 'U' || e === 'x') {
          const len = e === 'u' ? 4 : e === 'U' ? 8 : 2;
          const hex = text.slice(i + 2, i + 2 + len);
          if (!/^[0-9A-Fa-f]+$/.test(hex) || hex.length !== len) throw new TomlError('a bad escape in a string', i);
          v += String.fromCodePoint(parseInt(hex, 16));
          i += 2 + len;
        } else if (triple && /[ \t\r\n]/.test(e ?? '')) {
          // Line-ending backslash: drop the white space up to the next text.
          i++;
          while (i < n && /[ \t\r\n]/.test(text[i])) i++;
        } else throw new TomlError('a bad escape in a string', i);
        continue;
      }
      v += c;
      i++;
    }
  };
  const value = (): TomlValue => {
    const c = text[i];
    if (c === '"' || c === "'") return { kind: 'string', value: str() };
    if (c === '[') {
      i++;
      const items: TomlValue[] = [];
      for (;;) {
        skipBlank(true);
        if (text[i] === ']') {
          i++;
          return { kind: 'array', items };
        }
        items.push(value());
        skipBlank(true);
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return { kind: 'array', items };
        }
        throw new TomlError('an array is not closed with ]', i);
      }
    }
    if (c === '{') {
      const start = i;
      i++;
      skipBlank(false);
      if (text[i] === '}') {
        i++;
        return { kind: 'other', raw: text.slice(start, i) };
      }
      for (;;) {
        key();
        if (text[i] !== '=') throw new TomlError('= was expected', i);
        i++;
        skipBlank(false);
        value();
        skipBlank(false);
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return { kind: 'other', raw: text.slice(start, i) };
        }
        throw new TomlError('an inline table is not closed with }', i);
      }
    }
    // Numbers, booleans, dates and times (a date and a time may be split by one space).
    const m = /^(?:\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?|[A-Za-z0-9_.:+-]+)/.exec(text.slice(i, i + 100));
    if (!m) throw new TomlError('a value was expected', i);
    i += m[0].length;
    const raw = m[0];
    const int = /^([+-]?)(?:0x([0-9A-Fa-f_]+)|0o([0-7_]+)|0b([01_]+)|(\d[\d_]*))$/.exec(raw);
    if (int && !/__|_$|^[+-]?_/.test(raw)) {
      const [, sign, hex, oct, bin, dec] = int;
      const digits = (hex ?? oct ?? bin ?? dec).replace(/_/g, '');
      const base = hex ? 16 : oct ? 8 : bin ? 2 : 10;
      if (dec && dec.length > 1 && dec.startsWith('0')) return { kind: 'other', raw };
      const v = parseInt(digits, base);
      return { kind: 'integer', value: sign === '-' ? -v : v };
    }
    if (!/^(true|false|[+-]?(inf|nan)|[+-]?\d[\d_]*(\.\d[\d_]*)?([eE][+-]?\d+)?|\d{4}-\d{2}-\d{2}.*|\d{2}:\d{2}.*)$/.test(raw)) {
      throw new TomlError('string values must be quoted', i - raw.length);
    }
    return { kind: 'other', raw };
  };
  for (;;) {
    skipBlank(true);
    if (i >= n || text[i] === '[') return out;
    const start = i;
    const k = key();
    if (text[i] !== '=') throw new TomlError('= was expected after a key', i);
    i++;
    skipBlank(false);
    const vStart = i;
    const v = value();
    const end = i;
    skipBlank(false);
    if (i < n && text[i] !== '\n' && text[i] !== '\r') throw new TomlError('the line goes on after a value', i);
    if (out.some((o) => o.key.join('.') === k.join('.'))) throw new TomlError(`duplicate key ${k.join('.')}`, start);
    out.push({ key: k, value: v, start: vStart, end });
  }
}

function describe(v: TomlValue): string {
  switch (v.kind) {
    case 'string':
      return `string ${JSON.stringify(v.value)}`;
    case 'integer':
      return `integer \`${v.value}\``;
    case 'array':
      return 'a sequence';
    default:
      return v.raw;
  }
}

/**
 * `$CODEX_HOME/config.toml`: project_doc_max_bytes, project_doc_fallback_filenames,
 * project_root_markers. A value of the wrong type makes Codex refuse to start ("Error loading
 * config.toml", observed on codex 0.171.0). Only the user config is read: the system file
 * /etc/codex/config.toml and project `.codex/config.toml` layers are not modelled.
 */
function readConfig(ctx: ResolveContext, file: string, diagnostics: Diagnostic[]): { config: CodexConfig; fatal?: string } {
  const config: CodexConfig = { maxBytes: DEFAULT_MAX_BYTES, fallbacks: [], markers: ['.git'] };
  if (ctx.fs.stat(file)?.type !== 'file') return { config };
  const r = readBytes(ctx, file);
  if (!r.ok) return { config };
  const text = r.text;
  let keys: TopKey[];
  try {
    keys = readTomlTopLevel(text);
  } catch (e) {
    const at = e instanceof TomlError ? e.offset : 0;
    const message = `Codex refuses to start: config.toml does not parse (${(e as Error).message}).`;
    diagnostics.push(diag('config-invalid', file, message, { text, start: at, end: Math.min(text.length, at + 1) }));
    return { config, fatal: `Error loading ${file}: ${(e as Error).message}` };
  }
  const fail = (k: TopKey, expected: string) => {
    const message = `Error loading config.toml: invalid type: ${describe(k.value)}, expected ${expected} in \`${k.key.join('.')}\``;
    diagnostics.push(diag('config-invalid', file, `Codex refuses to start: ${k.key.join('.')} must be ${expected === 'usize' ? 'a whole number ≥ 0' : 'an array of strings'}.`, { text, start: k.start, end: k.end }));
    return message;
  };
  let fatal: string | undefined;
  for (const k of keys) {
    if (k.key.length !== 1) continue;
    const name = k.key[0];
    if (name === 'project_doc_max_bytes') {
      if (k.value.kind === 'integer' && k.value.value >= 0) config.maxBytes = k.value.value;
      else fatal ??= fail(k, 'usize');
    } else if (name === 'project_doc_fallback_filenames' || name === 'project_root_markers') {
      const items = k.value.kind === 'array' ? k.value.items : undefined;
      if (!items || items.some((x) => x.kind !== 'string')) {
        fatal ??= fail(k, 'a sequence');
        continue;
      }
      const list = items.map((x) => (x as { value: string }).value);
      if (name === 'project_root_markers') config.markers = list;
      else {
        // "ignoring project_doc_fallback_filenames entry that is not a filename" (codex 0.171.0
        // binary; observed: `sub/x.md` is ignored). Unsure: what else counts as "not a filename"
        // — modelled as anything with a separator, ".", "..". Empty entries are skipped.
        config.fallbacks = list.filter((x) => x !== '' && x !== '.' && x !== '..' && !x.includes('/') && !(ctx.platform === 'win32' && x.includes('\\')));
        for (const bad of list.filter((x) => x !== '' && !config.fallbacks.includes(x))) {
          diagnostics.push(diag('config-invalid', file, `Codex ignores the fallback name "${bad}": it is not a plain file name.`, { text, start: k.start, end: k.end }, undefined, 'warning'));
        }
      }
    }
  }
  return { config, ...(fatal ? { fatal } : {}) };
}

// ---------------------------------------------------------------------------------------------

function baseSource(p: string, kind: Source['kind'], scope: string, r: Read | undefined): Source {
  return {
    path: p,
    kind,
    scope,
    loads: 'start',
    status: 'loaded',
    chars: r?.ok ? charCount(r.text) : 0,
    bytes: r?.ok ? r.bytes.byteLength : 0,
    injectedChars: 0,
    injectedBytes: 0,
    reason: '',
  };
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
    const p = path.join(dir, name);
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

function resolve(ctx: ResolveContext): ProfileResult {
  const sources: Source[] = [];
  const diagnostics: Diagnostic[] = [];
  const home = codexHome(ctx);
  const { config, fatal } = readConfig(ctx, path.join(home, 'config.toml'), diagnostics);
  const budget = { unit: 'bytes' as const, limit: config.maxBytes, perFile: null, used: 0 };
  if (fatal) return { sources, budget, diagnostics, start: [], onRead: [], fatal };

  // 1. Global: $CODEX_HOME/AGENTS.override.md, else AGENTS.md; the first one with text after
  //    trimming wins (a blank override falls back to AGENTS.md: observed on codex 0.171.0).
  let global: string | undefined;
  for (const name of [OVERRIDE, DEFAULT]) {
    const p = path.join(home, name);
    const st = ctx.fs.stat(p);
    if (!st) continue;
    if (global !== undefined) {
      if (st.type === 'file') {
        const r = readBytes(ctx, p);
        sources.push({ ...baseSource(p, 'user', '/', r), status: 'excluded', reason: `${OVERRIDE} in ${home} is used instead, so Codex does not read this file.` });
      }
      continue;
    }
    if (st.type !== 'file') {
      // A directory is skipped (IsADirectory). Unsure: a FIFO would block Codex's read; it is never read here.
      sources.push({ ...baseSource(p, 'user', '/', undefined), status: 'excluded', reason: st.type === 'dir' ? 'It is a directory, so Codex skips it.' : 'It is not a regular file, so it is not read.' });
      continue;
    }
    const r = readBytes(ctx, p);
    if (!r.ok) {
      sources.push({ ...baseSource(p, 'user', '/', r), status: 'unreadable', reason: `It cannot be read (${r.code}); Codex warns at startup and skips it.` });
      diagnostics.push(diag('unreadable', p, `Codex cannot read this file (${r.code}) and skips it.`));
      continue;
    }
    const trimmed = rustTrim(r.text);
    if (!r.valid) diagnostics.push(diag('not-utf8', p, 'This file is not valid UTF-8: Codex replaces the bad bytes with U+FFFD.', undefined, undefined, 'warning'));
    if (trimmed === '') {
      sources.push({ ...baseSource(p, 'user', '/', r), status: 'excluded', reason: name === OVERRIDE ? `It is empty or only white space, so Codex falls back to ${DEFAULT}.` : 'It is empty or only white space, so Codex skips it.' });
      continue;
    }
    global = trimmed;
    sources.push({
      ...baseSource(p, 'user', '/', r),
      injectedChars: charCount(trimmed),
      injectedBytes: byteCount(trimmed),
      reason: 'Your global Codex instructions: trimmed and sent first, outside the project-doc budget.',
    });
  }

  // 2. Project root: the nearest ancestor of the launch dir (itself included) holding a
  //    project_root_markers entry (any kind of entry); none = the launch dir alone.
  const markers = config.markers;
  let root: string | undefined;
  if (markers.length) root = ancestors(ctx.launchDir).find((d) => markers.some((m) => ctx.fs.stat(path.join(d, m))));
  const dirs = root ? ancestors(ctx.launchDir).slice(0, ancestors(ctx.launchDir).indexOf(root) + 1).reverse() : [ctx.launchDir];
  const names = [OVERRIDE, DEFAULT, ...config.fallbacks.filter((f, i, a) => f !== OVERRIDE && f !== DEFAULT && a.indexOf(f) === i)];

  const picked: Found[] = [];
  for (const dir of dirs) {
    const f = pickInDir(ctx, dir, names);
    if (f) picked.push(f);
  }

  // 3. The budget, shared root first, in bytes: each doc is cut to what is left (lossy UTF-8
  //    at the cut, no marker); a doc that is blank after the cut is skipped and costs nothing;
  //    once nothing is left the rest are dropped. project_doc_max_bytes = 0 disables them.
  const limit = config.maxBytes;
  let remaining = limit;
  const entries: string[] = [];
  const pending: Source[] = [];
  let failed: string | undefined;
  for (const f of picked) {
    for (const nf of f.notFiles) {
      sources.push({ ...baseSource(nf.path, 'project', f.dir, undefined), status: 'excluded', reason: `It is ${nf.what}, so Codex skips it and tries the next name.` });
    }
    if (!f.path) continue;
    const r = readBytes(ctx, f.path);
    const src = baseSource(f.path, 'project', f.dir, r);
    sources.push(src);
    for (const h of f.hidden) {
      const hr = readBytes(ctx, h);
      sources.push({ ...baseSource(h, 'project', f.dir, hr), status: 'excluded', reason: `${path.basename(f.path)} comes first in this directory, and Codex reads at most one file per directory.` });
    }
    if (limit === 0) {
      src.status = 'excluded';
      src.reason = 'project_doc_max_bytes is 0 in config.toml, which turns project docs off.';
      continue;
    }
    if (remaining === 0) {
      src.status = 'omitted';
      src.reason = `The ${fmt(limit)}-byte project-doc budget is used up by the files above, so Codex drops this one without a word.`;
      diagnostics.push(diag('chain-over-budget', f.path, `Codex drops this file: the ${fmt(limit)}-byte project_doc_max_bytes budget is used up by the files closer to the project root. Nothing in the prompt says so.`));
      continue;
    }
    if (!r.ok) {
      // read_agents_md returns the error: Codex logs it and sends no project doc at all (source, not probed).
      failed ??= f.path;
      src.status = 'unreadable';
      src.reason = `It cannot be read (${r.code}); Codex then logs an error and sends none of the project docs.`;
      diagnostics.push(diag('unreadable', f.path, `Codex cannot read this file (${r.code}); it then drops every project doc, not just this one.`));
      continue;
    }
    if (!r.valid) diagnostics.push(diag('not-utf8', f.path, 'This file is not valid UTF-8: Codex replaces the bad bytes with U+FFFD.', undefined, undefined, 'warning'));
    const size = r.bytes.byteLength;
    const cut = size > remaining;
    const data = cut ? r.bytes.subarray(0, remaining) : r.bytes;
    const text = cut ? decodeLossy(data) : r.text;
    if (rustTrim(text) === '') {
      if (cut) {
        src.status = 'omitted';
        src.reason = `Only ${plural(remaining, 'byte')} of the budget were left and they hold only white space, so Codex skips the file (and spends nothing).`;
        diagnostics.push(diag('chain-over-budget', f.path, `Codex drops this file: only ${plural(remaining, 'byte')} of the ${fmt(limit)}-byte budget are left, and they hold only white space.`));
      } else {
        src.status = 'excluded';
        src.reason = 'It is empty or only white space, so Codex skips it; it still hides any later name in this directory.';
      }
      continue;
    }
    entries.push(text);
    pending.push(src);
    src.injectedChars = charCount(text);
    src.injectedBytes = data.byteLength;
    if (cut) {
      const at = offsetAtByte(r.text, remaining);
      const range = { text: r.text, start: at, end: r.text.length };
      const pos = diag('file-truncated', f.path, '', range);
      src.status = 'truncated';
      src.cutAt = { line: pos.line, column: pos.column };
      const dropped = size - remaining;
      const alone = size > limit && remaining === limit;
      src.reason = alone
        ? `It is ${plural(size, 'byte')}, over the ${fmt(limit)}-byte project-doc budget: Codex keeps the first ${plural(remaining, 'byte')}, cut mid-line, with no marker.`
        : `Only ${plural(remaining, 'byte')} of the ${fmt(limit)}-byte budget were left after the files above, so Codex cuts it there, with no marker.`;
      diagnostics.push(
        alone
          ? diag('file-truncated', f.path, `Codex keeps the first ${plural(remaining, 'byte')} of this file (project_doc_max_bytes = ${fmt(limit)}) and drops the last ${plural(dropped, 'byte')}, from here on, without a marker.`, range)
          : diag('chain-over-budget', f.path, `Codex cuts this file after ${plural(remaining, 'byte')}: the files closer to the project root used the rest of the ${fmt(limit)}-byte budget. The last ${plural(dropped, 'byte')}, from here on, are dropped without a marker.`, range),
      );
    } else {
      src.reason = f.dir === ctx.launchDir ? 'In the launch directory: loaded whole.' : `In ${f.dir}, between the project root and the launch directory: loaded whole.`;
    }
    remaining -= data.byteLength;
  }
  if (failed) {
    for (const s of pending) {
      s.status = 'omitted';
      s.reason = `Not sent: Codex could not read ${failed} and then sends no project doc at all.`;
      s.injectedChars = 0;
      s.injectedBytes = 0;
    }
    entries.length = 0;
    remaining = limit;
  }

  // 4. Below the launch dir: never loaded, neither at start nor when a file there is read.
  const targetDir = ctx.fs.stat(ctx.target)?.type === 'dir' ? ctx.target : path.dirname(ctx.target);
  if (targetDir !== ctx.launchDir && isInside(targetDir, ctx.launchDir)) {
    const below = ancestors(targetDir).filter((d) => d !== ctx.launchDir && isInside(d, ctx.launchDir)).reverse();
    for (const dir of below) {
      const f = pickInDir(ctx, dir, names);
      if (!f?.path) continue;
      const r = readBytes(ctx, f.path);
      sources.push({
        ...baseSource(f.path, 'project', dir, r),
        status: 'excluded',
        reason: 'Below the launch directory: Codex reads instruction files only from the project root down to where it starts, and never loads this one, not even when it reads a file here.',
      });
      diagnostics.push(diag('not-loaded', f.path, `Codex does not load this file when launched in ${ctx.launchDir}: it reads ${path.basename(f.path)} files only from the project root down to the launch directory. Start Codex in ${dir} (or below) to load it.`));
    }
  }

  budget.used = limit - remaining;

  // 5. The user message (observed on codex 0.171.0): `# AGENTS.md instructions for <cwd>` when
  //    project docs are present, plain `# AGENTS.md instructions` with the global file alone;
  //    nothing at all without either. The global file is trimmed, project docs are sent as read.
  if (global === undefined && entries.length === 0) return { sources, budget, diagnostics, start: [], onRead: [] };
  const body = (global ?? '') + (entries.length ? (global !== undefined ? SEPARATOR : '') + entries.join('\n\n') : '');
  const heading = entries.length ? `# AGENTS.md instructions for ${ctx.launchDir}` : '# AGENTS.md instructions';
  return { sources, budget, diagnostics, start: [{ where: 'user', text: `${heading}\n\n<INSTRUCTIONS>\n${body}\n</INSTRUCTIONS>` }], onRead: [] };
}

export const codex: Profile = {
  id: 'codex',
  agent: 'Codex CLI',
  agentVersion: VERSION,
  verified: 'real agent',
  // Fallback names from config.toml are read too; they cannot be known statically.
  filePatterns: ['**/AGENTS.md', '**/AGENTS.override.md'],
  globalPaths: (env) => [path.join(codexHome(env), OVERRIDE), path.join(codexHome(env), DEFAULT), path.join(codexHome(env), 'config.toml')],
  resolve,
};
