import * as vscode from 'vscode';
import { listFiles } from '../core/check';
import { CONFIG_FILE, readConfig } from '../core/config';
import { RULES } from '../core/diagnostics';
import { detectFromRepository, nodeMachineProbe, probeMachine, withMachine, type Detection, type MachineEvidence } from '../core/detect';
import { PROFILES } from '../core/profiles';
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
  private machine: MachineEvidence[] | undefined;
  private probing: Promise<void> | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly home: () => string) {
    this.disposables.push(
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.probe()),
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.byFolder.clear();
        this.emitter.fire();
      }),
    );
    this.probe();
  }

  /** The detections for the folder holding `scope` (the first folder without one), in registry order. */
  detections(scope?: vscode.ConfigurationScope): Detection[] {
    const folder = folderOf(scope);
    if (!folder) return withMachine(detectFromRepository([], PROFILES), this.machine ?? []);
    let repo = this.byFolder.get(folder);
    if (!repo) {
      repo = fromFolder(folder);
      this.byFolder.set(folder, repo);
    }
    if (repo.some((d) => d.evidence[0] === CONFIG_FILE)) return repo;
    return this.machine ? withMachine(repo, this.machine) : repo;
  }

  /** The version of an agent installed on this machine, when its CLI said. */
  installed(profileId: string): string | undefined {
    return this.machine?.find((m) => m.profile.id === profileId)?.installed;
  }

  /** The machine's look-up, for tests and callers that must wait for it. */
  ready(): Promise<void> {
    return this.probing ?? Promise.resolve();
  }

  /** Files changed: look at the folders again, and tell when the agents used changed. */
  forget(): void {
    let changed = false;
    for (const [folder, before] of this.byFolder) {
      const now = fromFolder(folder);
      this.byFolder.set(folder, now);
      changed ||= now.some((d, i) => d.used !== before[i].used);
    }
    if (changed) this.emitter.fire();
  }

  private probe(): void {
    if (this.machine || this.probing || !vscode.workspace.isTrusted) return;
    const probe = { ...nodeMachineProbe(this.home(), process.env), hasExtension: (id: string) => !!vscode.extensions.getExtension(id) };
    this.probing = probeMachine(PROFILES, probe).then(
      (found) => {
        this.machine = found;
        this.emitter.fire();
      },
      () => undefined,
    );
  }

  dispose(): void {
    this.emitter.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

/** The folder's configuration names its agents; else its files show them. */
function fromFolder(folder: string): Detection[] {
  const host = coreHost();
  const config = readConfig(host.fs, folder, { agents: PROFILES.map((p) => p.id), codes: Object.keys(RULES) });
  if (config.agents) return PROFILES.map((profile) => ({ profile, used: config.agents!.includes(profile.id), evidence: config.agents!.includes(profile.id) ? [CONFIG_FILE] : [] }));
  return detectFromRepository(listFiles(host, folder).files, PROFILES);
}

function folderOf(scope: vscode.ConfigurationScope | undefined): string | undefined {
  const uri = scope instanceof vscode.Uri ? scope : scope && 'uri' in scope ? scope.uri : undefined;
  const folder = (uri && vscode.workspace.getWorkspaceFolder(uri)) ?? vscode.workspace.workspaceFolders?.[0];
  return folder?.uri.scheme === 'file' ? folder.uri.fsPath : undefined;
}
