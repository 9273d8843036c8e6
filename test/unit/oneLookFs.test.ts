import assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { CachedFileSystem } from '../../src/core/cachedFs';
import { NodeFileSystem, type FileSystem } from '../../src/core/fs';
import { OneLookFileSystem } from '../../src/core/oneLookFs';

// The CLI's `check` reads the disk through OneLookFileSystem, which answers from what the run has
// already seen (a missing folder, a folder's listing): every answer must be the disk's own.
describe("the CLI check's disk (OneLookFileSystem)", () => {
  let top = '';
  let root = '';
  before(() => {
    // Deep in a folder of its own: a question may climb five levels above the tree (`..`, the
    // link `up`), and the disk's answers there must not move while the test runs (the system's
    // temporary folder changes as other tests make and remove theirs).
    top = nodeFs.mkdtempSync(path.join(os.tmpdir(), 'il-onelook-'));
    root = path.join(top, '1', '2', '3', '4', '5', 'r');
    nodeFs.mkdirSync(root, { recursive: true });
    const file = (rel: string) => {
      nodeFs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      nodeFs.writeFileSync(path.join(root, rel), rel);
    };
    for (const rel of ['CLAUDE.md', 'a/AGENTS.md', 'a/b/CLAUDE.md', 'a/.github/copilot-instructions.md', 'c/é.md', 'c/d/e/GEMINI.md']) file(rel);
    nodeFs.mkdirSync(path.join(root, 'empty'));
    nodeFs.symlinkSync('a', path.join(root, 'toA'));
    nodeFs.symlinkSync('CLAUDE.md', path.join(root, 'a/b/link.md'));
    nodeFs.symlinkSync('nowhere', path.join(root, 'c/dangling'));
    nodeFs.symlinkSync('..', path.join(root, 'c/up'));
  });
  after(() => nodeFs.rmSync(top, { recursive: true, force: true }));

  const segment = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'toA', 'up', 'dangling', 'empty', 'link.md', '.github', 'copilot-instructions.md', 'CLAUDE.md', 'AGENTS.md', 'claude.md', 'GEMINI.md', 'é.md', 'missing', '.', '..');
  const question = fc.record({
    ask: fc.constantFrom('stat', 'isSymlink', 'readDirNames', 'realPath'),
    segs: fc.array(segment, { maxLength: 5 }),
    trailing: fc.boolean(),
  });

  function answer(fs: FileSystem, ask: string, p: string): unknown {
    if (ask === 'stat') return fs.stat(p);
    if (ask === 'isSymlink') return fs.isSymlink(p);
    if (ask === 'realPath') return fs.realPath(p);
    return fs.readDirNames!(p);
  }

  it("answers every question as the disk does, alone and under the refresh's cache (random questions)", () => {
    fc.assert(
      fc.property(fc.array(question, { minLength: 1, maxLength: 40, size: 'max' }), fc.boolean(), (questions, cached) => {
        // Under the cache, against the cache over the disk: the cache has answers of its own (a file's real path with a trailing `/`).
        const disk: FileSystem = cached ? new CachedFileSystem(new NodeFileSystem(root)) : new NodeFileSystem(root);
        const one: FileSystem = cached ? new CachedFileSystem(new OneLookFileSystem(root)) : new OneLookFileSystem(root);
        // Each question twice: an answer given from what the run saw must still be the disk's.
        for (const { ask, segs, trailing } of [...questions, ...questions]) {
          // Paths as the core builds them (joined), and a few as they may come (a trailing `/`, `.`, `..`).
          const p = trailing ? `${[root, ...segs].join('/')}/` : path.join(root, ...segs);
          assert.deepEqual(answer(one, ask, p), answer(disk, ask, p), `${ask} ${p}`);
        }
      }),
      { numRuns: 2_000, seed: 20261203 },
    );
  });

  it("the refresh's cache answers as the disk does (random questions, nothing below a path that is not a folder)", () => {
    fc.assert(
      fc.property(fc.array(question, { minLength: 1, maxLength: 40, size: 'max' }), (questions) => {
        const disk = new NodeFileSystem(root);
        const cached = new CachedFileSystem(new NodeFileSystem(root));
        for (const { ask, segs, trailing } of [...questions, ...questions]) {
          // A real path with a trailing `/` is the cache's own (the path as given).
          if (trailing && ask === 'realPath') continue;
          const p = trailing ? `${[root, ...segs].join('/')}/` : path.join(root, ...segs);
          assert.deepEqual(answer(cached, ask, p), answer(disk, ask, p), `${ask} ${p}`);
        }
      }),
      { numRuns: 2_000, seed: 20261203 },
    );
  });
});
