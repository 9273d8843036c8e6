import * as path from 'node:path';
import { diag } from '../diagnostics';
import { parseFrontmatter } from '../frontmatter';
import type { Diagnostic, RenderPart, Source, SourceKind } from '../model';
import { dirsBelow, isInside } from '../paths';
import type { Profile, ProfileResult, ResolveContext } from '../profile';
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
 */
export function stripImports(text: string): Stripped {
  const imports: Stripped['imports'] = [];
  const inFence: Stripped['inFence'] = [];
  const segments: { c: number; o: number }[] = [];
  let content = '';
  let offset = 0;
  let fence: { ch: string; len: number } | undefined;
  for (const raw of text.split(/(?<=\n)/)) {
    const line = raw.replace(/\r?\n$/, '');
    const m = FENCE.exec(line);
    const at = /^@(\S+)$/.exec(line.trim());
    let keep = true;
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
    if (keep) {
      segments.push({ c: content.length, o: offset });
      content += raw;
    }
    offset += raw.length;
  }
  return {
    content,
    imports,
    inFence,
    toOriginal: (c) => {
      let seg = segments[0] ?? { c: 0, o: 0 };
      for (const s of segments) if (s.c <= c) seg = s;
      return seg.o + (c - seg.c);
    },
  };
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
  /** The not-committed check, run only for items in the chain (it reads the work tree). */
  late?: () => Diagnostic[];
  /** A guidance file (not an import) of a directory. */
  top: boolean;
}

interface Group {
  dir: string;
  items: Item[];
}

function resolve(ctx: ResolveContext): ProfileResult {
  const root = ctx.git.root(ctx.launchDir) ?? ctx.launchDir;
  const rel = (p: string) => path.relative(root, p).split(path.sep).join('/') || '.';
  const sources: Source[] = [];
  const diagnostics: Diagnostic[] = [];
  const targetDir = ctx.fs.stat(ctx.target)?.type === 'dir' ? ctx.target : path.dirname(ctx.target);
  const isRepo = ctx.git.root(ctx.launchDir) !== undefined;
  const rev = isRepo ? (ctx.git.defaultBranch?.(root) ?? 'HEAD') : 'HEAD';
  const branch = rev.replace(/^origin\//, '');
  const commit = isRepo ? ctx.git.commitOf?.(root, rev) : undefined;
  const atCommit = <T>(key: string, get: () => T): T => (commit ? memo(ctx.git, `${commit}\0${root}\0${key}`, get) : get());
  const committedList = isRepo ? atCommit('', () => ctx.git.committedFiles?.(root, rev) ?? ctx.git.trackedFiles(root)) : undefined;
  const committed = committedList ? ctx.memo(`committed\0${root}\0${rev}`, () => new Set(committedList)) : undefined;

  const base = (file: string, kind: SourceKind, scope: string, extra: Partial<Source> = {}): Source => ({
    path: file, kind, scope, loads: 'start', status: 'loaded', chars: 0, bytes: 0, injectedChars: 0, injectedBytes: 0, reason: '', ...extra,
  });

  /** Files read through a committed directory link, to the committed path git holds them at. */
  const committedAs = new Map<string, string>();
  /**
   * `name` inside `dir` when `dir`, or a folder above it inside the repository, is a committed
   * symlink to a committed folder holding it (`.claude/skills/s -> ../../.agents/skills/s`, or
   * the whole `.claude/skills -> ../.agents/skills`).
   */
  const linkedCommitted = (dir: string, name: string): string | undefined => {
    let linked = false;
    for (let d = dir; d !== root && isInside(d, root); d = path.dirname(d)) {
      if (committed?.has(d) && ctx.fs.isSymlink(d)) linked = true;
    }
    if (!linked) return undefined;
    const real = path.join(ctx.fs.realPath(dir), name);
    return committed!.has(real) ? real : undefined;
  };

  /** The committed text of a file on the default branch. */
  const readCommitted = (wanted: string): { state: 'ok'; text: string } | { state: 'absent' } | { state: 'unreadable' } => {
    if (!isRepo) return { state: 'absent' };
    const file = committedAs.get(wanted) ?? wanted;
    const text = atCommit(file, () => ctx.git.committedText(root, file, rev));
    if (text !== undefined) return { state: 'ok', text };
    return committed?.has(file) ? { state: 'unreadable' } : { state: 'absent' };
  };

  /** What the work tree holds at `file`, for the not-committed warnings. */
  const workText = (file: string): string | undefined => {
    const r = readText(ctx.fs, file);
    return r.state === 'ok' ? r.text : undefined;
  };

  // Why a file only in the work tree is not read.
  const absent = isRepo
    ? `Not committed on ${branch}: a session reads only what is committed on the default branch.`
    : 'Not in a git repository: a session reads guidance only from a commit of the default branch.';
  const notCommitted = (file: string, text: string | undefined): Diagnostic[] => {
    const work = workText(file);
    const exists = ctx.fs.stat(file)?.type === 'file';
    if (text === undefined) {
      return exists ? [diag('not-committed', file, isRepo ? `Not committed on ${branch}: a session reads guidance only from the default branch, so it will not see this file.` : 'Not in a git repository: a session reads guidance only from a commit of the default branch, so it will not see this file.')] : [];
    }
    if (!exists) return [diag('not-committed', file, `Deleted in your work tree but still committed on ${branch}: a session keeps following the committed version.`)];
    if (work !== undefined && work !== text) return [diag('not-committed', file, `Differs from ${branch}: a session follows the committed version, not your uncommitted changes.`)];
    return [];
  };

  // Everything but the folders on the way to the target is the same for every target of the
  // repository (guidance, imports, the limit, skills): worked out once per refresh.
  const { rootItems, groups, groupOf, guidanceDirs, dirReason, skillItems, remaining, leftOut, notFound } = ctx.memo(`${root}\0${rev}\0${commit ?? ''}`, () => {
    // ---- Guidance files and their imports -------------------------------------------------

    const seen = new Map<string, string>(); // real path → path it was included as

    /** One guidance file or import, read from the commit. Its imports are returned to follow later. */
    const visit = (file: string, kind: SourceKind, scope: string, importer: string | undefined, out: Item[]): Item | undefined => {
      const link = ctx.fs.isSymlink(file);
      const real = link ? ctx.fs.realPath(file) : file;
      const top = importer === undefined;
      const extra: Partial<Source> = importer ? { importedBy: importer } : {};
      const first = seen.get(real) ?? seen.get(file);
      if (first !== undefined) {
        // A link (CLAUDE.md → AGENTS.md) is listed, but its text is given once; so is a file
        // imported twice or in a cycle.
        const reason = link
          ? `A link to ${rel(real)}: listed, but its text is given to the agent once.`
          : `Already included as ${rel(first)}: the session includes each file once, even when files import each other.`;
        out.push({ source: base(file, kind, scope, { ...extra, status: 'duplicate', reason }), diagnostics: [], top });
        return undefined;
      }
      const r = readCommitted(real);
      if (r.state === 'absent') {
        if (!importer) {
          if (ctx.fs.stat(file)?.type === 'file') {
            const s = base(file, kind, scope, { ...sizes(workText(file) ?? ''), status: 'excluded', reason: absent });
            out.push({ source: s, diagnostics: [], late: () => notCommitted(file, undefined), top });
          }
          return undefined;
        }
        const s = base(file, kind, scope, { ...extra, status: 'missing', reason: `Not found on ${branch}: the import is not followed, and the session lists it as not found.` });
        out.push({ source: s, diagnostics: [], late: () => notCommitted(file, undefined), top });
        return undefined;
      }
      seen.set(real, file);
      seen.set(file, file);
      if (r.state === 'unreadable') {
        const s = base(file, kind, scope, { ...extra, status: 'unreadable', reason: 'Listed in the commit but could not be read, so the session leaves it out and names it.' });
        out.push({ source: s, fault: 'unreadable', diagnostics: [diag('unreadable', file, 'The session could not read this file from the commit; it is left out and named as such.')], top });
        return undefined;
      }
      const size = sizes(r.text);
      const diags: Diagnostic[] = [];
      const late = () => notCommitted(file, r.text);
      if (size.bytes > MAX_FILE_BYTES) {
        const s = base(file, kind, scope, { ...extra, ...size, status: 'omitted', reason: `Over 1 MB (${fmt(size.bytes)} bytes): the session leaves it out and names it.` });
        diags.push(diag('file-truncated', file, `At ${fmt(size.bytes)} bytes this file is over 1 MB: a session leaves it out entirely${scope !== root ? ', and with it all guidance of its directory' : ''}.`));
        out.push({ source: s, fault: 'too-large', diagnostics: diags, late, top });
        return undefined;
      }
      const stripped = stripImports(r.text);
      for (const f of stripped.inFence) {
        diags.push(diag('import-in-code', file, `@${f.written} is inside a code fence, so it is not an import: the agent receives the line as written.`, { text: r.text, start: f.start, end: f.end }, { target: path.resolve(path.dirname(ctx.fs.isSymlink(file) ? ctx.fs.realPath(file) : file), f.written) }));
      }
      const s = base(file, kind, scope, { ...extra, ...size, status: 'loaded' });
      const item: Item = { source: s, content: stripped.content, stripped, text: r.text, diagnostics: diags, late, top };
      out.push(item);
      return item;
    };

    /** An item's imports, depth first, in order of appearance. */
    const follow = (item: Item, depth: number, out: Item[]) => {
      const file = item.source.path;
      const from = ctx.fs.isSymlink(file) ? ctx.fs.realPath(file) : file;
      for (const imp of item.stripped?.imports ?? []) {
        const target = path.resolve(path.dirname(from), imp.path);
        const at = { text: item.text!, start: imp.start, end: imp.end };
        const skip = (reason: string, d: Diagnostic) => {
          out.push({ source: base(target, 'import', item.source.scope, { importedBy: file, status: 'excluded', reason }), diagnostics: [], top: false });
          item.diagnostics.push(d);
        };
        if (!isInside(target, root)) {
          skip('Outside the repository: the session follows only imports of Markdown files inside it.', diag('import-outside', file, `@${imp.path} points outside the repository; the session does not follow it (the line is still removed).`, at, { target }));
          continue;
        }
        if (!/\.(md|markdown)$/i.test(target)) {
          // "it must point to a Markdown file": .md or .markdown (unsure which extensions count).
          skip('Not a Markdown file: the session imports only Markdown files.', diag('import-not-text', file, `@${imp.path} is not a Markdown file; the session does not import it (the line is still removed).`, at));
          continue;
        }
        if (depth + 1 > MAX_IMPORT_DEPTH) {
          skip(`${depth + 1} imports deep: the session follows imports up to ${MAX_IMPORT_DEPTH} deep.`, diag('import-depth', file, `@${imp.path} is ${depth + 1} imports deep; the session follows imports only ${MAX_IMPORT_DEPTH} deep.`, at));
          continue;
        }
        const before = out.length;
        const child = visit(target, 'import', item.source.scope, file, out);
        const added = out[before];
        if (added?.source.status === 'missing') {
          // The session's settings show a warning for each import not found.
          item.diagnostics.push(diag('import-missing', file, `@${imp.path} points to ${rel(target)}, which is not committed on ${branch}: the session lists it as not found.`, at, { target }, 'warning'));
        }
        if (child) follow(child, depth + 1, out);
      }
    };

    /** The guidance files of one directory, then what they import. */
    const group = (dir: string, files: string[]): Item[] => {
      const out: Item[] = [];
      const tops = files.map((f) => visit(f, 'project', dir, undefined, out));
      for (const t of tops) if (t) follow(t, 0, out);
      return out;
    };

    // Every guidance file and skill of the commit read from git at once, not one `git show` each.
    if (isRepo) ctx.git.committedTexts?.(root, (committedList ?? []).filter((f) => GUIDANCE.includes(path.basename(f)) || path.basename(f) === 'SKILL.md'), rev);

    // Root files, in this order: AGENTS.md, CLAUDE.md, then what they import.
    const rootItems = group(root, GUIDANCE.map((n) => path.join(root, n)));

    // Directories with guidance in the commit, nearest the root first.
    const guidanceDirs = atCommit('dirs', () => {
      const dirs = new Map<string, string[]>();
      for (const f of committedList ?? []) {
        if (!GUIDANCE.includes(path.basename(f)) || path.dirname(f) === root || !isInside(f, root)) continue;
        const d = path.dirname(f);
        dirs.set(d, [...(dirs.get(d) ?? []), f]);
      }
      return dirs;
    });
    const depthOf = (d: string) => rel(d).split('/').length;
    const dirOrder = [...guidanceDirs.keys()].sort((a, b) => depthOf(a) - depthOf(b) || Buffer.compare(Buffer.from(rel(a)), Buffer.from(rel(b))));
    const groups: Group[] = dirOrder.map((dir) => ({
      dir,
      items: group(dir, GUIDANCE.map((n) => path.join(dir, n)).filter((f) => guidanceDirs.get(dir)!.includes(f))),
    }));

    // ---- The 32 KB limit ------------------------------------------------------------------

    let remaining = LIMIT;
    let rootCut = false;
    const takes = (i: Item) => i.source.status === 'loaded' && i.content !== undefined;
    for (const item of rootItems) {
      if (!takes(item)) continue;
      const s = item.source;
      const bytes = byteCount(item.content!);
      if (rootCut || remaining === 0 && bytes > 0) {
        s.status = 'omitted';
        s.reason = rootCut
          ? 'An earlier root file did not fit in the 32 KB limit, so every root file after it is not used.'
          : 'Earlier root files used all of the 32 KB limit, so this one and every later root file are not used.';
        item.diagnostics.push(diag('chain-over-budget', s.path, `A session does not use this file: earlier root guidance fills the ${fmt(LIMIT)}-byte limit.`));
        rootCut = true;
        continue;
      }
      if (bytes <= remaining) {
        remaining -= bytes;
        s.reason = item.source.importedBy
          ? `Imported by ${rel(item.source.importedBy)}: given to the agent from the first message, after the root files.`
          : 'Root guidance: the agent follows it from the first message.';
        continue;
      }
      // The first root file that does not fit is cut where the limit ends.
      const cut = cutBytes(item.content!, remaining);
      const origin = item.stripped!.toOriginal(cut.length);
      const pos = positionAt(item.text!, origin);
      s.status = 'truncated';
      s.cutAt = pos;
      s.reason = `Only ${fmt(remaining)} bytes of the 32 KB limit were left: the session cuts it there, and uses no later root file and no directory guidance.`;
      item.diagnostics.push(diag('chain-over-budget', s.path, `A session keeps only the first ${fmt(remaining)} bytes of this file (the ${fmt(LIMIT)}-byte limit ends here) and says it is cut short; every later root file and every directory's guidance is left out.`, { text: item.text!, start: origin, end: item.text!.length }));
      item.content = cut;
      remaining = 0;
      rootCut = true;
    }
    const dirReason = new Map<Group, string>();
    groups.forEach((g, i) => {
      const fault = g.items.find((it) => it.fault);
      const costs = g.items.filter(takes);
      const bytes = costs.reduce((n, it) => n + byteCount(it.content!), 0);
      let why: string | undefined;
      if (i >= MAX_DIRS) why = `Guidance is read from at most ${MAX_DIRS} directories; this is directory ${i + 1}, so it is left out.`;
      else if (rootCut) why = 'The root files did not all fit in the 32 KB limit, so every directory is left out.';
      else if (fault) why = `A file of this directory's guidance ${fault.fault === 'too-large' ? 'is over 1 MB' : 'could not be read'} (${rel(fault.source.path)}), so the whole directory is left out.`;
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
          ? `Imported by ${rel(it.source.importedBy)}: added with ${rel(g.dir)}/'s guidance when the agent first reads or edits a file there.`
          : `Added when the agent first reads or edits a file in ${rel(g.dir)}/ (not when it only runs commands there); applies only there.`;
      }
    });

    // ---- Skills ---------------------------------------------------------------------------

    const skillItems: { source: Source; name?: string; description?: string; diagnostics: Diagnostic[] }[] = [];
    const skillFiles: string[] = [];
    const workOnlySkills: typeof skillItems = [];
    for (const dir of SKILL_DIRS) {
      const prefix = path.join(root, dir) + '/';
      const files = atCommit(`skills\0${dir}`, () => (committedList ?? []).filter((f) => f.startsWith(prefix) && /^[^/]+\/SKILL\.md$/.test(f.slice(prefix.length))).sort());
      skillFiles.push(...files);
      // A skill only in the work tree is not read.
      for (const e of ctx.fs.readDir(path.join(root, dir))) {
        const f = path.join(root, dir, e.name, 'SKILL.md');
        if (e.type === 'dir' && !files.includes(f) && ctx.fs.stat(f)?.type === 'file') {
          // A committed link to a committed skill folder (.claude/skills/s -> ../../.agents/skills/s):
          // the session's checkout has the link, so it reads the skill through it.
          const real = linkedCommitted(path.join(root, dir, e.name), 'SKILL.md');
          if (real) {
            skillFiles.push(f);
            committedAs.set(f, real);
            continue;
          }
          workOnlySkills.push({ source: base(f, 'skill', root, { ...sizes(workText(f) ?? ''), status: 'excluded', reason: absent }), diagnostics: notCommitted(f, undefined) });
        }
      }
    }
    const names = new Set<string>();
    let listedCount = 0;
    let listingBytes = 0;
    let skillTextBytes = 0;
    for (const file of skillFiles) {
      const r = readCommitted(file);
      const skip = (reason: string, message: string, extra: Partial<Source> = {}) => {
        skillItems.push({ source: base(file, 'skill', root, { ...extra, status: 'excluded', reason }), diagnostics: [...notCommitted(file, r.state === 'ok' ? r.text : undefined), diag('skill-invalid', file, message)] });
      };
      if (r.state !== 'ok') {
        skillItems.push({ source: base(file, 'skill', root, { status: 'unreadable', reason: 'Listed in the commit but could not be read: skipped.' }), diagnostics: [diag('unreadable', file, 'The session could not read this SKILL.md; the skill is skipped.')] });
        continue;
      }
      const size = sizes(r.text);
      if (size.bytes > MAX_SKILL_FILE) {
        skip(`SKILL.md is ${fmt(size.bytes)} bytes, over 64 KB: skipped.`, `This SKILL.md is ${fmt(size.bytes)} bytes; a session skips a SKILL.md larger than 64 KB.`, size);
        continue;
      }
      const fm = parseFrontmatter(r.text);
      const name = typeof fm?.data?.name === 'string' ? fm.data.name.trim() : '';
      let description = typeof fm?.data?.description === 'string' ? fm.data.description.trim() : '';
      if (!name || !description) {
        const lacks = [!name ? 'name' : '', !description ? 'description' : ''].filter(Boolean).join(' and no ');
        skip(`Its frontmatter gives no ${lacks}: not listed.`, `This skill is not listed: its frontmatter gives no ${lacks}${fm?.error ? ` (it does not parse: ${fm.error.message})` : ''}.`, size);
        continue;
      }
      if (charCount(name) > MAX_SKILL_NAME) {
        skip(`Its name is ${charCount(name)} characters, longer than 64: not listed.`, `This skill is not listed: its name is ${charCount(name)} characters, and a session lists only names of at most 64.`, size);
        continue;
      }
      const sameFile = [...committedAs].find(([, real]) => real === file)?.[0];
      if (names.has(name) && sameFile) {
        // The folder a committed link points to: the same skill, listed once through the link.
        skillItems.push({ source: base(file, 'skill', root, { ...size, status: 'duplicate', reason: `The same folder as ${rel(sameFile)}, which links to it: listed once.` }), diagnostics: [] });
        continue;
      }
      if (names.has(name)) {
        skillItems.push({ source: base(file, 'skill', root, { ...size, status: 'duplicate', reason: `Another skill is already named "${name}"; the first one is kept (.claude/skills before .agents/skills).` }), diagnostics: [diag('skill-invalid', file, `This skill is not listed: an earlier skill is also named "${name}", and the first one is kept.`)] });
        continue;
      }
      if (listedCount >= MAX_SKILLS) {
        skip(`${MAX_SKILLS} skills are already listed: skipped.`, `This skill is not listed: a session lists at most ${MAX_SKILLS} skills.`, size);
        continue;
      }
      const diags = notCommitted(file, r.text);
      let cut = '';
      if (charCount(description) > MAX_DESCRIPTION) {
        cut = ` Its description is cut at ${fmt(MAX_DESCRIPTION)} characters.`;
        diags.push(diag('file-truncated', file, `The description is ${fmt(charCount(description))} characters; a session cuts it at ${fmt(MAX_DESCRIPTION)}.`));
        description = takeChars(description, MAX_DESCRIPTION);
      }
      const entryBytes = byteCount(name) + byteCount(description);
      if (listingBytes + entryBytes > MAX_SKILL_LISTING) {
        skip('Skill names and descriptions are limited to about 16 KB together, and this one would pass it: skipped.', 'This skill is not listed: with it, skill names and descriptions would pass the session\'s ~16 KB limit.', size);
        continue;
      }
      if (skillTextBytes + size.bytes > MAX_SKILL_TEXT) {
        skip('The text of all listed skills is limited to about 512 KB, and this one would pass it: skipped.', 'This skill is not listed: with it, the text of all listed skills would pass the session\'s ~512 KB limit.', size);
        continue;
      }
      names.add(name);
      listedCount++;
      listingBytes += entryBytes;
      skillTextBytes += size.bytes;
      const line = `${name}: ${description}`;
      skillItems.push({
        source: base(file, 'skill', root, { ...size, status: 'listed', injectedChars: charCount(line), injectedBytes: byteCount(line), reason: `Listed by name and description from the first message; its full text loads only when the agent decides the task matches.${cut}` }),
        name,
        description,
        diagnostics: diags,
      });
    }

    skillItems.push(...workOnlySkills);
    const allDirItems = groups.flatMap((g) => g.items);
    const leftOut = [...rootItems, ...allDirItems].filter((it) => it.source.status === 'omitted' || it.source.status === 'unreadable').map((it) => rel(it.source.path));
    const notFound = [...rootItems, ...allDirItems].filter((it) => it.source.status === 'missing').map((it) => rel(it.source.path));
    const groupOf = new Map(groups.map((g) => [g.dir, g]));
    return { rootItems, groups, groupOf, guidanceDirs, dirReason, skillItems, remaining, leftOut, notFound };
  });

  // ---- The chain ------------------------------------------------------------------------

  const start: RenderPart[] = [];
  const onRead: RenderPart[] = [];
  const add = (it: Item) => {
    if (it.content !== undefined && (it.source.status === 'loaded' || it.source.status === 'truncated' || it.source.status === 'on-read')) {
      const sz = sizes(it.content);
      it.source.injectedChars = sz.chars;
      it.source.injectedBytes = sz.bytes;
    }
    sources.push(it.source);
    diagnostics.push(...(it.late?.() ?? []), ...it.diagnostics);
  };
  for (const it of rootItems) {
    add(it);
    // A file left with nothing once its import lines are gone (a CLAUDE.md holding only
    // @AGENTS.md) gives the agent nothing: no part.
    if (it.content?.trim() && (it.source.status === 'loaded' || it.source.status === 'truncated')) start.push({ where: 'system', text: it.content });
  }
  // Directories on the way to the target, outermost first; guidance only in the work tree is not read.
  const pathDirs = isInside(targetDir, root) ? dirsBelow(root, targetDir) : [];
  for (const d of pathDirs) {
    const g = groupOf.get(d);
    for (const name of GUIDANCE) {
      const f = path.join(d, name);
      if (!guidanceDirs.get(d)?.includes(f) && ctx.fs.stat(f)?.type === 'file') {
        add({ source: base(f, 'project', d, { ...sizes(workText(f) ?? ''), loads: 'on-read', status: 'excluded', reason: absent }), diagnostics: notCommitted(f, undefined), top: true });
      }
    }
    if (!g) continue;
    for (const it of g.items) {
      it.source.loads = 'on-read';
      add(it);
    }
    if (dirReason.has(g)) continue;
    for (const it of g.items) {
      if (it.top && it.source.status === 'on-read') onRead.push({ where: 'message', text: `Following ${rel(it.source.path)} for work in ${rel(g.dir)}/` });
    }
    for (const it of g.items) if (it.source.status === 'on-read' && it.content?.trim()) onRead.push({ where: 'after-tool-result', text: it.content });
  }
  for (const s of skillItems) {
    sources.push(s.source);
    diagnostics.push(...s.diagnostics);
  }
  const listedSkills = skillItems.filter((s) => s.source.status === 'listed');
  if (listedSkills.length) start.push({ where: 'system', text: listedSkills.map((s) => `${s.name}: ${s.description}`).join('\n') });

  // The "what was read" line at the start of the session [reconstructed from the docs].
  const loaded = rootItems
    .filter((it) => it.source.status === 'loaded' || it.source.status === 'truncated' || (it.source.status === 'duplicate' && ctx.fs.isSymlink(it.source.path)))
    .map((it) => rel(it.source.path) + (it.source.status === 'truncated' ? ' (cut short)' : it.source.status === 'duplicate' ? ` (link to ${rel(ctx.fs.realPath(it.source.path))})` : ''));
  // Skills only in the work tree are unknown to the session; every other unlisted one is skipped.
  const skipped = skillItems.filter((s) => s.source.status !== 'listed' && committed?.has(s.source.path)).map((s) => rel(s.source.path));
  const anything = loaded.length || leftOut.length || listedSkills.length || skipped.length || notFound.length || groups.length;
  if (isRepo && anything) {
    const cap = (xs: string[]) => xs.slice(0, LIST_CAP).join(', ') + (xs.length > LIST_CAP ? ` and ${fmt(xs.length - LIST_CAP)} more` : '');
    const parts = [
      `Guidance from ${commit ? commit.slice(0, 12) : rev} on ${branch}`,
      loaded.length ? `loaded ${cap(loaded)}` : 'no root guidance',
      listedSkills.length ? `skills ${cap(listedSkills.map((s) => s.name!))}` : undefined,
      leftOut.length ? `left out ${cap(leftOut)}` : undefined,
      skipped.length ? `skipped ${cap(skipped)}` : undefined,
      notFound.length ? `not found ${cap(notFound)}` : undefined,
    ].filter(Boolean);
    start.push({ where: 'message', text: parts.join('; ') });
  }

  return {
    sources,
    budget: { unit: 'bytes', limit: LIMIT, perFile: null, used: LIMIT - remaining },
    diagnostics,
    start,
    onRead,
  };
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
  agent: 'Scaling (hosted agent sessions)',
  agentVersion: 'docs (seed 003)',
  verified: 'docs',
  filePatterns: ['**/AGENTS.md', '**/CLAUDE.md', '.claude/skills/*/SKILL.md', '.agents/skills/*/SKILL.md'],
  mainFile: 'AGENTS.md',
  // Hosted sessions read the files other agents keep: checked only when enabled.
  evidence: { markers: [] },
  globalPaths: () => [],
  resolve,
};
