import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CheckJob, FolderSettings } from '../core/checkService';
import { governedFolder } from '../core/patterns';
import { NodeFileSystem } from '../core/fs';
import { isInside } from '../core/paths';
import { ruleHelpUri } from '../core/diagnostics';
import type { Diagnostic } from '../core/model';
import { shownProblems } from '../core/shownProblems';
import type { ActiveChainModel } from './activeChain';
import { CheckWorker } from './checkWorker';
import type { Settings } from './settings';
import type { Surface } from './surface';
import type { InstructionWatcher } from './watcher';

export const DIAGNOSTIC_SOURCE = 'instruction-lens';
/** Lint runs after the disk settles; a whole-workspace check costs more than one chain. */
const CHECK_DELAY_MS = 300;
/** A change to more instruction files than this (a branch switch) is left to the whole-workspace pass. */
const QUICK_LOOK_FILES = 20;
/** After passes over the folders of written files only, the whole workspace is checked once changes stop this long. */
const IDLE_PASS_MS = 30_000;
/** The passes' worker stops once passes have stopped this long: its memory goes back until the next pass. */
const PASS_WORKER_IDLE_MS = 5_000;
/** Changes that keep coming cancel each pass under way for at most this long: then one finishes and publishes. */
const MAX_UNSETTLED_MS = 10_000;
/** The path rules of the disk the workspace is on. */
const DISK = new NodeFileSystem();
/** A publish longer than this goes on in the next task: the extension host answers meanwhile. */
const PUBLISH_SLICE_MS = 30;

const SEVERITY: Record<Diagnostic['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
  // Shown faintly in the editor, not in the Problems panel: a fact, not a problem.
  hint: vscode.DiagnosticSeverity.Hint,
};

/**
 * Problems in instruction files: the core's `check()` over every workspace folder for every
 * enabled agent (on start and after changes, debounced), plus the active chain's own, which
 * also covers user files and files outside the workspace. Agents that agree on a problem
 * (Claude Code and Copilot CLI both miss the same import) give one diagnostic with both
 * messages. Keeps the core diagnostics so the quick fixes can read their data.
 */
class InstructionDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection(DIAGNOSTIC_SOURCE);
  /** The workspace's problems and the active chain's, merged file by file as they change. */
  private readonly problems = shownProblems(DISK);
  /** The files with problems shown: the core diagnostic behind each, by `placeKey`. */
  private shown = new Map<string, Map<string, Diagnostic>>();
  /** The missing import targets of the problems shown, with how many name each; `targetsMoved`: one came or went since the watcher was told. */
  private targets = new Map<string, number>();
  private targetsMoved = false;
  /** Files made but not yet set: a publish of thousands of files sets them over several tasks. */
  private unset = new Map<string, Diagnostic[]>();
  private publishing: ReturnType<typeof setImmediate> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Counts the changes: a quick look started before the latest one is stale. */
  private generation = 0;
  /** Set on dispose: a pass under way stops at its next pause. */
  private disposed = false;
  /** A pass is under way; `again`: something changed meanwhile, so another pass follows it. */
  private running = false;
  private again = false;
  /** Stops the pass under way on the worker thread. */
  private cancelPass: (() => void) | undefined;
  /** When a pass was first cancelled by a newer change since one last finished. */
  private unsettledSince: number | undefined;
  /**
   * Where the whole-workspace passes run, off the extension host's thread: a worker of their own,
   * so that the quick looks and the chains (on the model's worker, whose cache the chains keep
   * warm) never wait for a pass's longer steps (listing and matching the repository's files). A
   * pass over the folders of written files runs on the model's worker: it lists only those
   * folders, its chains are the quick look's, and no second thread starts for an edit.
   */
  private readonly passes: CheckWorker;
  /** What the next pass checks: the folders of files written (see `scopeOf`), or everything. */
  private scope: Set<string> | 'all' = 'all';
  /** The whole-workspace pass owed after passes over some folders, once changes stop. */
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly model: ActiveChainModel,
    private readonly settings: Settings,
    private readonly watcher: InstructionWatcher,
    private readonly log?: vscode.LogOutputChannel,
    /** Settles once the chain shown last is on screen (src/vscode/chainView.ts). */
    drawn?: () => Promise<void>,
  ) {
    this.passes = new CheckWorker(log, PASS_WORKER_IDLE_MS, undefined, model.worker.codeCacheDir);
    // The first chain on screen before its problems: the first publish reads every file with a
    // problem through a cold cache (0.1-0.3 s of this thread), which held back the workbench's
    // question for the chain view's rows.
    let first: Promise<void> | undefined = model.shown.then(drawn).then(() => (first = undefined));
    this.disposables.push(
      this.passes,
      // An editor switch publishes in a task of its own, once the views have followed the switch:
      // only the files of the chains' own problems, before and after, are made again.
      model.onDidChange(() => void (first ? first.then(() => this.publishSoon()) : this.publishSoon())),
      watcher.onDidChange((paths) => {
        this.passes.changed(watcher.structural ? undefined : paths);
        this.schedule(watcher.structural ? undefined : this.scopeOf(paths));
        void this.lookAt(paths);
      }),
      settings.onDidChange((e) => {
        if (settings.changed(e, ['diagnostics.enabled']) || settings.changedChains(e)) this.restart();
        else if (settings.changed(e, ['diagnostics.disabledCodes'])) this.publish();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.restart()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.restart()),
    );
    // The first pass once the first chain is shown: on a large repository the pass (its worker
    // loading, git listing every file, the folders' settings read here) would share the machine
    // with that chain, which the user waits for, and the chain's own problems are published with it.
    void model.shown.then(() => {
      if (!this.disposed) this.schedule();
    });
  }

  /** The core diagnostic behind an editor diagnostic of this collection (merged: what any of the agents knows, `mergeDiagnostics`). */
  coreDiagnostic(uri: vscode.Uri, d: vscode.Diagnostic): Diagnostic | undefined {
    const code = typeof d.code === 'object' ? String(d.code.value) : String(d.code);
    return this.shown.get(uri.fsPath)?.get(placeKey(d.range.start.line, d.range.start.character, code, d.severity));
  }

  /**
   * The folders a change of these files' contents can alter the problems of: the folder each
   * governs, and every folder below it (whose chains load it). Undefined when that is the whole
   * workspace: a file at a workspace folder's top, a path that is not an instruction file, many.
   * Problems elsewhere that the change alters (a file importing one of them from another folder)
   * wait for the whole-workspace pass that follows once changes stop (`IDLE_PASS_MS`).
   */
  private scopeOf(paths: readonly string[]): Set<string> | undefined {
    if (!paths.length || paths.length > QUICK_LOOK_FILES) return undefined;
    const scope = new Set<string>();
    for (const file of paths) {
      const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(file));
      if (!folder || folder.uri.scheme !== 'file' || !this.watcher.isInstructionPath(file)) return undefined;
      const governed = governedFolder(file, this.settings.enabledProfiles(folder.uri).flatMap((p) => p.filePatterns));
      if (governed === folder.uri.fsPath || !isInside(governed, folder.uri.fsPath, DISK)) return undefined;
      scope.add(governed);
    }
    // A folder inside another of the scope is checked with it.
    return new Set([...scope].filter((dir) => ![...scope].some((other) => other !== dir && isInside(dir, other, DISK))));
  }

  /** Check again after the disk settles: the folders `scope` names, else the whole workspace. */
  private schedule(scope?: Set<string>): void {
    clearTimeout(this.timer);
    this.generation++;
    if (!scope || this.scope === 'all') this.scope = 'all';
    else this.scope = new Set([...this.scope, ...scope]);
    // A pass under way answers for the disk before this change: it is cancelled (its scope joins
    // the next one's), so a stale answer does not replace a quick look's newer one. Under changes
    // that keep coming (a tool writing in the tree, a big checkout) that would never let a pass
    // end, and the editor would show no problem at all: after MAX_UNSETTLED_MS one finishes.
    if (this.running) {
      this.again = true;
      this.unsettledSince ??= performance.now();
      if (performance.now() - this.unsettledSince < MAX_UNSETTLED_MS) this.cancelPass?.();
      return;
    }
    this.timer = setTimeout(() => void this.runPass(), CHECK_DELAY_MS);
  }

  /**
   * What a pass is asked changed (settings, folders, trust): the pass under way answers an old
   * question, so it is cancelled, and the whole workspace checked again.
   */
  private restart(): void {
    this.cancelPass?.();
    this.schedule();
  }

  private async runPass(): Promise<void> {
    this.running = true;
    this.again = false;
    const scope = this.scope;
    this.scope = new Set();
    clearTimeout(this.idleTimer);
    let done = false;
    try {
      if (scope === 'all') done = await this.checkWorkspace();
      else {
        done = await this.checkFolders(scope);
        if (done) this.idleTimer = setTimeout(() => this.schedule(), IDLE_PASS_MS);
      }
    } finally {
      this.running = false;
      // What changed meanwhile (the listeners widened `scope`), and a cancelled pass's folders, still owed.
      let next = this.scope as Set<string> | 'all';
      if (done) this.unsettledSince = undefined;
      else next = scope === 'all' || next === 'all' ? 'all' : new Set([...next, ...scope]);
      this.scope = next;
      if (this.again) this.schedule(next === 'all' ? undefined : next);
    }
  }

  /**
   * The instruction files a change touched, checked at once while the whole-workspace pass waits
   * for its turn: each enabled agent's chain for the folder a file governs, on the worker thread,
   * through its cache of this change (a change to some files' text keeps every other answer).
   * Their problems replace the file's until the pass (which also tests rules' globs against
   * every file) replaces them all. A burst of many files waits for the pass.
   */
  private async lookAt(paths: readonly string[]): Promise<void> {
    if (!this.settings.get('diagnostics.enabled')) return;
    const files = paths.filter((p) => this.watcher.isInstructionPath(p) && vscode.workspace.getWorkspaceFolder(vscode.Uri.file(p)));
    if (!files.length || files.length > QUICK_LOOK_FILES) return;
    const generation = this.generation;
    const seen = this.watcher.firstSeen;
    const started = performance.now();
    const { fs } = this.model.readHost;
    const found = await this.model.worker.look(files.map((file) => ({ file, ...this.folderSettings(vscode.workspace.getWorkspaceFolder(vscode.Uri.file(file))!) })));
    if (!found || generation !== this.generation || this.disposed) return;
    const answered = performance.now();
    this.model.knowReals(fs, found.reals);
    // Only the pass knows which rule globs match no file: those stay as they were.
    this.problems.replace({ paths: files }, found.diagnostics, (d) => d.code === 'glob-no-match');
    this.publish();
    // Where an edit's time goes, for Developer: Set Log Level… Debug (and the VS Code bench).
    const [queued, worker, waited, onCore, waitingForOne] = [...found.ms, ...(found.cpu ?? [])].map((ms) => `${ms.toFixed(1)} ms`);
    const cpu = onCore ? ` (its thread ${onCore} on a core; ${waitingForOne} waiting for one)` : '';
    this.log?.debug(`Looked at ${files.length} changed files ${(performance.now() - seen).toFixed(1)} ms after the first change seen: the debounce ${(started - seen).toFixed(1)} ms; queued ${queued}, the worker ${worker}${cpu}${found.anew ? ' (reading everything anew)' : ''}, the answer queued ${waited}; published ${(performance.now() - answered).toFixed(1)} ms`);
  }

  /**
   * The whole workspace, on the worker thread: the extension host only sends the folders and
   * settings, and publishes the answer.
   */
  private async checkWorkspace(): Promise<boolean> {
    // The agents used are known (detection lists the folders asynchronously at first).
    await this.settings.ready();
    if (this.disposed) return false;
    let workspace: Diagnostic[] = [];
    if (this.settings.get('diagnostics.enabled')) {
      const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
      const found = await this.ask(folders.map((folder) => ({ root: folder.uri.fsPath, ...this.folderSettings(folder) })));
      if (!found) return false;
      workspace = found;
    }
    this.problems.replace('all', workspace);
    this.publish();
    return true;
  }

  /**
   * The pass over some folders only (`scopeOf`): each checked as the whole-workspace pass checks
   * it, its problems replacing those of the files under it.
   */
  private async checkFolders(scope: ReadonlySet<string>): Promise<boolean> {
    if (!this.settings.get('diagnostics.enabled')) return true;
    const jobs: CheckJob[] = [];
    for (const dir of scope) {
      const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(dir));
      if (folder) jobs.push({ root: dir, ...this.folderSettings(folder) });
    }
    const found = await this.ask(jobs, this.model.worker);
    if (!found) return false;
    this.problems.replace({ folders: jobs.map((job) => job.root) }, found);
    this.publish();
    return true;
  }

  /** A pass on a worker thread; undefined when it was cancelled (see `schedule`) or failed. */
  private async ask(jobs: CheckJob[], worker = this.passes): Promise<Diagnostic[] | undefined> {
    if (this.disposed) return undefined;
    const { fs } = this.model.readHost;
    const pass = worker.check(jobs);
    this.cancelPass = pass.cancel;
    try {
      const found = await pass.answer;
      if (!found || this.disposed) return undefined;
      this.model.knowReals(fs, found.reals);
      return found.diagnostics;
    } finally {
      this.cancelPass = undefined;
    }
  }

  /** How a workspace folder, or a folder in it, is checked: as the chain view resolves it. */
  private folderSettings(folder: vscode.WorkspaceFolder): FolderSettings {
    return {
      folder: folder.uri.fsPath,
      agents: this.settings.enabledProfiles(folder.uri).map((p) => p.id),
      launch: this.settings.get('launchDirectory', folder.uri),
      home: this.settings.home(folder.uri),
      // Plain data, as `Settings` keeps it: posted to the worker.
      settings: this.settings.allProfileSettings(folder.uri),
    };
  }

  private publish(): void {
    if (!this.settings.get('diagnostics.enabled')) {
      this.problems.forget();
      this.collection.clear();
      this.shown = new Map();
      this.targets = new Map();
      this.unset = new Map();
      return this.watcher.track('diagnostics', []);
    }
    this.problems.setChain(this.model.current?.chain.diagnostics ?? []);
    // A publish going on in a later task takes this change with it.
    if (!this.publishing) this.publishSlice();
  }

  /**
   * Make the files whose problems changed, for at most PUBLISH_SLICE_MS, then go on in the next
   * task; once all are made, set them in the editor, as many as fit in the task (all but when
   * thousands of files changed at once: the first pass over a huge repository).
   */
  private publishSlice(): void {
    const disabled = this.settings.get('diagnostics.disabledCodes');
    const home = this.settings.home();
    // One entry per problem: agents that agree are named together, a symlink's problem is shown
    // at its file; less what the settings, the repository's configuration file and inline
    // comments turn off (check applied them to its part).
    const deadline = performance.now() + PUBLISH_SLICE_MS;
    const made = this.problems.update(
      {
        // Read through this change's cache: publishing follows every editor switch, and would
        // read every file with a problem (suppression comments, real paths) again each time.
        fs: this.model.readHost.fs,
        root: (file) => vscode.workspace.getWorkspaceFolder(vscode.Uri.file(file))?.uri.fsPath,
        home,
        disabled,
        key: JSON.stringify([disabled, home, vscode.workspace.workspaceFolders?.map((f) => f.uri.toString())]),
      },
      deadline,
    );
    if (!made) return this.publishSoon();
    for (const [file, all] of made) this.unset.set(file, all);
    // Only the files whose problems changed go to the editor: publishing follows edits and editor
    // switches, and setting every file's problems again each time cost the extension host a tenth
    // of a second.
    for (const [file, all] of this.unset) {
      if (performance.now() > deadline) return this.publishSoon();
      this.unset.delete(file);
      const uri = vscode.Uri.file(file);
      this.count(this.shown.get(file), -1);
      if (!all.length) {
        if (this.shown.delete(file)) this.collection.delete(uri);
        continue;
      }
      const problems = new Map(all.map((d) => [placeKey(d.line, d.column, d.code, SEVERITY[d.severity]), d]));
      this.shown.set(file, problems);
      this.count(problems, 1);
      this.collection.set(uri, all.map(toVscode));
    }
    // Creating a missing import target must clear its diagnostic, though no pattern matches it.
    if (this.targetsMoved) this.watcher.track('diagnostics', [...this.targets.keys()]);
    this.targetsMoved = false;
  }

  /** Count a file's problems' missing import targets in or out (`by`), as its problems are shown or go. */
  private count(problems: Map<string, Diagnostic> | undefined, by: number): void {
    for (const d of problems?.values() ?? []) {
      const target = d.data?.target;
      if (!target) continue;
      const n = (this.targets.get(target) ?? 0) + by;
      if (n) this.targets.set(target, n);
      else this.targets.delete(target);
      // A target first counted, or no longer.
      if (n === (by > 0 ? 1 : 0)) this.targetsMoved = true;
    }
  }

  /** Publish after the task under way (changes in a row publish once). */
  private publishSoon(): void {
    this.publishing ??= setImmediate(() => {
      this.publishing = undefined;
      if (!this.disposed) this.publish();
    });
  }

  dispose(): void {
    clearTimeout(this.timer);
    clearTimeout(this.idleTimer);
    if (this.publishing) clearImmediate(this.publishing);
    this.generation++;
    this.disposed = true;
    this.cancelPass?.();
    this.collection.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

/**
 * Which published diagnostic a quick-fix request is about. The severity is part of it: one place
 * can hold two entries with the same code that the merge keeps apart (Claude Code's `not-loaded`
 * problem, with the data its quick fix needs, and Codex's by-design hint on the same AGENTS.md).
 */
function placeKey(line: number, column: number, code: string, severity: vscode.DiagnosticSeverity): string {
  return `${line}\0${column}\0${code}\0${severity}`;
}

/** The editor's diagnostic for a problem (one or more agents' at the same place, merged). */
function toVscode(d: Diagnostic): vscode.Diagnostic {
  const out = new vscode.Diagnostic(new vscode.Range(d.line, d.column, d.endLine, d.endColumn), d.message, SEVERITY[d.severity]);
  out.source = DIAGNOSTIC_SOURCE;
  out.code = { value: d.code, target: vscode.Uri.parse(ruleHelpUri(d.code)) };
  return out;
}

/**
 * Quick fixes for the diagnostics above. Each changes a file only when the user picks it, and
 * those that write are not offered in an untrusted workspace.
 */
class InstructionQuickFixes implements vscode.CodeActionProvider {
  constructor(private readonly diagnostics: InstructionDiagnostics) {}

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const actions: vscode.CodeAction[] = [];
    const mayWrite = vscode.workspace.isTrusted;
    for (const d of context.diagnostics) {
      if (d.source !== DIAGNOSTIC_SOURCE) continue;
      const core = this.diagnostics.coreDiagnostic(document.uri, d);
      if (!core) continue;
      const fix = (title: string, preferred = false) => {
        const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
        action.diagnostics = [d];
        action.isPreferred = preferred;
        actions.push(action);
        return action;
      };
      switch (core.code) {
        case 'import-missing': {
          if (!mayWrite) break;
          const { suggestion, target } = core.data ?? {};
          if (suggestion) {
            const action = fix(`Change to @${suggestion}`, true);
            action.edit = new vscode.WorkspaceEdit();
            action.edit.replace(document.uri, d.range, `@${suggestion}`);
          }
          if (target) {
            const action = fix(`Create ${relativeTo(document.uri.fsPath, target)}`);
            action.edit = new vscode.WorkspaceEdit();
            action.edit.createFile(vscode.Uri.file(target), { ignoreIfExists: true });
            action.command = { title: 'Open', command: 'vscode.open', arguments: [vscode.Uri.file(target)] };
          }
          break;
        }
        case 'frontmatter-invalid': {
          // A header without its opening line (frontmatter.ts, headerWithoutOpening): add it.
          const { opening } = core.data ?? {};
          if (!mayWrite || !opening) break;
          const action = fix(`Add the opening "${opening}" line`, true);
          action.edit = new vscode.WorkspaceEdit();
          action.edit.insert(document.uri, new vscode.Position(0, 0), `${opening}\n`);
          break;
        }
        case 'import-in-code': {
          if (!mayWrite) break;
          const edit = takeOutOfCode(document, d.range);
          if (edit) {
            const action = fix(edit.title, true);
            action.edit = edit.edit;
          }
          break;
        }
        case 'not-loaded': {
          // The import that loads the file: Claude Code's CLAUDE.md beside a skipped AGENTS.md, or a
          // GEMINI.md that only names AGENTS.md.
          const { importInto, importLine } = core.data ?? {};
          if (!mayWrite || !importInto || !importLine) break;
          const exists = fs.existsSync(importInto);
          const action = fix(exists ? `Add ${importLine} to ${relativeTo(document.uri.fsPath, importInto)}` : `Create ${relativeTo(document.uri.fsPath, importInto)} with ${importLine}`, true);
          action.edit = new vscode.WorkspaceEdit();
          const uri = vscode.Uri.file(importInto);
          if (exists) {
            const text = fs.readFileSync(importInto, 'utf8');
            const lines = text.split('\n');
            const end = new vscode.Position(lines.length - 1, lines[lines.length - 1].length);
            action.edit.insert(uri, end, `${text === '' || text.endsWith('\n') ? '' : '\n'}${importLine}\n`);
          } else {
            action.edit.createFile(uri, { ignoreIfExists: true });
            action.edit.insert(uri, new vscode.Position(0, 0), `${importLine}\n`);
          }
          break;
        }
        case 'file-truncated':
        case 'chain-over-budget': {
          if (d.range.isEmpty) break;
          const action = fix('Select the text the agent cuts off');
          action.command = { title: 'Select', command: 'vscode.open', arguments: [document.uri, { selection: d.range }] };
          break;
        }
      }
    }
    return actions;
  }
}

/**
 * An `@path` the agent skips because it is code: inside a code span, drop the backticks;
 * inside a fenced block, move it to its own line after the block.
 */
function takeOutOfCode(document: vscode.TextDocument, range: vscode.Range): { title: string; edit: vscode.WorkspaceEdit } | undefined {
  const ref = document.getText(range);
  const line = document.lineAt(range.start.line).text;
  const before = line.slice(0, range.start.character);
  const after = line.slice(range.end.character);
  const edit = new vscode.WorkspaceEdit();
  if (before.endsWith('`') && after.startsWith('`') && range.isSingleLine) {
    const wide = new vscode.Range(range.start.translate(0, -1), range.end.translate(0, 1));
    edit.replace(document.uri, wide, ref);
    return { title: `Remove the backticks so the agent imports ${ref}`, edit };
  }
  for (let i = range.end.line + 1; i < document.lineCount; i++) {
    if (!/^ {0,3}(```|~~~)/.test(document.lineAt(i).text)) continue;
    const alone = line.trim() === ref;
    edit.delete(document.uri, alone ? document.lineAt(range.start.line).rangeIncludingLineBreak : range);
    edit.insert(document.uri, document.lineAt(i).range.end, `\n${ref}`);
    return { title: `Move ${ref} out of the code block so the agent imports it`, edit };
  }
  return undefined;
}

function relativeTo(fromFile: string, target: string): string {
  return path.relative(path.dirname(fromFile), target) || path.basename(target);
}

export function registerDiagnostics(
  surface: Surface,
  model: ActiveChainModel,
  settings: Settings,
  watcher: InstructionWatcher,
  log?: vscode.LogOutputChannel,
  drawn?: () => Promise<void>,
): vscode.Disposable {
  const diagnostics = new InstructionDiagnostics(model, settings, watcher, log, drawn);
  return vscode.Disposable.from(
    diagnostics,
    surface.registerCodeActionsProvider({ scheme: 'file' }, new InstructionQuickFixes(diagnostics)),
  );
}
