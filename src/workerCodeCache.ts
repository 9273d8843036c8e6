// The worker thread's first import (src/checkWorker.ts): loads the core's bundle with its code
// cache (src/codeCache.ts) before the worker's other imports require it, and when V8 had none to
// take, writes one once the worker's first chains and passes have run, so it holds what they compiled.
import { join } from 'node:path';
import { workerData } from 'node:worker_threads';
import { loadBundle, writeCodeCache } from './codeCache';

/** How long after loading the core the cache is written (the first chain and pass have run by then). */
const CACHE_AFTER_MS = 20_000;

const core = loadBundle(join(__dirname, 'core.js'), (workerData as { codeCacheDir: string }).codeCacheDir);
if (core && !core.cached) setTimeout(() => writeCodeCache(core), CACHE_AFTER_MS).unref();
