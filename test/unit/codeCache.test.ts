import assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Script } from 'node:vm';
import { after, before, describe, it } from 'node:test';
import { cacheFileOf, loadBundle, topCacheFile, writeCodeCache, type LoadedBundle } from '../../src/codeCache';

// The core's bundle as the extension host and its worker threads load it (src/codeCache.ts): with
// V8's code cache from the extension's global storage when there is a good one, and loaded all
// the same when there is none, a corrupt one, one V8 does not take, or nowhere to write one.

let tmp: string;
let bundle: string;

before(() => {
  tmp = nodeFs.realpathSync(nodeFs.mkdtempSync(path.join(os.tmpdir(), 'il-code-cache-')));
  bundle = path.join(tmp, 'core.js');
  // A CommonJS bundle as esbuild writes one, with a function that runs only when called.
  nodeFs.writeFileSync(bundle, '"use strict";var n=0;function answer(){return 40+2}module.exports={answer,loads:++n,dir:__dirname,sep:require("node:path").sep};\n');
});

after(() => nodeFs.rmSync(tmp, { recursive: true, force: true }));

let copies = 0;

/**
 * Loads the bundle as a new extension host or worker would: a copy of it in a folder of its own,
 * so that V8 compiles it rather than taking this process's compilation of an earlier copy.
 */
function load(dir: string | undefined, top = false, known?: (file: string) => string): LoadedBundle | undefined {
  const folder = path.join(tmp, 'dist', String(copies++));
  const file = path.join(folder, 'core.js');
  nodeFs.mkdirSync(folder, { recursive: true });
  nodeFs.copyFileSync(bundle, file);
  const loaded = loadBundle(file, dir, top, known?.(file));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const exports = require(file) as { answer(): number; dir: string; sep: string };
  assert.equal(exports.answer(), 42);
  assert.equal(exports.dir, folder);
  assert.equal(exports.sep, path.sep);
  if (loaded) assert.equal(loadBundle(file, dir), undefined, 'a bundle already loaded is not loaded again');
  return loaded;
}

const caches = (dir: string) => (nodeFs.existsSync(dir) ? nodeFs.readdirSync(dir) : []);

describe('the code cache of a bundle (src/codeCache.ts)', () => {
  it('is written by one load and taken by the next, which `require` then finds loaded', () => {
    const dir = path.join(tmp, 'storage');
    const first = load(dir);
    assert.ok(first, 'loaded by the loader');
    assert.equal(first.cached, false, 'no cache yet');
    assert.deepEqual(caches(dir), [], 'loading writes nothing');
    writeCodeCache(first);
    assert.equal(caches(dir).length, 1);
    const second = load(dir);
    assert.equal(second?.cached, true);
    assert.equal(second.script.cachedDataRejected, false, 'V8 took the cache');
  });

  it('a corrupt cache, or one V8 rejects, is ignored, and the next write replaces it', () => {
    const dir = path.join(tmp, 'corrupt');
    const first = load(dir)!;
    writeCodeCache(first);
    const [name] = caches(dir);
    for (const bad of [Buffer.from('not a code cache'), Buffer.alloc(0), new Script('"another script"').createCachedData()]) {
      nodeFs.writeFileSync(path.join(dir, name), bad);
      const again = load(dir);
      assert.equal(again?.cached, false, `cache of ${bad.length} bytes`);
      writeCodeCache(again!);
      assert.equal(load(dir)?.cached, true, 'written again');
    }
  });

  it("keeps one cache per bundle: another V8's or another content's is removed when it writes its own", () => {
    const dir = path.join(tmp, 'versions');
    nodeFs.mkdirSync(dir);
    for (const other of ['core-0123abcd', 'core-4567ef01.0.123', 'lens-89abcdef']) nodeFs.writeFileSync(path.join(dir, other), 'old');
    const loaded = load(dir)!;
    assert.equal(loaded.cached, false);
    writeCodeCache(loaded);
    assert.deepEqual(caches(dir).sort(), [path.basename(loaded.cacheFile), 'lens-89abcdef'].sort());
  });

  it("keeps the extension host's cache (what loading compiled) apart from the worker's, each taken by its own load", () => {
    const dir = path.join(tmp, 'top');
    const worker = load(dir)!;
    writeCodeCache({ ...worker, cacheFile: topCacheFile(worker) }, worker.script.createCachedData());
    assert.deepEqual(caches(dir), [path.basename(topCacheFile(worker))]);
    assert.equal(load(dir)?.cached, false, "the worker's is not written yet");
    writeCodeCache(worker);
    assert.deepEqual(caches(dir).sort(), [path.basename(worker.cacheFile), path.basename(topCacheFile(worker))].sort(), 'writing one kind leaves the other');
    const host = load(dir, true);
    assert.equal(host?.cached, true);
    assert.equal(host.cacheFile, topCacheFile(worker));
    assert.equal(load(dir)?.cached, true);
    nodeFs.rmSync(worker.cacheFile);
    assert.equal(load(dir, true)?.cached, true, "each kind read alone");
  });

  it('takes the cache file the thread that started it worked out (cacheFileOf): the one it would have found itself', () => {
    const dir = path.join(tmp, 'known');
    const first = load(dir)!;
    writeCodeCache(first);
    const known = load(dir, false, (file) => cacheFileOf(file, dir));
    assert.equal(known?.cached, true);
    assert.equal(known.cacheFile, first.cacheFile);
  });

  it('loads without a cache where none can be written, silently', () => {
    const file = path.join(tmp, 'a-file');
    nodeFs.writeFileSync(file, '');
    const dir = path.join(file, 'storage');
    const loaded = load(dir)!;
    assert.equal(loaded.cached, false);
    assert.doesNotThrow(() => writeCodeCache(loaded));
    assert.equal(load(dir)?.cached, false);
  });

  it('leaves the bundle to `require` when there is no storage folder (a worker started without one)', () => {
    assert.equal(load(undefined), undefined);
  });

  it('leaves a bundle it cannot load to `require`', () => {
    const broken = path.join(tmp, 'broken.js');
    nodeFs.writeFileSync(broken, 'throw new Error("broken")');
    assert.equal(loadBundle(broken, tmp), undefined);
    assert.equal(require.cache[broken], undefined, 'not left in require\'s cache');
    assert.equal(loadBundle(path.join(tmp, 'missing.js'), tmp), undefined);
  });
});
