// The worker thread's first import (src/checkWorker.ts): loads the core's bundle with its code
// cache (src/codeCache.ts) before the worker's other imports require it, and when V8 had none to
// take and this is the thread that writes it (the chains' thread, which lives as long as the
// extension; the passes' thread stops when idle), writes one once its first chains have run, so
// it holds what they compiled, and the extension host's.
import { join } from 'node:path';
import { workerData } from 'node:worker_threads';
import { loadBundle, topCacheFile, writeCodeCache } from './codeCache';

/** How long after loading the core the cache is written (the first chain and pass have run by then). */
const CACHE_AFTER_MS = 20_000;
/** How long after loading the core the extension host's cache is written. */
const TOP_AFTER_MS = 5_000;

const { codeCacheDir, codeCacheFile, writesCodeCache } = (workerData ?? {}) as { codeCacheDir?: string; codeCacheFile?: string; writesCodeCache?: boolean };
const core = loadBundle(join(__dirname, 'core.js'), codeCacheDir, false, codeCacheFile);
if (core && !core.cached && writesCodeCache) {
  // And the extension host's (src/codeCache.ts: `topCacheFile`): what loading the core compiled,
  // taken now (1-2 ms), written once the first chain is answered.
  const top = core.script.createCachedData();
  setTimeout(() => writeCodeCache({ ...core, cacheFile: topCacheFile(core) }, top), TOP_AFTER_MS).unref();
  setTimeout(() => writeCodeCache(core), CACHE_AFTER_MS).unref();
}
