import type { Document } from 'yaml';
import { diag } from './diagnostics';
import type { Diagnostic } from './model';
import { yamlLib } from './lazy';
import { ParseCache } from './parseCache';

/** A YAML frontmatter block at the top of an instruction file. */
export interface Frontmatter {
  /** Parsed mapping; undefined when the block is not a valid mapping. */
  data: Record<string, unknown> | undefined;
  /** The YAML error, when the block does not parse. */
  error?: { message: string; line: number; column: number };
  /** The whole block including both `---` lines and the newline after the closing one. */
  raw: string;
  /** The text after the block. */
  body: string;
  /** 0-based line where the body starts. */
  bodyLine: number;
}

const OPEN = /^---[ \t]*\r?\n/;
const CLOSE = /^---[ \t]*(?:\r?\n|$)/m;

/**
 * A header whose opening `---` line is missing: from the file's first line, `key: value` lines
 * (a header key the agents read first), lists and indented lines, then a `---` line.
 */
const HEADLESS = /^\uFEFF?(applyTo|paths|globs|alwaysApply|description|excludeAgent|name):.*\r?\n(?:(?:[ \t]|- |[\w-]+:).*\r?\n)*---[ \t]*\r?(?:\n|$)/;

/**
 * A rule file whose header lacks its opening `---` line (`applyTo:` on the first line, `---`
 * below: seen in a reviewed repository): no agent reads it as a header, so its scope is lost and
 * its lines are part of the text. Reported into `into`, with the line a quick fix adds (`opening`).
 */
export function headerWithoutOpening(file: string, text: string, into: Diagnostic[]): void {
  const m = HEADLESS.exec(text);
  if (m) into.push(diag('frontmatter-invalid', file, `The header has no opening "---" line, so it is read as text and its ${m[1]} is ignored: add "---" as the first line.`, { text, start: 0, end: m[0].search(/\r?\n/) }, { opening: '---' }));
}

/**
 * Deeper than this no frontmatter nests on purpose, and the YAML parser's time grows with depth
 * faster than linearly: `{{{…}}}` a thousand deep runs for minutes, `[[[…` thousands deep and
 * 20,000 lines each indented one space more take seconds and exhaust the stack.
 */
const MAX_YAML_NESTING = 100;

/** Why `yaml` is too deep to hand to the parser, or undefined. One pass, quotes not told apart. */
function yamlTooDeep(yaml: string): string | undefined {
  let depth = 0;
  let indent = 0;
  let lineStart = true;
  for (let i = 0; i < yaml.length; i++) {
    const c = yaml.charCodeAt(i);
    if (c === 10) {
      lineStart = true;
      indent = 0;
      continue;
    }
    if (lineStart && c === 32) {
      if (++indent > 4 * MAX_YAML_NESTING) return `indented more than ${4 * MAX_YAML_NESTING} spaces, too deep to parse`;
      continue;
    }
    lineStart = false;
    if (c === 91 || c === 123) {
      if (++depth > MAX_YAML_NESTING) return `brackets nest more than ${MAX_YAML_NESTING} levels deep, too deep to parse`;
    } else if ((c === 93 || c === 125) && depth > 0) depth--;
  }
  return undefined;
}

// A line of the frontmatter most rules have: a key, then a double-quoted string without escapes,
// a list of them, or a word-led plain string of glob characters (no `:`, `#`, quote or escape).
const QUOTED = '"[\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]*"';
const SIMPLE_LINE = new RegExp(`^([A-Za-z][A-Za-z0-9_-]*): (${QUOTED}|\\[(?:${QUOTED}(?:, ${QUOTED})*)?\\]|[A-Za-z][A-Za-z0-9 ./*{},_-]*[A-Za-z0-9./*{}_-]|[A-Za-z])$`);
/** The words YAML's core schema reads as a boolean or null, not a string. */
const NOT_STRING = new Set(['true', 'True', 'TRUE', 'false', 'False', 'FALSE', 'null', 'Null', 'NULL']);

/**
 * The mapping of a frontmatter made only of SIMPLE_LINEs with distinct keys (and empty lines), as the YAML parser
 * reads it (held equal to it on random frontmatter in test/unit/frontmatter.test.ts), or
 * undefined for any other: spares loading and running the parser for most rules' `paths:`.
 */
export function simpleYamlData(yaml: string): Record<string, unknown> | undefined {
  if (!yaml.endsWith('\n')) return undefined;
  const data: Record<string, unknown> = {};
  let keys = 0;
  for (const line of yaml.slice(0, -1).split('\n')) {
    if (line === '') continue;
    keys++;
    const m = SIMPLE_LINE.exec(line);
    if (!m || Object.hasOwn(data, m[1]) || NOT_STRING.has(m[1]) || NOT_STRING.has(m[2])) return undefined;
    const value = m[2];
    if (value.startsWith('"')) data[m[1]] = value.slice(1, -1);
    else if (value.startsWith('[')) data[m[1]] = value === '[]' ? [] : value.slice(2, -2).split('", "');
    else data[m[1]] = value;
  }
  return keys > 0 ? data : undefined;
}

/** Split off a leading `---` … `---` block; undefined when the file has none. */
export function parseFrontmatter(text: string): Frontmatter | undefined {
  return parsed.get(text);
}

const parsed = new ParseCache(parse);

function parse(text: string): Frontmatter | undefined {
  const open = OPEN.exec(text);
  if (!open) return undefined;
  const rest = text.slice(open[0].length);
  const close = CLOSE.exec(rest);
  if (!close) return undefined;
  const yamlText = rest.slice(0, close.index);
  const raw = text.slice(0, open[0].length + close.index + close[0].length);
  const body = text.slice(raw.length);
  const bodyLine = raw.split('\n').length - (raw.endsWith('\n') ? 1 : 0);
  const simple = simpleYamlData(yamlText);
  if (simple) return { data: simple, raw, body, bodyLine };
  const deep = yamlTooDeep(yamlText);
  if (deep) return { data: undefined, error: { message: deep, line: 1, column: 0 }, raw, body, bodyLine };
  let doc: Document.Parsed;
  try {
    doc = yamlLib().parseDocument(yamlText, { prettyErrors: false, uniqueKeys: false });
  } catch (e) {
    // The YAML parser recurses per level of nesting: `[[[[…` thousands deep exhausts the stack.
    if (!(e instanceof RangeError)) throw e;
    return { data: undefined, error: { message: 'nested too deeply to parse', line: 1, column: 0 }, raw, body, bodyLine };
  }
  if (doc.errors.length > 0) {
    const err = doc.errors[0];
    const pos = err.linePos?.[0];
    return {
      data: undefined,
      error: { message: err.message.split('\n')[0], line: (pos?.line ?? 1), column: (pos?.col ?? 1) - 1 },
      raw,
      body,
      bodyLine,
    };
  }
  // toJS throws on some documents that parse, e.g. an unresolved alias (`globs: **/*.ts`).
  let value: unknown;
  try {
    value = doc.toJS();
  } catch (e) {
    return { data: undefined, error: { message: (e as Error).message.split('\n')[0], line: 1, column: 0 }, raw, body, bodyLine };
  }
  const data = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : value == null ? {} : undefined;
  return { data, raw, body, bodyLine };
}

/** A frontmatter value that is a string or a list of strings, as a list; comma-separated strings split. */
export function stringList(value: unknown, splitCommas = true): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const items = Array.isArray(value) ? value : [value];
  const out: string[] = [];
  for (const item of items) {
    if (typeof item !== 'string') continue;
    const parts = splitCommas ? splitOutsideBraces(item) : [item];
    for (const p of parts) if (p.trim()) out.push(p.trim());
  }
  return out;
}

/** Split on commas that are not inside `{…}` (so `src/{a,b}.ts` stays whole). */
export function splitOutsideBraces(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  // By index, each part cut once: a character at a time (`for...of`, `+=`) made a string per
  // character, and `check` splits Copilot's and Cursor's patterns for every folder.
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 123) depth++;
    else if (c === 125) depth = Math.max(0, depth - 1);
    else if (c === 44 && depth === 0) {
      out.push(s.slice(from, i));
      from = i + 1;
    }
  }
  out.push(s.slice(from));
  return out;
}
