import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as nodeFs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { NodeFileSystem } from '../../src/core/fs';
import { CliGitIndex } from '../../src/core/git';

// What `CliGitIndex` answers on a real repository, where git's answers depend on how it is asked.

let root: string;

function git(...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd: root, encoding: 'utf8' });
}

function write(rel: string, text: string) {
  nodeFs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  nodeFs.writeFileSync(path.join(root, rel), text);
}

describe('CliGitIndex on a real repository', () => {
  before(() => {
    root = nodeFs.realpathSync(nodeFs.mkdtempSync(path.join(os.tmpdir(), 'il-git-')));
    git('init', '-q', '-b', 'main');
    write('AGENTS.md', 'root\n');
    write('a/b/c/CLAUDE.md', 'deep\n');
    write('with space/AGENTS.md', 'spaced\n');
    write('a/changed.md', 'committed\n');
    nodeFs.symlinkSync('a/b/c/CLAUDE.md', path.join(root, 'link.md'));
    git('add', '-A');
    // A submodule as the superproject holds it: a commit id at a path, not a blob.
    git('update-index', '--add', '--cacheinfo', `160000,${'1'.repeat(40)},sub`);
    git('commit', '-q', '-m', 'start');
    // The work tree moves on; the commit does not.
    write('a/changed.md', 'edited\n');
    write('untracked.md', 'new\n');
  });

  after(() => nodeFs.rmSync(root, { recursive: true, force: true }));

  it('reads committed texts by blob id after listing a commit, as by `rev:path`', () => {
    const commit = git('rev-parse', 'main^{commit}').trim();
    const files = ['AGENTS.md', 'a/b/c/CLAUDE.md', 'with space/AGENTS.md', 'a/changed.md', 'link.md', 'sub', 'a', 'untracked.md', 'missing.md'].map((f) => path.join(root, f));
    const byPath = new CliGitIndex(new NodeFileSystem()).committedTexts(root, files, commit);
    const index = new CliGitIndex(new NodeFileSystem());
    assert.deepEqual(index.committedFiles(root, commit)?.sort(), ['AGENTS.md', 'a/b/c/CLAUDE.md', 'a/changed.md', 'link.md', 'sub', 'with space/AGENTS.md'].map((f) => path.join(root, f)).sort());
    const byId = index.committedTexts(root, files, commit);
    assert.deepEqual(byId, byPath);
    assert.deepEqual(
      files.map((f) => byId.get(f)),
      ['root\n', 'deep\n', 'spaced\n', 'committed\n', 'a/b/c/CLAUDE.md', undefined, undefined, undefined, undefined],
    );
    // A branch name may move to another commit: the listing of an id is not used for it.
    assert.deepEqual(index.committedTexts(root, files, 'main'), byPath);
  });
});
