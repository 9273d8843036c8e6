import { watch, type FSWatcher } from 'chokidar';
import { readdirSync, statSync, type Stats } from 'node:fs';
import * as path from 'node:path';

/** How often the paths outside the workspace whose folder does not exist yet are looked at. */
export const POLL_MS = 1000;
/** A watched folder outside the workspace (a rules folder) is looked at this deep, this wide. */
const FOLDER_DEPTH = 3;
const FOLDER_ENTRIES = 500;

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
export class OutsideWatcher {
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
   * FUSE ones) would hide a new file there until something else changes the folder. Kept only
   * for the paths polled now (`rewatch`): the candidates above each file opened outside the
   * workspace come and go with the editor, and a session opens many.
   */
  private readonly near = new Map<string, string>();
  private readonly poller = setInterval(() => this.poll(), POLL_MS);

  constructor(private readonly onChange: (p: string) => void) {}

  /** The paths chokidar watches (one OS watch handle each, more inside a watched folder). */
  get watchedPaths(): number {
    return this.watched.size;
  }

  /** How many paths it keeps anything about: those it was last asked to watch, no others. */
  get remembered(): number {
    return new Set([...this.paths, ...this.watched, ...this.polled.keys(), ...this.near.keys()]).size;
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
    // A path watched now, or no longer asked about, is looked at afresh if it is polled again.
    for (const p of this.near.keys()) if (!polled.has(p)) this.near.delete(p);
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

export function isDirectory(p: string): boolean {
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
