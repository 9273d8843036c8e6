// `@name` and `@scope/pkg` in prose are GitHub handles and package names far more often than
// imports (the real-world review: 54 of 56 import-missing errors were such). Claude Code and
// Copilot CLI leave the text as written when no file matches, which is what the author meant, so
// only a token that reads as a path is reported.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chainOf, tree } from './fixture';

const text = [
  '# Maintainers',
  '- [@octocat](https://github.com/octocat)',
  '- @hubot reviews releases.',
  'Published as @acme/cli.',
  '@docs/missing.md',
  '@docs/guide',
  '@../outside-note',
  '',
].join('\n');

describe('import-missing reads tokens as paths only where they look like paths', () => {
  for (const [agent, file] of [['claude-code', 'CLAUDE.md'], ['copilot-cli', 'AGENTS.md']] as const) {
    it(agent, () => {
      const t = tree({ '/r/.git/HEAD': 'x', [`/r/${file}`]: text, '/r/docs/intro.md': 'Intro\n' });
      const c = chainOf(t, agent, '/r', { launchDir: '/r' });
      const lines = c.diagnostics.filter((d) => d.code === 'import-missing').map((d) => d.line + 1);
      // A file name with an extension, a folder that exists; not the handles or the package name.
      assert.deepEqual(lines.filter((l) => l <= 6), [5, 6], c.diagnostics.map((d) => `${d.line + 1} ${d.code}: ${d.message}`).join('\n'));
    });
  }
});
