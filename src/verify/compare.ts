// The fidelity comparator: does what our CLI says an agent sends (its `parts`) match, byte for
// byte and in the right place, what the real agent sent (its captured request bodies)?
//
//   const r = compare({ requests, parts, instructionTexts, tmpRoot, agent })
// Shared by the fidelity suite (test/agents/) and `instruction-lens verify`.
//   r.ok, r.errors (each {kind, message}), r.report (readable, multi-line)
//
// parts: [{where, text}] in the order our renderer emits them; where is one of
//   system            the agent's system prompt (Anthropic `system`, Responses `instructions` and
//                     developer messages, Gemini `systemInstruction`, chat `role: "system"`)
//   user              the first user message / turn
//   tool-result       inside the result of the file-read tool call
//   after-tool-result a block or message after the tool result (same message or later ones)
// instructionTexts: [{path, text}] the instruction files of the fixture; any line of them that
//   the request carries must lie inside some matched part (else the renderer missed a file).
// tmpRoot: the fixture's temp dir, shown as <tmp> in messages.
// agent: optional; inferred from the body shape when absent.
//
// Which request: among the conversation's turns (the requests that offer tools), the first one
// that carries a tool result when there is one (it repeats the system prompt and first user
// message too), else the first turn; with no turn at all, the last request.

/* eslint-disable @typescript-eslint/no-explicit-any -- request bodies are the agents' JSON, untyped by nature */
import type { WireProtocol } from '../core/profile';
import { findProfile } from '../core/profiles';

export type { WireProtocol };

export const WHERE = ['system', 'user', 'tool-result', 'after-tool-result'] as const;

/** A piece of text of a request, tagged with where in the request it sits. */
export interface Segment {
  where: string;
  path: string;
  text: string;
}

export interface ExpectedPart {
  where: string;
  text: string;
}

export interface CompareError {
  kind: 'no-request' | 'bad-where' | 'order' | 'missing-part' | 'uncovered-text';
  message: string;
  /** The part (index into parts) or instruction file the problem is about. */
  part?: number;
  file?: string;
  /** For uncovered text: where in the request it was found, and at what offset of which segment. */
  where?: string;
  segment?: string;
  offset?: number;
}

export interface CompareMatch {
  part: number;
  where: string;
  path: string;
  start: number;
  end: number;
}

export interface CompareResult {
  ok: boolean;
  errors: CompareError[];
  report: string;
  requestIndex: number;
  matches: CompareMatch[];
}

/** The wire protocol of a request body: the agent's (its profile's `wireProtocol`), else inferred from the body. */
export function protocolOf(body: any, agent?: string): WireProtocol {
  const known = agent ? findProfile(agent)?.wireProtocol : undefined;
  if (known) return known;
  if (!body || typeof body !== 'object') return 'unknown';
  if (Array.isArray(body.contents) || body.systemInstruction) return 'gemini';
  if (Array.isArray(body.input)) return 'responses';
  if (Array.isArray(body.messages)) {
    if (body.system !== undefined || body.messages.some((m: any) => Array.isArray(m.content) && m.content.some((c: any) => c?.type === 'tool_result'))) return 'anthropic';
    if (body.messages.some((m: any) => m.role === 'system' && typeof m.content === 'string') || body.messages.some((m: any) => m.role === 'tool')) return 'chat';
    return 'anthropic';
  }
  return 'unknown';
}

const textOf = (c: any): string | null => {
  if (typeof c === 'string') return c;
  if (!c || typeof c !== 'object') return null;
  if (typeof c.text === 'string') return c.text;
  return null;
};

/** Push the text pieces of a content value (string | array of blocks) as segments. */
function pushContent(out: Segment[], where: string, path: string, content: any): void {
  if (typeof content === 'string') {
    out.push({ where, path, text: content });
    return;
  }
  if (Array.isArray(content)) {
    content.forEach((c: any, i: number) => {
      const t = textOf(c);
      if (t !== null) out.push({ where, path: `${path}[${i}].text`, text: t });
      else if (c && typeof c === 'object' && c.type === 'tool_result') pushContent(out, where, `${path}[${i}].content`, c.content);
    });
  }
}

/**
 * Split one request body into text segments, each tagged with its `where`.
 * Segments no `where` covers (e.g. later user turns before any tool call) get where 'other'.
 */
export function segmentsOf(body: any, protocol: WireProtocol): { segments: Segment[]; hasToolResult: boolean } {
  const out: Segment[] = [];
  if (!body || typeof body !== 'object') return { segments: out, hasToolResult: false };
  const split = { anthropic: anthropicSegments, responses: responsesSegments, gemini: geminiSegments, chat: chatSegments, unknown: undefined }[protocol];
  const hasToolResult = split ? split(body, out) : false;
  return { segments: out, hasToolResult };
}

/** Anthropic Messages: `system`, then messages; the first `tool_result` block splits the turn. Returns whether there is one. */
function anthropicSegments(body: any, out: Segment[]): boolean {
  let hasToolResult = false;
  if (typeof body.system === 'string') out.push({ where: 'system', path: 'system', text: body.system });
  else pushContent(out, 'system', 'system', body.system);
  let seenUser = false;
  let after = false;
  (body.messages || []).forEach((m: any, i: number) => {
    const p = `messages[${i}].content`;
    if (after) return pushContent(out, m.role === 'assistant' ? 'other' : 'after-tool-result', p, m.content);
    const blocks = Array.isArray(m.content) ? m.content : null;
    const tr = blocks ? blocks.findIndex((c: any) => c?.type === 'tool_result') : -1;
    if (tr >= 0) {
      hasToolResult = true;
      after = true;
      blocks!.forEach((c: any, j: number) => {
        const where = j < tr ? 'other' : j === tr ? 'tool-result' : 'after-tool-result';
        if (c?.type === 'tool_result') pushContent(out, where, `${p}[${j}].content`, c.content);
        else if (textOf(c) !== null) out.push({ where, path: `${p}[${j}].text`, text: textOf(c)! });
      });
      return;
    }
    if (m.role === 'system') return pushContent(out, 'system', p, m.content);
    if (m.role === 'user' && !seenUser) {
      seenUser = true;
      return pushContent(out, 'user', p, m.content);
    }
    pushContent(out, 'other', p, m.content);
  });
  return hasToolResult;
}

/** OpenAI Responses: `instructions`, then input items; the first tool output splits the turn. */
function responsesSegments(body: any, out: Segment[]): boolean {
  let hasToolResult = false;
  if (typeof body.instructions === 'string' && body.instructions) out.push({ where: 'system', path: 'instructions', text: body.instructions });
  let seenUser = false;
  let after = false;
  (body.input || []).forEach((item: any, i: number) => {
    const p = `input[${i}]`;
    if (item.type === 'function_call_output' || item.type === 'custom_tool_call_output' || item.type === 'local_shell_call_output') {
      if (!after) {
        hasToolResult = true;
        after = true;
        const o = item.output;
        if (typeof o === 'string') out.push({ where: 'tool-result', path: `${p}.output`, text: o });
        else pushContent(out, 'tool-result', `${p}.output`, o?.content ?? o);
        return;
      }
    }
    if (item.type === 'function_call' || item.type === 'local_shell_call') return;
    const where = after ? (item.role === 'assistant' ? 'other' : 'after-tool-result')
      : item.role === 'developer' || item.role === 'system' ? 'system'
      : item.role === 'user' && !seenUser ? 'user' : 'other';
    if (item.role === 'user' && !after) seenUser = true;
    if (item.type === 'function_call_output') {
      out.push({ where, path: `${p}.output`, text: typeof item.output === 'string' ? item.output : JSON.stringify(item.output) });
      return;
    }
    pushContent(out, where, `${p}.content`, item.content);
  });
  return hasToolResult;
}

/** Gemini: `systemInstruction`, then contents; the first functionResponse splits the turn. */
function geminiSegments(body: any, out: Segment[]): boolean {
  let hasToolResult = false;
  (body.systemInstruction?.parts || []).forEach((pt: any, i: number) => {
    if (typeof pt.text === 'string') out.push({ where: 'system', path: `systemInstruction.parts[${i}].text`, text: pt.text });
  });
  let seenUser = false;
  let after = false;
  (body.contents || []).forEach((c: any, i: number) => {
    const first = c.role === 'user' && !seenUser && !after;
    if (c.role === 'user') seenUser = true;
    (c.parts || []).forEach((pt: any, j: number) => {
      const p = `contents[${i}].parts[${j}]`;
      if (pt.functionResponse) {
        const r = pt.functionResponse.response;
        const text = typeof r?.output === 'string' ? r.output : JSON.stringify(r);
        const path = typeof r?.output === 'string' ? `${p}.functionResponse.response.output` : `${p}.functionResponse.response`;
        if (!after) {
          hasToolResult = true;
          after = true;
          out.push({ where: 'tool-result', path, text });
        } else out.push({ where: 'after-tool-result', path, text });
        return;
      }
      if (typeof pt.text !== 'string') return;
      const where = after ? (c.role === 'model' ? 'other' : 'after-tool-result') : first ? 'user' : 'other';
      out.push({ where, path: `${p}.text`, text: pt.text });
    });
  });
  return hasToolResult;
}

/** Chat Completions: messages; the first `tool` message splits the turn. */
function chatSegments(body: any, out: Segment[]): boolean {
  let hasToolResult = false;
  let seenUser = false;
  let after = false;
  (body.messages || []).forEach((m: any, i: number) => {
    const p = `messages[${i}].content`;
    if (m.role === 'tool' && !after) {
      hasToolResult = true;
      after = true;
      return pushContent(out, 'tool-result', p, m.content);
    }
    const where = after ? (m.role === 'assistant' ? 'other' : 'after-tool-result')
      : m.role === 'system' || m.role === 'developer' ? 'system'
      : m.role === 'user' && !seenUser ? 'user' : 'other';
    if (m.role === 'user') seenUser = true;
    pushContent(out, where, p, m.content);
  });
  return hasToolResult;
}

function offersTools(body: any): boolean {
  if (!body || typeof body !== 'object') return false;
  if (Array.isArray(body.tools) && body.tools.length) {
    return body.tools.some((t: any) => t.name || t.function || (t.functionDeclarations && t.functionDeclarations.length));
  }
  return false;
}

/** Pick the request to compare against (see the header). */
export function pickRequest(requests: any[], protocol?: WireProtocol): { index: number; body: any } {
  const bodies = (requests || []).filter((b) => b && typeof b === 'object');
  // The conversation's turns are the requests that offer tools: Claude Code also sends side
  // requests without tools (token counting of a file it read, with that tool result) to the same
  // endpoint, and Gemini CLI a router call.
  const all = bodies.map((_b, i) => i);
  const turns = bodies.some(offersTools) ? all.filter((i) => offersTools(bodies[i])) : all;
  for (const i of turns) if (segmentsOf(bodies[i], protocol ?? protocolOf(bodies[i])).hasToolResult) return { index: i, body: bodies[i] };
  if (turns.length && bodies.some(offersTools)) return { index: turns[0], body: bodies[turns[0]] };
  return bodies.length ? { index: bodies.length - 1, body: bodies[bodies.length - 1] } : { index: -1, body: null };
}

// --- readable diffs -------------------------------------------------------------------------

const show = (s: string, tmpRoot?: string): string => {
  let t = JSON.stringify(s);
  if (tmpRoot) t = t.split(tmpRoot).join('<tmp>');
  return t;
};

function lineCol(s: string, i: number): { line: number; col: number } {
  const before = s.slice(0, i);
  const line = before.split('\n').length;
  return { line, col: i - before.lastIndexOf('\n') };
}

/** Length of the longest prefix of `needle` found in `hay` (binary search; occurrence is monotone). */
function longestPrefixIn(hay: string, needle: string): { len: number; pos: number } {
  let lo = 0;
  let hi = needle.length;
  let pos = hay.length ? 0 : -1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    const p = hay.indexOf(needle.slice(0, mid));
    if (p >= 0) { lo = mid; pos = p; } else hi = mid - 1;
  }
  return { len: lo, pos: lo ? hay.indexOf(needle.slice(0, lo)) : pos };
}

function longestSuffixIn(hay: string, needle: string): { len: number; pos: number } {
  let lo = 0;
  let hi = needle.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (hay.includes(needle.slice(needle.length - mid))) lo = mid; else hi = mid - 1;
  }
  return { len: lo, pos: lo ? hay.indexOf(needle.slice(needle.length - lo)) : -1 };
}

/** Explain why `expected` is not found in the given segments: the best partial match and the first difference. */
export function explainMismatch(expected: string, segments: Segment[], tmpRoot?: string, ctx = 60): string {
  let best: ({ kind: 'prefix' | 'suffix'; seg: Segment; len: number; pos: number }) | null = null;
  for (const seg of segments) {
    const pre = longestPrefixIn(seg.text, expected);
    if (!best || pre.len > best.len) best = { kind: 'prefix', seg, ...pre };
    const suf = longestSuffixIn(seg.text, expected);
    if (suf.len > best!.len) best = { kind: 'suffix', seg, ...suf };
  }
  if (!best || best.len === 0) {
    return `    not even its first character occurs there${segments.length ? '' : ' (the region is empty: no segment)'}.\n    expected starts ${show(expected.slice(0, ctx * 2), tmpRoot)}`;
  }
  const { seg } = best;
  if (best.kind === 'prefix') {
    const k = best.len; // first differing index in expected
    const a = best.pos + k; // the same point in actual
    const { line, col } = lineCol(expected, k);
    return [
      `    longest common prefix: ${k} of ${expected.length} chars, at ${seg.path} offset ${best.pos}; first difference at expected char ${k} (line ${line}, col ${col})`,
      `    expected: …${show(expected.slice(Math.max(0, k - ctx), k), tmpRoot)} ⟨HERE⟩ ${show(expected.slice(k, k + ctx), tmpRoot)}`,
      `    actual:   …${show(seg.text.slice(Math.max(0, a - ctx), a), tmpRoot)} ⟨HERE⟩ ${show(seg.text.slice(a, a + ctx), tmpRoot)}`,
    ].join('\n');
  }
  const k = expected.length - best.len; // expected[k..] matched at best.pos
  const { line, col } = lineCol(expected, k);
  return [
    `    longest common suffix: ${best.len} of ${expected.length} chars, at ${seg.path} offset ${best.pos}; the texts differ just before expected char ${k} (line ${line}, col ${col})`,
    `    expected: …${show(expected.slice(Math.max(0, k - ctx), k), tmpRoot)} ⟨HERE⟩ ${show(expected.slice(k, k + ctx), tmpRoot)}`,
    `    actual:   …${show(seg.text.slice(Math.max(0, best.pos - ctx), best.pos), tmpRoot)} ⟨HERE⟩ ${show(seg.text.slice(best.pos, best.pos + ctx), tmpRoot)}`,
  ].join('\n');
}

/**
 * Where `expected` and the request part nearest to it first differ: the segment holding the
 * longest prefix of `expected`, the offset in `expected` where they part (`at`), and the same
 * point in the segment (`sentAt`); with the segment's text from the matching start (`sentFrom`).
 * Undefined when not even the first character is found.
 */
export function locateDifference(expected: string, segments: Segment[]): { segment: Segment; at: number; sentFrom: number; sentAt: number } | undefined {
  let best: { segment: Segment; len: number; pos: number } | undefined;
  for (const seg of segments) {
    const pre = longestPrefixIn(seg.text, expected);
    if (pre.len > 0 && (!best || pre.len > best.len)) best = { segment: seg, ...pre };
  }
  if (!best) return undefined;
  return { segment: best.segment, at: best.len, sentFrom: best.pos, sentAt: best.pos + best.len };
}

// --- the comparison -------------------------------------------------------------------------

const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The distinctive lines of an instruction file, used to notice its text in a request; also the
 * pieces of a line between `@imports`, since agents that inline imports rewrite those lines.
 */
export function probeLines(text: string, minLength = 8): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const add = (piece: string) => {
    const line = piece.trim();
    if (line.length < minLength || !/[A-Za-z]{3}/.test(line) || seen.has(line)) return;
    seen.add(line);
    out.push(line);
  };
  for (const raw of String(text).split(/\r?\n/)) {
    add(raw);
    if (raw.includes('@')) for (const piece of raw.split(/@\S+/)) add(piece);
  }
  return out;
}

/**
 * @param o.requests          captured request bodies, in order
 * @param o.parts             what our render says the agent sends
 * @param o.instructionTexts  the instruction files of the tree, whose text must not be sent outside a part
 * @param o.tmpRoot           shown as <tmp> in messages
 * @param o.agent             the profile id; the protocol is inferred from the body when absent
 */
export function compare({ requests, parts, instructionTexts = [], tmpRoot, agent }: {
  requests: any[];
  parts: ExpectedPart[];
  instructionTexts?: Array<{ path: string; text: string }>;
  tmpRoot?: string;
  agent?: string;
}): CompareResult {
  const { index, body } = pickRequest(requests, agent ? protocolOf(null, agent) : undefined);
  if (!body) {
    const e: CompareError = { kind: 'no-request', message: 'the agent sent no request body to compare against' };
    return { ok: false, errors: [e], report: e.message, requestIndex: -1, matches: [] };
  }
  const protocol = protocolOf(body, agent);
  const { segments } = segmentsOf(body, protocol);
  // 1. Every part, verbatim, in its region, in order.
  const { matches, errors } = matchParts(parts || [], segments, `request ${index}, ${protocol}`, tmpRoot);
  // 2. Instruction text the request carries must be inside some part.
  for (const file of instructionTexts) {
    const e = uncoveredText(file, segments, matches, tmpRoot);
    if (e) errors.push(e);
  }
  const report = errors.length
    ? `${errors.length} fidelity problem(s) against request ${index} (${protocol}):\n` + errors.map((e, i) => `${i + 1}. [${e.kind}] ${e.message}`).join('\n')
    : `all ${parts?.length ?? 0} part(s) found verbatim in request ${index} (${protocol}); no uncovered instruction text`;
  return { ok: errors.length === 0, errors, report, requestIndex: index, matches: matches.map(({ seg: _seg, ...m }) => m) };
}

/** Each part found verbatim in the segments of its `where`, after the part before it; or why not. */
function matchParts(parts: ExpectedPart[], segments: Segment[], request: string, tmpRoot: string | undefined): { matches: Array<CompareMatch & { seg: Segment }>; errors: CompareError[] } {
  const errors: CompareError[] = [];
  const matches: Array<CompareMatch & { seg: Segment }> = [];
  const cursor: Record<string, { si: number; off: number }> = {}; // where -> {seg index within region, offset}
  parts.forEach((part, pi) => {
    const label = `part ${pi} (${part.where})`;
    if (!(WHERE as readonly string[]).includes(part.where)) {
      errors.push({ kind: 'bad-where', part: pi, message: `${label}: unknown where ${JSON.stringify(part.where)}; one of ${WHERE.join(', ')}` });
      return;
    }
    const text = String(part.text ?? '');
    if (!text) return;
    const region = segments.filter((s) => s.where === part.where);
    const cur = cursor[part.where] ?? { si: 0, off: 0 };
    let found: { si: number; pos: number } | null = null;
    for (let si = cur.si; si < region.length && !found; si++) {
      const p = region[si].text.indexOf(text, si === cur.si ? cur.off : 0);
      if (p >= 0) found = { si, pos: p };
    }
    if (found) {
      const seg = region[found.si];
      cursor[part.where] = { si: found.si, off: found.pos + text.length };
      matches.push({ part: pi, where: part.where, path: seg.path, start: found.pos, end: found.pos + text.length, seg });
      return;
    }
    // Not in order: anywhere in the region?
    for (const seg of region) {
      const p = seg.text.indexOf(text);
      if (p >= 0) {
        errors.push({ kind: 'order', part: pi, message: `${label} is in ${seg.path} at offset ${p}, but before the part that precedes it — the order differs.\n    part starts ${show(text.slice(0, 80), tmpRoot)}` });
        matches.push({ part: pi, where: part.where, path: seg.path, start: p, end: p + text.length, seg });
        return;
      }
    }
    // Elsewhere in the request?
    const elsewhere = segments.find((s) => s.where !== part.where && s.text.includes(text));
    const hint = elsewhere ? `\n    (found verbatim in ${elsewhere.where} at ${elsewhere.path} instead)` : '';
    errors.push({
      kind: 'missing-part',
      part: pi,
      message: `${label} not found verbatim in the agent's ${part.where} (${request}; ${region.length} segment(s)).${hint}` +
        (elsewhere ? '' : `\n${explainMismatch(text, region.length ? region : segments, tmpRoot)}`),
    });
  });
  return { matches, errors };
}

/** A line of an instruction file that the request carries outside every matched part: the renderer missed a file. */
function uncoveredText(file: { path: string; text: string }, segments: Segment[], matches: Array<CompareMatch & { seg: Segment }>, tmpRoot: string | undefined): CompareError | undefined {
  const uncovered: Array<{ line: string; seg: Segment; pos: number }> = [];
  for (const line of probeLines(file.text)) {
    for (const variant of new Set([line, escapeHtml(line)])) {
      for (const seg of segments) {
        let p = seg.text.indexOf(variant);
        while (p >= 0) {
          const covered = matches.some((m) => m.seg === seg && m.start <= p && p + variant.length <= m.end);
          if (!covered) uncovered.push({ line: variant, seg, pos: p });
          p = seg.text.indexOf(variant, p + 1);
        }
      }
    }
  }
  if (!uncovered.length) return undefined;
  const u = uncovered[0];
  const ctx = 60;
  return {
    kind: 'uncovered-text',
    file: file.path,
    where: u.seg.where,
    segment: u.seg.path,
    offset: u.pos,
    message: `text of ${file.path} is in the request but in no part: ${show(u.line, tmpRoot)} at ${u.seg.where} ${u.seg.path} offset ${u.pos}` +
      (uncovered.length > 1 ? ` (+${uncovered.length - 1} more line occurrence(s))` : '') +
      `\n    around it: …${show(u.seg.text.slice(Math.max(0, u.pos - ctx), u.pos), tmpRoot)} ⟨HERE⟩ ${show(u.seg.text.slice(u.pos, u.pos + u.line.length + ctx), tmpRoot)}`,
  };
}
