import { uniqueDiagnostics } from './diagnostics';
import type { Diagnostic, Severity } from './model';
import { findProfile } from './profiles';

const RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2, hint: 3 };

export interface MergeOptions {
  /** The real path of a file: a problem seen through a symlink is reported once, at the real file. */
  realPath?: (p: string) => string;
  /** Paths in messages are written relative to this folder (or the folder holding each file) … */
  root?: string | ((file: string) => string | undefined);
  /** … or from `~/` under this home. */
  home?: string;
  /** The file system's separator (`\\` on Windows); `/` by default. */
  sep?: string;
}

/**
 * One problem, one entry: the diagnostics several agents give at the same place with the same
 * code become one that names them all ("Claude Code, Codex CLI: …") and lists their ids in
 * `agents`. A message that does not say which agent it is about gets its agent's name in front.
 * Takes diagnostics as `resolveChain` gives them (one agent each).
 */
export function mergeDiagnostics(list: readonly Diagnostic[], opts: MergeOptions = {}): Diagnostic[] {
  const groups = new Map<string, Diagnostic[]>();
  for (const d of uniqueDiagnostics([...list])) {
    const at = realFile(d.path, opts);
    // The same problem: same place, code and weight (Claude Code's not-loaded problem and Codex's by-design hint stay apart).
    const key = `${at}\0${d.line}\0${d.column}\0${d.code}\0${d.severity}`;
    const root = typeof opts.root === 'function' ? opts.root(at) : opts.root;
    const one = { ...d, path: at, message: relativePaths(d.message, { root, home: opts.home, sep: opts.sep }) };
    const group = groups.get(key);
    if (group) group.push(one);
    else groups.set(key, [one]);
  }
  return [...groups.values()].map(mergeGroup);
}

/**
 * Absolute paths in a message, as a user reads them: relative to the workspace folder, or from
 * `~/`. The folder itself is "the workspace folder". Profiles write absolute paths because
 * they do not know which folder the user has open.
 */
export function relativePaths(message: string, opts: { root?: string; home?: string; sep?: string }): string {
  let text = message;
  const { root, home, sep = '/' } = opts;
  if (root && root !== sep && !root.endsWith(sep) && text.includes(root)) {
    text = text.split(`${root}${sep}`).join('');
    text = text.replace(alone(root), 'the workspace folder');
  }
  if (home && home !== sep && !home.endsWith(sep) && text.includes(home)) {
    text = text.split(`${home}${sep}`).join(`~${sep}`);
    text = text.replace(alone(home), '~');
  }
  return text;
}

/** A folder's path not followed by more of a name; compiled once per folder (the extension merges every problem at each editor switch). */
function alone(folder: string): RegExp {
  let re = aloneRes.get(folder);
  if (!re) {
    if (aloneRes.size > 100) aloneRes.clear();
    aloneRes.set(folder, (re = new RegExp(`${escape(folder)}(?![\\w-]|\\.\\w)`, 'g')));
  }
  return re;
}

const aloneRes = new Map<string, RegExp>();

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function realFile(p: string, opts: MergeOptions): string {
  return opts.realPath ? opts.realPath(p) : p;
}

function mergeGroup(group: Diagnostic[]): Diagnostic {
  const [first] = group;
  const agents = [...new Set(group.flatMap((d) => d.agents ?? []))];
  const severity = group.map((d) => d.severity).sort((a, b) => RANK[a] - RANK[b])[0];
  // What any agent knows for a quick fix: Claude Code may name a likely file where another does not.
  const data = Object.assign({}, ...group.map((d) => d.data ?? {}).reverse()) as Record<string, string>;
  return {
    ...first,
    severity,
    message: messageFor(first.message, first.agents?.[0], agents),
    ...(Object.keys(data).length ? { data } : {}),
    agents,
  };
}

/** The names a message may use for an agent: its full name and without the vendor ("Copilot CLI"); once per agent. */
function namesOf(id: string): string[] {
  let names = NAMES.get(id);
  if (!names) {
    const agent = findProfile(id)?.agent ?? id;
    const short = agent.replace(/^GitHub /, '').replace(/ \(.*\)$/, '');
    NAMES.set(id, (names = [...new Set([agent, short])].sort((a, b) => b.length - a.length)));
  }
  return names;
}

const NAMES = new Map<string, string[]>();

export function agentLabel(id: string): string {
  return findProfile(id)?.agent ?? id;
}

function messageFor(message: string, author: string | undefined, agents: string[]): string {
  if (!author || !agents.length) return message;
  const names = namesOf(author);
  // Versions of one agent (claw-code, claw-code@head) are one name in a message.
  const labels = [...new Set(agents.map(agentLabel))];
  if (labels.length === 1) {
    // Already says which agent ("Claude Code does not…"): keep it as written.
    if ([...names, names.at(-1)!.split(' ')[0]].some((n) => message.includes(n))) return message;
    return `${agentLabel(author)}: ${message}`;
  }
  // Several agents: name them once in front, and the first one's wording speaks for all.
  let text = message;
  for (const n of names) {
    text = text.split(`${n}'s`).join("the agent's");
    text = text.split(n).join('the agent');
  }
  if (text.startsWith('the agent')) text = 'The agent' + text.slice('the agent'.length);
  return `${labels.join(', ')}: ${text}`;
}
