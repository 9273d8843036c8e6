import { join } from 'node:path';
import * as vscode from 'vscode';
import { loadBundle } from './codeCache';
import type * as LensModule from './vscode/lens';
import type { Lens } from './vscode/lens';
import { coreCacheFile, startCheckThread, type CheckThread } from './vscode/checkThread';
import { createLog } from './vscode/log';
import { Surface } from './vscode/surface';

/** What `activate()` returns: enough for the integration tests to read what the user sees. */
export interface InstructionLensApi extends Lens {
  /** The "Instruction Lens" output channel, and the folder its log file is in. */
  readonly log: vscode.LogOutputChannel;
  readonly logUri: vscode.Uri;
  /** The chain view as activation registered it: until the first chain, its message says the extension is working. */
  readonly view: vscode.TreeView<unknown>;
  /** Resolves once the rest of the extension is loaded and started: true, or false when it could not be. */
  readonly started: Promise<boolean>;
}

/**
 * Activation registers what the user sees — every command, the chain view, the status bar item,
 * the CodeLens, link, hover and quick-fix providers (src/vscode/surface.ts) — and returns. The
 * rest (src/vscode/lens.ts and the core: the agents' profiles, the watcher, the chains) is loaded
 * on the next turns of the event loop, from bundles of its own (scripts/build.mjs): VS Code counts
 * an activation as loading this file plus this call, and the first chain comes after either way.
 * Reading a part of the API that belongs to the rest before then loads the rest at once.
 */
export function activate(context: vscode.ExtensionContext): InstructionLensApi {
  const activatedAt = performance.now();
  const log = createLog(context);
  const surface = new Surface(contributedCommands(context));
  context.subscriptions.push(log, surface);
  let lens: Lens | undefined;
  let failure: unknown;
  let thread: CheckThread | undefined;
  const rest = (): Lens => {
    if (lens) return lens;
    if (failure) throw failure;
    try {
      lens = lensModule().startLens(context, surface, log, activatedAt, thread);
      surface.start(true);
      return lens;
    } catch (e) {
      failure = e;
      log.error('Instruction Lens could not start', e as Error);
      surface.view.message = `⚠ Instruction Lens could not start: ${(e as Error).message ?? String(e)}`;
      surface.start(false);
      throw e;
    }
  };
  // The chains' worker thread first, as soon as this call returns (not in a task of its own: the
  // extension host's other work between would hold back the thread's start, and its load of the
  // core, which the first chain waits for, by 20-280 ms). It loads the core on its own thread
  // meanwhile: the first chain is resolved there.
  // The core's code cache is named here once (the name hashes the bundle), for the worker and
  // for this thread's own load of the core.
  const cacheDir = context.globalStorageUri.fsPath;
  let cacheFile: string | undefined;
  queueMicrotask(() => {
    if (!lens && !failure) thread = threadAhead(context, log, () => !!lens, (cacheFile = coreCacheFile(cacheDir)));
  });
  // Then the core, then the rest's code, then starting the rest (whose parts start their longer
  // steps in tasks of their own), each in a task of its own: the extension host's other work (and
  // the other extensions starting) runs between them.
  inTasks([
    // The core (src/core, the agents' profiles and their libraries), a bundle of its own, with
    // the code cache the worker threads write (src/codeCache.ts); when that fails, the rest's
    // `require` of it loads it.
    () => loadBundle(join(__dirname, 'core.js'), cacheDir, true, cacheFile),
    () => {
      try {
        lensModule();
      } catch {
        // Loaded again when the rest starts, which says why it fails.
      }
    },
    () => {
      try {
        rest();
      } catch {
        // Logged and shown in the view.
      }
    },
  ]);
  return {
    get model() {
      return rest().model;
    },
    get chainView() {
      return rest().chainView;
    },
    get budgetStatus() {
      return rest().budgetStatus;
    },
    get verifications() {
      return rest().verifications;
    },
    get detection() {
      return rest().detection;
    },
    log,
    logUri: context.logUri,
    view: surface.view,
    started: surface.started,
  };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}

/** The commands the manifest contributes: each registered now, answered once the rest is loaded. */
function contributedCommands(context: vscode.ExtensionContext): string[] {
  const manifest = context.extension.packageJSON as { contributes?: { commands?: { command: string }[] } };
  return (manifest.contributes?.commands ?? []).map((c) => c.command);
}

/** The chains' worker thread, started ahead of the rest (undefined when it could not be: the rest starts one when it first asks). */
function threadAhead(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, restStarted: () => boolean, codeCacheFile?: string): CheckThread | undefined {
  try {
    const started = startCheckThread(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath, context.globalStorageUri.fsPath, true, { codeCacheFile });
    // Stopped with the extension when the rest never started (it stops the thread otherwise).
    context.subscriptions.push({ dispose: () => void (restStarted() || started.worker.terminate()) });
    return started;
  } catch (e) {
    log.warn(`Instruction Lens could not start its worker thread ahead: ${(e as Error).message}`);
    return undefined;
  }
}

/** Runs each step in a task of its own, one after the other. */
function inTasks(steps: (() => unknown)[]): void {
  const [step, ...next] = steps;
  if (step)
    setTimeout(() => {
      step();
      inTasks(next);
    });
}

function lensModule(): typeof LensModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./vscode/lens') as typeof LensModule;
}
