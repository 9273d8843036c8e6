import assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { CachedFileSystem } from '../../src/core/cachedFs';
import { SnapshotGitIndex, type GitIndex } from '../../src/core/git';
import type { Profile } from '../../src/core/profile';
import { carryHost, resolveChain, type Host } from '../../src/core/chain';
import { check, listFiles } from '../../src/core/check';
import { NodeFileSystem, type DirEntry, type FileStat, type FileSystem } from '../../src/core/fs';
import { MemoryGitIndex } from './doubles/memoryGit';
import { MemoryFileSystem } from './doubles/memoryFs';
import { PROFILES } from '../../src/core/profiles';

/** A file system that counts every call made to it. */
class CountingFileSystem implements FileSystem {
  readonly calls = { stat: 0, isSymlink: 0, readFile: 0, readPrefix: 0, readDir: 0, readDirNames: 0, realPath: 0 };
  readonly reads = new Map<string, number>();
  readonly stats = new Map<string, number>();

  constructor(private readonly inner: FileSystem) {}

  get path() {
    return this.inner.path;
  }

  get caseInsensitive(): boolean {
    return this.inner.caseInsensitive;
  }

  get total(): number {
    return Object.values(this.calls).reduce((a, b) => a + b, 0);
  }

  stat(p: string): FileStat | undefined {
    this.calls.stat++;
    this.stats.set(p, (this.stats.get(p) ?? 0) + 1);
    return this.inner.stat(p);
  }

  isSymlink(p: string): boolean {
    this.calls.isSymlink++;
    return this.inner.isSymlink(p);
  }

  readFile(p: string): Uint8Array {
    this.calls.readFile++;
    this.reads.set(p, (this.reads.get(p) ?? 0) + 1);
    return this.inner.readFile(p);
  }

  readPrefix(p: string, maxBytes: number): Uint8Array {
    this.calls.readPrefix++;
    return this.inner.readPrefix(p, maxBytes);
  }

  readDir(p: string): DirEntry[] {
    this.calls.readDir++;
    return this.inner.readDir(p);
  }

  readDirNames(p: string): string[] {
    this.calls.readDirNames++;
    return this.inner.readDirNames?.(p) ?? this.inner.readDir(p).map((e) => e.name);
  }

  realPath(p: string): string {
    this.calls.realPath++;
    return this.inner.realPath(p);
  }
}

/** A repository with a file `depth` folders deep and instruction files at every third level. */
function deepTree(depth: number) {
  const files: Record<string, string> = { '/r/.git/HEAD': 'ref', '/r/CLAUDE.md': 'Root.\n', '/r/AGENTS.md': 'Root agents.\n' };
  let dir = '/r';
  for (let i = 1; i <= depth; i++) {
    dir += `/d${i}`;
    if (i % 3 === 0) {
      files[`${dir}/CLAUDE.md`] = `Level ${i}.\n`;
      files[`${dir}/AGENTS.md`] = `Agents ${i}.\n`;
    }
  }
  files[`${dir}/file.ts`] = '';
  return { files, target: `${dir}/file.ts` };
}

describe('cost on large trees', () => {
  for (const profile of PROFILES) {
    it(`${profile.id}: the calls on the file system grow linearly with the depth of the file`, () => {
      const count = (depth: number): CountingFileSystem => {
        const { files, target } = deepTree(depth);
        const fs = new CountingFileSystem(new MemoryFileSystem(files));
        const git = new MemoryGitIndex(fs, new Set(Object.keys(files)));
        resolveChain({ profile, target, launchDir: '/r', home: '/home/u', env: {}, settings: {}, platform: 'linux' }, { fs, git });
        return fs;
      };
      const small = count(40);
      const large = count(160);
      // Four times as deep: about four times the calls (quadratic would be sixteen).
      assert.ok(large.calls.stat <= 4.5 * small.calls.stat + 20, `stat: ${small.calls.stat} calls at depth 40, ${large.calls.stat} at depth 160`);
      assert.ok(large.total <= 4.5 * small.total + 20, `all calls: ${small.total} at depth 40, ${large.total} at depth 160`);
      // And no file is read twice within one chain.
      for (const [p, n] of large.reads) assert.equal(n, 1, `${p} read ${n} times`);
    });
  }

  it('the walk outside git asks for real paths only at its root and through links, not once per folder (each such call costs one lstat per level on disk)', () => {
    const files: Record<string, string> = { '/w/CLAUDE.md': 'Root.\n', '/w/real/AGENTS.md': 'A.\n' };
    let dir = '/w';
    for (let i = 1; i <= 200; i++) files[`${(dir += `/d${i}`)}/x.ts`] = '';
    const mem = new MemoryFileSystem(files).symlink('/w/link', '/w/real').symlink('/w/real/loop', '/w/real');
    const fs = new CountingFileSystem(mem);
    const { files: listed, via, loops } = listFiles({ fs, git: new MemoryGitIndex(fs) }, '/w');
    assert.equal(via, 'walk');
    assert.equal(listed.length, 202);
    // One loop, reported where the walk first met it (through the other link here).
    assert.deepEqual(loops?.map((l) => mem.realPath(l)), ['/w/real']);
    // The root, and the two links; before, all 204 folders.
    assert.ok(fs.calls.realPath <= 3, `${fs.calls.realPath} realPath calls`);
  });

  it('check reads each instruction file once for every agent and folder of the pass', () => {
    const files: Record<string, string> = { '/r/.git/HEAD': 'ref', '/r/CLAUDE.md': 'Root.\n@docs/a.md\n', '/r/docs/a.md': 'A.\n' };
    for (let i = 0; i < 60; i++) {
      files[`/r/p${i}/CLAUDE.md`] = `Package ${i}.\n`;
      files[`/r/p${i}/AGENTS.md`] = `Agents ${i}.\n`;
      files[`/r/p${i}/src/index.ts`] = '';
    }
    const fs = new CountingFileSystem(new MemoryFileSystem(files));
    const git = new MemoryGitIndex(fs, new Set(Object.keys(files)), new Map(Object.entries(files)));
    const result = check({ fs, git }, '/r', PROFILES, { home: '/home/u', env: {} });
    assert.equal(result.files.length, 121);
    for (const [p, n] of fs.reads) assert.equal(n, 1, `${p} read ${n} times`);
  });

  it("check asks the disk about each path once for every agent and folder of the pass, git's root (`.git` in every ancestor of every folder) included", () => {
    const files: Record<string, string> = { '/w/r/.git/HEAD': 'ref', '/w/r/CLAUDE.md': 'Root.\n', '/w/r/AGENTS.md': 'Agents.\n' };
    for (let i = 0; i < 20; i++) {
      for (let j = 0; j < 3; j++) {
        files[`/w/r/p${i}/m${j}/CLAUDE.md`] = `Module ${i}.${j}.\n`;
        files[`/w/r/p${i}/m${j}/AGENTS.md`] = `Agents ${i}.${j}.\n`;
      }
    }
    const fs = new CountingFileSystem(new MemoryFileSystem(files));
    const git = new MemoryGitIndex(fs, new Set(Object.keys(files)), new Map(Object.entries(files)));
    const result = check({ fs, git }, '/w/r', PROFILES, { home: '/home/u', env: {} });
    assert.equal(result.files.length, 122);
    const again = [...fs.stats].filter(([, n]) => n > 1).map(([p, n]) => `${p}: ${n}`);
    assert.deepEqual(again, []);
  });
});

describe('CachedFileSystem', () => {
  it('gives the same real paths as the file system it wraps, through links at any level', () => {
    const mem = new MemoryFileSystem({ '/a/b/c/file.md': 'x', '/a/b/other.md': 'y' })
      .symlink('/link', '/a/b')
      .symlink('/a/b/c/up', '/a')
      .symlink('/a/b/c/dangling', '/nowhere');
    const cached = new CachedFileSystem(mem);
    for (const p of ['/link/c/file.md', '/link/other.md', '/a/b/c/up/b/c/file.md', '/', '/a']) {
      assert.equal(cached.realPath(p), mem.realPath(p), p);
    }
    // Nothing there: the path itself, as FileSystem.realPath says (and Node's realpath fails).
    for (const p of ['/missing/x.md', '/link/missing.md', '/a/b/c/dangling']) assert.equal(cached.realPath(p), p);
  });

  it('gives the same real paths as the disk', () => {
    const dir = nodeFs.realpathSync(nodeFs.mkdtempSync(path.join(os.tmpdir(), 'il-cached-')));
    try {
      nodeFs.mkdirSync(path.join(dir, 'a/b/c'), { recursive: true });
      nodeFs.writeFileSync(path.join(dir, 'a/b/c/file.md'), 'x');
      nodeFs.symlinkSync(path.join(dir, 'a/b'), path.join(dir, 'link'));
      nodeFs.symlinkSync('../..', path.join(dir, 'a/b/c/up'));
      nodeFs.symlinkSync(path.join(dir, 'nowhere'), path.join(dir, 'a/dangling'));
      const disk = new NodeFileSystem();
      const cached = new CachedFileSystem(disk);
      nodeFs.symlinkSync(path.join(dir, 'link/c/file.md'), path.join(dir, 'a/file-link.md'));
      nodeFs.symlinkSync(path.join(dir, 'link'), path.join(dir, 'link-to-link'));
      // A path written with a separator at its end, as Node's realpath takes it (a file's fails: the path itself).
      for (const rel of ['link/c/file.md', 'a/b/c/up/b/c/file.md', 'link/c/up/link/c', 'a/dangling', 'link/missing.md', 'missing/x.md', 'a', 'a/file-link.md', 'link-to-link/c/file.md', 'a/b/', 'link/', 'link-to-link/c/', 'link/c/file.md/', 'missing/']) {
        const p = path.join(dir, rel);
        assert.equal(cached.realPath(p), disk.realPath(p), rel);
      }
    } finally {
      nodeFs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('works out a real path with one stat of the file and one lstat per folder, listing none', () => {
    const mem = new CountingFileSystem(new MemoryFileSystem({ '/w/r/a/b/CLAUDE.md': 'x', '/w/r/a/b/AGENTS.md': 'y', '/w/r/a/c/CLAUDE.md': 'z' }));
    const cached = new CachedFileSystem(mem);
    assert.equal(cached.realPath('/w/r/a/b/CLAUDE.md'), '/w/r/a/b/CLAUDE.md');
    assert.deepEqual(mem.calls, { stat: 1, isSymlink: 5, readFile: 0, readPrefix: 0, readDir: 0, readDirNames: 0, realPath: 1 });
    // Beside it and in a sibling folder: the folders above are known.
    cached.realPath('/w/r/a/b/AGENTS.md');
    cached.realPath('/w/r/a/c/CLAUDE.md');
    assert.deepEqual(mem.calls, { stat: 3, isSymlink: 8, readFile: 0, readPrefix: 0, readDir: 0, readDirNames: 0, realPath: 1 });
  });

  it('keeps real paths worked out elsewhere, and drops a link\'s when the file it leads to is written', () => {
    const mem = new CountingFileSystem(new MemoryFileSystem({ '/r/AGENTS.md': 'x', '/r/b/c.md': 'y' }).symlink('/r/CLAUDE.md', '/r/AGENTS.md'));
    const cached = new CachedFileSystem(mem);
    cached.knowReals([['/r/CLAUDE.md', '/r/AGENTS.md'], ['/r/b/c.md', '/r/b/c.md']]);
    assert.equal(cached.realPath('/r/CLAUDE.md'), '/r/AGENTS.md');
    assert.equal(cached.realPath('/r/b/c.md'), '/r/b/c.md');
    assert.deepEqual(mem.calls, { stat: 0, isSymlink: 0, readFile: 0, readPrefix: 0, readDir: 0, readDirNames: 0, realPath: 0 });
    // One known already stays.
    cached.knowReals([['/r/b/c.md', '/elsewhere']]);
    assert.equal(cached.realPath('/r/b/c.md'), '/r/b/c.md');
    // Carried over a write to the link's target: the link's real path is asked again, the other kept.
    const next = cached.carry(new Set(['/r/AGENTS.md']));
    assert.equal(next.realPath('/r/CLAUDE.md'), '/r/AGENTS.md');
    assert.ok(mem.calls.realPath > 0);
    const calls = { ...mem.calls };
    next.realPath('/r/b/c.md');
    assert.deepEqual(mem.calls, calls);
  });

  it('answers each question of a refresh once', () => {
    const mem = new CountingFileSystem(new MemoryFileSystem({ '/a/CLAUDE.md': 'x' }));
    const cached = new CachedFileSystem(mem);
    for (let i = 0; i < 3; i++) {
      cached.stat('/a/CLAUDE.md');
      cached.readFile('/a/CLAUDE.md');
      cached.readDir('/a');
      assert.throws(() => cached.readFile('/a/missing.md'), /ENOENT/);
    }
    // stat: the file, its folder and the root, each folder listed once for the names it lacks.
    assert.deepEqual(mem.calls, { stat: 3, isSymlink: 0, readFile: 2, readPrefix: 0, readDir: 1, readDirNames: 2, realPath: 0 });
  });

  it('answers the names a small folder lacks from one listing of it, the first time one is asked', () => {
    const mem = new CountingFileSystem(new MemoryFileSystem({ '/r/a/CLAUDE.md': 'x' }));
    const cached = new CachedFileSystem(mem);
    assert.equal(cached.stat('/r/a')?.type, 'dir');
    const { stat, readDirNames } = mem.calls;
    for (const name of ['AGENTS.md', 'GEMINI.md', '.github', '.claude', 'CLAUDE.local.md']) {
      assert.equal(cached.stat(`/r/a/${name}`), undefined, name);
      assert.equal(cached.isSymlink(`/r/a/${name}`), false, name);
    }
    assert.equal(cached.stat('/r/a/CLAUDE.md')?.type, 'file');
    assert.deepEqual([mem.calls.stat - stat, mem.calls.readDirNames - readDirNames, mem.calls.isSymlink], [1, 1, 0]);
  });

  it('lists no folder to answer stat on a disk that ignores case, nor a large folder', () => {
    class LargeFolders extends MemoryFileSystem {
      override stat(p: string) {
        const st = super.stat(p);
        return st?.type === 'dir' ? { ...st, size: 8192 } : st;
      }
    }
    for (const inner of [new MemoryFileSystem({ '/r/a/CLAUDE.md': 'x' }, { caseInsensitive: true }), new LargeFolders({ '/r/a/CLAUDE.md': 'x' })]) {
      const mem = new CountingFileSystem(inner);
      const cached = new CachedFileSystem(mem);
      for (const name of ['AGENTS.md', 'GEMINI.md', '.github']) assert.equal(cached.stat(`/r/a/${name}`), undefined, name);
      // The three names, and each folder above once (nothing is below a path that is not a folder).
      assert.deepEqual([mem.calls.stat, mem.calls.readDirNames, mem.calls.readDir], [3 + 3, 0, 0]);
    }
  });

  it('a folder listed to answer stat is listed again for a later question, and after a change', () => {
    const mem = new MemoryFileSystem({ '/r/a/CLAUDE.md': 'x' });
    let host: Host = { fs: new CachedFileSystem(mem), git: new SnapshotGitIndex(new MemoryGitIndex(mem, new Set())) };
    assert.equal(host.fs.stat('/r/a/AGENTS.md'), undefined);
    // Made where no watcher looks (outside the workspace): nothing reports it.
    mem.write('/r/a/GEMINI.md', 'y');
    host = carryHost(host, [])!;
    assert.equal(host.fs.stat('/r/a/GEMINI.md')?.type, 'file');
    mem.write('/r/a/.cursorrules', 'z');
    host = carryHost(host, ['/r/a/CLAUDE.md'])!;
    assert.equal(host.fs.stat('/r/a/.cursorrules')?.type, 'file');
    // What was answered stays answered until a change says otherwise.
    assert.equal(host.fs.stat('/r/a/AGENTS.md'), undefined);
  });

  it('carries a refresh past a change of one file\'s contents: only that file is read again, and every chain is the one a new refresh gives', () => {
    const { files, target } = deepTree(12);
    const mem = new MemoryFileSystem(files);
    const disk = new CountingFileSystem(mem);
    const tracked = new Set(Object.keys(files));
    const git = new SnapshotGitIndex(new MemoryGitIndex(disk, tracked));
    const cached = new CachedFileSystem(disk);
    const resolve = (host: { fs: FileSystem; git: GitIndex }, profile: Profile) =>
      resolveChain({ profile, target, launchDir: '/r', home: '/home/u', env: {}, settings: {}, platform: 'linux' }, host);
    for (const profile of PROFILES) resolve({ fs: cached, git }, profile);
    const written = '/r/d1/d2/d3/d4/d5/d6/CLAUDE.md';
    mem.write(written, 'Level 6, now with @missing.md\n');
    const before = new Map(disk.reads);
    const carried = { fs: cached.carry(new Set([written])), git: git.carry() };
    for (const profile of PROFILES) {
      const fresh = resolve({ fs: new CachedFileSystem(mem), git: new MemoryGitIndex(mem, tracked) }, profile);
      assert.deepEqual(resolve(carried, profile), fresh, profile.id);
    }
    const readAgain = [...disk.reads].filter(([p, n]) => n > (before.get(p) ?? 0)).map(([p]) => p);
    assert.deepEqual(readAgain, [written]);
  });

  it('lists no folder that is not there', () => {
    const mem = new CountingFileSystem(new MemoryFileSystem({ '/a/CLAUDE.md': 'x' }));
    const cached = new CachedFileSystem(mem);
    assert.deepEqual(cached.readDir('/a/.claude/rules'), []);
    assert.deepEqual(cached.readDir('/a/CLAUDE.md'), []);
    assert.deepEqual(cached.readDir('/a').map((e) => e.name), ['CLAUDE.md']);
    assert.equal(mem.calls.readDir, 1);
  });
});
