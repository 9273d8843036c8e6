import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { cacheFileOf } from '../codeCache';

// In both the activation bundle and the rest (scripts/extensionBundles.mjs): activation's first
// task starts the chains' worker thread with it, so the thread loads its code while the
// extension host loads the rest; the rest starts any other worker thread with it.

/** A worker thread of the extension's (dist/checkWorker.js), and whether it has already stopped. */
export interface CheckThread {
  readonly worker: Worker;
  /** It stopped (failed to load) before anyone listened: start another. */
  readonly stopped: () => boolean;
}

/**
 * Starts dist/checkWorker.js (`caseProbeDir`: the volume the extension asks about, so names
 * compare as they do here; `codeCacheDir`: where the core's code cache is, src/codeCache.ts;
 * `writesCodeCache`: this thread writes it when V8 found none to take — one thread only, the
 * chains', which lives as long as the extension; the other, the passes', runs at a lower
 * priority, src/checkWorker.ts; `codeCacheFile`: the cache's name, when the caller worked it out).
 */
export function startCheckThread(
  caseProbeDir: string | undefined,
  codeCacheDir: string | undefined,
  writesCodeCache: boolean,
  { codeCacheFile = coreCacheFile(codeCacheDir) }: { codeCacheFile?: string } = {},
): CheckThread {
  const worker = new Worker(path.join(__dirname, 'checkWorker.js'), {
    workerData: { caseProbeDir, codeCacheDir, codeCacheFile, writesCodeCache },
    // Its heap is the extension host's memory too: a young generation of 8 MB rather than V8's
    // 48 MB costs more, shorter collections of what a pass leaves behind. Past the old
    // generation's cap the worker stops (logged), and the next request starts another.
    resourceLimits: { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 1536 },
  });
  // The extension host may exit with the worker idle.
  worker.unref();
  let stopped = false;
  // Until its user listens: an error with no listener would be thrown in the extension host.
  worker.on('error', () => undefined);
  worker.once('exit', () => (stopped = true));
  return { worker, stopped: () => stopped };
}

/** `coreCacheFile`'s answers, by folder. */
const cacheFiles = new Map<string, string | undefined>();

/**
 * The core's code cache file in `dir` (src/codeCache.ts), worked out on this thread, where
 * `node:crypto` is loaded already, for the worker; left to the worker when it cannot be.
 */
export function coreCacheFile(dir: string | undefined): string | undefined {
  if (!dir) return undefined;
  // Once per folder: it reads and hashes the whole bundle, and the passes' worker starts again after each idle spell.
  if (!cacheFiles.has(dir)) {
    try {
      cacheFiles.set(dir, cacheFileOf(path.join(__dirname, 'core.js'), dir));
    } catch {
      cacheFiles.set(dir, undefined);
    }
  }
  return cacheFiles.get(dir);
}
