import * as path from 'node:path';
import * as vscode from 'vscode';
import { CONFIG_FILE, readConfig } from '../core/config';
import { RULES } from '../core/diagnostics';
import { DEFAULTED, detectFromRepository, withMachine, type Detection, type MachineEvidence } from '../core/detect';
import { PROFILES } from '../core/profiles';
import type { MachineFound } from './checkWorker';
import { coreHost } from './host';

/**
 * Which agents each workspace folder uses, for `instructionLens.agents: "auto"`: the folder's
 * files (as `instruction-lens check` decides), plus this machine's evidence — the agents' CLIs
 * on PATH, their folders in the home, the Copilot Chat extension. The machine is looked at once,
 * asynchronously, and never in Restricted Mode (that runs the agents' own binaries); the
 * folders' answers are kept until their files change.
 */
export class AgentDetection implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  /** Fires when an answer may have changed (the machine's look-up finished, a folder's files changed). */
  readonly onDidChange = this.emitter.event;
  private readonly byFolder = new Map<string, Detection[]>();
  /**
   * Each folder's answer until a listing, the machine's look-up or the folders change it: every
   * view asks on each editor switch, and the answer mixes the folder's evidence with the machine's.
   */
  private readonly answers = new Map<string | undefined, Detection[]>();
  /** Each folder's first listing, under way or done. */
  private readonly listing = new Map<string, Promise<void>>();
  private machine: MachineEvidence[] | undefined;
  private probing: Promise<void> | undefined;
  /** Counts the changes: a listing started before the latest one is stale. */
  private generation = 0;
  private readonly disposables: vscode.Disposable[] = [];

  /**
   * @param list which agents a folder's files show, listed off this thread (`CheckWorker.detect`):
   * each profile's evidence in registry order; undefined when that failed
   * @param look the machine's evidence of each profile, looked at off this thread
   * (`CheckWorker.machine`), in registry order; undefined when that failed
   * @param firstChain settles once the first chain is shown (`ActiveChainModel.shown`)
   * @param detecting whether any folder's agents are detected (`auto`), not pinned by the settings
   */
  constructor(
    private readonly home: () => string,
    private readonly list: (folder: string) => Promise<string[][] | undefined>,
    private readonly look: (home: string, extensions: string[]) => Promise<MachineFound[] | undefined>,
    private readonly firstChain: () => Promise<void>,
    private readonly detecting: () => boolean,
  ) {
    this.disposables.push(
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.probe()),
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.generation++;
        this.byFolder.clear();
        this.answers.clear();
        this.listing.clear();
        this.emitter.fire();
      }),
    );
    this.probe();
  }

  /**
   * The detections for the folder holding `scope` (the first folder without one), in registry
   * order. A folder not listed yet is listed asynchronously (on the worker thread: git,
   * or the walk without it): meanwhile its configuration file alone answers, or nothing is detected (every
   * agent enabled), and `onDidChange` fires when the listing is in.
   */
  detections(scope?: vscode.ConfigurationScope): Detection[] {
    const folder = folderOf(scope);
    let answer = this.answers.get(folder);
    if (!answer) this.answers.set(folder, (answer = this.answer(folder)));
    return answer;
  }

  private answer(folder: string | undefined): Detection[] {
    if (!folder) return withMachine(detectFromRepository([], PROFILES), this.machine ?? []);
    let repo = this.byFolder.get(folder);
    if (!repo) {
      repo = fromConfig(folder) ?? detectFromRepository([], PROFILES);
      void this.listFolder(folder);
    }
    if (repo.some((d) => d.evidence[0] === CONFIG_FILE)) return repo;
    return this.machine ? withMachine(repo, this.machine) : repo;
  }

  /** The version of an agent installed on this machine, when its CLI said. */
  installed(profileId: string): string | undefined {
    return this.machine?.find((m) => m.profile.id === profileId)?.installed;
  }

  /**
   * The listing of every workspace folder and the machine's look-up, for callers that must wait
   * for them; `firstChain`: the machine's only when the folders' files do not name their agents.
   */
  async ready(firstChain = false): Promise<void> {
    const decided = await this.foldersDecide();
    if (!(firstChain && decided)) await this.probing;
  }

  /**
   * Once every workspace folder is listed: whether each one's own files (or configuration) name
   * the agents it uses: the machine then only adds agents to theirs.
   */
  private async foldersDecide(): Promise<boolean> {
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    await Promise.all(folders.map((f) => this.listFolder(f)));
    return folders.length > 0 && folders.every((f) => this.byFolder.get(f)?.some((d) => d.used && d.evidence[0] !== DEFAULTED));
  }

  /** A folder's first listing, once: its answer is kept, and `onDidChange` fires. */
  private listFolder(folder: string): Promise<void> {
    let listing = this.listing.get(folder);
    if (!listing) {
      listing = this.fromFolder(folder).then((answer) => {
        // Listed again meanwhile (`forget`), or the folders changed: the newer answer stands.
        if (this.listing.get(folder) !== listing) return;
        const before = fromConfig(folder) ?? detectFromRepository([], PROFILES);
        this.byFolder.set(folder, answer);
        this.answers.clear();
        if (answer.some((d, i) => d.used !== before[i].used)) this.emitter.fire();
      });
      this.listing.set(folder, listing);
    }
    return listing;
  }

  /**
   * Files changed (`structural`: perhaps created, deleted or renamed, not only written). Which
   * agents a folder uses follows which files exist, and the configuration file's text.
   */
  changed(paths: readonly string[], structural: boolean): void {
    if (structural || paths.some((p) => path.basename(p) === CONFIG_FILE)) this.forget();
  }

  /**
   * Files changed: look at the folders again, and tell when the agents used changed. The folders
   * are listed asynchronously (the answers before stay meanwhile); a newer change wins.
   */
  forget(): void {
    const generation = ++this.generation;
    // The configuration file's answer for a folder not listed yet is read again.
    this.answers.clear();
    // A first listing under way may predate the change: it starts again.
    for (const folder of [...this.listing.keys()].filter((f) => !this.byFolder.has(f))) {
      this.listing.delete(folder);
      void this.listFolder(folder);
    }
    void Promise.all([...this.byFolder.keys()].map(async (folder) => [folder, await this.fromFolder(folder)] as const)).then((answers) => {
      if (generation !== this.generation) return;
      let changed = false;
      for (const [folder, now] of answers) {
        const before = this.byFolder.get(folder);
        if (!before) continue;
        this.byFolder.set(folder, now);
        this.answers.clear();
        changed ||= now.some((d, i) => d.used !== before[i].used);
      }
      if (changed) this.emitter.fire();
    });
  }

  /** The folder's configuration names its agents; else its files show them (listed on the worker thread; nothing found when that failed). */
  private async fromFolder(folder: string): Promise<Detection[]> {
    // In a task of its own: the configuration file is read and parsed.
    await nextTask();
    const configured = fromConfig(folder);
    if (configured) return configured;
    const evidence = await this.list(folder);
    return evidence ? PROFILES.map((profile, i) => ({ profile, used: evidence[i].length > 0, evidence: evidence[i] })) : detectFromRepository([], PROFILES);
  }

  private probe(): void {
    if (this.machine || this.probing || !vscode.workspace.isTrusted) return;
    // In a task of its own: the first read of a setting (the home) has VS Code merge its whole
    // configuration. The look itself (PATH's folders searched, each agent's CLI found run for its
    // version, the home's folders) is the worker's: here it held this thread 0.16 s in a first start.
    // It waits for the first chain unless the machine may decide which agent's chain that is (no
    // folder's files name their agents): its processes would share the cores with that chain.
    const mayDecide = async () => {
      if (!this.detecting() || (await this.foldersDecide())) await new Promise(() => undefined);
    };
    this.probing = nextTask()
      .then(() => Promise.race([this.firstChain(), mayDecide()]))
      .then(() => this.look(this.home(), PROFILES.flatMap((p) => p.evidence.vscodeExtension ?? []).filter((id) => vscode.extensions.getExtension(id))))
      .then(
        (found) => {
          if (!found) return;
          this.machine = PROFILES.map((profile, i) => ({ profile, ...found[i] }));
          this.answers.clear();
          // A machine with none of the agents changes no answer: firing would resolve the chain
          // and restart the watcher again, while the first chain is on its way.
          if (found.some((m) => m.found.length || m.installed)) this.emitter.fire();
        },
        () => undefined,
      );
  }

  dispose(): void {
    this.emitter.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

function fromConfig(folder: string): Detection[] | undefined {
  const config = readConfig(coreHost().fs, folder, { agents: PROFILES.map((p) => p.id), codes: Object.keys(RULES) });
  if (!config.agents) return undefined;
  return PROFILES.map((profile) => ({ profile, used: config.agents!.includes(profile.id), evidence: config.agents!.includes(profile.id) ? [CONFIG_FILE] : [] }));
}

function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve));
}

function folderOf(scope: vscode.ConfigurationScope | undefined): string | undefined {
  const uri = scope instanceof vscode.Uri ? scope : scope && 'uri' in scope ? scope.uri : undefined;
  const folder = (uri && vscode.workspace.getWorkspaceFolder(uri)) ?? vscode.workspace.workspaceFolders?.[0];
  return folder?.uri.scheme === 'file' ? folder.uri.fsPath : undefined;
}
