import { readFileSync } from 'node:fs';
import { carryHost, resolveChain, refreshHost, type Host } from './chain';
import { checkInSlices, listedFolder, listFiles } from './check';
import { suppressionsIn, type Suppressions } from './config';
import { detectFromRepository, nodeMachineProbe, probeMachine, type MachineEvidence } from './detect';
import { NodeFileSystem } from './fs';
import { runAsync, SnapshotGitIndex } from './git';
import type { Chain, Diagnostic } from './model';
import { isInside } from './paths';
import { governedFolder } from './patterns';
import { PROFILES } from './profiles';
import { launchDirectory, workspaceHost, type LaunchMode } from './workspaceHost';

/**
 * The extension's diagnostics work, answered away from the extension host's thread (the worker
 * thread of src/checkWorker.ts runs `CheckService`): whole-workspace and per-folder `check`
 * passes, and the quick look at the files a change touched. The extension sends the inputs —
 * folders, agents, settings, unsaved editor text, what changed on disk — and publishes the answers.
 */

/** One workspace folder's settings, as the extension resolves them for that folder. */
export interface FolderSettings {
  /** The workspace folder. */
  folder: string;
  /** The enabled profiles' ids, in registry order. */
  agents: string[];
  launch: LaunchMode;
  home: string;
  /** `ResolveContext.settings` by profile id. */
  settings: Record<string, Record<string, unknown>>;
}

/** Check every instruction file under `root` (a workspace folder, or a folder in one) as `folder` says. */
export interface CheckJob extends FolderSettings {
  root: string;
}

/** The chains of the folder one instruction file governs, for its own problems. */
export interface LookJob extends FolderSettings {
  file: string;
}

/** One agent's chain for one file, as the chain view shows it. */
export interface ChainJob {
  agent: string;
  /** The enabled agents: what their chains look for across the repository is listed ahead (`workTreeNames`). */
  agents?: string[];
  target: string;
  launchDir: string;
  home: string;
  settings: Record<string, unknown>;
}

export type CheckRequest = { id: number; change: Change } & (
  | { kind: 'check'; jobs: CheckJob[] }
  | { kind: 'look'; jobs: LookJob[] }
  | { kind: 'chain'; job: ChainJob }
  | { kind: 'detect'; folder: string }
  /** The machine's evidence of each agent (`probeMachine`): `home`, and the editor extensions installed of those the profiles name. */
  | { kind: 'machine'; home: string; extensions: string[] }
);

/**
 * What changed on disk since the previous request: `written`, only these files' contents (every
 * other answer read before still holds), or `undefined`, anything. `unsaved`: the editor's
 * unsaved texts now, and `unsavedKey` which version of them (a new key, new answers).
 */
export interface Change {
  written?: string[];
  unsaved: [string, Uint8Array][];
  unsavedKey: string;
  /** Whether git may run (a trusted workspace). */
  trusted: boolean;
}

export type CheckMessage = CheckRequest | { kind: 'cancel'; id: number };

/**
 * A chain's and a quick look's answer say when the question reached the worker and when the answer left it
 * (`times`, as `performance.timeOrigin + performance.now()`: comparable across threads), so the
 * extension's log tells the worker's time from the waits for either thread; a look's also says how
 * much of it the worker's thread spent on a core and waiting for one (`cpu`, ms, on Linux).
 */
export type CheckAnswer =
  | { id: number; diagnostics: Diagnostic[]; reals: Reals; times?: [number, number]; cpu?: number[] }
  | { id: number; chain: Chain; reals: Reals; times: [number, number] }
  /** Which agents a folder's files show: each profile's `Detection.evidence`, in registry order (none: not used). */
  | { id: number; evidence: string[][] }
  /** The machine's evidence of each profile, in registry order. */
  | { id: number; machine: Omit<MachineEvidence, 'profile'>[] }
  | { id: number; cancelled: true }
  | { id: number; error: string };

/**
 * The real path of each path with problems in an answer, as this change's cache has it, and what
 * that real file's comments suppress: the extension publishes a problem at its real file, less
 * what its comments turn off, and would otherwise work both out again on the extension host's
 * thread (a `stat` and an `lstat` per folder, and a read of the file) for files this thread read.
 */
export type Reals = [path: string, real: string, suppressions: Suppressions][];

/** Unsaved text cannot create a `.git`: the plain disk answers where the repository is. */
const DISK = new NodeFileSystem();

/**
 * Answers `CheckMessage`s one by one through one cache per change (what the extension's chains
 * do on their side): each file, listing and git answer is read once per change, and a change to
 * some files' text keeps every other answer. A pass gives the thread back every `sliceMs`, so a
 * quick look or a cancel sent meanwhile is answered before the pass ends.
 */
export class CheckService {
  private host: Host | undefined;
  private hostKey = '';
  private warmed = false;
  /** Passes under way, and those of them cancelled. */
  private readonly running = new Set<number>();
  private readonly cancelled = new Set<number>();

  constructor(
    private readonly answer: (a: CheckAnswer) => void,
    private readonly sliceMs = 20,
    /** How long after the first chain's answer the work ahead of later requests starts. */
    private readonly followMs = 1000,
  ) {}

  handle(message: CheckMessage): void {
    if (message.kind === 'cancel') {
      if (this.running.has(message.id)) this.cancelled.add(message.id);
      return;
    }
    const host = this.hostFor(message.change);
    if (message.kind === 'look') {
      const jobs = message.jobs;
      const received = now();
      const cpu = threadCpu();
      // Only the names the file has: a chain asked for one file's problems lists no others (`problemsIn`).
      void Promise.all(jobs.map((job) => listAhead(host, host.fs.path.dirname(job.file), job.agents, host.fs.path.basename(job.file)).catch(() => undefined))).then(() => {
        this.answer(this.safely(message.id, () => {
          const diagnostics = look(host, jobs);
          return { id: message.id, diagnostics, reals: realsOf(host, diagnostics), times: [received, now()], cpu: cpu && threadCpu()?.map((ms, i) => ms - cpu[i]) };
        }));
      });
      return;
    }
    if (message.kind === 'chain') {
      const job = message.job;
      const received = now();
      // This chain waits only for its own agent's listings; the other enabled agents' start once
      // it is answered, so the first chain after a start or a change does not share the machine
      // with git walking the work tree for them. Until the warm-up (`warm`), `followMs` later: the
      // extension host shows the first chain meanwhile, and shares the cores with this thread and git.
      void listAhead(host, job.launchDir, [job.agent]).catch(() => undefined).then(() => {
        this.answer(this.safely(message.id, () => {
          const chain = chainOf(host, job);
          return { id: message.id, chain, reals: realsOf(host, chain.diagnostics), times: [received, now()] };
        }));
        // Into the host of the latest request by then, which the next one carries over.
        const follow = (later = this.host!) => void listAhead(later, job.launchDir, job.agents ?? []).catch(() => undefined).then(() => this.warm(later, job));
        if (this.warmed) follow();
        else setTimeout(follow, this.followMs).unref();
      });
      return;
    }
    const failed = (e: unknown) => this.answer({ id: message.id, error: describe(e) });
    if (message.kind === 'detect') {
      void markerFiles(host, message.folder, message.change.trusted).then((files) => this.answer({ id: message.id, evidence: detectFromRepository(files, PROFILES).map((d) => d.evidence) }), failed);
      return;
    }
    if (message.kind === 'machine') {
      // Each profile's evidence without the profile, which cannot be posted.
      void probeMachine(PROFILES, { ...nodeMachineProbe(message.home, process.env), hasExtension: (id) => message.extensions.includes(id) }).then((found) => this.answer({ id: message.id, machine: found.map(({ profile: _, ...m }) => m) }), failed);
      return;
    }
    void this.check(message.id, host, message.jobs).then(this.answer, failed);
  }

  /**
   * Once, after the first chain and its listings: the other enabled agents' chains of its file,
   * as a quick look asks them (`problemsIn`), one a task, the answers dropped. The first look
   * after an edit then finds their code compiled and the file's folders read (test262's shape,
   * six agents: its CPU 60 -> 22 ms, for 55 ms spent here while the worker is idle).
   */
  private warm(host: Host, job: ChainJob): void {
    if (this.warmed) return;
    this.warmed = true;
    const agents = (job.agents ?? []).filter((a) => a !== job.agent);
    const next = (): void => {
      const agent = agents.shift();
      if (agent) setImmediate(() => {
        try {
          chainOf(host, { ...job, agent, settings: {} }, job.target);
        } catch {
          // Only warming: the look that follows says what went wrong.
        }
        next();
      });
    };
    next();
  }

  private safely(id: number, work: () => CheckAnswer): CheckAnswer {
    try {
      return work();
    } catch (e) {
      return { id, error: describe(e) };
    }
  }

  /** This change's host: the last one, carried over the files written, or a new one. */
  private hostFor(change: Change): Host {
    const key = `${change.trusted}\0${change.unsavedKey}`;
    const carried = this.host && key === this.hostKey && change.written ? carryHost(this.host, change.written) : undefined;
    if (carried) return (this.host = carried);
    this.hostKey = key;
    return (this.host = refreshHost(workspaceHost(new Map(change.unsaved), change.trusted)));
  }

  private async check(id: number, host: Host, jobs: readonly CheckJob[]): Promise<CheckAnswer> {
    const stale = () => this.cancelled.has(id);
    this.running.add(id);
    try {
      // git lists each repository, or only the folder checked, in its own process meanwhile: a
      // quick look is answered while it does.
      await Promise.all(jobs.map((job) => listFilesAhead(host, job)));
      const diagnostics: Diagnostic[] = [];
      for (const job of jobs) {
        if (stale()) return { id, cancelled: true };
        const profiles = PROFILES.filter((p) => job.agents.includes(p.id));
        const result = await checkInSlices(host, job.root, profiles, {
          // Each folder checked as the chain view resolves it: from the same launch directory.
          launchDir: (dir) => launchDirectory(job.launch, job.folder, dir, DISK),
          home: job.home,
          env: process.env,
          settings: job.settings,
          // The extension merges them with the active chain's own.
          merge: false,
        }, { cancelled: stale, sliceMs: this.sliceMs });
        if (!result || stale()) return { id, cancelled: true };
        diagnostics.push(...result.diagnostics);
      }
      return { id, diagnostics, reals: realsOf(host, diagnostics) };
    } finally {
      this.running.delete(id);
      this.cancelled.delete(id);
    }
  }
}

/**
 * Each enabled agent's chain for the folder each file governs, keeping the problems in that
 * file: what a change to the file's text alters at once, before a pass checks the rest.
 */
function look(host: Host, jobs: readonly LookJob[]): Diagnostic[] {
  const found: Diagnostic[] = [];
  for (const job of jobs) {
    const profiles = PROFILES.filter((p) => job.agents.includes(p.id));
    const target = governedFolder(job.file, profiles.flatMap((p) => p.filePatterns), undefined, host.fs.path);
    const launchDir = launchDirectory(job.launch, job.folder, target, DISK);
    if (!isInside(target, launchDir, host.fs)) continue;
    for (const profile of profiles) {
      // Only this file's problems are kept: an agent's work across the repository whose problems
      // lie elsewhere (Copilot reading every nested AGENTS.md) is not done for it.
      const chain = resolveChain({ profile, target, launchDir, home: job.home, env: process.env, settings: job.settings[profile.id], problemsIn: job.file }, host);
      found.push(...chain.diagnostics.filter((d) => d.path === job.file));
    }
  }
  return found;
}

/**
 * What the chains of these agents look for across the repository of `dir` (`workTreeNames`; `only`: that name alone),
 * listed ahead by git in its own process: settles once the answers are in this change's cache,
 * and the worker's thread answers other requests meanwhile.
 */
async function listAhead(host: Host, dir: string, agents: readonly string[], only?: string): Promise<void> {
  const git = host.git;
  const names = new Set(PROFILES.filter((p) => agents.includes(p.id)).flatMap((p) => p.workTreeNames ?? []).filter((n) => !only || n.toLowerCase() === only.toLowerCase()));
  if (!names.size || !(git instanceof SnapshotGitIndex)) return;
  const root = git.root(dir);
  // A listing that fails leaves the chain to ask git itself, as it would without this.
  if (root) await Promise.all([...names].map((name) => git.listNamedAhead(root, name))).catch(() => undefined);
}

/**
 * What a check of `job.root` lists, asked of git ahead: the repository's work tree when the job
 * is its root, else that folder's files only and the names the agents' chains look for across the
 * repository (a check of one folder after an edit does not list the repository's 57k paths).
 */
async function listFilesAhead(host: Host, job: CheckJob): Promise<void> {
  const git = host.git;
  const root = git.root(job.root);
  if (!root || !(git instanceof SnapshotGitIndex)) return;
  if (root === job.root) return git.listAhead(root);
  const folder = listedFolder(host, root, job.root);
  await Promise.all([folder ? git.listUnderAhead(root, folder) : git.listAhead(root), listAhead(host, job.root, job.agents)]);
}

/** Every agent's markers as git pathspecs: git picks them out of its list, where matching every file here took a second on 57k files. */
const MARKER_PATHSPECS = [...new Set(PROFILES.flatMap((p) => p.evidence.markers))].map((m) => `:(glob)${m}`);
const LS_MARKERS = ['-c', 'core.quotepath=off', 'ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...MARKER_PATHSPECS];

/**
 * The files of `folder` that may show which agents it uses: git's list of every agent's markers,
 * tracked or not, in its own process; without git (or untrusted), the walk of `check`.
 */
async function markerFiles(host: Host, folder: string, trusted: boolean): Promise<string[]> {
  const listed = trusted && host.git.root(folder) ? await runAsync(folder, LS_MARKERS) : undefined;
  return listed?.split('\0').filter(Boolean) ?? listFiles(host, folder).files;
}

/**
 * This thread's time on a core and waiting for one (ms), where Linux keeps them
 * (/proc/thread-self/schedstat): a quick look's answer says which its time was (`cpu`).
 */
function threadCpu(): number[] | undefined {
  try {
    return readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ', 2).map((ns) => Number(ns) / 1e6);
  } catch {
    return undefined;
  }
}

/** The time now, comparable across threads (see `CheckAnswer`). */
export function now(): number {
  return performance.timeOrigin + performance.now();
}

function chainOf(host: Host, job: ChainJob, problemsIn?: string): Chain {
  const profile = PROFILES.find((p) => p.id === job.agent);
  if (!profile) throw new Error(`no agent ${job.agent}`);
  return resolveChain({ profile, target: job.target, launchDir: job.launchDir, home: job.home, env: process.env, settings: job.settings, problemsIn }, host);
}

function realsOf(host: Host, diagnostics: readonly Diagnostic[]): Reals {
  return [...new Set(diagnostics.map((d) => d.path))].map((p) => {
    const real = host.fs.realPath(p);
    return [p, real, suppressionsIn(host.fs, real)];
  });
}

function describe(e: unknown): string {
  return e instanceof Error ? (e.stack ?? e.message) : String(e);
}
