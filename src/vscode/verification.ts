import * as path from 'node:path';
import * as vscode from 'vscode';
import { compareVersions } from '../core/detect';
import type { Profile } from '../core/profile';
import type * as Verify from '../verify/verify';
import type { AgentVerification } from '../verify/verify';
import type { ActiveChainModel } from './activeChain';
import { ContextKey } from './contextKey';
import { profileName } from './format';
import { VERIFY_SCHEME as SCHEME } from './ids';
import type { Settings } from './settings';
import type { Surface } from './surface';

export const VERIFY_COMMAND = 'instructionLens.verifyWithInstalledAgent';
const SHOW_COMMAND = 'instructionLens.showVerification';
const STATE_KEY = 'instructionLens.verifications';

/** The last verification of one agent on this machine. */
export interface VerificationRecord {
  agent: string;
  /** The version that ran, and the one the profile modelled then. */
  version: string;
  modelled: string;
  status: 'match' | 'differs';
  /** The file verified, and when. */
  target: string;
  at: number;
}

/**
 * Verifications, per agent and version, kept in the extension's global state (they describe
 * this machine, not a workspace), with the texts of the last run for the diff editor.
 */
export class Verifications implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  /** The last report per agent in this window: what the diff editor shows. */
  readonly last = new Map<string, AgentVerification>();

  constructor(private readonly state: vscode.Memento) {}

  record(profile: Profile): VerificationRecord | undefined {
    return this.state.get<Record<string, VerificationRecord>>(STATE_KEY, {})[profile.id];
  }

  async save(target: string, a: AgentVerification): Promise<void> {
    this.last.set(a.agent, a);
    if ((a.status === 'match' || a.status === 'differs') && a.versionRun) {
      const all = { ...this.state.get<Record<string, VerificationRecord>>(STATE_KEY, {}) };
      all[a.agent] = { agent: a.agent, version: a.versionRun, modelled: a.versionModelled, status: a.status, target, at: Date.now() };
      await this.state.update(STATE_KEY, all);
    }
    this.emitter.fire();
  }

  /** Forget every verification (they are kept across sessions otherwise). */
  async clear(): Promise<void> {
    this.last.clear();
    await this.state.update(STATE_KEY, undefined);
    this.emitter.fire();
  }

  /**
   * One line for the meter's tooltip and the chain header: "verified with Claude Code 2.1.332 on
   * this machine", a difference found, or an installed version newer than the one modelled.
   * Undefined when this agent was never verified here (or the profile changed since).
   */
  notice(profile: Profile): string | undefined {
    const r = this.record(profile);
    if (!r || r.modelled !== profile.agentVersion) return undefined;
    const name = `${profileName(profile)} ${r.version}`;
    if (r.status === 'differs') return `${name} on this machine sends something else than shown here — Verify to see the difference`;
    if (r.version !== profile.agentVersion && /^\d/.test(profile.agentVersion) && compareVersions(r.version, profile.agentVersion) > 0) {
      return `verified with ${name} on this machine (newer than the modelled ${profile.agentVersion})`;
    }
    return `verified with ${name} on this machine`;
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

/** Our render and what the agent sent, as read-only documents for the diff editor. */
class VerificationDocuments implements vscode.TextDocumentContentProvider {
  constructor(private readonly verifications: Verifications) {}

  provideTextDocumentContent(uri: vscode.Uri): string {
    const [side, agent] = uri.path.replace(/^\//, '').split('/');
    const a = this.verifications.last.get(agent);
    if (!a) return 'Run "Instruction Lens: Verify With Installed Agent" first.\n';
    return (side === 'sent' ? a.sentText : a.expectedText) ?? '';
  }
}

function documentUri(side: 'expected' | 'sent', agent: string, label: string): vscode.Uri {
  return vscode.Uri.from({ scheme: SCHEME, path: `/${side}/${agent}/${label}`, query: String(Date.now()) });
}

async function showDifferences(verifications: Verifications, agent: string): Promise<void> {
  const a = verifications.last.get(agent);
  if (!a) return;
  const left = documentUri('expected', agent, 'Instruction Lens render');
  const right = documentUri('sent', agent, `${a.name} ${a.versionRun ?? ''} sent`.trim());
  await vscode.commands.executeCommand('vscode.diff', left, right, `Instruction Lens ↔ ${a.name} ${a.versionRun ?? ''} (what we render ↔ what the agent sent)`, { preview: false });
}

/**
 * "Instruction Lens: Verify With Installed Agent": runs the selected agent installed on this
 * machine against a local fake model for the active file (src/verify/), with progress and
 * cancellation; tells the result, opens the differences in a diff editor, and records it for the
 * meter and the chain header. Not offered in Restricted Mode: it runs a program from this machine
 * inside a copy of the workspace.
 */
export function registerVerification(surface: Surface, model: ActiveChainModel, settings: Settings, verifications: Verifications): vscode.Disposable {
  // The chain view's Verify button shows only for a file's chain whose agent can be run here.
  const runnable = new ContextKey<boolean>('instructionLens.canVerify');
  const run = async (): Promise<AgentVerification | undefined> => {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage('Instruction Lens: verifying runs an agent installed on this machine, which Restricted Mode does not allow.');
      return undefined;
    }
    const active = await model.settled();
    if (!active) {
      void vscode.window.showInformationMessage('Instruction Lens: open a file to verify what the agent loads for it.');
      return undefined;
    }
    const { profile, uri, chain } = active;
    const file = path.basename(uri.fsPath);
    const title = `Verifying ${profileName(profile)} for ${file}`;
    let report;
    try {
      report = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      try {
        return await verifyLib().verify({
          target: uri.fsPath,
          launchDir: chain.launchDir,
          home: chain.home,
          agents: [profile.id],
          agentPaths: settings.get('agentPaths'),
          signal: abort.signal,
          onProgress: (message) => progress.report({ message }),
        });
      } finally {
        sub.dispose();
      }
    });
    } catch (e) {
      void vscode.window.showErrorMessage(`Instruction Lens could not verify ${profileName(profile)}: ${(e as Error).message}`);
      return undefined;
    }
    const a = report.agents[0];
    await verifications.save(uri.fsPath, a);
    const versions = a.versionRun ? `${a.name} ${a.versionRun}` : a.name;
    if (a.status === 'match') {
      void vscode.window.showInformationMessage(`${versions} sends what Instruction Lens shows for ${file}, byte for byte (modelled ${a.versionModelled}).`);
    } else if (a.status === 'differs') {
      const n = a.phases.reduce((k, p) => k + p.differences.length, 0);
      const first = a.phases.flatMap((p) => p.differences)[0];
      const where = first?.file ? ` First: ${path.basename(first.file)} (${first.phase}).` : '';
      void vscode.window.showWarningMessage(`${versions} sends something else than Instruction Lens shows for ${file}: ${n} difference${n === 1 ? '' : 's'}.${where}`, 'Show Differences').then((pick) => {
        if (pick) void showDifferences(verifications, a.agent);
      });
      await showDifferences(verifications, a.agent);
    } else {
      const why = profile.localRun ? a.reason : a.reason?.replace(/^cannot be verified: /, '');
      void vscode.window.showWarningMessage(`Instruction Lens could not verify ${profileName(profile)}: ${why}`);
    }
    return a;
  };
  return vscode.Disposable.from(
    verifications,
    model.onDidChange((active) => void runnable.set(!!active?.profile.localRun)),
    surface.registerTextDocumentContentProvider(SCHEME, new VerificationDocuments(verifications)),
    surface.registerCommand(VERIFY_COMMAND, run),
    surface.registerCommand(SHOW_COMMAND, (agent?: string) => showDifferences(verifications, agent ?? model.profile.id)),
  );
}

/**
 * The verification (src/verify/), loaded when the user first verifies: the extension's build
 * keeps it in a bundle of its own (scripts/build.mjs), which nothing else needs.
 */
function verifyLib(): typeof Verify {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('../verify/verify') as typeof Verify;
}
