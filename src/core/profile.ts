import type { FileSystem } from './fs';
import type { GitIndex } from './git';
import type { Budget, Diagnostic, RenderPart, Source } from './model';

/**
 * An agent profile: the rules one version of one agent follows to find, transform, budget
 * and inject instruction files. One file per profile under `profiles/`; everything else in
 * the core is shared machinery.
 */
export interface Profile {
  /** Stable id used by the CLI and settings, e.g. `claude-code`, `claw-code@head`. */
  id: string;
  /** Human name of the agent. */
  agent: string;
  /** The agent version this profile models. */
  agentVersion: string;
  /** How the profile was verified: `real agent`, `source`, `docs`. */
  verified: string;
  /** File names and relative globs this agent may read as instructions (for `check` and watching). */
  filePatterns: readonly string[];
  /** Absolute paths outside the project this agent reads (user, managed), for watching. */
  globalPaths(env: ProfileEnv): string[];
  /** Resolve the chain for one target. Must not throw on bad input: report it instead. */
  resolve(ctx: ResolveContext): ProfileResult;
}

/** Where the agent runs: the parts of the environment that change what it reads. */
export interface ProfileEnv {
  home: string;
  platform: NodeJS.Platform;
  /** Environment variables the agent reads (CODEX_HOME, CLAUDE_CONFIG_DIR …). */
  env: Readonly<Record<string, string | undefined>>;
}

export interface ResolveContext extends ProfileEnv {
  fs: FileSystem;
  git: GitIndex;
  /** Absolute path of the file or directory the user looks at. */
  target: string;
  /** Absolute path of the directory the agent is started in. */
  launchDir: string;
  /** Profile-specific settings (budgets, approvals, file names), already validated by the caller. */
  settings: Readonly<Record<string, unknown>>;
}

export interface ProfileResult {
  sources: Source[];
  budget: Budget;
  diagnostics: Diagnostic[];
  start: RenderPart[];
  onRead: RenderPart[];
  /** Set when the real agent would fail to build its prompt at all. */
  fatal?: string;
}
