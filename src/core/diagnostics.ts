import type { FileSystem } from './fs';
import type { Diagnostic, Severity } from './model';
import { positionAt } from './text';

/**
 * The lint rules, with stable codes. A code never changes meaning; the README has a section
 * per code (the extension links each diagnostic there).
 */
export const RULES = {
  'import-missing': { severity: 'error', title: 'Import target does not exist' },
  'import-cycle': { severity: 'warning', title: 'Import cycle' },
  'import-depth': { severity: 'warning', title: 'Import past the depth limit' },
  'import-outside': { severity: 'warning', title: 'Import outside the launch directory or repository' },
  'import-not-text': { severity: 'warning', title: 'Import of a file type the agent skips' },
  'import-in-code': { severity: 'info', title: 'Import-like text in code is not followed' },
  'file-truncated': { severity: 'warning', title: 'File over the per-file budget' },
  'chain-over-budget': { severity: 'warning', title: 'Chain over the total budget' },
  'large-file': { severity: 'warning', title: 'File over 40,000 characters' },
  'duplicate-content': { severity: 'info', title: 'Duplicate content' },
  'duplicate-injection': { severity: 'info', title: 'The same file sent twice' },
  'name-case': { severity: 'warning', title: 'Loaded because its name matches ignoring case' },
  'glob-invalid': { severity: 'error', title: 'Invalid glob' },
  'glob-no-match': { severity: 'warning', title: 'Glob matches no file' },
  'frontmatter-invalid': { severity: 'warning', title: 'Frontmatter does not parse' },
  unreadable: { severity: 'error', title: 'Unreadable instruction file' },
  binary: { severity: 'error', title: 'Binary instruction file' },
  'not-utf8': { severity: 'error', title: 'Instruction file is not UTF-8' },
  'not-committed': { severity: 'warning', title: 'Guidance not committed' },
  'untracked': { severity: 'warning', title: 'Instruction file not tracked by git' },
  'skill-invalid': { severity: 'warning', title: 'Skill not listed' },
  'rule-invalid': { severity: 'warning', title: 'Rule skipped' },
  'not-loaded': { severity: 'info', title: 'Instruction file this agent does not read' },
  'config-invalid': { severity: 'error', title: 'Agent setting the agent rejects or ignores' },
  deprecated: { severity: 'info', title: 'Deprecated instruction file' },
  'attribute-unknown': { severity: 'warning', title: 'Frontmatter attribute the agent does not support' },
  'too-large': { severity: 'warning', title: 'File larger than any agent context' },
  'too-deep': { severity: 'warning', title: 'Nesting too deep to follow' },
  'symlink-loop': { severity: 'info', title: 'Symbolic link loop' },
  'link-as-text': { severity: 'warning', title: 'A link stored as a plain file' },
  'lens-config-invalid': { severity: 'warning', title: 'Instruction Lens configuration file not understood' },
  'internal-error': { severity: 'error', title: 'Instruction Lens failed on this chain' },
} as const satisfies Record<string, { severity: Severity; title: string }>;

export type RuleCode = keyof typeof RULES;

/** The README has one section per rule code, headed by the code itself. */
export const README_URL = 'https://github.com/instruction-lens/instruction-lens';

/** Where a rule is explained: its README section. */
export function ruleHelpUri(code: string): string {
  return `${README_URL}#${code}`;
}

/** A diagnostic at a text range (offsets into `text`), or at the top of the file when no range. */
export function diag(
  code: RuleCode,
  file: string,
  message: string,
  at?: { text: string; start: number; end: number },
  data?: Record<string, string>,
  severity: Severity = RULES[code].severity,
): Diagnostic {
  const s = at ? positionAt(at.text, at.start) : { line: 0, column: 0 };
  const e = at ? positionAt(at.text, at.end) : { line: 0, column: 0 };
  return { path: file, line: s.line, column: s.column, endLine: e.line, endColumn: e.column, severity, code, message, ...(data ? { data } : {}) };
}

/**
 * Each diagnostic's identity, made once, as a number: a profile's whole-workspace answers
 * (ResolveContext.memo) hand the same diagnostic objects to every chain of a `check` pass, and a
 * set of numbers is far cheaper to fill for each chain than a set of strings.
 */
const ids = new WeakMap<Diagnostic, number>();
/** The number of each identity (the same rule at the same place with the same words). */
const idOfKey = new Map<string, number>();

function idOf(d: Diagnostic): number {
  let id = ids.get(d);
  if (id === undefined) {
    // Bounded: an extension host running for days must not keep every key it ever saw. Numbers
    // already handed out stay distinct, since new ones keep counting up.
    if (idOfKey.size > 100_000) idOfKey.clear();
    const key = `${d.path}:${d.line}:${d.column}:${d.code}:${d.message}`;
    id = idOfKey.get(key);
    if (id === undefined) idOfKey.set(key, (id = nextId++));
    ids.set(d, id);
  }
  return id;
}
let nextId = 0;

/**
 * Drop exact repeats (the same rule at the same place with the same words), keeping the first.
 * A repeat from another agent adds that agent to the first's: two versions of one agent
 * (claw-code and claw-code@head) word a problem alike, and both report it.
 */
export function uniqueDiagnostics(list: Diagnostic[]): Diagnostic[] {
  const at = new Map<number, number>();
  const out: Diagnostic[] = [];
  for (const d of list) {
    const id = idOf(d);
    const i = at.get(id);
    if (i === undefined) {
      at.set(id, out.length);
      out.push(d);
      continue;
    }
    const first = out[i];
    const more = d.agents?.filter((a) => !first.agents?.includes(a));
    // A copy: profiles hand the same diagnostic objects to many chains.
    if (more?.length) out[i] = { ...first, agents: [...(first.agents ?? []), ...more] };
  }
  return out;
}

/**
 * The existing file nearest to a broken path: same directory with the closest name, else
 * the same name in a nearby directory. Looks only at a few directories, never walks the tree.
 */
export function nearestExisting(fs: FileSystem, missing: string): string | undefined {
  const path = fs.path;
  const dir = path.dirname(missing);
  const base = path.basename(missing);
  let best: { p: string; d: number } | undefined;
  const consider = (p: string, name: string, penalty: number) => {
    const d = editDistance(name.toLowerCase(), base.toLowerCase()) + penalty;
    if (d <= Math.max(2, Math.floor(base.length / 3)) + penalty && (!best || d < best.d)) best = { p, d };
  };
  // The deepest existing ancestor of the wanted directory, and its children one level down.
  let existing = dir;
  while (!fs.stat(existing) && path.dirname(existing) !== existing) existing = path.dirname(existing);
  for (const e of fs.readDir(existing)) {
    if (e.type === 'file') consider(path.join(existing, e.name), e.name, existing === dir ? 0 : 1);
    if (e.type === 'dir' && existing !== dir) {
      for (const f of fs.readDir(path.join(existing, e.name)))
        if (f.type === 'file') consider(path.join(existing, e.name, f.name), f.name, 1 + editDistance(e.name, path.basename(dir)));
    }
  }
  return best?.p;
}

/** Levenshtein's distance between two strings; 99 for any two whose lengths differ by more than 8. */
export function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 8) return 99;
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagPrev = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diagPrev + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagPrev = tmp;
    }
  }
  return prev[b.length];
}
