// The extension's worker thread (dist/checkWorker.js): the diagnostics' `check` passes and quick
// looks (src/core/checkService.ts), run here so the extension host's thread, which every other
// extension and the editor share, never waits for them. Only the core: no `vscode` here.
// First, the core's bundle with its code cache, before the imports below require it.
import './workerCodeCache';
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { CheckService, type CheckMessage } from './core/checkService';
import { probeCaseAt } from './core/fs';

const { caseProbeDir, writesCodeCache } = (workerData ?? {}) as { caseProbeDir?: string; writesCodeCache?: boolean };
// The volume the extension asked about, so names compare as they do on the extension's side.
probeCaseAt(caseProbeDir);
// The passes' thread (the one that does not write the code cache) runs at a lower priority, and
// so do the git processes it starts: on a machine of few cores a pass took a core from the
// extension host's thread, which every extension and the editor wait on. Linux only, where a
// thread has a priority of its own (its id is the tail of /proc/thread-self); elsewhere the call
// would lower the whole extension host's.
if (!writesCodeCache && process.platform === 'linux') {
  try {
    const tid = +readlinkSync('/proc/thread-self').split('/')[2];
    setPriority(tid, Math.max(10, getPriority(tid)));
  } catch {
    // No /proc, or a priority the system does not let us set: the thread runs as it was.
  }
}
const port = parentPort!;
const service = new CheckService((answer) => port.postMessage(answer));
port.on('message', (message: CheckMessage) => service.handle(message));
