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
  /**
   * Where the agent stands in every list of agents (pickers, the CLI, the settings' enums), in
   * ascending order; the first is the default agent. Unique: the profiles count in tens.
   */
  order: number;
  /** The agent's name as its makers write it (`Claude Code`, `claw-code`); variants share it. */
  agent: string;
  /**
   * What the agent is, in a few plain words, for pickers and tooltips (`OpenAI's coding agent for
   * the terminal`); `profileSummary` adds the version modelled and how it was verified.
   */
  about: string;
  /** The agent version this profile models. */
  agentVersion: string;
  /** How the profile was verified: `real agent`, `source`, `docs`. */
  verified: 'real agent' | 'source' | 'docs';
  /** File names and relative globs this agent may read as instructions (for `check` and watching). */
  filePatterns: readonly string[];
  /**
   * The file "Create Instruction File" makes, relative to the folder it goes in (`CLAUDE.md`,
   * `.github/copilot-instructions.md`); none when the agent has no single main file.
   */
  mainFile?: string;
  /**
   * Whether the agent applies a conditional rule's glob to a file (`rel`: relative to the rule's
   * scope, with `/`); `check` asks it for `glob-no-match`. Default: `matchesAny` with no options.
   */
  matchesGlob?: (rel: string, glob: string) => boolean;
  /** Where the agent finds `@imports` in a file's text (the CodeLens shows where each leads). */
  importRefs?: (text: string) => ImportRef[];
  /**
   * The settings this profile reads from `ResolveContext.settings`, with their defaults: the
   * extension offers each as `instructionLens.<settingsSection>.<name>` (declared in package.json).
   */
  settings?: Readonly<Record<string, ProfileSetting>>;
  /** The prefix of this profile's extension settings, e.g. `claudeCode`, `car`. */
  settingsSection?: string;
  /** Editor settings read under their own names (the Copilot profile models Copilot Chat in VS Code). */
  editorSettings?: readonly string[];
  /** How to tell that a workspace uses this agent (the README's "Which agents are checked"). */
  evidence: AgentEvidence;
  /**
   * How `verify` and the fidelity suite run the agent's CLI against a local fake model; absent
   * when it cannot be run here, and then `notRunnable` says why.
   */
  localRun?: LocalRun;
  /** The protocol of its model requests, where the fidelity suite captures them. */
  wireProtocol?: WireProtocol;
  /** Why the agent cannot be verified on this machine (no CLI that can be pointed at a local model). */
  notRunnable?: string;
  /** Absolute paths outside the project this agent reads (user, managed), for watching. */
  globalPaths(env: ProfileEnv): string[];
  /** Resolve the chain for one target. Must not throw on bad input: report it instead. */
  resolve(ctx: ResolveContext): ProfileResult;
  /**
   * For `check`, which resolves a chain for every folder holding instruction files: what this
   * profile's chain for `ctx.target` depends on besides what is the same for every target of
   * the refresh (the launch folder aside, which `check` adds). Two targets with the same key must
   * give the same diagnostics, conditional rules and `fatal`, so `check` resolves only the first
   * target of each key. Absent: every target is resolved. A test compares the two ways on random
   * trees (test/unit/checkGroups.test.ts).
   */
  checkKey?(ctx: ResolveContext): string;
  /**
   * Names of files its chain looks for in every folder of the repository, through git
   * (`GitIndex.workTreeFilesNamed`): the extension's worker lists them ahead, in git's own
   * process, so a chain or a look at a changed file does not wait for git to walk the work tree.
   * A chain asked for the problems of a file of another name (`ResolveContext.problemsIn`) must
   * not need them: a look at that file does not list them.
   */
  workTreeNames?: readonly string[];
  /**
   * Its chain reads the files committed on the default branch (`GitIndex.committedPaths`): the
   * CLI's `check` asks git for them ahead, beside the work tree's listing.
   */
  readsCommit?: boolean;
}

/** An `@path` as written in a file: offsets of `@path` in the text, the path as written and to resolve. */
export interface ImportRef {
  start: number;
  end: number;
  written: string;
  path: string;
}

/** The wire protocol of an agent's model requests. */
export type WireProtocol = 'anthropic' | 'responses' | 'gemini' | 'chat' | 'unknown';

/**
 * How to run an agent's CLI non-interactively against a fake model on 127.0.0.1, with a fresh
 * HOME and an environment built from scratch, so that it can never reach the internet.
 */
export interface LocalRun {
  /** The npm package that installs the CLI; its package.json names the installed version. */
  npmPackage: string;
  /** Ask the CLI for its version rather than its package (it may run a newer bundle from a cache). */
  versionFromCli?: boolean;
  /**
   * Where the CLI unpacks its bundle on first run, to share between runs: the variable naming
   * it, the folder beside `node_modules` of a pinned install, and the folder under
   * `$XDG_CACHE_HOME` the CLI uses by default.
   */
  bundleCache?: { env: string; installDir: string; userCacheDir: string };
  /**
   * The arguments, the environment, and the files to write in the fresh home (from what the
   * home already holds there, a scenario's own settings) that point the agent at `url`, ask it
   * `prompt` and keep it offline.
   */
  setup(o: { home: string; url: string; prompt: string }): LocalRunSetup;
}

export interface LocalRunSetup {
  args: string[];
  env: Record<string, string>;
  /** Paths relative to the home → the file's new text from its current one (undefined: none). */
  homeFiles?: Record<string, (own: string | undefined) => string>;
}

/** One setting a profile reads, with the value it uses when the setting is not set. */
export interface ProfileSetting {
  default: number | boolean | string | null;
}

/**
 * What shows that an agent is used. A repository marker decides on its own (CI and a laptop
 * agree); the machine's evidence (its CLI on PATH, its folder in the home, an editor extension)
 * is added where the user asks for it.
 */
export interface AgentEvidence {
  /**
   * Globs, relative to the folder checked, of files only this agent's users keep (`CLAUDE.md`,
   * `.codex/**`). AGENTS.md marks Codex, whose only file it is; the other agents that read it
   * need their own mark. Empty: the agent is checked only when the user enables it.
   */
  markers: readonly string[];
  /** The agent's command line tool: its name on PATH, and the arguments that print its version. */
  cli?: { command: string; versionArgs: readonly string[] };
  /** Its folder in the home directory (`.claude`), created when the agent first runs. */
  homeDir?: string;
  /** The VS Code extension that is this agent (`github.copilot-chat`). */
  vscodeExtension?: string;
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
  /**
   * Set when the caller keeps only the problems in this file (the extension's quick look after an
   * edit): a profile may skip whole-workspace work whose problems all lie in other files, and the
   * chain's sources are then not all there. A test compares the problems in the file both ways.
   */
  problemsIn?: string;
  /**
   * The answer to a question that does not depend on the target (what git tracks, what every
   * nested file gives), computed once per refresh and shared by every chain of it: `check`
   * resolves a chain for every folder, and must not redo whole-workspace work for each. The
   * key must name everything the answer depends on besides the disk (root, settings…).
   */
  memo<T>(key: string, compute: () => T): T;
}

/**
 * `map`'s answer for `key`, computed once (an undefined answer too): for a map a profile keeps
 * per refresh under one `memo` key (by folder, by file), where a key string of its own per
 * question was made and hashed for every chain.
 */
export function getOrSet<K, V>(map: Map<K, V>, key: K, compute: () => V): V {
  let value = map.get(key);
  if (value === undefined && !map.has(key)) map.set(key, (value = compute()));
  return value as V;
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
