import * as vscode from 'vscode';
import { probeCaseAt } from '../core/fs';
import { ActiveChainModel } from './activeChain';
import { AgentDetection } from './agentDetection';
import { registerBudgetStatus } from './budgetStatus';
import type { CheckThread } from './checkThread';
import { registerChainView } from './chainView';
import { registerDiagnostics } from './diagnostics';
import { registerPreview } from './preview';
import { registerScopeCodeLens } from './scopeCodeLens';
import { Settings } from './settings';
import type { Surface } from './surface';
import { registerVerification, Verifications } from './verification';
import { InstructionWatcher } from './watcher';

/** The extension's parts, once loaded: what the API hands the integration tests. */
export interface Lens {
  readonly model: ActiveChainModel;
  readonly chainView: ReturnType<typeof registerChainView>;
  readonly budgetStatus: ReturnType<typeof registerBudgetStatus>;
  readonly verifications: Verifications;
  readonly detection: AgentDetection;
}

/**
 * Everything but what activation registered (src/extension.ts): the settings, agent detection,
 * the watcher, the model of the active chain, and the parts that show it, each filling its place
 * on the surface. Loaded right after activation, as a bundle of its own with the core.
 * `activatedAt`: when activation began, so the first chain's wait for detection counts from there;
 * `thread`: the chains' worker thread, started by then.
 */
export function startLens(context: vscode.ExtensionContext, surface: Surface, log: vscode.LogOutputChannel, activatedAt: number, thread?: CheckThread): Lens {
  probeCaseAt(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath);
  const settings = new Settings();
  // Detection lists the folders on the chains' worker (`model`, made below: asked from the next task on).
  const detection = new AgentDetection(
    () => settings.home(),
    (folder) => model.listingDue.then(() => model.worker.detect(folder)),
    (home, extensions) => model.worker.machine(home, extensions),
    () => model.shown,
    () => settings.detects(),
  );
  const detected = settings.useDetection(detection);
  // Once detection has listed the folders (asynchronously).
  void settings.ready().then(() => log.info(`Agents enabled: ${settings.enabledProfiles().map((p) => `${p.agent} (${p.id}, models ${p.agentVersion})`).join('; ')}`));
  const watcher = new InstructionWatcher(settings);
  const redetect = watcher.onDidChange((paths) => detection.changed(paths, watcher.structural));
  const model = new ActiveChainModel(context.workspaceState, settings, watcher, log, activatedAt, thread, context.globalStorageUri.fsPath);
  const verifications = new Verifications(context.globalState);
  const chainView = registerChainView(surface, model, verifications);
  const budgetStatus = registerBudgetStatus(surface.statusItem, model, verifications);
  context.subscriptions.push(
    settings,
    detection,
    detected,
    redetect,
    watcher,
    model,
    chainView,
    budgetStatus,
    registerDiagnostics(surface, model, settings, watcher, log, chainView.drawn),
    registerScopeCodeLens(surface, model, settings),
    registerPreview(surface, model),
    registerVerification(surface, model, settings, verifications),
  );
  return { model, chainView, budgetStatus, verifications, detection };
}
