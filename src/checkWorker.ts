// The extension's worker thread (dist/checkWorker.js): the diagnostics' `check` passes and quick
// looks (src/core/checkService.ts), run here so the extension host's thread, which every other
// extension and the editor share, never waits for them. Only the core: no `vscode` here.
// First, the core's bundle with its code cache, before the imports below require it.
import './workerCodeCache';
import { parentPort, workerData } from 'node:worker_threads';
import { CheckService, type CheckMessage } from './core/checkService';
import { probeCaseAt } from './core/fs';

// The volume the extension asked about, so names compare as they do on the extension's side.
probeCaseAt((workerData as { caseProbeDir?: string } | undefined)?.caseProbeDir);
const port = parentPort!;
const service = new CheckService((answer) => port.postMessage(answer));
port.on('message', (message: CheckMessage) => service.handle(message));
