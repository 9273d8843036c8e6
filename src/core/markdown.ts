import type { Token, Tokens } from 'marked';
import { markedLib } from './lazy';
import { ParseCache } from './parseCache';

/**
 * Markdown structure as the agents see it. Claude Code tokenizes instruction files with the
 * `marked` lexer to skip code and drop HTML comments; we use the same lexer so the same text
 * counts as code.
 */

/** A token with its offsets in the original text. */
export interface PlacedToken {
  token: Token;
  start: number;
  end: number;
  /** Inside a fenced/indented code block or a code span. */
  inCode: boolean;
}

// Claude Code lexes with `gfm: false` (no tables, no autolinks) [RE: claude-code 2.1.332 bundle].
function lex(text: string): Token[] {
  return lexed.get(text);
}

const lexed = new ParseCache(lexOrPlain);

/**
 * Deeper than this (quotes and lists counted together) no instruction file nests on purpose.
 * `marked` lexes a nested block once per level it sits in, so its time and memory grow with
 * depth × size: 2,000 lines each one `>` deeper than the last took 43 s and 2.7 GB, and V8 then
 * died compiling a regular expression ("RegExpCompiler Allocation failed"); thousands of levels
 * on one line recurse past the stack.
 */
export const MAX_MARKDOWN_NESTING = 100;
/** The most characters × levels lexed in all (a 4 MB file nested ten deep is 40 M). */
const MAX_NESTED_WORK = 64_000_000;

/**
 * Whether `text` nests too deeply to lex (see MAX_MARKDOWN_NESTING): then it is read as one
 * paragraph of plain text, and profiles say so with `too-deep`. One pass over the text: per line,
 * the `>` quote markers and list markers it opens, and its indentation in steps of two.
 */
export function tooDeepToParse(text: string): boolean {
  let work = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const lineStart = i;
    let depth = 0;
    let indent = 0;
    let listed = false;
    // Leading markers: spaces and tabs, `>`, and list bullets (`-`, `*`, `+`, `1.`, `1)`) followed by white space.
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 32) indent++;
      else if (c === 9) indent += 4;
      else if (c === 62 /* > */) depth++;
      else if ((c === 45 || c === 42 || c === 43) && (text.charCodeAt(i + 1) === 32 || text.charCodeAt(i + 1) === 9)) {
        depth++;
        listed = true;
      } else if (c >= 48 && c <= 57) {
        let j = i;
        while (j < n && j - i < 9 && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j++;
        const d = text.charCodeAt(j);
        if ((d === 46 || d === 41) && (text.charCodeAt(j + 1) === 32 || text.charCodeAt(j + 1) === 9)) {
          depth++;
          listed = true;
          i = j;
        } else break;
      } else break;
      i++;
      if (depth > MAX_MARKDOWN_NESTING) return true;
    }
    // Indentation nests only lists (elsewhere it is code or continuation).
    if (listed) depth += indent >> 1;
    if (depth > MAX_MARKDOWN_NESTING) return true;
    const end = text.indexOf('\n', i);
    i = end === -1 ? n : end + 1;
    work += depth * (i - lineStart);
    if (work > MAX_NESTED_WORK) return true;
  }
  return false;
}

/** A text as one paragraph of plain text: what is shown when it cannot be lexed. */
function plain(text: string): Token[] {
  return [{ type: 'paragraph', raw: text, text, tokens: [{ type: 'text', raw: text, text }] } as Token];
}

/**
 * Text nesting too deep for `marked` (see tooDeepToParse), or that still recurses past the stack,
 * is read as one paragraph of plain text instead of failing the whole chain.
 */
function lexOrPlain(text: string): Token[] {
  if (tooDeepToParse(text)) return plain(text);
  try {
    return new (markedLib().Lexer)({ gfm: false }).lex(text);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return plain(text);
  }
}

/** Offsets in `text` of every position of `normalized` (marked folds `\r\n` and `\r` to `\n`). */
function offsetMap(text: string): ((i: number) => number) | undefined {
  if (!text.includes('\r')) return undefined;
  const map: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\r' && text[i + 1] === '\n') continue;
    map.push(i);
  }
  map.push(text.length);
  return (i) => map[Math.min(i, map.length - 1)];
}

/** Every token, depth first, with its place in `text`. */
export function placedTokens(text: string): PlacedToken[] {
  return placed.get(text);
}

const placed = new ParseCache(place);

function place(text: string): PlacedToken[] {
  const normalized = text.replace(/\r\n|\r/g, '\n');
  const toOriginal = offsetMap(text) ?? ((i: number) => i);
  const out: PlacedToken[] = [];
  const visit = (tokens: Token[], from: number, to: number, inCode: boolean) => {
    let cursor = from;
    for (const token of tokens) {
      const raw = token.raw ?? '';
      // Looked for only inside the parent's span: a raw text marked rewrote (a quote's children
      // lose their `> `) is not there, and a search to the end of the file for each such token
      // made a 4 MiB CLAUDE.md take minutes. (A slice shares the string's memory: no copy.)
      const found = raw ? normalized.slice(cursor, to).indexOf(raw) : 0;
      const start = found < 0 ? cursor : cursor + found;
      const end = Math.min(start + raw.length, to);
      const code = inCode || token.type === 'code' || token.type === 'codespan';
      out.push({ token, start: toOriginal(start), end: toOriginal(end), inCode: code });
      const children: Token[] = [];
      const t = token as Tokens.Generic;
      if (Array.isArray(t.tokens)) children.push(...(t.tokens as Token[]));
      if (Array.isArray(t.items)) children.push(...(t.items as Token[]));
      if (token.type === 'table') {
        const table = token as Tokens.Table;
        for (const cell of table.header) children.push(...cell.tokens);
        for (const row of table.rows) for (const cell of row) children.push(...cell.tokens);
      }
      if (children.length) visit(children, start, end, code);
      cursor = Math.max(cursor, raw ? end : cursor);
    }
  };
  visit(lex(normalized), 0, normalized.length, false);
  return out;
}

/** Whether a token is an HTML comment block that Claude Code drops. */
function isCommentHtml(token: Token): boolean {
  if (token.type !== 'html') return false;
  const trimmed = token.raw.trimStart();
  return trimmed.startsWith('<!--') && trimmed.includes('-->');
}

const COMMENT = /<!--[\s\S]*?-->/g;

/**
 * Remove block-level HTML comments the way Claude Code does: top-level `html` tokens that
 * are comments go, keeping any text after the comment on the same token; comments inside a
 * paragraph or in code stay. Returns the text unchanged when it has no `<!--`.
 */
export function stripBlockComments(text: string): { text: string; removed: { start: number; end: number }[] } {
  if (!text.includes('<!--')) return { text, removed: [] };
  const normalized = text.replace(/\r\n?/g, '\n');
  let out = '';
  let last = 0;
  let cursor = 0;
  const removed: { start: number; end: number }[] = [];
  for (const token of lex(normalized)) {
    // Blank-line tokens are never comments, and a dropped comment may already have taken theirs.
    if (token.type === 'space') continue;
    const start = normalized.indexOf(token.raw, cursor);
    if (start < 0) continue;
    const end = start + token.raw.length;
    cursor = end;
    // Observed on Claude Code 2.1.332: a comment line indented by 1-3 spaces is kept.
    if (!isCommentHtml(token) || !token.raw.startsWith('<!--')) continue;
    const residue = normalized.slice(start, end).replace(COMMENT, '');
    out += normalized.slice(last, start) + (residue.trim() ? residue : '');
    // A dropped comment takes the line breaks after it too (observed on Claude Code 2.1.332:
    // `a\n<!-- c -->\n\n# H` is sent as `a\n# H`): its lexer's html token ends in `\n+`, ours
    // leaves them to a separate space token.
    let stop = end;
    if (!residue.trim()) while (normalized[stop] === '\n') stop++;
    last = stop;
    cursor = stop;
    removed.push({ start, end: stop });
  }
  // Nothing stripped: the text is returned as it was (line endings untouched).
  return last === 0 ? { text, removed } : { text: out + normalized.slice(last), removed };
}

/** An `@path` reference found in text. */
export interface AtRef {
  /** The path as written after `@` (fragment and escapes kept). */
  written: string;
  /** The path to resolve: fragment dropped, `\ ` unescaped. */
  path: string;
  /** Offsets of `@path` in the text. */
  start: number;
  end: number;
}

// Claude Code's include pattern: `@` at line start or after white space, then non-space
// characters (a backslash-escaped space allowed). [RE: src/utils/claudemd.ts]
const AT_REF = /(?:^|\s)@((?:[^\s\\]|\\ )+)/g;

function refsIn(raw: string, base: number): AtRef[] {
  const out: AtRef[] = [];
  AT_REF.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = AT_REF.exec(raw))) {
    const written = m[1];
    const at = m.index + m[0].length - written.length - 1;
    let p = written;
    const hash = p.indexOf('#');
    if (hash !== -1) p = p.slice(0, hash);
    p = p.replace(/\\ /g, ' ');
    if (!p) continue;
    const plausible =
      p.startsWith('./') ||
      p.startsWith('~/') ||
      (p.startsWith('/') && p !== '/') ||
      (!p.startsWith('@') && !/^[#%^&*()]+/.test(p) && /^[a-zA-Z0-9._-]/.test(p));
    if (!plausible) continue;
    out.push({ written, path: p, start: base + at, end: base + at + 1 + written.length });
  }
  return out;
}

/**
 * Claude Code's @imports of a file: references in plain text, in order of first appearance,
 * each path once. References in code, and in HTML comments, are returned apart so a lint
 * can say they will not be followed.
 */
export function findClaudeImports(text: string): { imports: AtRef[]; inCode: AtRef[]; inComment: AtRef[] } {
  return claudeImports.get(text);
}

const claudeImports = new ParseCache(claudeImportsOf);

function claudeImportsOf(text: string): { imports: AtRef[]; inCode: AtRef[]; inComment: AtRef[] } {
  // No `@` at all: nothing to find, and no need to lex (most instruction files import nothing).
  if (!text.includes('@')) return { imports: [], inCode: [], inComment: [] };
  return plainForImports(text) ? importsOfPlain(text) : importsByTokens(text);
}

/**
 * What can make marked's tokens differ from plain text for the import finder: code (backticks,
 * `~~~` fences, indentation: a line starting with a space, two spaces in a row as after a list
 * marker, tabs), HTML and comments (`<`), quotes (`>`, whose children lose their markers), links
 * and definitions (`[`, `]`), escapes (`\`), emphasis (`*`, `_`), line breaks other than `\n`
 * and white space other than a space (which `\s` in the reference pattern takes and marked's
 * rules may not).
 */
const NOT_PLAIN = /[`~<>[\]\\*_]|[^\S \n]|^ | {2}/m;

/**
 * Whether every `@` of `text` is in plain text for marked, with white space on the left where
 * it is, so the references of the whole text are those of its text tokens: without the
 * characters of NOT_PLAIN, its only blocks are paragraphs, ATX and setext headings, lists and
 * thematic breaks, whose text tokens hold every character but the markers, each marker followed
 * by a space or a line break, and (without a LAZY_LINE) are found where they are in the text. Held equal to the lexer's answer on random texts of these blocks
 * (test/unit/markdown.test.ts). Spares the lexer, whose set-up and first run cost a `chain`
 * more than the rest of its work.
 */
export function plainForImports(text: string): boolean {
  return !NOT_PLAIN.test(text) && !LAZY_LINE.test(text);
}

/**
 * A list item's line followed by a line that is neither blank nor an item: marked indents such a
 * lazy continuation line in the item's text, which is then not found in the file where it is.
 */
const LAZY_LINE = /^(?:[-+]|\d{1,9}[.)])(?: .*)?\n(?!\n|(?:[-+]|\d{1,9}[.)])(?: |\n|$))(?=.)/m;

function importsOfPlain(text: string): { imports: AtRef[]; inCode: AtRef[]; inComment: AtRef[] } {
  const seen = new Set<string>();
  const imports = refsIn(text, 0).filter((ref) => !seen.has(ref.path) && seen.add(ref.path));
  return { imports, inCode: [], inComment: [] };
}

/** The imports as found in marked's tokens (exported for the test holding importsOfPlain to it). */
export function importsByTokens(text: string): { imports: AtRef[]; inCode: AtRef[]; inComment: AtRef[] } {
  const imports: AtRef[] = [];
  const inCode: AtRef[] = [];
  const inComment: AtRef[] = [];
  const seen = new Set<string>();
  for (const placed of placedTokens(text)) {
    const { token } = placed;
    const raw = text.slice(placed.start, placed.end);
    if (token.type === 'code' || token.type === 'codespan') {
      inCode.push(...refsIn(raw.replace(/`/g, ' '), placed.start));
      continue;
    }
    if (placed.inCode) continue;
    if (token.type === 'html') {
      // Only the text left after removing a comment counts; other HTML is skipped.
      if (isCommentHtml(token)) {
        const residue = raw.replace(COMMENT, (c) => ' '.repeat(c.length));
        inComment.push(...refsIn(raw, placed.start).filter((r) => residue.slice(r.start - placed.start, r.end - placed.start).trim() === ''));
        for (const ref of refsIn(residue, placed.start)) {
          if (seen.has(ref.path)) continue;
          seen.add(ref.path);
          imports.push(ref);
        }
      }
      continue;
    }
    if (token.type !== 'text' || (token as Tokens.Text).tokens?.length) continue;
    for (const ref of refsIn(raw, placed.start)) {
      if (seen.has(ref.path)) continue;
      seen.add(ref.path);
      imports.push(ref);
    }
  }
  return { imports, inCode, inComment };
}
