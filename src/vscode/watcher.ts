import { watch, type FSWatcher } from 'chokidar';
import { readdirSync, statSync, type Stats } from 'node:fs';
import * as path from 'node:path';
import micromatch from 'micromatch';
import * as vscode from 'vscode';
import { SKIP_DIRS } from '../core/paths';
import { fixedNames } from '../core/patterns';
import type { Profile } from '../core/profile';
import type { Settings } from './settings';
import { CONFIG_FILE } from '../core/config';
import { PROFILES } from '../core/profiles';

/** How long the watcher waits for a burst of changes to end before it reports them. */
const DEBOUNCE_MS = 150;
/** How often the paths outside the workspace folders are looked at. */
const POLL_MS = 1000;
/** Folders never worth watching: huge, and never holding instructions an agent reads. */
/** A watched folder outside the workspace (a rules folder) is looked at this deep, this wide. */
const FOLDER_DEPTH = 3;
const FOLDER_ENTRIES = 500;

/**
 * Tells when anything an agent may read changes: one debounced event with the changed paths.
 *
 * The agents read files the workspace's own watcher never sees (~/.claude/CLAUDE.md, managed
 * policy files, CLAUDE.md files in folders above the workspace, imports anywhere), so:
 * - chokidar watches each workspace folder, keeping only directories (minus .git and
 *   node_modules) and files that match an enabled profile's `filePatterns` or that a feature
 *   `track()`s (imports, missing import targets). chokidar reports creations, edits,
 *   deletions and renames; folder events count too, since a folder created with files already
 *   in it may not report them.
 * - the exact paths outside the folders (every profile's `globalPaths`, the candidate files
 *   in the folders above each workspace folder and above a file outside the workspace, tracked
 *   paths) are stat-ed once a second. There are a few hundred at most; polling them never
 *   watches a whole home directory, and it sees a file appear in a folder that did not exist
 *   yet, which chokidar's watch of a missing path misses about one time in four (tried here).
 * Every change lands in one debounced event per burst: a branch switch touching thousands of
 * files causes one refresh. Unsaved edits come from the editor's document events.
 */
export class InstructionWatcher implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<readonly string[]>();
  /** Fires once a burst of changes settles, with the paths that changed. */
  readonly onDidChange = this.emitter.event;

  private chokidar: FSWatcher | undefined;
  private folders: string[] = [];
  /** Whether a path relative to its workspace folder matches any agent's pattern: compiled once per restart, since chokidar asks for every file of the folders. */
  private matchesPattern: (rel: string) => boolean = () => false;
  /** Exact paths from the profiles (global paths, candidates above the folders). */
  private baseExact: string[] = [];
  /** Exact paths asked for by features, by owner. */
  private readonly tracked = new Map<string, readonly string[]>();
  private exact = new Set<string>();
  /** What each polled path looked like last time (see `signature`). */
  private polled = new Map<string, string>();
  private readonly poller = setInterval(() => this.poll(), POLL_MS);

  private pending = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly disposables: vscode.Disposable[] = [];

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
    );
    this.restart();
  }

  /**
   * Also watch these exact files or folders on behalf of `owner`, replacing what it asked
   * for before. Paths that do not exist yet are fine: their creation is reported.
   */
  track(owner: string, paths: readonly string[]): void {
    const before = this.tracked.get(owner) ?? [];
    if (before.length === paths.length && before.every((p, i) => p === paths[i])) return;
    this.tracked.set(owner, [...paths]);
    this.updateExact();
  }

  /** Whether a path is one the agents may read: a profile pattern matches it, or it is tracked. */
  isInstructionPath(p: string): boolean {
    if (this.exact.has(p)) return true;
    const folder = this.folderOf(p);
    const rel = folder ? path.relative(folder, p).split(path.sep).join('/') : p.replace(/^\//, '');
    return this.matchesPattern(rel);
  }

  private noteDocument(doc: vscode.TextDocument): void {
    if (doc.uri.scheme === 'file' && this.isInstructionPath(doc.uri.fsPath)) this.note(doc.uri.fsPath);
  }

  private restart(): void {
    void this.chokidar?.close();
    const profiles = this.settings.enabledProfiles();
    const home = this.settings.home();
    this.folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    // Every agent's files, not only the enabled ones: a new GEMINI.md may change which agents are detected,
    // and the repository's configuration file changes which problems are shown.
    const tests = [...new Set([...PROFILES.flatMap((p) => p.filePatterns), CONFIG_FILE])].map((pattern) => micromatch.matcher(pattern, { dot: true }));
    this.matchesPattern = (rel) => tests.some((test) => test(rel));
    this.baseExact = [
      ...profiles.flatMap((p) => p.globalPaths({ home, platform: process.platform, env: process.env })),
      ...this.folders.flatMap((f) => (path.dirname(f) === f ? [] : ancestorCandidates(path.dirname(f), profiles))),
    ];
    this.exact = new Set();
    this.chokidar = watch(this.folders, { ignoreInitial: true, ignored: (p, stats) => !this.keep(p, stats) });
    this.chokidar.on('all', (_event, p) => this.note(p));
    this.chokidar.on('error', () => {
      // An unreadable folder or a watch limit: the rest keeps working; a refresh still works.
    });
    this.updateExact();
  }

  private updateExact(): void {
    const exact = new Set([...this.baseExact, ...[...this.tracked.values()].flat()].map((p) => path.resolve(p)));
    const added = [...exact].filter((p) => !this.exact.has(p));
    this.exact = exact;
    // Inside a folder, chokidar skipped a tracked file that matches no pattern: ask for it now.
    const inside = added.filter((p) => this.folderOf(p));
    if (inside.length) this.chokidar?.add(inside);
    const polled = new Map<string, string>();
    for (const p of exact) if (!this.folderOf(p)) polled.set(p, this.polled.get(p) ?? signature(p));
    this.polled = polled;
  }

  private poll(): void {
    for (const [p, before] of this.polled) {
      const now = signature(p);
      if (now === before) continue;
      this.polled.set(p, now);
      this.note(p);
    }
  }

  /** The filter chokidar applies to every path it meets in a workspace folder. */
  private keep(p: string, stats?: Stats): boolean {
    const folder = this.folderOf(p);
    if (!folder) return !!this.folders.find((f) => f.startsWith(`${p}/`)); // chokidar also looks at the folders' parents
    const rel = path.relative(folder, p).split(path.sep).join('/');
    if (rel === '') return true;
    if (rel.split('/').some((s) => SKIP_DIRS.has(s))) return false;
    // chokidar asks once without stats: keep the path until it knows what it is.
    if (!stats || stats.isDirectory()) return true;
    return this.exact.has(p) || this.matchesPattern(rel);
  }

  private folderOf(p: string): string | undefined {
    return this.folders.find((f) => p === f || p.startsWith(f.endsWith('/') ? f : `${f}/`));
  }

  private note(p: string): void {
    this.pending.add(p);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      const paths = [...this.pending];
      this.pending = new Set();
      this.emitter.fire(paths);
    }, DEBOUNCE_MS);
  }

  dispose(): void {
    clearTimeout(this.timer);
    clearInterval(this.poller);
    void this.chokidar?.close();
    this.emitter.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

/**
 * What a path looks like, cheaply: missing, a file's time and size, or a folder's files
 * (a few levels down, a bounded number) with theirs.
 */
function signature(p: string): string {
  let stat: Stats;
  try {
    stat = statSync(p);
  } catch {
    return '';
  }
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
      try {
        const s = statSync(child);
        out.push(`${child}:${s.mtimeMs}:${s.size}`);
        if (s.isDirectory() && depth < FOLDER_DEPTH) visit(child, depth + 1);
      } catch {
        // Gone meanwhile.
      }
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
