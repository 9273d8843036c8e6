import * as vscode from 'vscode';
import { probeCaseAt } from './core/fs';
import { ActiveChainModel } from './vscode/activeChain';
import { AgentDetection } from './vscode/agentDetection';
import { registerBudgetStatus } from './vscode/budgetStatus';
import { registerChainView } from './vscode/chainView';
import { createLog } from './vscode/log';
import { registerDiagnostics } from './vscode/diagnostics';
import { registerPreview } from './vscode/preview';
import { registerScopeCodeLens } from './vscode/scopeCodeLens';
import { Settings } from './vscode/settings';
import { registerVerification, Verifications } from './vscode/verification';
import { InstructionWatcher } from './vscode/watcher';

/** What `activate()` returns: enough for the integration tests to read what the user sees. */
export interface InstructionLensApi {
  readonly model: ActiveChainModel;
  readonly chainView: ReturnType<typeof registerChainView>;
  readonly budgetStatus: ReturnType<typeof registerBudgetStatus>;
  /** The "Instruction Lens" output channel, and the folder its log file is in. */
  readonly log: vscode.LogOutputChannel;
  readonly logUri: vscode.Uri;
  readonly verifications: Verifications;
  readonly detection: AgentDetection;
}

export function activate(context: vscode.ExtensionContext): InstructionLensApi {
  probeCaseAt(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath);
  const settings = new Settings();
  const log = createLog(context, settings);
  const detection = new AgentDetection(() => settings.home());
  const detected = settings.useDetection(detection);
  const watcher = new InstructionWatcher(settings);
  const redetect = watcher.onDidChange((paths) => detection.changed(paths, watcher.structural));
  const model = new ActiveChainModel(context.workspaceState, settings, watcher, log);
  const verifications = new Verifications(context.globalState);
  const chainView = registerChainView(model, verifications);
  const budgetStatus = registerBudgetStatus(model, verifications);
  context.subscriptions.push(
    log,
    settings,
    detection,
    detected,
    redetect,
    watcher,
    model,
    chainView,
    budgetStatus,
    registerDiagnostics(model, settings, watcher, log),
    registerScopeCodeLens(model, settings),
    registerPreview(model),
    registerVerification(model, settings, verifications),
  );
  return { model, chainView, budgetStatus, log, logUri: context.logUri, verifications, detection };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
