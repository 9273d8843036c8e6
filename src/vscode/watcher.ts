import { watch, type FSWatcher } from 'chokidar';
import { readdirSync, statSync, type Stats } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { globMatcher } from '../core/globs';
import { SKIP_DIRS } from '../core/paths';
import { fixedNames } from '../core/patterns';
import type { Profile } from '../core/profile';
import type { Settings } from './settings';
import { CONFIG_FILE } from '../core/config';
import { PROFILES } from '../core/profiles';

/** How long the watcher waits for a burst of changes to end before it reports them. */
const DEBOUNCE_MS = 150;
/**
 * VS Code's disk watcher hands its events to the extension host in chunks of 100, 200 ms apart
 * (a throttle in the workbench's watcher): after a full chunk, more of the same burst is coming,
 * so the report waits past the next chunk rather than firing between two.
 */
const WATCHER_CHUNK = 100;
const WATCHER_CHUNK_WAIT_MS = 300;
/** How often the paths outside the workspace whose folder does not exist yet are looked at. */
const POLL_MS = 1000;
/** A watched folder outside the workspace (a rules folder) is looked at this deep, this wide. */
const FOLDER_DEPTH = 3;
const FOLDER_ENTRIES = 500;

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

/**
 * The exact paths outside the workspace folders. chokidar watches each path that exists, itself:
 * a file (one watch handle, no listing of the folder it is in) or a folder such as
 * `~/.claude/rules` (and what is inside it, a few levels down). A path that does not exist is
 * stat-ed once a second until it does. Watching the folder holding a missing path instead made
 * chokidar list that folder again, with a `stat` of every entry, at each change in it: for a
 * candidate above the workspace that folder can be the home or the system's temporary folder,
 * where something changes all the time (a second of the extension host's time per few seconds
 * on a busy machine). A watch of a missing path misses its creation about one time in four
 * (tried here): a poll sees it.
 */
class OutsideWatcher {
  private chokidar: FSWatcher | undefined;
  private paths = new Set<string>();
  /** The paths chokidar watches: those that existed when last looked at. */
  private watched = new Set<string>();
  /** Paths that do not exist, and what they looked like last time (see `signature`). */
  private polled = new Map<string, string>();
  /**
   * Each polled path's nearest existing folder, with its modification time when the path was last
   * looked at: a path is stat-ed again only once that folder changed (an entry made, deleted or
   * renamed in it). One `stat` a folder a second, not one a path: the candidates above a
   * workspace are a few names in each of a few folders (the VS Code bench's 83: about 5). A file
   * system that does not update a folder's time when an entry is made in it (some network and
   * FUSE ones) would hide a new file there until something else changes the folder.
   */
  private readonly near = new Map<string, string>();
  private readonly poller = setInterval(() => this.poll(), POLL_MS);

  constructor(private readonly onChange: (p: string) => void) {}

  /** The paths chokidar watches (one OS watch handle each, more inside a watched folder). */
  get watchedPaths(): number {
    return this.watched.size;
  }

  /** Watch exactly these paths from now on. */
  watch(paths: readonly string[]): void {
    const next = new Set(paths);
    if (next.size === this.paths.size && [...next].every((p) => this.paths.has(p))) return;
    this.paths = next;
    this.rewatch();
  }

  private rewatch(): void {
    const watched = new Set<string>();
    const polled = new Map<string, string>();
    for (const p of this.paths) {
      if (exists(p)) watched.add(p);
      else polled.set(p, this.polled.get(p) ?? '');
    }
    this.polled = polled;
    const added = [...watched].filter((p) => !this.watched.has(p));
    const removed = [...this.watched].filter((p) => !watched.has(p));
    this.watched = watched;
    if (!this.chokidar && watched.size) this.start();
    if (removed.length) this.chokidar?.unwatch(removed);
    if (added.length && this.chokidar) {
      // What the new paths look like now: compared once the watch is surely up (chokidar reports
      // nothing that happened before it was), so a change made meanwhile is reported.
      const before = new Map(added.map((p) => [p, signature(p)]));
      this.chokidar.add(added);
      setTimeout(() => {
        for (const [p, was] of before) if (this.paths.has(p) && signature(p) !== was) this.onChange(p);
      }, POLL_MS);
    }
  }

  private start(): void {
    this.chokidar = watch([], { ignoreInitial: true, depth: FOLDER_DEPTH });
    this.chokidar.on('all', (event, p) => {
      if (this.paths.has(p) || this.insideWatchedFolder(p)) this.onChange(p);
      // A watched path went away: it is polled until it is back.
      if ((event === 'unlink' || event === 'unlinkDir') && this.watched.has(p)) this.rewatch();
    });
    this.chokidar.on('error', () => {
      // An unreadable folder or a watch limit: the rest keeps working; a refresh still works.
    });
  }

  private insideWatchedFolder(p: string): boolean {
    for (let d = path.dirname(p); d !== path.dirname(d); d = path.dirname(d)) if (this.watched.has(d)) return true;
    return false;
  }

  private poll(): void {
    let appeared = false;
    // Each folder's time, once this poll. A folder changed within the last poll may change again
    // within the same tick of its clock, its time unchanged: its paths are looked at next poll too.
    const times = new Map<string, string>();
    const time = (d: string, ms = times.has(d) ? 0 : (statOf(d)?.mtimeMs ?? 0)) =>
      times.get(d) ?? times.set(d, `${d}\0${Date.now() - ms < POLL_MS ? Math.random() : ms}`).get(d)!;
    for (const [p, before] of this.polled) {
      const near = this.near.get(p);
      if (near && time(near.slice(0, near.indexOf('\0'))) === near) continue;
      let d = path.dirname(p);
      while (!isDirectory(d) && d !== path.dirname(d)) d = path.dirname(d);
      // The folder's time before the path's look: a path made meanwhile changes it for the next poll.
      this.near.set(p, time(d));
      const now = signature(p);
      if (now === before) continue;
      this.polled.set(p, now);
      this.onChange(p);
      // It exists now: chokidar takes it over.
      if (now) appeared = true;
    }
    if (appeared) this.rewatch();
  }

  dispose(): void {
    clearInterval(this.poller);
    void this.chokidar?.close();
  }
}

function isSkipped(rel: string): boolean {
  return rel.split('/').some((s) => SKIP_DIRS.has(s));
}

/**
 * `statSync` that answers a missing path with undefined rather than an error: the outside watcher
 * asks about every missing candidate path once a second, and each error (its message and stack)
 * was garbage on the extension host's thread, about 4 KB a path (26 MB over a bench run).
 */
function statOf(p: string): Stats | undefined {
  try {
    return statSync(p, { throwIfNoEntry: false });
  } catch {
    // Not a folder on the way (ENOTDIR), unreadable: as missing.
    return undefined;
  }
}

function exists(p: string): boolean {
  return statOf(p) !== undefined;
}

function isDirectory(p: string): boolean {
  return statOf(p)?.isDirectory() ?? false;
}

/**
 * What a path looks like, cheaply: missing, a file's time and size, or a folder's files
 * (a few levels down, a bounded number) with theirs.
 */
function signature(p: string): string {
  const stat = statOf(p);
  if (!stat) return '';
  if (!stat.isDirectory()) return `${stat.mtimeMs}:${stat.size}`;
  const out: string[] = [];
  const visit = (dir: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (out.length >= FOLDER_ENTRIES) return;
      const child = path.join(dir, name);
      // Undefined when gone meanwhile.
      const s = statOf(child);
      if (!s) continue;
      out.push(`${child}:${s.mtimeMs}:${s.size}`);
      if (s.isDirectory() && depth < FOLDER_DEPTH) visit(child, depth + 1);
    }
  };
  visit(p, 1);
  return `dir:${out.join('|')}`;
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
