import { diag, nearestExisting } from '../diagnostics';
import { sizes } from '../readText';
import { MAX_READ_BYTES, type PathApi } from '../fs';
// The ES build: the package's `main` is a UMD build whose dynamic requires esbuild cannot bundle.
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import { newSource, setInjected, type Diagnostic, type RenderPart, type Source, type SourceKind } from '../model';
import { folderOf, platformPath, type PathRules } from '../paths';
import type { LocalRun, Profile, ProfileResult, ResolveContext } from '../profile';
import { charCount, decodeLossy, fmt, isShortNote } from '../text';

/**
 * Gemini CLI 0.61.0 (`gemini -p`). A port of packages/core `utils/memoryDiscovery.js`,
 * `utils/memoryImportProcessor.js`, `context/memoryContextManager.js` and `tools/jit-context.js`
 * as bundled in the npm package: "[bundle]" below means [bundle] @google/gemini-cli 0.61.0
 * (bundle/chunk-JDPZ4CE3.js, the chunk gemini.js loads), checked against the real CLI on
 * loopback probes ("observed on gemini-cli 0.61.0").
 *
 * Global files go to the end of the system instruction, project files (launch dir up to the
 * project root) to the first user turn, and files below the launch dir are appended to the
 * read_file result when a file under them is read. Imports (`@path`) are inlined.
 * Not modelled: extensions' context files (<extension_context>), the private project memory
 * (~/.gemini/tmp/<project>/memory/MEMORY.md, which also changes the system layout), MCP server
 * instructions, --include-directories, and untrusted folders (no project context at all).
 */

const VERSION = '0.61.0';
const GEMINI_DIR = '.gemini';
/** [bundle] memoryTool.js DEFAULT_CONTEXT_FILENAME. */
const DEFAULT_CONTEXT_FILENAME = 'GEMINI.md';
/** [bundle] processImports: importState.maxDepth. */
const MAX_DEPTH = 5;
/** [bundle] jit-context.js JIT_CONTEXT_PREFIX / JIT_CONTEXT_SUFFIX. */
const JIT_PREFIX = '\n\n--- Newly Discovered Project Context ---\n';
const JIT_SUFFIX = '\n--- End Project Context ---';

type Env = { home: string; env: Readonly<Record<string, string | undefined>>; platform: NodeJS.Platform };

/** [bundle] paths.js homedir(): GEMINI_CLI_HOME, else the user's home. */
function geminiHome(env: Env, path: PathApi = platformPath(env.platform)): string {
  return env.env.GEMINI_CLI_HOME ? path.resolve(env.env.GEMINI_CLI_HOME) : env.home;
}

/**
 * [bundle] paths.js toAbsolutePath: `path.resolve(p).replace(/\\/g, '/')` — on Windows every path
 * Gemini CLI finds, and so every `--- Context from: … ---` it writes, has `/` separators.
 */
function asGeminiWrites(fs: PathRules, p: string): string {
  return fs.path.sep === '\\' ? p.replace(/\\/g, '/') : p;
}

function systemSettingsPath(ctx: ResolveContext): string {
  if (ctx.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH) return ctx.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH;
  if (ctx.platform === 'darwin') return '/Library/Application Support/GeminiCli/settings.json';
  if (ctx.platform === 'win32') return 'C:\\ProgramData\\gemini-cli\\settings.json';
  return '/etc/gemini-cli/settings.json';
}

// ---------------------------------------------------------------------------------------------
// Settings: context.fileName, context.importFormat, context.memoryBoundaryMarkers.

interface Settings {
  fileNames: string[];
  importFormat: string;
  markers: string[];
}

/**
 * [bundle] settings.js _doLoadSettings + mergeSettings: system defaults < user < workspace
 * (`<launch dir>/.gemini/settings.json`, not read when the launch dir is the home dir) <
 * system; these keys are replaced, not merged. Workspace settings count only in a trusted
 * folder: the profile assumes the folder is trusted (unsure for untrusted folders).
 * `$VAR` expansion in settings values is not modelled.
 */
function readSettings(ctx: ResolveContext, diagnostics: Diagnostic[]): Settings {
  const path = ctx.fs.path;
  const home = geminiHome(ctx, ctx.fs.path);
  const system = systemSettingsPath(ctx);
  const systemDefaults = ctx.env.GEMINI_CLI_SYSTEM_DEFAULTS_PATH || path.join(path.dirname(system), 'system-defaults.json');
  const files = [systemDefaults, path.join(home, GEMINI_DIR, 'settings.json')];
  if (path.resolve(ctx.launchDir) !== path.resolve(home)) files.push(path.join(ctx.launchDir, GEMINI_DIR, 'settings.json'));
  files.push(system);
  const merged: Record<string, unknown> = {};
  for (const file of files) {
    if (ctx.fs.stat(file)?.type !== 'file') continue;
    let text: string;
    try {
      text = decodeLossy(ctx.fs.readFile(file));
    } catch {
      continue;
    }
    // strip-json-comments, then JSON.parse: comments are allowed, trailing commas are not.
    const errors: ParseError[] = [];
    const data: unknown = parseJsonc(text, errors, { allowTrailingComma: false, disallowComments: false, allowEmptyContent: false });
    if (errors.length) {
      const e = errors[0];
      diagnostics.push(diag('config-invalid', file, `Gemini CLI cannot parse this settings file (${printParseErrorCode(e.error)} at offset ${e.offset}) and ignores it.`, { text, start: e.offset, end: e.offset + e.length }, undefined, 'warning'));
      continue;
    }
    const context = data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>).context : undefined;
    if (!context || typeof context !== 'object' || Array.isArray(context)) continue;
    for (const [k, v] of Object.entries(context as Record<string, unknown>)) if (v !== undefined) merged[k] = v;
  }
  // [bundle] config.js: a truthy context.fileName goes through setGeminiMdFilename, which keeps
  // the names given (trimmed, path.normalize'd, deduplicated) and then appends the current ones
  // (GEMINI.md): GEMINI.md is always read (observed on gemini-cli 0.61.0).
  const raw = merged.fileName;
  const given = raw ? (Array.isArray(raw) ? raw : [raw]).filter((x): x is string => typeof x === 'string') : [];
  const fileNames: string[] = [];
  for (const n of given) {
    const t = n.trim();
    if (t !== '' && !fileNames.includes(path.normalize(t))) fileNames.push(path.normalize(t));
  }
  if (!fileNames.includes(DEFAULT_CONTEXT_FILENAME)) fileNames.push(DEFAULT_CONTEXT_FILENAME);
  const markers = Array.isArray(merged.memoryBoundaryMarkers) ? merged.memoryBoundaryMarkers.filter((x): x is string => typeof x === 'string') : ['.git'];
  const importFormat = typeof merged.importFormat === 'string' ? merged.importFormat : 'tree';
  return { fileNames, importFormat, markers };
}

// ---------------------------------------------------------------------------------------------
// The file system as Node's fs.promises sees it, with Node's error messages.

const NODE_ERRORS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  ENOTDIR: 'not a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'illegal operation on a directory',
  ELOOP: 'too many symbolic links encountered',
  ENAMETOOLONG: 'name too long',
  EIO: 'i/o error',
  EMFILE: 'too many open files',
};

function nodeMessage(code: string, syscall: string, p?: string): string {
  return `${code}: ${NODE_ERRORS[code] ?? 'unknown error'}, ${syscall}${p === undefined ? '' : ` '${p}'`}`;
}

type ReadFile = { ok: true; text: string; bytes: number } | { ok: false; error: string; code: string };

function tooLargeMessage(bytes: number): string {
  return `${fmt(bytes)} bytes, more than any agent's context holds; Instruction Lens reads no file over ${fmt(MAX_READ_BYTES)} bytes`;
}

class Disk {
  constructor(private readonly ctx: ResolveContext) {}

  /** fs.access(p): undefined when it exists (following symlinks), else Node's message. */
  access(p: string): { code: string; message: string } | undefined {
    if (this.ctx.fs.stat(p)) return undefined;
    const path = this.ctx.fs.path;
    // A file where a directory is expected anywhere above: ENOTDIR, else ENOENT.
    for (let d = path.dirname(p); d !== path.dirname(d); d = path.dirname(d)) {
      const st = this.ctx.fs.stat(d);
      if (st && st.type !== 'dir') return { code: 'ENOTDIR', message: nodeMessage('ENOTDIR', 'access', p) };
      if (st) break;
    }
    return { code: 'ENOENT', message: nodeMessage('ENOENT', 'access', p) };
  }

  /** fs.readFile(p, 'utf-8'): lossy UTF-8, a BOM kept. */
  read(p: string): ReadFile {
    const st = this.ctx.fs.stat(p);
    if (st?.type === 'dir') return { ok: false, code: 'EISDIR', error: nodeMessage('EISDIR', 'read') };
    // A FIFO would block the real CLI; it is never read here (unsure what the user sees).
    if (st?.type === 'other') return { ok: false, code: 'EIO', error: 'not a regular file' };
    if (st && st.size > MAX_READ_BYTES) return { ok: false, code: 'EFBIG', error: tooLargeMessage(st.size) };
    try {
      const bytes = this.ctx.fs.readFile(p);
      return { ok: true, text: decodeLossy(bytes), bytes: bytes.byteLength };
    } catch (e) {
      const code = (e as { code?: string }).code ?? 'EIO';
      // Over the read cap: Gemini CLI would read it; Instruction Lens does not (see MAX_READ_BYTES).
      if (code === 'EFBIG') return { ok: false, code, error: tooLargeMessage(st?.size ?? 0) };
      return { ok: false, code, error: code === 'EISDIR' ? nodeMessage('EISDIR', 'read') : nodeMessage(code, 'open', p) };
    }
  }

  /** [bundle] paths.js robustRealpath: realpath, or the real parent plus the missing name. */
  realPath(p: string): string {
    const path = this.ctx.fs.path;
    if (this.ctx.fs.stat(p)) return this.ctx.fs.realPath(p);
    const parent = path.dirname(p);
    if (parent === p) return p;
    return path.join(this.realPath(parent), path.basename(p));
  }

  identity(p: string): string | undefined {
    const st = this.ctx.fs.stat(p);
    return st ? (st.id ?? this.ctx.fs.realPath(p)) : undefined;
  }
}

/**
 * [bundle] paths.js isSubpath: `path.relative` of the two (path.win32 on Windows, which ignores
 * case), both lower-cased first on macOS; case-sensitive elsewhere.
 */
function isSubpath(fs: PathRules, parent: string, child: string): boolean {
  const path = fs.path;
  if (fs.caseInsensitive && path.sep === '/') [parent, child] = [parent.toLowerCase(), child.toLowerCase()];
  const rel = path.relative(path.resolve(parent), path.resolve(child));
  return !rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel);
}

// ---------------------------------------------------------------------------------------------
// Imports: a port of memoryImportProcessor.js.

interface Ref {
  start: number;
  end: number;
  path: string;
}

/** [bundle] findImports: `@` at the start or after a space, tab or newline; the path runs to white space and must start with `.`, `/` or an ASCII letter. */
export function findImports(content: string): Ref[] {
  const out: Ref[] = [];
  const ws = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r';
  let i = 0;
  while (i < content.length) {
    i = content.indexOf('@', i);
    if (i === -1) break;
    if (i > 0 && !ws(content[i - 1])) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < content.length && !ws(content[j])) j++;
    const p = content.slice(i + 1, j);
    if (p.length > 0 && (p[0] === '.' || p[0] === '/' || /^[A-Za-z]/.test(p))) out.push({ start: i, end: j, path: p });
    i = j + 1;
  }
  return out;
}

/** [bundle] findCodeRegions: runs of backticks closed by the same run (inline and fenced alike). */
export function findCodeRegions(content: string): [number, number][] {
  const out: [number, number][] = [];
  const re = /(`+)([\s\S]*?)\1/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(content)) !== null) out.push([m.index, m.index + m[0].length]);
  return out;
}

/** [bundle] findProjectRoot2 (discovery): the nearest ancestor holding a marker, else null. */
function discoveryRoot(ctx: ResolveContext, startDir: string, markers: string[]): string | undefined {
  const path = ctx.fs.path;
  // findProjectRoot of the import processor is the same walk, falling back to the start dir.
  if (markers.length === 0) return undefined;
  for (let d = path.resolve(startDir); ; d = path.dirname(d)) {
    for (const m of markers) {
      if (path.isAbsolute(m) || m.includes('..')) continue;
      if (ctx.fs.stat(path.join(d, m))) return d;
    }
    if (path.dirname(d) === d) return undefined;
  }
}

interface Owner {
  /** The top-level context file the imports belong to. */
  file: string;
  scope: string;
  loads: Source['loads'];
}

class Loader {
  readonly sources: Source[] = [];
  readonly diagnostics: Diagnostic[] = [];
  private readonly seenSources = new Set<string>();
  readonly disk: Disk;

  constructor(
    readonly ctx: ResolveContext,
    private readonly settings: Settings,
  ) {
    this.disk = new Disk(ctx);
  }

  /** Report a problem (`diag`'s arguments). */
  report(...problem: Parameters<typeof diag>): void {
    this.diagnostics.push(diag(...problem));
  }

  addSource(s: Source): void {
    const key = `${s.path}\0${s.importedBy ?? ''}\0${s.status}\0${s.loads}`;
    if (this.seenSources.has(key)) return;
    this.seenSources.add(key);
    this.sources.push(s);
  }

  /** One import as a source, listed where the importer mentions it (before its own imports). */
  private importSource(owner: Owner, target: string, importer: string, status: Source['status'], reason: string, text?: string): Source {
    const st = this.ctx.fs.stat(target);
    const size = text !== undefined ? sizes(text) : { chars: 0, bytes: st?.type === 'file' ? st.size : 0 };
    const source = newSource(target, 'import', owner.scope, owner.loads, { status, ...size, importedBy: importer, reason });
    this.addSource(source);
    return source;
  }

  /**
   * [bundle] processImports, tree format: each `@path` outside code is replaced by the file's
   * text (its own imports processed) between `<!-- Imported from: p -->` and `<!-- End of
   * import from: p -->`, or by a comment saying why not. The set of files already processed
   * holds only the chain of importers (not the top file), so a file imported twice by
   * siblings is inlined twice, and the top file can be inlined once into itself.
   */
  processTree(content: string, basePath: string, file: string, owner: Owner, root: string, depth: number, processed: Set<string>): string {
    const path = this.ctx.fs.path;
    if (depth >= MAX_DEPTH) {
      for (const ref of this.refsOutsideCode(content)) {
        this.diagnostics.push(
          diag('import-depth', file, `Gemini CLI inlines a context file and ${MAX_DEPTH} levels of imports; this file is level ${depth}, so @${ref.path} stays as literal text.`, { text: content, start: ref.start, end: ref.end }),
        );
      }
      return content;
    }
    const regions = findCodeRegions(content);
    let out = '';
    let last = 0;
    for (const ref of findImports(content)) {
      out += content.slice(last, ref.start);
      last = ref.end;
      const at = { text: content, start: ref.start, end: ref.end };
      const p = ref.path;
      if (regions.some(([s, e]) => ref.start >= s && ref.start < e)) {
        out += `@${p}`;
        this.report('import-in-code', file, `Gemini CLI does not expand @${p} here: it is inside code (backticks), so it stays as written.`, at, { target: path.resolve(basePath, p) });
        continue;
      }
      const fullPath = path.resolve(basePath, p);
      if (!this.validate(p, basePath, root)) {
        out += `<!-- Import failed: ${p} - Path traversal attempt -->`;
        this.importSource(owner, fullPath, file, 'excluded', `Outside the project root (${root}): Gemini CLI refuses it as a "Path traversal attempt".`);
        this.diagnostics.push(
          diag('import-outside', file, `@${p} leaves the project root ${root}: Gemini CLI writes "<!-- Import failed: ${p} - Path traversal attempt -->" instead of the file.`, at, { target: fullPath }),
        );
        continue;
      }
      if (processed.has(fullPath)) {
        out += `<!-- File already processed: ${p} -->`;
        this.importSource(owner, fullPath, file, 'duplicate', 'An import cycle: this file is already being inlined further up, so Gemini CLI writes "File already processed" instead.');
        const chain = [owner.file, ...processed, fullPath].map((x) => path.basename(x)).join(' → ');
        this.report('import-cycle', file, `@${p} leads back to a file that is already being inlined (${chain}): Gemini CLI writes "<!-- File already processed: ${p} -->" instead.`, at, { target: fullPath });
        continue;
      }
      const missing = this.disk.access(fullPath);
      const read = missing ? undefined : this.disk.read(fullPath);
      if (missing || !read?.ok) {
        const message = missing ? missing.message : (read as { error: string }).error;
        out += `<!-- Import failed: ${p} - ${message} -->`;
        if (missing) {
          const near = nearestExisting(this.ctx.fs, fullPath);
          const suggestion = near ? path.relative(basePath, near) : undefined;
          const hint = suggestion ? ` Did you mean @${suggestion}?` : /^[A-Za-z]/.test(p) && !p.includes('/') && !p.includes('.') ? ' To keep an "@word" as plain text, put it in backticks.' : '';
          this.importSource(owner, fullPath, file, 'missing', `It does not exist: Gemini CLI writes "Import failed … ${missing.code}" in place of the import.`);
          this.diagnostics.push(
            diag('import-missing', file, `@${p} points to ${fullPath}, which does not exist: Gemini CLI writes "<!-- Import failed: ${p} - ${message} -->" in its place.${hint}`, at, { target: fullPath, ...(suggestion ? { suggestion } : {}) }),
          );
        } else {
          this.importSource(owner, fullPath, file, 'unreadable', `Gemini CLI cannot read it (${message}) and writes "Import failed" in place of the import.`);
          this.diagnostics.push((read as { code?: string } | undefined)?.code === 'EFBIG' ? diag('too-large', file, `@${p} is ${message}. Gemini CLI inlines it whole; for a text file this large the first request then passes its default models' 1,048,576-token window and nothing is sent at all (observed with a 5 MiB GEMINI.md). It is left out here.`, at, { target: fullPath }) : diag('unreadable', file, `@${p} cannot be read (${message}): Gemini CLI writes "<!-- Import failed: ${p} - ${message} -->" in its place.`, at, { target: fullPath }));
        }
        continue;
      }
      const source = this.importSource(
        owner, fullPath, file, owner.loads === 'on-read' ? 'on-read' : 'loaded',
        `Imported by ${path.basename(file)}: inlined in its place between "Imported from" comments${owner.loads === 'on-read' ? ', when Gemini CLI reads a file there' : ''}.`, read.text,
      );
      const next = new Set(processed);
      next.add(fullPath);
      const inner = this.processTree(read.text, path.dirname(fullPath), fullPath, owner, root, depth + 1, next);
      setInjected(source, inner);
      out += `<!-- Imported from: ${p} -->\n${inner}\n<!-- End of import from: ${p} -->`;
    }
    return out + content.slice(last);
  }

  /**
   * [bundle] processImports, flat format (`context.importFormat: "flat"`): the file, then each
   * import (last first, depth first), each once, as `--- File: p ---` blocks; failures are
   * dropped silently. The first block is named after the file's DIRECTORY (the bundle passes no
   * current file at the top level).
   */
  processFlat(content: string, basePath: string, file: string, owner: Owner, root: string): string {
    const path = this.ctx.fs.path;
    const files: { path: string; content: string }[] = [];
    const seen = new Set<string>();
    const visit = (text: string, base: string, filePath: string, importer: string | undefined) => {
      const normalized = path.normalize(filePath);
      if (seen.has(normalized)) return;
      seen.add(normalized);
      files.push({ path: normalized, content: text });
      const regions = findCodeRegions(text);
      const refs = findImports(text);
      for (let i = refs.length - 1; i >= 0; i--) {
        const ref = refs[i];
        const at = { text, start: ref.start, end: ref.end };
        const diagFile = importer ?? file;
        if (regions.some(([s, e]) => ref.start >= s && ref.start < e)) {
          this.report('import-in-code', diagFile, `Gemini CLI does not expand @${ref.path} here: it is inside code (backticks).`, at, { target: path.resolve(base, ref.path) });
          continue;
        }
        const full = path.normalize(path.resolve(base, ref.path));
        if (!this.validate(ref.path, base, root)) {
          this.importSource(owner, full, diagFile, 'excluded', `Outside the project root (${root}): Gemini CLI drops it silently.`);
          this.report('import-outside', diagFile, `@${ref.path} leaves the project root ${root}: Gemini CLI drops it without a word.`, at, { target: full });
          continue;
        }
        if (seen.has(full)) continue;
        const r = this.disk.access(full) ? undefined : this.disk.read(full);
        if (!r?.ok) {
          this.importSource(owner, full, diagFile, r ? 'unreadable' : 'missing', 'Gemini CLI cannot read it and drops the import without a word.');
          this.report('import-missing', diagFile, `@${ref.path} cannot be read (${full}); Gemini CLI drops it without a word.`, at, { target: full });
          continue;
        }
        const source = this.importSource(owner, full, diagFile, owner.loads === 'on-read' ? 'on-read' : 'loaded', `Imported by ${path.basename(diagFile)}: added as its own "--- File:" block.`, r.text);
        setInjected(source, r.text.trim());
        visit(r.text, path.dirname(full), full, full);
      }
    };
    visit(content, basePath, path.resolve(basePath), undefined);
    return files.map((f) => `--- File: ${f.path} ---\n${f.content.trim()}\n--- End of File: ${f.path} ---`).join('\n\n');
  }

  private refsOutsideCode(content: string): Ref[] {
    const regions = findCodeRegions(content);
    return findImports(content).filter((r) => !regions.some(([s, e]) => r.start >= s && r.start < e));
  }

  /** [bundle] validateImportPath: no URLs; the real path must lie inside the real project root. */
  private validate(importPath: string, basePath: string, root: string): boolean {
    const path = this.ctx.fs.path;
    if (/^(file|https?):\/\//.test(importPath)) return false;
    let resolved = path.resolve(basePath, importPath);
    try {
      resolved = decodeURIComponent(resolved);
    } catch {
      /* kept as is */
    }
    if (resolved.includes('\0')) return false;
    const real = this.disk.realPath(path.resolve(resolved));
    return isSubpath(this.ctx.fs, this.disk.realPath(root), real);
  }

  /** [bundle] readGeminiMdFiles: read one context file and process its imports. */
  readContextFile(file: string, owner: Owner, format: string): { ok: true; content: string; text: string; bytes: number } | { ok: false; error: string; code: string } {
    const r = this.disk.read(file);
    if (!r.ok) return { ok: false, error: r.error, code: r.code };
    const path = this.ctx.fs.path;
    const root = discoveryRoot(this.ctx, path.dirname(file), this.settings.markers) ?? path.resolve(path.dirname(file));
    const content = format === 'flat' ? this.processFlat(r.text, path.dirname(file), file, owner, root) : this.processTree(r.text, path.dirname(file), file, owner, root, 0, new Set());
    return { ok: true, content, text: r.text, bytes: r.bytes };
  }
}

// ---------------------------------------------------------------------------------------------

/** [bundle] findUpwardGeminiFiles: from `start` up to `stop` (inclusive), root first; stops at ~/.gemini. */
function upwardFiles(ctx: ResolveContext, start: string, stop: string, names: string[]): string[] {
  const path = ctx.fs.path;
  const out: string[] = [];
  const globalDir = path.join(geminiHome(ctx, ctx.fs.path), GEMINI_DIR);
  for (let d = path.resolve(start); ; d = path.dirname(d)) {
    if (d === globalDir) break;
    // fs.access(R_OK): anything that exists, a directory included (its read then fails).
    const found = names.map((n) => path.resolve(d, n)).filter((p) => ctx.fs.stat(p));
    out.unshift(...found);
    if (d === path.resolve(stop) || path.dirname(d) === d) break;
  }
  return out;
}

interface Entry {
  source: Source;
  /** Processed text (imports inlined), or null when the read failed. */
  content: string | null;
}

/**
 * The steps every profile runs: find the sources (global, then the launch dir up to the project
 * root, then on read from the target's folder up), follow imports (inlined as each file is read),
 * apply the budget (Gemini CLI sets none), render.
 */
function resolve(ctx: ResolveContext): ProfileResult {
  const path = ctx.fs.path;
  const settingsDiagnostics: Diagnostic[] = [];
  const settings = readSettings(ctx, settingsDiagnostics);
  const loader = new Loader(ctx, settings);
  loader.diagnostics.push(...settingsDiagnostics);
  const ceiling = discoveryRoot(ctx, ctx.launchDir, settings.markers) ?? ctx.launchDir;
  const project = findProjectFiles(ctx, loader, ceiling, settings.fileNames);
  const reader = new EntryReader(loader, settings);
  const globalEntries = findGlobalFiles(ctx, settings.fileNames).map((p) => reader.read(p, 'user', '/', 'start', 'system'));
  const projectEntries = project.paths.map((p) => reader.read(p, 'project', path.dirname(p), 'start', 'user'));
  for (const [p, first] of project.dropped) {
    loader.sources.push(newSource(p, 'project', path.dirname(p), 'start', { status: 'duplicate', reason: `The same file as ${first} (same device and inode), which Gemini CLI loads instead.` }));
  }
  const onReadEntries = isSubpath(ctx.fs, ctx.launchDir, ctx.target) ? readOnRead(ctx, reader, ceiling, settings.fileNames) : [];
  return render(loader, globalEntries, projectEntries, onReadEntries);
}

// ---------------------------------------------------------------------------------------------
// 1. Find the sources.

/** Global: ~/.gemini/<name> for each name, in name order. */
function findGlobalFiles(ctx: ResolveContext, names: string[]): string[] {
  const path = ctx.fs.path;
  return names.map((n) => path.resolve(geminiHome(ctx, ctx.fs.path), GEMINI_DIR, n)).filter((p) => ctx.fs.stat(p));
}

/**
 * Project: from the launch dir up to the project root (the nearest ancestor with a boundary
 * marker, else the launch dir alone), deduplicated by device+inode, then SORTED as strings
 * ([bundle] getEnvironmentMemoryPaths `unique.sort()`): "/r/Apps/GEMINI.md" comes before
 * "/r/GEMINI.md" (observed on gemini-cli 0.61.0; agents.md says root first).
 */
function findProjectFiles(ctx: ResolveContext, loader: Loader, ceiling: string, names: string[]): { paths: string[]; dropped: Map<string, string> } {
  const ids = new Set<string>();
  const dropped = new Map<string, string>();
  const paths: string[] = [];
  for (const p of new Set(upwardFiles(ctx, ctx.launchDir, ceiling, names))) {
    const id = loader.disk.identity(p);
    if (id && ids.has(id)) {
      dropped.set(p, paths.find((q) => loader.disk.identity(q) === id) ?? '');
      continue;
    }
    if (id) ids.add(id);
    paths.push(p);
  }
  return { paths: paths.sort((a, b) => {
    // Array.prototype.sort's order (UTF-16 code units) of the paths as Gemini CLI writes them.
    const [x, y] = [asGeminiWrites(ctx.fs, a), asGeminiWrites(ctx.fs, b)];
    return x < y ? -1 : x > y ? 1 : 0;
  }), dropped };
}

/**
 * On read of a file at or below the launch dir: every context file from the file's directory up
 * to the project root that was not loaded yet (by device+inode), outermost first, each name in
 * name order ([bundle] loadJitSubdirectoryMemory); always the tree format.
 */
function readOnRead(ctx: ResolveContext, reader: EntryReader, ceiling: string, names: string[]): Entry[] {
  const path = ctx.fs.path;
  const entries: Entry[] = [];
  const seenIds = new Set<string>();
  for (const p of upwardFiles(ctx, onReadStart(ctx), ceiling, names)) {
    const id = reader.loader.disk.identity(p);
    if (id && seenIds.has(id)) continue;
    if (id && reader.loadedIds.has(id)) {
      reader.reportLoadedAtStart(p, id);
      continue;
    }
    if (id) seenIds.add(id);
    entries.push(reader.read(p, 'project', path.dirname(p), 'on-read', 'tool-result'));
  }
  return entries;
}

/** The folder the on-read lookup starts from: the target's. */
function onReadStart(ctx: ResolveContext): string {
  const logicalDir = folderOf(ctx.fs, ctx.target);
  // A file reached through a linked folder is looked up from its real folder, and the context
  // files are named by their real paths (observed: scenario symlink-shapes).
  const realDir = ctx.fs.realPath(logicalDir);
  return realDir !== logicalDir && isSubpath(ctx.fs, ctx.fs.realPath(ctx.launchDir), realDir) ? realDir : logicalDir;
}

/**
 * For `check`: besides the launch folder (which decides the settings, the project files and the
 * ceiling), a chain depends on its target only through the context files found on read, from the
 * target's folder up. Folders that find the same ones give the same chain problems.
 */
function checkKey(ctx: ResolveContext): string {
  if (!isSubpath(ctx.fs, ctx.launchDir, ctx.target)) return '';
  // Once a pass: the settings, the ceiling, and each folder's files from it up (`check` asks the
  // key of every folder holding instruction files; each read the settings and walked up again).
  const pass = ctx.memo(`checkKey\0${settingsKey(ctx)}`, () => {
    const settings = readSettings(ctx, []);
    const ceiling = discoveryRoot(ctx, ctx.launchDir, settings.markers) ?? ctx.launchDir;
    return { settings, ceiling, upward: new Map<string, string[]>() };
  });
  return `on read\0${upwardFilesOnce(ctx, pass.upward, ctx.fs.path.resolve(onReadStart(ctx)), pass.ceiling, pass.settings.fileNames).join('\0')}`;
}

/** Everything `readSettings` depends on besides the disk. */
function settingsKey(ctx: ResolveContext): string {
  return JSON.stringify([ctx.launchDir, ctx.home, ctx.platform, ctx.env.GEMINI_CLI_HOME ?? null, ctx.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH ?? null, ctx.env.GEMINI_CLI_SYSTEM_DEFAULTS_PATH ?? null]);
}

/** `upwardFiles` from the folder `d` (resolved), each folder's answer kept in `upward` for the folders below it. */
function upwardFilesOnce(ctx: ResolveContext, upward: Map<string, string[]>, d: string, stop: string, names: string[]): string[] {
  let out = upward.get(d);
  if (out === undefined) {
    const path = ctx.fs.path;
    if (d === path.join(geminiHome(ctx, path), GEMINI_DIR)) out = [];
    else {
      const found = names.map((n) => path.resolve(d, n)).filter((p) => ctx.fs.stat(p));
      out = d === path.resolve(stop) || path.dirname(d) === d ? found : [...upwardFilesOnce(ctx, upward, path.dirname(d), stop, names), ...found];
    }
    upward.set(d, out);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// 2. Follow imports: each file is read with its imports inlined (Loader.readContextFile).

/** Reads context files once, deduplicated across global and project by device+inode (first wins). */
class EntryReader {
  readonly loadedIds = new Set<string>();
  private readonly byId = new Map<string, string>();

  constructor(
    readonly loader: Loader,
    private readonly settings: Settings,
  ) {}

  /** One context file as a source, listed before the imports it pulled in. */
  read(p: string, kind: SourceKind, scope: string, loads: Source['loads'], where: 'system' | 'user' | 'tool-result'): Entry {
    const before = this.loader.sources.length;
    const entry = this.readEntry(p, kind, scope, loads, where);
    this.loader.sources.splice(before, 0, entry.source);
    return entry;
  }

  /**
   * A short context file that only names an AGENTS.md beside or below it ("See
   * [AGENTS.md](./AGENTS.md)."), which Gemini CLI does not read unless `context.fileName` names it
   * or an `@` imports it: the model gets the sentence, not the project's guidance (seen on a
   * reviewed repository). Said at the name, with the import that loads it.
   */
  private namesOnly(file: string, text: string): void {
    const { ctx } = this.loader;
    const path = ctx.fs.path;
    if (this.settings.fileNames.includes('AGENTS.md') || !isShortNote(text)) return;
    const imported = new Set(findImports(text).map((ref) => path.resolve(path.dirname(file), ref.path)));
    for (const m of text.matchAll(/(?<![\w.\/@-])((?:\.\/|[\w.-]+\/)*AGENTS\.md)(?![\w-])/g)) {
      const target = path.resolve(path.dirname(file), m[1]);
      if (imported.has(target) || ctx.fs.stat(target)?.type !== 'file') continue;
      const rel = path.relative(path.dirname(file), target).split(path.sep).join('/');
      this.loader.report('not-loaded', file, `Gemini CLI never reads ${rel}: this file only names it, and Gemini CLI reads no AGENTS.md unless context.fileName names it or a file imports it; to load it, write "@${rel}" on a line here.`, { text, start: m.index, end: m.index + m[1].length }, { importInto: file, importLine: `@${rel}` });
      return;
    }
  }

  /** A file seen on read that was loaded at start already (the folders above the launch dir, or a link to a loaded file): not repeated. */
  reportLoadedAtStart(p: string, id: string): void {
    const path = this.loader.ctx.fs.path;
    const first = this.byId.get(id);
    if (first === p || first === undefined || this.loader.sources.some((x) => x.path === p)) return;
    this.loader.sources.push(newSource(p, 'project', path.dirname(p), 'on-read', { status: 'duplicate', reason: `The same file as ${first} (same device and inode), which Gemini CLI loaded at start; it is not sent again.` }));
  }

  private readEntry(p: string, kind: SourceKind, scope: string, loads: Source['loads'], where: 'system' | 'user' | 'tool-result'): Entry {
    const source = newSource(p, kind, scope, loads);
    const id = this.loader.disk.identity(p);
    // At start, global and project paths are deduplicated together before reading
    // ([bundle] loadMemoryContents); on read, against what was loaded at start.
    if (loads === 'start' && id) {
      const first = this.byId.get(id);
      if (first !== undefined && first !== p) {
        source.status = 'duplicate';
        source.reason = `The same file as ${first} (same device and inode), which Gemini CLI already loaded.`;
        return { source, content: null };
      }
      this.byId.set(id, p);
    }
    const r = this.loader.readContextFile(p, { file: p, scope, loads }, loads === 'on-read' ? 'tree' : this.settings.importFormat);
    if (!r.ok) {
      const isDir = r.error.startsWith('EISDIR');
      source.status = 'unreadable';
      source.reason = isDir ? 'It is a directory, so Gemini CLI skips it silently.' : `Gemini CLI cannot read it (${r.error}) and skips it with a warning.`;
      // Observed (0.61.0, scenario huge-files' 5 MiB GEMINI.md): the file is read whole, the first
      // request's estimate (tokenCalculation.ts: a token per 4 characters) passes the model's
      // window (tokenLimit: 1,048,576) and `gemini -p` sends nothing and exits 0. Not modelled.
      if (!isDir) this.loader.diagnostics.push(r.code === 'EFBIG' ? diag('too-large', p, `This file is ${r.error}. Gemini CLI reads it whole; for a text file this large its estimate of the first request (a token per 4 characters) passes the 1,048,576-token window of its default models, and it then sends nothing at all (observed with a 5 MiB file: gemini -p ends without a request or a word). It is left out here.`) : diag('unreadable', p, `Gemini CLI cannot read this file (${r.error}) and skips it.`));
      return { source, content: null };
    }
    if (id) this.loadedIds.add(id);
    source.chars = charCount(r.text);
    source.bytes = r.bytes;
    const trimmed = r.content.trim();
    if (trimmed === '') {
      source.status = 'excluded';
      source.reason = 'It is empty or only white space, so Gemini CLI leaves it out.';
      return { source, content: r.content };
    }
    setInjected(source, trimmed);
    if (kind === 'project') this.namesOnly(p, r.text);
    const place = where === 'system' ? 'the end of the system instruction' : where === 'user' ? 'the first user turn' : 'the read_file result';
    source.status = loads === 'on-read' ? 'on-read' : 'loaded';
    source.reason =
      kind === 'user'
        ? `Global context file: trimmed and sent in ${place}, inside <loaded_context>.`
        : loads === 'on-read'
          ? `Below the launch directory: Gemini CLI appends it to ${place} the first time it reads a file under ${scope}.`
          : `In the launch directory or above it, up to the project root: trimmed and sent in ${place}, inside <project_context>.`;
    return { source, content: r.content };
  }
}

// 3. Apply the budget: Gemini CLI sets none; the whole context is sent.

// ---------------------------------------------------------------------------------------------
// 4. Render ([bundle] concatenateInstructions, renderUserMemory, getSessionMemory, appendJitContext).

function render(loader: Loader, globalEntries: Entry[], projectEntries: Entry[], onReadEntries: Entry[]): ProfileResult {
  const blocks = (entries: Entry[]) =>
    entries
      .filter((e) => e.content !== null && e.content.trim() !== '' && e.source.status !== 'duplicate')
      .map((e) => [e, asGeminiWrites(loader.ctx.fs, e.source.path)] as const)
      .map(([e, p]) => `--- Context from: ${p} ---\n${e.content!.trim()}\n--- End of Context from: ${p} ---`)
      .join('\n\n');
  const globalText = blocks(globalEntries);
  const projectText = blocks(projectEntries);
  const jitText = blocks(onReadEntries);
  const start: RenderPart[] = [];
  // The global block ends the system instruction, after a fixed "# Contextual Instructions
  // (<names>)" section the CLI adds only when there is global text (not part of this render).
  if (globalText) start.push({ where: 'system', text: `<loaded_context>\n${globalText}\n</loaded_context>` });
  if (projectText) start.push({ where: 'user', text: `<loaded_context>\n<project_context>\n${projectText}\n</project_context>\n</loaded_context>` });
  const onRead: RenderPart[] = jitText ? [{ where: 'tool-result', text: `${JIT_PREFIX}${jitText}${JIT_SUFFIX}` }] : [];
  return {
    sources: loader.sources,
    budget: { unit: 'chars', limit: null, perFile: null, used: charCount(globalText) + charCount(projectText) },
    diagnostics: loader.diagnostics,
    start,
    onRead,
  };
}

/** Print mode with an API key, its base URL at the fake model; telemetry and updates off in settings.json. */
const localRun: LocalRun = {
  npmPackage: '@google/gemini-cli',
  setup: ({ url, prompt }) => ({
    args: ['-p', prompt],
    env: {
      GEMINI_API_KEY: 'fake-key-for-loopback',
      GOOGLE_GEMINI_BASE_URL: url,
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
      GEMINI_CLI_NO_RELAUNCH: '1',
    },
    homeFiles: {
      // Merged into a scenario's own settings.json (e.g. context.fileName).
      [`${GEMINI_DIR}/settings.json`]: (own) => JSON.stringify(mergeObjects(own === undefined ? {} : JSON.parse(own), {
        security: { auth: { selectedType: 'gemini-api-key' } },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { disableAutoUpdate: true, disableUpdateNag: true },
      }), null, 2),
    },
  }),
};

/** `b` over `a`, objects merged key by key. */
function mergeObjects(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const old = a[k];
    out[k] = v && typeof v === 'object' && !Array.isArray(v) && old && typeof old === 'object' ? mergeObjects(old as Record<string, unknown>, v as Record<string, unknown>) : v;
  }
  return out;
}

export const geminiCli: Profile = {
  id: 'gemini-cli',
  order: 50,
  agent: 'Gemini CLI',
  about: "Google's coding agent, in the terminal",
  agentVersion: VERSION,
  verified: 'real agent',
  // context.fileName may name other files; they cannot be known statically.
  filePatterns: ['**/GEMINI.md'],
  mainFile: DEFAULT_CONTEXT_FILENAME,
  importRefs: (text) => findImports(text).map((r) => ({ ...r, written: r.path })),
  // .gemini/config.yaml and .gemini/styleguide.md are Gemini Code Assist's code review on
  // GitHub, not Gemini CLI: alone they mark nothing (its other files, settings.json, commands/ …, do).
  evidence: { markers: ['**/GEMINI.md', '.gemini/!(config.yaml|styleguide.md)', '.gemini/*/**'], cli: { command: 'gemini', versionArgs: ['--version'] }, homeDir: '.gemini' },
  localRun,
  wireProtocol: 'gemini',
  globalPaths: (env) => {
    const path = platformPath(env.platform);
    return [path.join(geminiHome(env), GEMINI_DIR, DEFAULT_CONTEXT_FILENAME), path.join(geminiHome(env), GEMINI_DIR, 'settings.json')];
  },
  resolve,
  checkKey,
};
