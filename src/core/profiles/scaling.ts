import { diag } from '../diagnostics';
import { parseFrontmatter } from '../frontmatter';
import { relativeInside } from '../globs';
import type { CommittedPaths } from '../git';
import { newSource, setInjected, type Diagnostic, type RenderPart, type Source, type SourceKind } from '../model';
import { dirsBelow, hasExactName, isInside } from '../paths';
import { getOrSet, type Profile, type ProfileResult, type ResolveContext } from '../profile';
import { readText, sizes } from '../readText';
import { byteCount, charCount, fmt, positionAt, takeChars } from '../text';

/**
 * Hosted agent sessions ("Scaling"), from their public docs only (seed 003): root AGENTS.md and
 * CLAUDE.md plus what they import from the first message; a subdirectory's AGENTS.md/CLAUDE.md
 * when the agent first reads or edits a file there; skills listed by name and description;
 * everything read from one commit of the default branch; one 32 KB limit.
 *
 * The session's prompt text is not public. Each guidance file is given as one `system` part
 * holding its committed text with import lines removed (imported files come after the root
 * files as parts of their own, per "AGENTS.md, CLAUDE.md, then what they import"); directory
 * guidance as `after-tool-result` parts. The wrapper around them is NOT known. The "what was
 * read" start line and the "Following … for work in …/" line are reconstructed from the docs
 * as `message` parts (the wording of the start line is ours).
 */

// "about 32 KB": 32,768 bytes. The seed's example (20 KB + 20 KB gives "about 12 KB" of the
// second file) fits 32,768 - 20,480 = 12,288 exactly; binary units, as Codex's 32 KiB.
const LIMIT = 32 * 1024;
const MAX_FILE_BYTES = 1024 * 1024; // "over 1 MB" (binary, like the limit)
const MAX_DIRS = 64;
const MAX_IMPORT_DEPTH = 3; // "followed up to three files deep": three levels of imports below a guidance file (unsure)
const MAX_IMPORT_PATH = 256;
const MAX_SKILLS = 50;
const MAX_SKILL_FILE = 64 * 1024;
const MAX_SKILL_NAME = 64;
const MAX_DESCRIPTION = 1024;
const MAX_SKILL_LISTING = 16 * 1024; // "about 16 KB" of names and descriptions
const MAX_SKILL_TEXT = 512 * 1024; // "about 512 KB" of listed SKILL.md text
const LIST_CAP = 200; // "Each list they show stops at 200 entries"

const GUIDANCE = ['AGENTS.md', 'CLAUDE.md'];
const SKILL_DIRS = ['.claude/skills', '.agents/skills'];



/** A guidance file's text with import lines removed, and the imports found. */
interface Stripped {
  content: string;
  imports: { path: string; start: number; end: number }[];
  inFence: { written: string; start: number; end: number }[];
  /** Offset in the original text of an offset in `content`. */
  toOriginal(offset: number): number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Imports: a line holding only `@` and a path, outside code fences; a path with white space
 * in it, or longer than 256 characters, is no import and stays as written. White space around
 * the line is allowed (unsure). The import line itself is removed.
 *
 * Read line by line through offsets: a line is cut out of the text only when it may open or
 * close a fence or be an import (it holds `@`, or starts with a fence's character), and the
 * content is the text itself when no line is removed. `check` strips every guidance file of the
 * commit, and a string per line cost several times the texts' size (a property test holds it
 * to the plain definition).
 */
export function stripImports(text: string): Stripped {
  const imports: Stripped['imports'] = [];
  const inFence: Stripped['inFence'] = [];
  // Runs of kept lines: where each starts in `content` (c) and in the text (o).
  const runs: { c: number; o: number }[] = [];
  let content = '';
  let run = -1; // where the current run of kept lines started in the text; -1 after a removed line
  let fence: { ch: string; len: number } | undefined;
  let nextAt = text.indexOf('@');
  for (let offset = 0, next = 0; ; offset = next) {
    const nl = text.indexOf('\n', offset);
    next = nl < 0 ? text.length : nl + 1;
    const lineEnd = nl < 0 ? text.length : nl > offset && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
    if (nextAt >= 0 && nextAt < offset) nextAt = text.indexOf('@', offset);
    const mayImport = nextAt >= 0 && nextAt < lineEnd;
    let keep = true;
    if (mayImport || fenceAt(text, offset, lineEnd)) {
      const line = text.slice(offset, lineEnd);
      const m = FENCE.exec(line);
      const at = mayImport ? /^@(\S+)$/.exec(line.trim()) : null;
      if (fence) {
        if (m && m[1][0] === fence.ch && m[1].length >= fence.len && line.slice(m[0].length).trim() === '') fence = undefined;
        else if (at) inFence.push({ written: at[1], start: offset + line.indexOf('@'), end: offset + line.indexOf('@') + 1 + at[1].length });
      } else if (m && !(m[1][0] === '`' && line.slice(m[0].length).includes('`'))) {
        fence = { ch: m[1][0], len: m[1].length };
      } else if (at && charCount(at[1]) <= MAX_IMPORT_PATH) {
        const start = offset + line.indexOf('@');
        imports.push({ path: at[1], start, end: start + 1 + at[1].length });
        keep = false;
      }
    }
    if (keep && run < 0) {
      runs.push({ c: content.length, o: offset });
      run = offset;
    } else if (!keep && run >= 0) {
      content += text.slice(run, offset);
      run = -1;
    }
    if (next >= text.length) break; // the empty text is one empty line
  }
  if (run >= 0) content += text.slice(run);
  return {
    content,
    imports,
    inFence,
    toOriginal: (c) => {
      let from = runs[0] ?? { c: 0, o: 0 };
      for (let i = 1; i < runs.length && runs[i].c <= c; i++) from = runs[i];
      return from.o + (c - from.c);
    },
  };
}

/** Whether the line from `start` to `end` starts with at most three spaces and a fence's character. */
function fenceAt(text: string, start: number, end: number): boolean {
  for (let i = start; i < end && i <= start + 3; i++) {
    const c = text.charCodeAt(i);
    if (c === 96 || c === 126) return true; // ` or ~
    if (c !== 32) return false;
  }
  return false;
}

/** The longest prefix of `s` of at most `n` UTF-8 bytes that does not split a character. */
function cutBytes(s: string, n: number): string {
  let bytes = 0;
  let i = 0;
  for (const ch of s) {
    const b = byteCount(ch);
    if (bytes + b > n) break;
    bytes += b;
    i += ch.length;
  }
  return s.slice(0, i);
}

type Fault = 'too-large' | 'unreadable';

interface Item {
  source: Source;
  /** What the session gives the agent of it (set for files that take from the limit). */
  content?: string;
  stripped?: Stripped;
  text?: string;
  /** Left out whatever the budget: over 1 MB or unreadable. */
  fault?: Fault;
  /** Its own diagnostics, reported only when it is in the chain. */
  diagnostics: Diagnostic[];
  /** The not-committed check, run only for items in the chain (it reads the work tree of the chain's refresh). */
  late?: (s: Session) => Diagnostic[];
  /** A guidance file (not an import) of a directory. */
  top: boolean;
  /** The "Following … for work in …/" line of a directory's guidance file, once made. */
  following?: string;
}

interface Group {
  dir: string;
  items: Item[];
}

interface SkillItem {
  source: Source;
  name?: string;
  description?: string;
  diagnostics: Diagnostic[];
}

/** What is the same for every target of the repository: worked out once per refresh. */
interface Repository {
  rootItems: Item[];
  groups: Group[];
  groupOf: Map<string, Group>;
  /** Directories with guidance in the commit, and their guidance files. */
  guidanceDirs: Map<string, string[]>;
  /** Why a directory's guidance is left out, for the directories whose guidance is. */
  dirReason: Map<Group, string>;
  skillItems: SkillItem[];
  /** Bytes of the 32 KB limit the root guidance takes: what the start render holds of it. */
  usedAtStart: number;
  leftOut: string[];
  notFound: string[];
}

/**
 * The steps every profile runs: find the sources (root guidance, the guidance of every
 * directory of the commit, skills), follow imports (as each guidance file is read), apply the
 * budget (one 32 KB limit: root files, then whole directories), render (root files and skills
 * from the first message, a directory's guidance when the agent first reads or edits a file
 * there, and the "what was read" line). Everything but the folders on the way to the target is
 * the same for every target of the repository: worked out once per refresh.
 */
function resolve(ctx: ResolveContext): ProfileResult {
  const s = new Session(ctx);
  const repo = ctx.memo(`${s.root}\0${s.rev}\0${s.commit ?? ''}`, () => keptRepository(s));
  return render(s, repo);
}

/**
 * The repository's guidance, kept across the refreshes carried over an edit (`atCommit`): it is
 * read from the commit, and from the work tree only through `workText`, whose answers are asked
 * again and compared. A quick look after an edit does not read every guidance file again.
 */
function keptRepository(s: Session): Repository {
  const kept = s.atCommit(`\0repository\0${s.rev}`, () => ({ repo: undefined as Repository | undefined, read: new Map<string, string | undefined>() }));
  if (kept.repo && [...kept.read].every(([file, text]) => s.workText(file) === text)) return kept.repo;
  const read = (s.workRead = new Map());
  kept.repo = readRepository(s);
  s.workRead = undefined;
  kept.read = read;
  return kept.repo;
}

function readRepository(s: Session): Repository {
  // 1 and 2. Guidance files, each one's imports followed as it is read.
  const { rootItems, groups, guidanceDirs } = findGuidance(s);
  // 3. The 32 KB limit.
  const { remaining, rootCut } = budgetRoot(s, rootItems);
  const dirs = budgetDirectories(s, groups, remaining, rootCut);
  // Skills: found after guidance (a skill read through a committed link is read by its committed path).
  const skillItems = findSkills(s);
  const allItems = [...rootItems, ...groups.flatMap((g) => g.items)];
  const leftOut = allItems.filter((it) => it.source.status === 'omitted' || it.source.status === 'unreadable').map((it) => s.rel(it.source.path));
  const notFound = allItems.filter((it) => it.source.status === 'missing').map((it) => s.rel(it.source.path));
  const groupOf = new Map(groups.map((g) => [g.dir, g]));
  // Directory guidance draws on the same 32 KB, but arrives only on read and only for its own
  // folder: `used` counts what the start render holds (the root guidance), not a directory the
  // chain may not even list.
  return { rootItems, groups, groupOf, guidanceDirs, dirReason: dirs.dirReason, skillItems, usedAtStart: LIMIT - remaining, leftOut, notFound };
}

/**
 * Where the session reads from: the repository's default branch at one commit (seed 003:
 * "everything read from one commit of the default branch"), and what the work tree holds
 * for the not-committed warnings.
 */
class Session {
  readonly root: string;
  readonly isRepo: boolean;
  readonly rev: string;
  readonly branch: string;
  readonly commit: string | undefined;
  /** What git is asked for the commit's files and texts: its id when known, which no later commit moves. */
  readonly at: string;
  /** The commit's files, by their paths relative to the root with `/`. */
  readonly commitFiles: CommittedPaths | undefined;
  /** Whether the commit holds a file, by its absolute path. */
  readonly committed: { has(p: string): boolean } | undefined;
  /** Files read through a committed directory link, to the committed path git holds them at. */
  readonly committedAs = new Map<string, string>();
  /** Why a file only in the work tree is not read. */
  readonly absent: string;
  /** What `workText` answered, while the repository's guidance is read (see `keptRepository`). */
  workRead: Map<string, string | undefined> | undefined;

  constructor(readonly ctx: ResolveContext) {
    const gitRoot = ctx.git.root(ctx.launchDir);
    this.root = gitRoot ?? ctx.launchDir;
    this.isRepo = gitRoot !== undefined;
    this.rev = this.isRepo ? (ctx.git.defaultBranch?.(this.root) ?? 'HEAD') : 'HEAD';
    this.branch = this.rev.replace(/^origin\//, '');
    this.commit = this.isRepo ? ctx.git.commitOf?.(this.root, this.rev) : undefined;
    this.at = this.commit ?? this.rev;
    const root = this.root;
    const rev = this.rev;
    const at = this.at;
    const get = () => ctx.git.committedPaths?.(root, at);
    const files = (this.commitFiles = this.isRepo ? (this.commit ? this.atCommit('', get) : ctx.memo(`committed\0${root}\0${rev}`, get)) : undefined);
    this.committed = files && {
      has: (p) => {
        // As the commit's listing spells it: relative to the root, with `/`.
        const listed = relativeInside(root, p, ctx.fs);
        return !!listed && files.has(listed);
      },
    };
    this.absent = this.isRepo
      ? `Not committed on ${this.branch}: a session reads only what is committed on the default branch.`
      : 'Not in a git repository: a session reads guidance only from a commit of the default branch.';
  }

  /**
   * The commit's guidance files and `SKILL.md` files, absolute: picked from its listing once, so
   * that only these of its files (57,000 on test262's shape) are made absolute.
   */
  guidanceFiles(): string[] {
    return this.atCommit('\0guidance', () => (this.commitFiles?.named([...GUIDANCE, 'SKILL.md']) ?? []).map((f) => this.ctx.fs.path.join(this.root, f)));
  }

  rel(p: string): string {
    const path = this.ctx.fs.path;
    return path.relative(this.root, p).split(path.sep).join('/') || '.';
  }

  /**
   * A value that depends only on the commit, kept per git index (see `memo`), and across the
   * refreshes carried over an edit: a quick look does not list the commit's files again.
   */
  atCommit<T>(key: string, get: () => T): T {
    return this.commit ? memo(this.ctx.git.lasting ?? this.ctx.git, `${this.commit}\0${this.root}\0${key}`, get) : get();
  }

  source(file: string, kind: SourceKind, scope: string, extra: Partial<Source> = {}): Source {
    return newSource(file, kind, scope, 'start', extra);
  }

  /**
   * `name` inside `dir` when `dir`, or a folder above it inside the repository, is a committed
   * symlink to a committed folder holding it (`.claude/skills/s -> ../../.agents/skills/s`, or
   * the whole `.claude/skills -> ../.agents/skills`).
   */
  linkedCommitted(dir: string, name: string): string | undefined {
    const path = this.ctx.fs.path;
    let linked = false;
    for (let d = dir; d !== this.root && isInside(d, this.root, this.ctx.fs); d = path.dirname(d)) {
      if (this.committed?.has(d) && this.ctx.fs.isSymlink(d)) linked = true;
    }
    if (!linked) return undefined;
    const real = path.join(this.ctx.fs.realPath(dir), name);
    return this.committed!.has(real) ? real : undefined;
  }

  /** The committed text of a file on the default branch. */
  readCommitted(wanted: string): { state: 'ok'; text: string } | { state: 'absent' } | { state: 'unreadable' } {
    if (!this.isRepo) return { state: 'absent' };
    const file = this.committedAs.get(wanted) ?? wanted;
    // A file the commit does not list cannot be read from it: no git process to say so.
    if (this.committed && !this.committed.has(file)) return { state: 'absent' };
    const text = this.atCommit(file, () => this.ctx.git.committedText(this.root, file, this.at));
    if (text !== undefined) return { state: 'ok', text };
    return this.committed?.has(file) ? { state: 'unreadable' } : { state: 'absent' };
  }

  /**
   * Whether the work tree holds `file` under exactly that name: the commit is matched by exact
   * names, so on a case-insensitive disk an `agents.md` (committed as such) is not an uncommitted
   * AGENTS.md.
   */
  onDisk(file: string): boolean {
    return this.ctx.fs.stat(file)?.type === 'file' && hasExactName(this.ctx.fs, file);
  }

  /** What the work tree holds at `file`, for the not-committed warnings. */
  workText(file: string): string | undefined {
    const r = hasExactName(this.ctx.fs, file) ? readText(this.ctx.fs, file) : undefined;
    const text = r?.state === 'ok' ? r.text : undefined;
    this.workRead?.set(file, text);
    return text;
  }

  /** Where the work tree and the commit (`text`, undefined when not committed) disagree. */
  notCommitted(file: string, text: string | undefined): Diagnostic[] {
    const work = this.workText(file);
    const exists = this.onDisk(file);
    const branch = this.branch;
    if (text === undefined) {
      return exists ? [diag('not-committed', file, this.isRepo ? `Not committed on ${branch}: a session reads guidance only from the default branch, so it will not see this file.` : 'Not in a git repository: a session reads guidance only from a commit of the default branch, so it will not see this file.')] : [];
    }
    if (!exists) return [diag('not-committed', file, `Deleted in your work tree but still committed on ${branch}: a session keeps following the committed version.`)];
    if (work !== undefined && work !== text) return [diag('not-committed', file, `Differs from ${branch}: a session follows the committed version, not your uncommitted changes.`)];
    return [];
  }

  /** A file only in the work tree: listed as not read, with its warning. */
  workOnly(file: string, kind: SourceKind, scope: string, extra: Partial<Source> = {}): Source {
    return this.source(file, kind, scope, { ...sizes(this.workText(file) ?? ''), ...extra, status: 'excluded', reason: this.absent });
  }
}

// ---------------------------------------------------------------------------------------------
// 1. Find the sources, and 2. follow imports as each guidance file is read.

/**
 * Root guidance (AGENTS.md, CLAUDE.md, then what they import), then the guidance of every
 * directory of the commit, nearest the root first (seed 003). One `seen` map for all of them:
 * the session includes each file once.
 */
function findGuidance(s: Session): { rootItems: Item[]; groups: Group[]; guidanceDirs: Map<string, string[]> } {
  const path = s.ctx.fs.path;
  const reader = new GuidanceReader(s);
  // Every guidance file and skill of the commit read from git at once, not one `git show` each.
  if (s.isRepo) prefetch(s, s.guidanceFiles());
  // Root files, in this order: AGENTS.md, CLAUDE.md, then what they import.
  const rootItems = reader.group(s.root, GUIDANCE.map((n) => path.join(s.root, n)));
  // Directories with guidance in the commit, nearest the root first.
  const guidanceDirs = s.atCommit('dirs', () => {
    const dirs = new Map<string, string[]>();
    // The commit's paths, joined under the root: all inside it.
    for (const f of s.guidanceFiles()) {
      if (!GUIDANCE.includes(path.basename(f)) || path.dirname(f) === s.root) continue;
      const d = path.dirname(f);
      dirs.set(d, [...(dirs.get(d) ?? []), f]);
    }
    return dirs;
  });
  // Each folder's sort key made once: in the comparator, `rel` and a Buffer per comparison cost
  // seconds on a repository with a thousand guidance folders.
  const dirOrder = s.atCommit('dirOrder', () => {
    const keyed = [...guidanceDirs.keys()].map((dir) => {
      const rel = s.rel(dir);
      return { dir, depth: rel.split('/').length, bytes: Buffer.from(rel) };
    });
    return keyed.sort((a, b) => a.depth - b.depth || Buffer.compare(a.bytes, b.bytes)).map((k) => k.dir);
  });
  const groups: Group[] = dirOrder.map((dir) => ({
    dir,
    items: reader.group(dir, GUIDANCE.map((n) => path.join(dir, n)).filter((f) => guidanceDirs.get(dir)!.includes(f))),
  }));
  return { rootItems, groups, guidanceDirs };
}

/**
 * The committed texts of `files`, then of the committed files they import, level by level up to
 * the import depth: one `git cat-file` per level instead of one `git show` per import. It only
 * fills the cache `readCommitted` reads through (`atCommit`); the reader decides what counts.
 */
function prefetch(s: Session, files: string[]): void {
  const path = s.ctx.fs.path;
  let level = files;
  for (let depth = 0; level.length && depth <= MAX_IMPORT_DEPTH; depth++) {
    const texts = s.ctx.git.committedTexts?.(s.root, level, s.at);
    if (!texts) return;
    for (const [f, text] of texts) s.atCommit(f, () => text);
    const next = new Set<string>();
    for (const [f, text] of texts) {
      if (text === undefined) continue;
      for (const imp of stripImports(text).imports) {
        const target = path.resolve(path.dirname(f), imp.path);
        if (s.committed?.has(target) && !texts.has(target)) next.add(target);
      }
    }
    level = [...next];
  }
}

/** Reads guidance files and their imports from the commit, each real file once. */
class GuidanceReader {
  private readonly seen = new Map<string, string>(); // real path → path it was included as

  constructor(private readonly s: Session) {}

  /** The guidance files of one directory, then what they import. */
  group(dir: string, files: string[]): Item[] {
    const out: Item[] = [];
    const tops = files.map((f) => this.visit(f, 'project', dir, undefined, out));
    for (const t of tops) if (t) this.follow(t, 0, out);
    return out;
  }

  /** One guidance file or import, read from the commit. Its imports are returned to follow later. */
  private visit(file: string, kind: SourceKind, scope: string, importer: string | undefined, out: Item[]): Item | undefined {
    const path = this.s.ctx.fs.path;
    const { s } = this;
    const link = s.ctx.fs.isSymlink(file);
    const real = link ? s.ctx.fs.realPath(file) : file;
    const top = importer === undefined;
    const extra: Partial<Source> = importer ? { importedBy: importer } : {};
    const first = this.seen.get(real) ?? this.seen.get(file);
    if (first !== undefined) {
      // A link (CLAUDE.md → AGENTS.md) is listed, but its text is given once; so is a file
      // imported twice or in a cycle.
      const reason = link
        ? `A link to ${s.rel(real)}: listed, but its text is given to the agent once.`
        : `Already included as ${s.rel(first)}: the session includes each file once, even when files import each other.`;
      out.push({ source: s.source(file, kind, scope, { ...extra, status: 'duplicate', reason }), diagnostics: [], top });
      return undefined;
    }
    const r = s.readCommitted(real);
    if (r.state === 'absent') {
      if (!importer) {
        if (s.onDisk(file)) out.push({ source: s.workOnly(file, kind, scope), diagnostics: [], late: (at) => at.notCommitted(file, undefined), top });
        return undefined;
      }
      const src = s.source(file, kind, scope, { ...extra, status: 'missing', reason: `Not found on ${s.branch}: the import is not followed, and the session lists it as not found.` });
      out.push({ source: src, diagnostics: [], late: (at) => at.notCommitted(file, undefined), top });
      return undefined;
    }
    this.seen.set(real, file);
    this.seen.set(file, file);
    if (r.state === 'unreadable') {
      const src = s.source(file, kind, scope, { ...extra, status: 'unreadable', reason: 'Listed in the commit but could not be read, so the session leaves it out and names it.' });
      out.push({ source: src, fault: 'unreadable', diagnostics: [diag('unreadable', file, 'The session could not read this file from the commit; it is left out and named as such.')], top });
      return undefined;
    }
    const size = sizes(r.text);
    const diags: Diagnostic[] = [];
    const late = (at: Session) => at.notCommitted(file, r.text);
    if (size.bytes > MAX_FILE_BYTES) {
      const src = s.source(file, kind, scope, { ...extra, ...size, status: 'omitted', reason: `Over 1 MB (${fmt(size.bytes)} bytes): the session leaves it out and names it.` });
      diags.push(diag('file-truncated', file, `At ${fmt(size.bytes)} bytes this file is over 1 MB: a session leaves it out entirely${scope !== s.root ? ', and with it all guidance of its directory' : ''}.`));
      out.push({ source: src, fault: 'too-large', diagnostics: diags, late, top });
      return undefined;
    }
    const stripped = stripImports(r.text);
    for (const f of stripped.inFence) {
      diags.push(diag('import-in-code', file, `@${f.written} is inside a code fence, so it is not an import: the agent receives the line as written.`, { text: r.text, start: f.start, end: f.end }, { target: path.resolve(path.dirname(real), f.written) }));
    }
    // A file left with nothing but white space once its import lines are gone gives the agent
    // nothing (no part is rendered for it): it takes nothing of the limit either.
    const content = stripped.content.trim() ? stripped.content : '';
    const item: Item = { source: s.source(file, kind, scope, { ...extra, ...size, status: 'loaded' }), content, stripped, text: r.text, diagnostics: diags, late, top };
    out.push(item);
    return item;
  }

  /** An item's imports, depth first, in order of appearance. */
  private follow(item: Item, depth: number, out: Item[]): void {
    const path = this.s.ctx.fs.path;
    const { s } = this;
    const file = item.source.path;
    const from = s.ctx.fs.isSymlink(file) ? s.ctx.fs.realPath(file) : file;
    for (const imp of item.stripped?.imports ?? []) {
      const target = path.resolve(path.dirname(from), imp.path);
      const at = { text: item.text!, start: imp.start, end: imp.end };
      const why = importRefused(s, imp.path, target, at, file, depth);
      if (why) {
        out.push({ source: s.source(target, 'import', item.source.scope, { importedBy: file, status: 'excluded', reason: why.reason }), diagnostics: [], top: false });
        item.diagnostics.push(why.diagnostic);
        continue;
      }
      const before = out.length;
      const child = this.visit(target, 'import', item.source.scope, file, out);
      if (out[before]?.source.status === 'missing') {
        // The session's settings show a warning for each import not found.
        item.diagnostics.push(diag('import-missing', file, `@${imp.path} points to ${s.rel(target)}, which is not committed on ${s.branch}: the session lists it as not found.`, at, { target }, 'warning'));
      }
      if (child) this.follow(child, depth + 1, out);
    }
  }
}

/** Why the session does not follow an import, if it does not: outside, not Markdown, too deep. */
function importRefused(s: Session, written: string, target: string, at: { text: string; start: number; end: number }, file: string, depth: number): { reason: string; diagnostic: Diagnostic } | undefined {
  if (!isInside(target, s.root, s.ctx.fs)) {
    return { reason: 'Outside the repository: the session follows only imports of Markdown files inside it.', diagnostic: diag('import-outside', file, `@${written} points outside the repository; the session does not follow it (the line is still removed).`, at, { target }) };
  }
  if (!/\.(md|markdown)$/i.test(target)) {
    // "it must point to a Markdown file": .md or .markdown (unsure which extensions count).
    return { reason: 'Not a Markdown file: the session imports only Markdown files.', diagnostic: diag('import-not-text', file, `@${written} is not a Markdown file; the session does not import it (the line is still removed).`, at) };
  }
  if (depth + 1 > MAX_IMPORT_DEPTH) {
    return { reason: `${depth + 1} imports deep: the session follows imports up to ${MAX_IMPORT_DEPTH} deep.`, diagnostic: diag('import-depth', file, `@${written} is ${depth + 1} imports deep; the session follows imports only ${MAX_IMPORT_DEPTH} deep.`, at) };
  }
  return undefined;
}

/**
 * Skills of `.claude/skills` then `.agents/skills`, each listed by name and description within
 * the session's limits (seed 003); skills only in the work tree come last, not read.
 */
function findSkills(s: Session): SkillItem[] {
  const { skillFiles, workOnlySkills } = listSkillFiles(s);
  const listing: SkillListing = { names: new Set(), count: 0, bytes: 0, textBytes: 0 };
  const skillItems = skillFiles.map((file) => judgeSkill(s, file, listing));
  return [...skillItems, ...workOnlySkills];
}

/** The committed SKILL.md files, and those only in the work tree. */
function listSkillFiles(s: Session): { skillFiles: string[]; workOnlySkills: SkillItem[] } {
  const path = s.ctx.fs.path;
  const skillFiles: string[] = [];
  const workOnlySkills: SkillItem[] = [];
  // The commit's SKILL.md files, once: each skills folder's are picked from them, not from every file.
  const named = s.atCommit('\0skills', () => s.guidanceFiles().filter((f) => path.basename(f) === 'SKILL.md'));
  for (const dir of SKILL_DIRS) {
    const prefix = path.join(s.root, dir) + path.sep;
    // `<name>/SKILL.md` below the prefix, in the order of their paths in the commit (with `/`).
    const sep = path.sep === '/' ? '/' : '\\\\';
    const skillFile = new RegExp(`^[^${sep}]+${sep}SKILL\\.md$`);
    const byPath = (a: string, b: string) => (s.rel(a) < s.rel(b) ? -1 : s.rel(a) > s.rel(b) ? 1 : 0);
    const files = s.atCommit(`skills\0${dir}`, () => named.filter((f) => f.startsWith(prefix) && skillFile.test(f.slice(prefix.length))).sort(byPath));
    skillFiles.push(...files);
    // A skill only in the work tree is not read.
    for (const e of s.ctx.fs.readDir(path.join(s.root, dir))) {
      const f = path.join(s.root, dir, e.name, 'SKILL.md');
      if (e.type !== 'dir' || files.includes(f) || s.ctx.fs.stat(f)?.type !== 'file') continue;
      // A committed link to a committed skill folder (.claude/skills/s -> ../../.agents/skills/s):
      // the session's checkout has the link, so it reads the skill through it.
      const real = s.linkedCommitted(path.join(s.root, dir, e.name), 'SKILL.md');
      if (real) {
        skillFiles.push(f);
        s.committedAs.set(f, real);
        continue;
      }
      workOnlySkills.push({ source: s.workOnly(f, 'skill', s.root), diagnostics: s.notCommitted(f, undefined) });
    }
  }
  return { skillFiles, workOnlySkills };
}

/** What the skills listed so far take of the session's limits. */
interface SkillListing {
  names: Set<string>;
  count: number;
  /** Bytes of names and descriptions. */
  bytes: number;
  /** Bytes of the listed SKILL.md files. */
  textBytes: number;
}

/** One committed SKILL.md: listed, or why not. */
function judgeSkill(s: Session, file: string, listing: SkillListing): SkillItem {
  const r = s.readCommitted(file);
  if (r.state !== 'ok') {
    return { source: s.source(file, 'skill', s.root, { status: 'unreadable', reason: 'Listed in the commit but could not be read: skipped.' }), diagnostics: [diag('unreadable', file, 'The session could not read this SKILL.md; the skill is skipped.')] };
  }
  const size = sizes(r.text);
  const skip = (reason: string, message: string): SkillItem => ({
    source: s.source(file, 'skill', s.root, { ...size, status: 'excluded', reason }),
    diagnostics: [...s.notCommitted(file, r.text), diag('skill-invalid', file, message)],
  });
  if (size.bytes > MAX_SKILL_FILE) {
    return skip(`SKILL.md is ${fmt(size.bytes)} bytes, over 64 KB: skipped.`, `This SKILL.md is ${fmt(size.bytes)} bytes; a session skips a SKILL.md larger than 64 KB.`);
  }
  const fm = parseFrontmatter(r.text);
  const name = typeof fm?.data?.name === 'string' ? fm.data.name.trim() : '';
  let description = typeof fm?.data?.description === 'string' ? fm.data.description.trim() : '';
  if (!name || !description) {
    const lacks = [!name ? 'name' : '', !description ? 'description' : ''].filter(Boolean).join(' and no ');
    return skip(`Its frontmatter gives no ${lacks}: not listed.`, `This skill is not listed: its frontmatter gives no ${lacks}${fm?.error ? ` (it does not parse: ${fm.error.message})` : ''}.`);
  }
  if (charCount(name) > MAX_SKILL_NAME) {
    return skip(`Its name is ${charCount(name)} characters, longer than 64: not listed.`, `This skill is not listed: its name is ${charCount(name)} characters, and a session lists only names of at most 64.`);
  }
  if (listing.names.has(name)) {
    const sameFile = [...s.committedAs].find(([, real]) => real === file)?.[0];
    // The folder a committed link points to: the same skill, listed once through the link.
    if (sameFile) return { source: s.source(file, 'skill', s.root, { ...size, status: 'duplicate', reason: `The same folder as ${s.rel(sameFile)}, which links to it: listed once.` }), diagnostics: [] };
    return { source: s.source(file, 'skill', s.root, { ...size, status: 'duplicate', reason: `Another skill is already named "${name}"; the first one is kept (.claude/skills before .agents/skills).` }), diagnostics: [diag('skill-invalid', file, `This skill is not listed: an earlier skill is also named "${name}", and the first one is kept.`)] };
  }
  if (listing.count >= MAX_SKILLS) return skip(`${MAX_SKILLS} skills are already listed: skipped.`, `This skill is not listed: a session lists at most ${MAX_SKILLS} skills.`);
  const diags = s.notCommitted(file, r.text);
  let cut = '';
  if (charCount(description) > MAX_DESCRIPTION) {
    cut = ` Its description is cut at ${fmt(MAX_DESCRIPTION)} characters.`;
    diags.push(diag('file-truncated', file, `The description is ${fmt(charCount(description))} characters; a session cuts it at ${fmt(MAX_DESCRIPTION)}.`));
    description = takeChars(description, MAX_DESCRIPTION);
  }
  const entryBytes = byteCount(name) + byteCount(description);
  if (listing.bytes + entryBytes > MAX_SKILL_LISTING) {
    return skip('Skill names and descriptions are limited to about 16 KB together, and this one would pass it: skipped.', 'This skill is not listed: with it, skill names and descriptions would pass the session\'s ~16 KB limit.');
  }
  if (listing.textBytes + size.bytes > MAX_SKILL_TEXT) {
    return skip('The text of all listed skills is limited to about 512 KB, and this one would pass it: skipped.', 'This skill is not listed: with it, the text of all listed skills would pass the session\'s ~512 KB limit.');
  }
  listing.names.add(name);
  listing.count++;
  listing.bytes += entryBytes;
  listing.textBytes += size.bytes;
  const line = `${name}: ${description}`;
  return {
    source: s.source(file, 'skill', s.root, { ...size, status: 'listed', injectedChars: charCount(line), injectedBytes: byteCount(line), reason: `Listed by name and description from the first message; its full text loads only when the agent decides the task matches.${cut}` }),
    name,
    description,
    diagnostics: diags,
  };
}

// ---------------------------------------------------------------------------------------------
// 3. Apply the budget: one 32 KB limit, root files first, then each directory whole or not at all.

/** Whether an item takes from the limit: a file read with text. */
function takes(i: Item): boolean {
  return i.source.status === 'loaded' && i.content !== undefined;
}

/** Root files in order; the first that does not fit is cut where the limit ends, and every later one is left out. */
function budgetRoot(s: Session, rootItems: Item[]): { remaining: number; rootCut: boolean } {
  let remaining = LIMIT;
  let rootCut = false;
  for (const item of rootItems) {
    if (!takes(item)) continue;
    const src = item.source;
    const bytes = byteCount(item.content!);
    if (rootCut || remaining === 0 && bytes > 0) {
      src.status = 'omitted';
      src.reason = rootCut
        ? 'An earlier root file did not fit in the 32 KB limit, so every root file after it is not used.'
        : 'Earlier root files used all of the 32 KB limit, so this one and every later root file are not used.';
      item.diagnostics.push(diag('chain-over-budget', src.path, `A session does not use this file: earlier root guidance fills the ${fmt(LIMIT)}-byte limit.`));
      rootCut = true;
      continue;
    }
    if (bytes <= remaining) {
      remaining -= bytes;
      src.reason = src.importedBy
        ? `Imported by ${s.rel(src.importedBy)}: given to the agent from the first message, after the root files.`
        : 'Root guidance: the agent follows it from the first message.';
      continue;
    }
    cutRootFile(item, remaining);
    remaining = 0;
    rootCut = true;
  }
  return { remaining, rootCut };
}

/** The first root file that does not fit: cut where the limit ends, `remaining` bytes in. */
function cutRootFile(item: Item, remaining: number): void {
  const cut = cutBytes(item.content!, remaining);
  const origin = item.stripped!.toOriginal(cut.length);
  item.source.status = 'truncated';
  item.source.cutAt = positionAt(item.text!, origin);
  item.source.reason = `Only ${fmt(remaining)} bytes of the 32 KB limit were left: the session cuts it there, and uses no later root file and no directory guidance.`;
  item.diagnostics.push(diag('chain-over-budget', item.source.path, `A session keeps only the first ${fmt(remaining)} bytes of this file (the ${fmt(LIMIT)}-byte limit ends here) and says it is cut short; every later root file and every directory's guidance is left out.`, { text: item.text!, start: origin, end: item.text!.length }));
  item.content = cut;
}

/** Directories nearest the root first: at most 64, each whole within what is left, none after a cut root file. */
function budgetDirectories(s: Session, groups: Group[], remaining: number, rootCut: boolean): { dirReason: Map<Group, string> } {
  const dirReason = new Map<Group, string>();
  groups.forEach((g, i) => {
    const fault = g.items.find((it) => it.fault);
    const costs = g.items.filter(takes);
    const bytes = costs.reduce((n, it) => n + byteCount(it.content!), 0);
    let why: string | undefined;
    if (i >= MAX_DIRS) why = `Guidance is read from at most ${MAX_DIRS} directories; this is directory ${i + 1}, so it is left out.`;
    else if (rootCut) why = 'The root files did not all fit in the 32 KB limit, so every directory is left out.';
    else if (fault) why = `A file of this directory's guidance ${fault.fault === 'too-large' ? 'is over 1 MB' : 'could not be read'} (${s.rel(fault.source.path)}), so the whole directory is left out.`;
    else if (bytes > remaining) why = `Its guidance (${fmt(bytes)} bytes) does not fit whole in the ${fmt(remaining)} bytes left of the 32 KB limit, so the whole directory is left out.`;
    if (why) {
      dirReason.set(g, why);
      for (const it of costs) {
        it.source.status = 'omitted';
        it.source.reason = why;
        it.diagnostics.push(diag('chain-over-budget', it.source.path, `A session never reads this file as guidance: ${why[0].toLowerCase()}${why.slice(1)}`));
      }
      return;
    }
    remaining -= bytes;
    for (const it of costs) {
      it.source.status = 'on-read';
      it.source.reason = it.source.importedBy
        ? `Imported by ${s.rel(it.source.importedBy)}: added with ${s.rel(g.dir)}/'s guidance when the agent first reads or edits a file there.`
        : `Added when the agent first reads or edits a file in ${s.rel(g.dir)}/ (not when it only runs commands there); applies only there.`;
    }
  });
  return { dirReason };
}

// ---------------------------------------------------------------------------------------------
// 4. Render: root files and skills from the first message, then the directories on the way to
// the target as the agent reads there.

/** What one chain gathers, in the order it lists it. */
class Chain {
  readonly sources: Source[] = [];
  readonly diagnostics: Diagnostic[] = [];
  readonly start: RenderPart[] = [];
  readonly onRead: RenderPart[] = [];

  constructor(private readonly s: Session) {}

  add(it: Item): void {
    if (it.content !== undefined && (it.source.status === 'loaded' || it.source.status === 'truncated' || it.source.status === 'on-read')) setInjected(it.source, it.content);
    this.sources.push(it.source);
    this.diagnostics.push(...(it.late?.(this.s) ?? []), ...this.onWorkTree(it));
  }

  /**
   * An item's diagnostics are placed in its committed text. Where the work tree holds other text
   * (the not-committed warning says so), a range whose lines differ there is moved to the file's
   * start: the editor shows the work tree, and a range past its end points at nothing.
   */
  private onWorkTree(it: Item): Diagnostic[] {
    if (it.text === undefined || !it.diagnostics.some((d) => d.line || d.column || d.endLine || d.endColumn)) return it.diagnostics;
    const work = this.s.workText(it.source.path);
    if (work === it.text || (work === undefined && this.s.ctx.fs.stat(it.source.path)?.type !== 'file')) return it.diagnostics;
    const committedLines = it.text.split('\n');
    // A work-tree file that is not text (binary, too large) has no line to keep.
    const workLines = work?.split('\n') ?? [];
    const same = (line: number) => line < workLines.length && workLines[line] === committedLines[line];
    return it.diagnostics.map((d) => (same(d.line) && same(d.endLine) ? d : { ...d, line: 0, column: 0, endLine: 0, endColumn: 0 }));
  }
}

function render(s: Session, repo: Repository): ProfileResult {
  const chain = new Chain(s);
  for (const it of repo.rootItems) {
    chain.add(it);
    // A file left with nothing once its import lines are gone (a CLAUDE.md holding only
    // @AGENTS.md) gives the agent nothing: no part (its content is '', see GuidanceReader.visit).
    if (it.content && (it.source.status === 'loaded' || it.source.status === 'truncated')) chain.start.push({ where: 'system', text: it.content });
  }
  renderDirectories(s, repo, chain);
  for (const skill of repo.skillItems) {
    chain.sources.push(skill.source);
    chain.diagnostics.push(...skill.diagnostics);
  }
  const listedSkills = repo.skillItems.filter((skill) => skill.source.status === 'listed');
  if (listedSkills.length) chain.start.push({ where: 'system', text: listedSkills.map((skill) => `${skill.name}: ${skill.description}`).join('\n') });
  // The same line for every target of the refresh (it names the repository's files, not the
  // target's): made once, where each of a `check`'s chains made its own (about 40 MB a pass of
  // babel's shape, 1,456 paths made relative and joined for each of 1,090 folders).
  const line = s.ctx.memo(`startLine\0${s.root}\0${s.rev}\0${s.commit ?? ''}`, () => startLine(s, repo, listedSkills));
  if (line) chain.start.push({ ...line });
  return {
    sources: chain.sources,
    budget: { unit: 'bytes', limit: LIMIT, perFile: null, used: repo.usedAtStart },
    diagnostics: chain.diagnostics,
    start: chain.start,
    onRead: chain.onRead,
  };
}

/** Directories on the way to the target, outermost first; guidance only in the work tree is not read. */
function renderDirectories(s: Session, repo: Repository, chain: Chain): void {
  const targetDir = s.ctx.fs.stat(s.ctx.target)?.type === 'dir' ? s.ctx.target : s.ctx.fs.path.dirname(s.ctx.target);
  const pathDirs = isInside(targetDir, s.root, s.ctx.fs) ? dirsBelow(s.root, targetDir, s.ctx.fs) : [];
  const workOnlyByDir = s.ctx.memo(`workOnlyGuidance\0${s.root}\0${s.rev}\0${s.commit ?? ''}`, () => new Map<string, string[]>());
  // Indexed loops: `check` runs in V8's baseline tier, where each step of a `for...of` allocates.
  for (let i = 0; i < pathDirs.length; i++) {
    const d = pathDirs[i];
    const g = repo.groupOf.get(d);
    const workOnly = workOnlyGuidance(s, repo, workOnlyByDir, d);
    for (let j = 0; j < workOnly.length; j++) {
      const f = workOnly[j];
      chain.add({ source: s.workOnly(f, 'project', d, { loads: 'on-read' }), diagnostics: s.notCommitted(f, undefined), top: true });
    }
    if (!g) continue;
    const items = g.items;
    for (let j = 0; j < items.length; j++) {
      items[j].source.loads = 'on-read';
      chain.add(items[j]);
    }
    if (repo.dirReason.has(g)) continue;
    for (let j = 0; j < items.length; j++) {
      const it = items[j];
      if (it.top && it.source.status === 'on-read') chain.onRead.push({ where: 'message', text: (it.following ??= `Following ${s.rel(it.source.path)} for work in ${s.rel(g.dir)}/`) });
    }
    for (let j = 0; j < items.length; j++) if (items[j].source.status === 'on-read' && items[j].content) chain.onRead.push({ where: 'after-tool-result', text: items[j].content! });
  }
}

/**
 * A folder's guidance files that only the work tree holds (not read, but listed with a warning),
 * found once per refresh (`byDir`): every chain below the folder lists them.
 */
function workOnlyGuidance(s: Session, repo: Repository, byDir: Map<string, string[]>, dir: string): string[] {
  return getOrSet(byDir, dir, () => {
    const committed = repo.guidanceDirs.get(dir);
    return GUIDANCE.map((name) => s.ctx.fs.path.join(dir, name)).filter((f) => !committed?.includes(f) && s.onDisk(f));
  });
}

/** The "what was read" line at the start of the session [reconstructed from the docs]. */
function startLine(s: Session, repo: Repository, listedSkills: SkillItem[]): RenderPart | undefined {
  const { fs } = s.ctx;
  const loaded = repo.rootItems
    .filter((it) => it.source.status === 'loaded' || it.source.status === 'truncated' || (it.source.status === 'duplicate' && fs.isSymlink(it.source.path)))
    .map((it) => s.rel(it.source.path) + (it.source.status === 'truncated' ? ' (cut short)' : it.source.status === 'duplicate' ? ` (link to ${s.rel(fs.realPath(it.source.path))})` : ''));
  // Skills only in the work tree are unknown to the session; every other unlisted one is skipped.
  const skipped = repo.skillItems.filter((skill) => skill.source.status !== 'listed' && s.committed?.has(skill.source.path)).map((skill) => s.rel(skill.source.path));
  const { leftOut, notFound } = repo;
  const anything = loaded.length || leftOut.length || listedSkills.length || skipped.length || notFound.length || repo.groups.length;
  if (!s.isRepo || !anything) return undefined;
  const cap = (xs: string[]) => xs.slice(0, LIST_CAP).join(', ') + (xs.length > LIST_CAP ? ` and ${fmt(xs.length - LIST_CAP)} more` : '');
  const parts = [
    `Guidance from ${s.commit ? s.commit.slice(0, 12) : s.rev} on ${s.branch}`,
    loaded.length ? `loaded ${cap(loaded)}` : 'no root guidance',
    listedSkills.length ? `skills ${cap(listedSkills.map((skill) => skill.name!))}` : undefined,
    leftOut.length ? `left out ${cap(leftOut)}` : undefined,
    skipped.length ? `skipped ${cap(skipped)}` : undefined,
    notFound.length ? `not found ${cap(notFound)}` : undefined,
  ].filter(Boolean);
  return { where: 'message', text: parts.join('; ') };
}

/**
 * What a commit holds never changes, so reads are kept per git index, keyed by commit id:
 * `check` resolves a chain for every folder, and each would otherwise re-read every
 * guidance file of the repository through git.
 */
const memos = new WeakMap<object, Map<string, unknown>>();

function memo<T>(owner: object, key: string, get: () => T): T {
  let m = memos.get(owner);
  if (!m) memos.set(owner, (m = new Map()));
  if (!m.has(key)) {
    if (m.size > 20_000) m.clear();
    m.set(key, get());
  }
  return m.get(key) as T;
}

export const scaling: Profile = {
  id: 'scaling',
  order: 80,
  agent: 'Hosted agent sessions',
  about: "Scaling's hosted coding-agent sessions, which read what the repository commits",
  agentVersion: 'public docs (2026)',
  verified: 'docs',
  filePatterns: ['**/AGENTS.md', '**/CLAUDE.md', '.claude/skills/*/SKILL.md', '.agents/skills/*/SKILL.md'],
  mainFile: 'AGENTS.md',
  // Hosted sessions read the files other agents keep: checked only when enabled.
  evidence: { markers: [] },
  notRunnable: "Hosted agent sessions run on the provider's machines; there is nothing to run on this machine.",
  globalPaths: () => [],
  resolve,
  readsCommit: true,
};
