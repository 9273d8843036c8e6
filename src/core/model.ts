/**
 * The vocabulary of Instruction Lens: a chain of instruction sources that one agent loads for
 * one target, with the budget they share, the problems found and the exact text injected.
 * Plain data, so the CLI can print it as JSON and the extension can render it.
 */
import { byteCount, charCount } from './text';

/** Who wrote a source and how the agent treats it. */
export type SourceKind =
  | 'managed' // organisation policy file
  | 'user' // the user's global file (~/.claude/CLAUDE.md, ~/.codex/AGENTS.md …)
  | 'project' // checked-in file of a directory (CLAUDE.md, AGENTS.md …)
  | 'local' // personal, not checked in (CLAUDE.local.md)
  | 'rule' // a rule file (.claude/rules, .cursor/rules, *.instructions.md …)
  | 'import' // pulled in by an @import of another source
  | 'skill' // a skill (SKILL.md)
  | 'memory'; // auto memory (MEMORY.md)

/** When the agent loads a source. */
export type LoadTime = 'start' | 'on-read';

/** What happened to a source. */
export type SourceStatus =
  | 'loaded'
  | 'truncated'
  | 'omitted'
  | 'duplicate'
  | 'not-matched'
  | 'on-read'
  | 'listed'
  | 'excluded'
  | 'missing'
  | 'unreadable';

export interface Source {
  /** Absolute path. */
  path: string;
  kind: SourceKind;
  /** The directory whose files this source governs. */
  scope: string;
  loads: LoadTime;
  status: SourceStatus;
  /** Size on disk, in Unicode code points and in bytes (0 when missing). */
  chars: number;
  bytes: number;
  /** What the agent actually injects of it (after transforms and cuts). */
  injectedChars: number;
  injectedBytes: number;
  /** The source whose @import pulled this one in. */
  importedBy?: string;
  /** One sentence: why this source has this status. */
  reason: string;
  /** Globs that scope a conditional rule (paths:, applyTo, globs). */
  globs?: string[];
  /**
   * Set when the agent sends this file's text a second time in the same conversation (this entry
   * is the second copy): one sentence saying how the first copy arrived.
   */
  sentTwice?: string;
  /** Where the agent's cut falls (0-based line/column in the file), for truncated sources. */
  cutAt?: { line: number; column: number };
}

export type BudgetUnit = 'chars' | 'bytes';

export interface Budget {
  unit: BudgetUnit;
  /** Total limit; null when the agent sets none. */
  limit: number | null;
  /** Per-file limit, when the agent has one. */
  perFile?: number | null;
  /** Used by what loads at start. */
  used: number;
  /**
   * Added when the agent reads the target (nested files, matching rules), apart from `used`:
   * a chain whose files all load on read uses 0 at start and this much on read. Set by `resolveChain`.
   */
  onRead?: number;
}

/**
 * `error`, `warning` and `info` are problems: something is broken or lost. `hint` is a fact about
 * how an agent works by design (shown faintly in the editor, in the chain view, and by `check
 * --verbose`), never a problem to fix.
 */
export type Severity = 'error' | 'warning' | 'info' | 'hint';

export interface Diagnostic {
  path: string;
  /** 0-based positions; the CLI prints them 1-based. */
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: Severity;
  code: string;
  message: string;
  /** Machine-readable details for quick fixes (e.g. `suggestion`, `target`). */
  data?: Record<string, string>;
  /** The profile ids that report this problem (set by `resolveChain`; merged by `check`). */
  agents?: string[];
}

/** Where an agent puts instruction text in its request. */
export type PartPlace =
  | 'system' // the system prompt / system instruction
  | 'user' // the first user message
  | 'tool-result' // inside the result of the tool call that read the target
  | 'after-tool-result' // a block or message right after that tool result
  | 'message'; // a message of its own

export interface RenderPart {
  where: PartPlace;
  text: string;
}

export interface Chain {
  agent: string;
  agentVersion: string;
  target: string;
  launchDir: string;
  home: string;
  sources: Source[];
  budget: Budget;
  diagnostics: Diagnostic[];
  /** What the agent injects at start, verbatim. */
  start: RenderPart[];
  /** What the agent adds when it reads the target, verbatim. */
  onRead: RenderPart[];
}

/**
 * A source as every profile starts one: loaded, nothing measured or injected yet, no reason;
 * `fields` sets the rest. The one place a `Source` is built.
 */
export function newSource(path: string, kind: SourceKind, scope: string, loads: LoadTime, fields: Partial<Source> = {}): Source {
  return { path, kind, scope, loads, status: 'loaded', chars: 0, bytes: 0, injectedChars: 0, injectedBytes: 0, reason: '', ...fields };
}

/** Record what the agent injects of a source, in both units. */
export function setInjected(source: Source, text: string): void {
  source.injectedChars = charCount(text);
  source.injectedBytes = byteCount(text);
}
