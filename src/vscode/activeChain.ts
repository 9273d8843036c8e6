import * as path from 'node:path';
import * as vscode from 'vscode';
import { carryHost, refreshHost, resolveChain, type Host } from '../core/chain';
import { NodeFileSystem, type FileSystem } from '../core/fs';
import { launchDirectory } from '../core/workspaceHost';
import type { CachedFileSystem } from '../core/cachedFs';
import type { ChainJob, Reals } from '../core/checkService';
import type { Chain } from '../core/model';
import type { Profile } from '../core/profile';
import { PROFILES } from '../core/profiles';
import { ContextKey } from './contextKey';
import { coreHost } from './host';
import type { CheckThread } from './checkThread';
import { CheckWorker, type ChainAnswer } from './checkWorker';
import { unsavedKey } from './overlayFs';
import type { Settings } from './settings';
import { ancestorCandidates, type InstructionWatcher } from './watcher';

export type ResolvedChain = Chain & { fatal?: string };

/** What applies to the file in the active editor, for the selected agent. */
export interface ActiveChain {
  /** The file the chain is for. */
  readonly uri: vscode.Uri;
  readonly profile: Profile;
  readonly chain: ResolvedChain;
}

const AGENT_STATE_KEY = 'instructionLens.agent';
/** How long the first chain waits for agent detection (from activation) before it shows with the agents known so far. */
const DETECTION_WAIT_MS = 400;

/**
 * The one place that knows what applies to the active editor. It resolves the chain when the
 * active file, the disk (through the watcher), the settings or the selected agent change, and
 * fires `onDidChange`; the tree, status bar, CodeLens, diagnostics and preview only listen.
 * Chains for other agents or files (`chainFor`) are cached until the next change, and every chain
 * between two changes reads through one host: each file, folder listing and git answer is read
 * once per change, so following an editor to a new file costs only what is new on its way.
 */
export class ActiveChainModel implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<ActiveChain | undefined>();
  /** Fires after every refresh, with the active chain (undefined when no file is open). */
  readonly onDidChange = this.emitter.event;

  private active: ActiveChain | undefined;
  private activeUri: vscode.Uri | undefined;
  private readonly cache = new Map<string, ResolvedChain>();
  /** Each folder's launch directory (`launchDirFor`), until the next change: it stats the disk up to the repository. */
  private readonly launchDirs = new Map<string, string>();
  /** What the chains read through until the next change (see `refreshHost`), and the unsaved texts it holds. */
  private host: { host: Host; unsaved: string; listed?: Promise<void> } | undefined;
  private readonly hasChainKey = new ContextKey<boolean>('instructionLens.hasChain');
  private readonly disposables: vscode.Disposable[] = [];
  /** Unsaved text cannot create a `.git`: the plain disk answers where the repository is. */
  private readonly disk = new NodeFileSystem();
  /** Set until the first chain is resolved: activation returns first, and the view says it is working. */
  private starting: ReturnType<typeof setImmediate> | undefined;
  /** Counts the active chains asked of the worker thread: an answer to an older question is dropped. */
  private asked = 0;
  /** The active chain is being resolved on the worker thread. */
  private resolving = false;
  /** The latest update: settles once its chain is shown (or a newer update took over). */
  private updating: Promise<void> = Promise.resolve();
  /**
   * Counts what can change an answer besides the question itself (the disk, trust, the
   * workspace folders, the refresh command): not a settings change, whose effect is in the question.
   */
  private generation = 0;
  /**
   * The active chain asked of the worker and not answered yet. A settings change that leaves the
   * question as it was (agent detection's look at the machine and its listing of the folders,
   * which end while the first chain is on its way: they change which agents are enabled, which
   * the chain of the selected one does not read) waits for this answer instead of asking again behind it.
   */
  private asking: { question: string; answer: Promise<ChainAnswer | undefined> } | undefined;
  /** The chain asked for a document as it opened (`askOpened`), and the document opened next meanwhile. */
  private opened: ActiveChainModel['asking'];
  private nextOpened: vscode.Uri | undefined;
  /** Counts the times the cache was emptied: an answer asked before is not kept. */
  private cleared = 0;
  private firstShown!: () => void;
  /** Settles once the first chain (or that no file is open) is shown: work it does not need waits for it. */
  readonly shown = new Promise<void>((resolve) => (this.firstShown = resolve));
  /**
   * Where new chains are resolved, off the extension host's thread (a chain 500 folders deep takes
   * seconds), and the diagnostics' quick looks at changed files: a worker with its own cache of
   * the disk, which follows the watcher's changes as ours does.
   */
  readonly worker: CheckWorker;
  /**
   * Settles when agent detection may list the workspace folders (git, in its own process): at once
   * when the first chain waits for that listing, else once the first chain is shown.
   */
  readonly listingDue: Promise<void>;

  constructor(
    private readonly state: vscode.Memento,
    private readonly settings: Settings,
    private readonly watcher: InstructionWatcher,
    private readonly log?: vscode.LogOutputChannel,
    /** When activation began (`performance.now()`): loading this part of the extension counts in the wait below. */
    since = performance.now(),
    /** The worker thread, when activation started it (loading its code while this part loaded). */
    thread?: CheckThread,
    /** Where the worker threads keep the core's code cache (src/codeCache.ts). */
    codeCacheDir?: string,
  ) {
    this.worker = new CheckWorker(log, undefined, thread, codeCacheDir);
    this.disposables.push(
      this.worker,
      vscode.window.onDidChangeActiveTextEditor(() => this.followEditor()),
      vscode.window.onDidChangeVisibleTextEditors(() => this.followEditor()),
      vscode.window.tabGroups.onDidChangeTabs(() => this.followEditor()),
      // A document opens before its editor shows (VS Code tells the extension host first, and a
      // command opening a file waits for its text): its chain is asked then, so the switch finds it here.
      vscode.workspace.onDidOpenTextDocument((doc) => this.askOpened(doc.uri)),
      watcher.onDidChange((paths) => {
        // First: the worker's cache follows the same changes, before anything asks it again.
        this.worker.changed(watcher.structural ? undefined : paths);
        this.refresh(watcher.structural ? undefined : paths);
      }),
      settings.onDidChange((e) => {
        if (settings.changedChains(e)) this.refresh(undefined, true);
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.refresh()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.refresh()),
    );
    this.activeUri = fileOf(vscode.window.activeTextEditor);
    // The first chain reads the disk and git: after activation returns, so the editor and the
    // other extensions starting beside this one do not wait for it (the view says it is working),
    // and once the agents the workspace uses are known (git lists them off this thread) — or
    // DETECTION_WAIT_MS after activation: a slower listing (seconds on a large repository) does not hold the
    // chain back, and its answer refreshes the chain when it changes the agents.
    // Past that wait (the rest loads later under load), asked as soon as this task ends, ahead of
    // the timers the rest's other parts start with (behind them, it went out 0.1-0.35 s later).
    const wait = Math.max(0, DETECTION_WAIT_MS - (performance.now() - since));
    // Past it, the listing waits for the first chain: its git shared the cores with the worker's
    // answer and this thread's show of it.
    this.listingDue = wait ? Promise.resolve() : this.shown;
    const detected = wait ? Promise.race([settings.ready(true), new Promise<void>((resolve) => setTimeout(resolve, wait))]) : undefined;
    this.starting = setImmediate(() => {
      // The worker loads its code while detection lists the folders.
      this.worker.start();
      if (!detected) return this.refresh();
      // And is asked for the selected agent's chain at once, shown once the wait is over: detection
      // changes the selected agent only when it finds the one picked (or the default) unused, and
      // then that agent's chain is asked after this one.
      const uri = this.activeUri;
      if (uri) void this.ask(this.jobFor(this.profile, uri, this.launchDirFor(uri)), true);
      // Only settings may have changed meanwhile (detection's): the answer asked ahead holds.
      void detected.then(() => this.starting && this.refresh(undefined, true));
    });
  }

  /** Whether the first chain, or the active file's, is still on its way. */
  get working(): boolean {
    return this.starting !== undefined || this.resolving;
  }

  /** The chain for the active file and the selected agent. */
  get current(): ActiveChain | undefined {
    return this.active;
  }

  /**
   * The active chain once it follows the editor: a command run right after a switch (preview,
   * verify) acts on the file now active, not on the one before, whose chain is shown meanwhile.
   */
  async settled(): Promise<ActiveChain | undefined> {
    for (let seen: Promise<void> | undefined; seen !== this.updating; ) await (seen = this.updating);
    return this.active;
  }

  /** The selected agent: the one the user picked, else the default, else the first enabled. */
  get profile(): Profile {
    const enabled = this.settings.enabledProfiles();
    const picked = this.state.get<string>(AGENT_STATE_KEY);
    return enabled.find((p) => p.id === picked) ?? enabled.find((p) => p.id === this.settings.get('defaultAgent')) ?? enabled[0];
  }

  /** The agents the user enabled, in registry order. */
  get profiles(): Profile[] {
    return this.settings.enabledProfiles();
  }

  /** Why an agent is offered: what detected it, or the setting that pins it. */
  whyEnabled(profile: Profile): string {
    return this.settings.whyEnabled(profile, this.activeUri);
  }

  /** Said when the installed agent is not the version its profile models (meter tooltip, chain header, picker). */
  versionNotice(profile: Profile): string | undefined {
    return this.settings.versionNotice(profile);
  }

  async selectAgent(id: string): Promise<void> {
    await this.state.update(AGENT_STATE_KEY, id);
    await this.update();
  }

  /** The directory the agent most likely starts in for a file (or for `dir`, a folder of it), per `instructionLens.launchDirectory`. */
  launchDirFor(uri: vscode.Uri, dir = path.dirname(uri.fsPath)): string {
    const mode = this.settings.get('launchDirectory', uri);
    const folder = vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath;
    const key = `${mode}\0${folder}\0${dir}`;
    let launchDir = this.launchDirs.get(key);
    if (launchDir === undefined) this.launchDirs.set(key, (launchDir = launchDirectory(mode, folder, dir, this.disk)));
    return launchDir;
  }

  /** The chain one agent builds for a file or folder, resolved once per change of anything it reads. */
  chainFor(profileId: string, uri: vscode.Uri, launchDir = this.launchDirFor(uri)): ResolvedChain {
    const key = chainKey(profileId, uri, launchDir);
    const host = this.hostNow();
    let chain = this.cache.get(key);
    if (!chain) {
      chain = this.resolve(PROFILES.find((p) => p.id === profileId) ?? this.profile, uri, launchDir, host);
      this.cache.set(key, chain);
    }
    return chain;
  }

  /** What this change's chains read through: for other readers of the same files (the diagnostics' suppression comments), read once per change. */
  get readHost(): Host {
    return this.hostNow();
  }

  /**
   * The real paths a worker's answer brings (`Reals`), kept in `fs` (`readHost`'s when the
   * question was asked) while it is still this change's: after a change, they are worked out again.
   */
  knowReals(fs: FileSystem, reals: Reals | undefined): void {
    if (reals && fs === this.host?.host.fs) (fs as CachedFileSystem).knowReals(reals);
  }

  /**
   * Something a chain reads changed: drop every cached chain, and resolve the active one again.
   * `written`: only these files' contents changed (nothing created, deleted or renamed), so every
   * answer about other paths, and git's lists, still hold; else every answer goes.
   * `settingsOnly`: only settings changed, so an answer on its way to the same question still holds.
   */
  refresh(written?: readonly string[], settingsOnly = false): void {
    if (!settingsOnly) this.generation++;
    clearImmediate(this.starting);
    this.starting = undefined;
    this.cache.clear();
    this.cleared++;
    this.launchDirs.clear();
    const host = this.host;
    this.host = undefined;
    if (written && host && host.unsaved === unsavedKey()) {
      const carried = carryHost(host.host, written);
      if (carried) this.host = { host: carried, unsaved: host.unsaved };
    }
    void this.update();
  }

  /**
   * Show the chain of the active file and agent: from this change's cache at once, else resolved
   * on the worker thread through its cache of the same change (the chain shown stays until then),
   * or here when the worker could not answer. Settles once it is shown, or a newer update took over.
   */
  private update(): Promise<void> {
    return (this.updating = this.resolveActive());
  }

  private async resolveActive(): Promise<void> {
    const profile = this.profile;
    const uri = this.activeUri;
    const started = performance.now();
    const asked = ++this.asked;
    if (!uri) return this.show(undefined, started);
    const launchDir = this.launchDirFor(uri);
    const key = chainKey(profile.id, uri, launchDir);
    // A new host when unsaved text moved (the cache goes with the old one).
    this.hostNow();
    let chain = this.cache.get(key);
    let answer: ChainAnswer | undefined;
    if (!chain) {
      this.resolving = true;
      answer = await this.ask(this.jobFor(profile, uri, launchDir));
      // A change, a switch or another agent meanwhile: a newer update shows its own chain.
      if (asked !== this.asked) return;
      chain = this.cache.get(key) ?? answer?.chain ?? this.resolve(profile, uri, launchDir, this.hostNow());
      this.cache.set(key, chain);
    }
    this.show({ uri, profile, chain }, started, answer);
  }

  private jobFor(profile: Profile, uri: vscode.Uri, launchDir: string): ChainJob {
    return {
      agent: profile.id, agents: this.profiles.map((p) => p.id), target: uri.fsPath, launchDir, home: this.settings.home(uri),
      // Plain data, as `Settings` keeps it: posted to the worker.
      settings: this.settings.profileSettings(profile.id, uri),
    };
  }

  /**
   * The worker's answer to a question, or to the same one still on its way (see `asking`, and
   * `opened`): the enabled agents are not part of the question (the worker only lists ahead what
   * their chains will look for, once it has answered). One asked `ahead` (the first chain's) is
   * kept, answered or not, until it is asked again.
   */
  private ask(job: ChainJob, ahead = false): Promise<ChainAnswer | undefined> {
    const question = `${this.generation}\0${unsavedKey()}\0${vscode.workspace.isTrusted}\0${JSON.stringify({ ...job, agents: undefined })}`;
    if (this.opened?.question === question) return this.opened.answer;
    let asking = this.asking;
    if (asking?.question !== question) {
      const { fs } = this.hostNow();
      asking = this.asking = { question, answer: this.worker.chain(job).then((a) => (this.knowReals(fs, a?.reals), a)) };
    }
    if (!ahead) {
      const kept = asking;
      void kept.answer.then(() => {
        if (this.asking === kept) this.asking = undefined;
      });
    }
    return asking.answer;
  }

  /**
   * The selected agent's chain for a file opened and not shown yet, asked of the worker and kept
   * until the next change: one at a time, the latest opened next (a tool opening many files costs
   * one chain at a time, not one per file, and the active chain waits behind one at most).
   */
  private askOpened(uri: vscode.Uri): void {
    if (uri.scheme !== 'file' || this.starting !== undefined) return;
    if (this.opened) return void (this.nextOpened = uri);
    const profile = this.profile;
    const launchDir = this.launchDirFor(uri);
    const key = chainKey(profile.id, uri, launchDir);
    const cleared = this.cleared;
    if (this.cache.has(key)) return;
    void this.ask(this.jobFor(profile, uri, launchDir)).then((answer) => {
      this.opened = undefined;
      // Kept only when nothing it read changed since it was asked.
      if (answer && cleared === this.cleared) this.cache.set(key, answer.chain);
      const next = this.nextOpened;
      this.nextOpened = undefined;
      if (next) this.askOpened(next);
    });
    this.opened = this.asking;
  }

  private show(active: ActiveChain | undefined, started: number, answer?: ChainAnswer): void {
    this.resolving = false;
    this.firstShown();
    this.active = active;
    if (active) logRefresh(this.log, active, performance.now() - started, answer);
    void this.hasChainKey.set(!!active);
    this.trackSources();
    this.emitter.fire(active);
  }

  private followEditor(): void {
    if (this.starting !== undefined) return void (this.activeUri = fileOf(vscode.window.activeTextEditor) ?? this.activeUri);
    const editor = vscode.window.activeTextEditor;
    // A non-file editor (our preview or diff, output) keeps the chain, and so does a moment
    // with no active editor while editors switch; once no file is open at all, it clears.
    const next = editor ? (fileOf(editor) ?? this.activeUri) : anyFileOpen() ? this.activeUri : undefined;
    if (next?.toString() === this.activeUri?.toString()) return;
    this.activeUri = next;
    // Nothing on disk changed (the watcher says when it does): the answers of this change hold.
    void this.update();
  }

  private resolve(profile: Profile, uri: vscode.Uri, launchDir: string, host: Host): ResolvedChain {
    const home = this.settings.home(uri);
    try {
      return resolveChain(
        { profile, target: uri.fsPath, launchDir, home, env: process.env, settings: this.settings.profileSettings(profile.id, uri) },
        host,
      );
    } catch (e) {
      // A profile must not throw; if one does, show it rather than break every view.
      const fatal = `Instruction Lens could not resolve ${profile.agent}'s chain: ${(e as Error).message}`;
      this.log?.error(fatal, e as Error);
      return {
        agent: profile.id, agentVersion: profile.agentVersion, target: uri.fsPath, launchDir, home, sources: [],
        budget: { unit: 'chars', limit: null, used: 0 }, diagnostics: [], start: [], onRead: [], fatal,
      };
    }
  }

  /**
   * This change's host. Unsaved text is part of what the agents would read: when an open document's
   * text or dirty state has moved since the host was made (the watcher reports it only after its
   * debounce), a new one is made, and the chains cached from the old one go with it.
   */
  private hostNow(): Host {
    const unsaved = unsavedKey();
    if (this.host?.unsaved !== unsaved) {
      if (this.host) {
        this.cache.clear();
        this.cleared++;
      }
      this.host = { host: refreshHost(coreHost()), unsaved };
    }
    return this.host.host;
  }

  /** Watch what the active chain reads, and for a file outside the workspace, the folders above it. */
  private trackSources(): void {
    const active = this.active;
    if (!active) return this.watcher.track('activeChain', []);
    const outside = !vscode.workspace.getWorkspaceFolder(active.uri);
    this.watcher.track('activeChain', [
      ...active.chain.sources.map((s) => s.path),
      ...(outside ? ancestorCandidates(path.dirname(active.uri.fsPath), this.profiles) : []),
    ]);
  }

  dispose(): void {
    clearImmediate(this.starting);
    this.starting = undefined;
    this.emitter.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

/**
 * One line per refresh: which file, which agent, what the chain holds, how long it took, and from
 * the worker's answer, where the time went: the question waiting for the worker, the worker, the
 * answer waiting for this thread.
 */
function logRefresh(log: vscode.LogOutputChannel | undefined, { uri, profile, chain }: ActiveChain, ms: number, answer?: ChainAnswer): void {
  if (!log) return;
  const unit = chain.budget.unit;
  const limit = chain.budget.limit === null ? 'no limit' : `limit ${chain.budget.limit} ${unit}`;
  const [queued, worker, waited] = answer?.ms.map((ms) => `${ms.toFixed(1)} ms`) ?? [];
  const parts = answer ? `; queued ${queued}, the worker ${worker}, the answer queued ${waited}` : '';
  log.info(
    `Refreshed ${path.basename(uri.fsPath)} for ${profile.agent} in ${ms.toFixed(1)} ms: ${chain.sources.length} sources, ` +
      `${chain.budget.used} ${unit} at start (${limit}), ${chain.diagnostics.length} problems; launched in ${chain.launchDir}${parts}`,
  );
  if (chain.fatal) log.error(chain.fatal);
}

function chainKey(profileId: string, uri: vscode.Uri, launchDir: string): string {
  return `${profileId}\0${uri.fsPath}\0${launchDir}`;
}

function anyFileOpen(): boolean {
  return vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.scheme === 'file'));
}

function fileOf(editor: vscode.TextEditor | undefined): vscode.Uri | undefined {
  return editor?.document.uri.scheme === 'file' ? editor.document.uri : undefined;
}
