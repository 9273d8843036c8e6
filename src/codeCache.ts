import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, wrap } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

// The core's bundle (dist/core.js) is the biggest the extension loads, on the extension host and
// in each worker thread, and V8 parses and compiles it anew every time. So it is loaded as
// scripts/cliLoader.cjs loads the CLI's bundles: compiled with V8's code cache of it, here kept
// in the extension's global storage, one file per V8 version and bundle content (V8 takes a
// cache for any source of the same length). A worker thread writes it, from what it compiled once its first work
// ran; the extension host only reads it. Not Node's `module.enableCompileCache`: that would
// change how every other extension in the shared extension host loads. In both the activation
// bundle and the worker's (scripts/extensionBundles.mjs).

/** A bundle loaded here: the script it was compiled from, and whether V8 took the cache for it. */
export interface LoadedBundle {
  script: Script;
  cacheFile: string;
  cached: boolean;
}

/**
 * Loads `file`, a CommonJS bundle, into `require`'s cache with its code cache from `dir`, so that
 * the other bundles' `require` of it finds it loaded. A missing or corrupt cache compiles it as
 * usual (V8 compiles it then: the worker writes a new cache); any other failure (no `dir`
 * either) leaves it to `require`. Returns undefined then, or when it was loaded already.
 * `top`: the cache of what loading the bundle compiled, no more (`topCacheFile`), not the
 * worker's cache of what its work ran too. `known`: the worker's cache file of the bundle
 * (`cacheFileOf`), when the thread that started this one worked it out.
 */
export function loadBundle(file: string, dir: string | undefined, top = false, known?: string): LoadedBundle | undefined {
  if (require.cache[file] || !dir) return undefined;
  try {
    const bytes = readFileSync(file);
    const workers = known ?? cacheFileOf(file, dir, bytes);
    const cacheFile = top ? topCacheFile({ cacheFile: workers }) : workers;
    let cachedData: Buffer | undefined;
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      // none yet
    }
    // As Latin-1, quicker to decode than UTF-8 and the same on the bundles' ASCII (scripts/build.mjs checks).
    const script = new Script(wrap(bytes.toString('latin1')), { filename: file, cachedData });
    // In `require`'s cache before it runs, as `require` does it; marked loaded at once, since the
    // bundle does not require itself.
    const mod = { exports: {}, loaded: true };
    require.cache[file] = mod as NodeJS.Module;
    (script.runInThisContext() as (...args: unknown[]) => void).call(mod.exports, mod.exports, createRequire(file), mod, file, dirname(file));
    return { script, cacheFile, cached: script.cachedDataRejected === false };
  } catch {
    delete require.cache[file];
    return undefined;
  }
}

/**
 * Where the worker's code cache of `file` is in `dir`: one file per V8 version and bundle content.
 * The extension host works it out for the worker threads it starts (src/vscode/checkThread.ts):
 * `node:crypto`, loaded here on first use, takes a new thread 8-12 ms to load.
 */
export function cacheFileOf(file: string, dir: string, bytes: Buffer = readFileSync(file)): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  return join(dir, `${basename(file, '.js')}-${createHash('sha256').update(process.versions.v8).update(bytes).digest('hex')}`);
}

/**
 * Writes `bundle`'s code cache (what V8 compiled of it so far, the functions that ran included,
 * or `data`) whole, as `cacheFile`, in place of its others of the same kind; any failure leaves no cache.
 */
export function writeCodeCache({ script, cacheFile }: LoadedBundle, data = script.createCachedData()): void {
  const dir = dirname(cacheFile);
  const name = basename(cacheFile);
  try {
    mkdirSync(dir, { recursive: true });
    const temp = `${cacheFile}.${Math.random()}`;
    writeFileSync(temp, data);
    renameSync(temp, cacheFile);
    // Other versions' and contents', and any other writer's temporary file (whose rename then fails).
    const kind = name.split('-')[0];
    for (const other of readdirSync(dir)) if (other.split('-')[0] === kind && other !== name) rmSync(join(dir, other), { force: true });
  } catch {
    // No cache: the next start compiles the bundle.
  }
}

/**
 * Where the extension host's cache of `bundle` is: what loading it compiled, no more, which V8
 * reads back quicker than the worker's (a third of the core's load on the host in Node); the
 * functions the host then runs compile as they first run, in the tasks that run them.
 */
export function topCacheFile({ cacheFile }: Pick<LoadedBundle, 'cacheFile'>): string {
  return join(dirname(cacheFile), basename(cacheFile).replace('-', '.top-'));
}
