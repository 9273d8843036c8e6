import * as path from 'node:path';
import * as vscode from 'vscode';
import { globMatcher } from '../core/globs';
import { SKIP_DIRS } from '../core/paths';
import { fixedNames } from '../core/patterns';
import type { Profile } from '../core/profile';
import type { Settings } from './settings';
import { CONFIG_FILE } from '../core/config';
import { PROFILES } from '../core/profiles';
import { isDirectory, OutsideWatcher, POLL_MS } from './outsideWatcher';

/** How long the watcher waits for a burst of changes to end before it reports them. */
const DEBOUNCE_MS = 150;
/**
 * VS Code's disk watcher hands its events to the extension host in chunks of 100, 200 ms apart
 * (a throttle in the workbench's watcher): after a full chunk, more of the same burst is coming,
 * so the report waits past the next chunk rather than firing between two.
 */
const WATCHER_CHUNK = 100;
const WATCHER_CHUNK_WAIT_MS = 300;

/**
 * Tells when anything an agent may read changes: one debounced event with the changed paths.
 *
 * What it costs must not grow with the workspace's folders, so each kind of path is watched by
 * what watches it for the least:
 * - Inside the workspace folders: VS Code's own file watcher (`createFileSystemWatcher`), which
 *   shares the workbench's one recursive watch of each folder: no watch handle of ours. Its
 *   events are kept when an agent's pattern matches the path, when a feature `track()`s it
 *   (imports, missing import targets), or when a folder appears or goes (a folder moved in with
 *   files already in it reports only itself). Files created, deleted or renamed through the
 *   editor (a quick fix creating a missing import) are also reported at once, from the
 *   workspace's file operation events, without waiting for the disk watcher.
 * - Outside them (every profile's `globalPaths`, the candidate files in the folders above each
 *   workspace folder and above a file outside the workspace, tracked paths): chokidar, on each
 *   exact path that exists (a file, or a folder such as `~/.claude/rules` with what is inside
 *   it), never on the folder around it; a path that does not exist yet is stat-ed once a second
 *   until it does (see `OutsideWatcher`). Paths newly watched are looked at again once the watch
 *   is ready, so a file changed while chokidar was starting is not missed.
 * Every change lands in one debounced event per burst: a branch switch touching thousands of
 * files causes one refresh. Unsaved edits come from the editor's document events.
 */
export class InstructionWatcher implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<readonly string[]>();
  /** Fires once a burst of changes settles, with the paths that changed. */
  readonly onDidChange = this.emitter.event;

  private folders: string[] = [];
  /** VS Code's watchers of the workspace folders (one each). */
  private folderWatchers: vscode.Disposable[] = [];
  /** The workspace folders not on disk now (deleted): their watcher is made again once they are back. */
  private readonly missingFolders = new Set<string>();
  private readonly folderPoller = setInterval(() => this.pollFolders(), POLL_MS);
  /** Whether a path relative to its workspace folder matches any agent's pattern: compiled once per restart. */
  private matchesPattern: (rel: string) => boolean = () => false;
  /**
   * Exact paths from the profiles (global paths, candidates above the folders), and those asked
   * for by features by owner (as asked, and resolved): kept apart, for the active chain tracks
   * its sources at every editor switch, and one set of them all, every path resolved again, was
   * made anew each time.
   */
  private baseExact = new Set<string>();
  /** Those of `baseExact` outside the workspace folders. */
  private baseOutside: string[] = [];
  private readonly tracked = new Map<string, { asked: readonly string[]; exact: Set<string> }>();
  /** The exact paths outside the workspace folders, watched by `outside`. */
  private readonly outside = new OutsideWatcher((p) => this.note(p));

  private pending = new Set<string>();
  private pendingStructural = false;
  /**
   * A file that concerns no agent by itself was created or deleted since the last burst. It
   * refreshes nothing, but the next burst is structural: the kept answers about its folder (its
   * listing, the file missing) would outlive it, and an edit that imports a file just made would
   * be told the file does not exist.
   */
  private unseenStructural = false;
  /**
   * Whether the burst reported last may have created, deleted or renamed a path (else only file
   * contents changed, and what lists files, such as git's index, still holds).
   */
  structural = true;
  /** When the first change of the burst reported last was seen (`performance.now()`): the debounce's start. */
  firstSeen = 0;
  private pendingSince: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The chunk of VS Code watcher events coming in now, and when the last full one came. */
  private chunk = { at: 0, count: 0 };
  private fullChunkAt = -Infinity;
  private readonly disposables: vscode.Disposable[] = [];
  /**
   * The first setup (`restart`) runs in a task after the constructor's, so that starting the
   * extension is no single long task: until then nothing is watched (what is tracked meanwhile is
   * watched from then on).
   */
  private started = false;
  private readonly starting = setTimeout(() => this.started || this.restart());

  constructor(private readonly settings: Settings) {
    this.disposables.push(
      settings.onDidChange((e) => {
        if (settings.changed(e, ['agents', 'home'])) this.restart();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.restart()),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length) this.noteDocument(e.document);
      }),
      vscode.workspace.onDidSaveTextDocument((doc) => this.noteDocument(doc)),
      // Closing a dirty document drops its unsaved text: what the agents would read changes back.
      vscode.workspace.onDidCloseTextDocument((doc) => this.noteDocument(doc)),
      // Files the editor itself creates, deletes or renames (quick fixes, the explorer): known now.
      vscode.workspace.onDidCreateFiles((e) => e.files.forEach((uri) => this.noteFolderEvent(uri, true))),
      vscode.workspace.onDidDeleteFiles((e) => e.files.forEach((uri) => this.noteFolderEvent(uri, false))),
      vscode.workspace.onDidRenameFiles((e) => e.files.forEach(({ oldUri, newUri }) => (this.noteFolderEvent(oldUri, false), this.noteFolderEvent(newUri, true)))),
    );
  }

  /**
   * Also watch these exact files or folders on behalf of `owner`, replacing what it asked
   * for before. Paths that do not exist yet are fine: their creation is reported.
   */
  track(owner: string, paths: readonly string[]): void {
    const before = this.tracked.get(owner)?.asked ?? [];
    if (before.length === paths.length && before.every((p, i) => p === paths[i])) return;
    this.tracked.set(owner, { asked: [...paths], exact: new Set(paths.map((p) => path.resolve(p))) });
    this.updateExact();
  }

  /** Whether a path is one the agents may read: a profile pattern matches it, or it is tracked. */
  isInstructionPath(p: string): boolean {
    if (this.isExact(p)) return true;
    const folder = this.folderOf(p);
    const rel = folder ? path.relative(folder, p).split(path.sep).join('/') : p.replace(/^\//, '');
    return this.matchesPattern(rel);
  }

  /** The paths outside the workspace chokidar watches (an OS watch handle each): for the log and the bench. */
  get watchedPaths(): number {
    return this.outside.watchedPaths;
  }

  private noteDocument(doc: vscode.TextDocument): void {
    if (doc.uri.scheme === 'file' && this.isInstructionPath(doc.uri.fsPath)) this.note(doc.uri.fsPath, false);
  }

  private restart(): void {
    this.started = true;
    const profiles = this.settings.enabledProfiles();
    const home = this.settings.home();
    this.folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    // Every agent's files, not only the enabled ones: a new GEMINI.md may change which agents are detected,
    // and the repository's configuration file changes which problems are shown. Compiled at the
    // first event that asks, not in the task setting everything else up.
    let tests: ((rel: string) => boolean)[] | undefined;
    this.matchesPattern = (rel) => (tests ??= [...new Set([...PROFILES.flatMap((p) => p.filePatterns), CONFIG_FILE])].map(globMatcher)).some((test) => test(rel));
    this.baseExact = new Set(
      [
        ...profiles.flatMap((p) => p.globalPaths({ home, platform: process.platform, env: process.env })),
        ...this.folders.flatMap((f) => (path.dirname(f) === f ? [] : ancestorCandidates(path.dirname(f), profiles))),
      ].map((p) => path.resolve(p)),
    );
    this.baseOutside = [...this.baseExact].filter((p) => !this.folderOf(p));
    for (const w of this.folderWatchers) w.dispose();
    this.folderWatchers = this.folders.map((folder) => this.watchFolder(folder));
    this.missingFolders.clear();
    for (const folder of this.folders) if (!isDirectory(folder)) this.missingFolders.add(folder);
    this.updateExact();
  }

  /**
   * A workspace folder deleted and made again (a re-clone, a restore, `rm -rf` and a checkout):
   * VS Code's watcher of it stops at the deletion and does not come back, so edits in the new
   * folder went unseen. One `stat` per folder a second notices both; a folder back gets a new
   * watcher, and is reported now and once that watcher is surely up (what was written in between
   * is not missed).
   */
  private pollFolders(): void {
    this.folders.forEach((folder, i) => {
      const exists = isDirectory(folder);
      if (!exists) this.missingFolders.add(folder);
      if (!exists || !this.missingFolders.delete(folder)) return;
      this.folderWatchers[i]?.dispose();
      this.folderWatchers[i] = this.watchFolder(folder);
      this.note(folder);
      setTimeout(() => this.folders.includes(folder) && this.note(folder), POLL_MS);
    });
  }

  /**
   * One VS Code watcher for everything in a workspace folder. The extension host receives every
   * event of the workbench's watcher and matches globs itself, so one `**\/*` filtered here costs
   * what a watcher per agent pattern would, and also sees tracked files and folders.
   */
  private watchFolder(folder: string): vscode.Disposable {
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(folder), '**/*'));
    return vscode.Disposable.from(
      watcher,
      watcher.onDidCreate((uri) => {
        this.countEvent();
        this.noteFolderEvent(uri, true);
      }),
      watcher.onDidChange((uri) => {
        this.countEvent();
        if (this.keep(uri.fsPath)) this.note(uri.fsPath, false);
      }),
      watcher.onDidDelete((uri) => {
        this.countEvent();
        this.noteFolderEvent(uri, false);
      }),
    );
  }

  /** Every event of VS Code's watcher, kept or not: a chunk's events arrive together. */
  private countEvent(): void {
    const now = performance.now();
    if (now - this.chunk.at > 50) this.chunk = { at: now, count: 0 };
    if (++this.chunk.count >= WATCHER_CHUNK) this.fullChunkAt = now;
  }

  /**
   * A path created or deleted: kept when it is one the agents may read, or when it is a folder
   * (a folder moved in or out reports only itself, not the instruction files inside it). A
   * deleted path cannot be asked what it was: one without an extension is taken for a folder.
   */
  private noteFolderEvent(uri: vscode.Uri, created: boolean): void {
    if (uri.scheme !== 'file') return;
    const p = uri.fsPath;
    if (this.keep(p)) return this.note(p);
    if (!this.folderOf(p) || isSkipped(this.relative(p))) return;
    if (created ? isDirectory(p) : path.extname(p) === '') this.note(p);
    else this.unseenStructural = true;
  }

  private updateExact(): void {
    if (!this.started) return;
    this.outside.watch([...this.baseOutside, ...[...this.tracked.values()].flatMap((t) => [...t.exact].filter((p) => !this.folderOf(p)))]);
  }

  private isExact(p: string): boolean {
    return this.baseExact.has(p) || [...this.tracked.values()].some((t) => t.exact.has(p));
  }

  /** Whether a change to a path in a workspace folder concerns the agents. */
  private keep(p: string): boolean {
    if (this.isExact(p)) return true;
    const folder = this.folderOf(p);
    if (!folder) return false;
    const rel = this.relative(p);
    return rel !== '' && !isSkipped(rel) && this.matchesPattern(rel);
  }

  private relative(p: string): string {
    const folder = this.folderOf(p);
    return folder ? path.relative(folder, p).split(path.sep).join('/') : p;
  }

  private folderOf(p: string): string | undefined {
    return this.folders.find((f) => p === f || p.startsWith(f.endsWith('/') ? f : `${f}/`));
  }

  /** A path changed; `structural`: it may have been created, deleted or renamed, not only written. */
  private note(p: string, structural = true): void {
    this.pending.add(p);
    this.pendingSince ??= performance.now();
    this.pendingStructural ||= structural;
    this.arm(DEBOUNCE_MS);
  }

  private arm(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      // A full chunk of a burst came in lately: the rest of the burst is due.
      const wait = this.fullChunkAt + WATCHER_CHUNK_WAIT_MS - performance.now();
      if (wait > 0) return this.arm(wait);
      const paths = [...this.pending];
      this.pending = new Set();
      this.structural = this.pendingStructural || this.unseenStructural;
      this.pendingStructural = this.unseenStructural = false;
      this.firstSeen = this.pendingSince ?? performance.now();
      this.pendingSince = undefined;
      this.emitter.fire(paths);
    }, ms);
  }

  dispose(): void {
    clearTimeout(this.starting);
    clearTimeout(this.timer);
    clearInterval(this.folderPoller);
    this.outside.dispose();
    for (const w of this.folderWatchers) w.dispose();
    this.emitter.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

function isSkipped(rel: string): boolean {
  return rel.split('/').some((s) => SKIP_DIRS.has(s));
}

/**
 * The files and rule folders the profiles would read in `dir` and every folder above it:
 * `**\/CLAUDE.md` gives `<dir>/CLAUDE.md`, `**\/.claude/rules/**\/*.md` gives the folder
 * `<dir>/.claude/rules`. Patterns with no fixed part (`**\/*.md`) give nothing.
 */
export function ancestorCandidates(dir: string, profiles: readonly Profile[]): string[] {
  const tails = new Set(profiles.flatMap(fixedNames));
  const out: string[] = [];
  for (let d = dir; ; d = path.dirname(d)) {
    for (const tail of tails) out.push(path.join(d, tail));
    if (path.dirname(d) === d) return out;
  }
}
