import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chainOf, startText, statuses, tree } from '../fixture';

// Seed 000 (claw-code prompt.rs at 6b533157) and the source's own unit tests.
describe('claw-code (seed version)', () => {
  it('walks every ancestor to /, root first, four candidates per directory (source test discovers_instruction_files_from_ancestor_chain)', () => {
    const t = tree({
      '/r/CLAUDE.md': 'root instructions',
      '/r/CLAUDE.local.md': 'local instructions',
      '/r/apps/CLAUDE.md': 'apps instructions',
      '/r/apps/.claude/instructions.md': 'apps dot claude instructions',
      '/r/apps/api/.claude/CLAUDE.md': 'nested rules',
      '/r/apps/api/.claude/instructions.md': 'nested instructions',
    });
    const c = chainOf(t, 'claw-code', '/r/apps/api', { launchDir: '/r/apps/api' });
    assert.deepEqual(statuses(c), [
      'loaded /r/CLAUDE.md',
      'loaded /r/CLAUDE.local.md',
      'loaded /r/apps/CLAUDE.md',
      'loaded /r/apps/.claude/instructions.md',
      'loaded /r/apps/api/.claude/CLAUDE.md',
      'loaded /r/apps/api/.claude/instructions.md',
    ]);
  });

  it('renders the seed monorepo scenario A: siblings are never loaded, scope is the top-most containing directory', () => {
    const t = tree({
      '/company/monorepo/CLAUDE.md': 'Use conventional commits. Run CI before push.',
      '/company/monorepo/CLAUDE.local.md': 'My local API keys are in .env.local',
      '/company/monorepo/.claude/instructions.md': 'Shared team standards',
      '/company/monorepo/packages/frontend/CLAUDE.md': 'Use React 19. Prefer server components.',
      '/company/monorepo/packages/backend/CLAUDE.md': 'Use Rust. Run cargo clippy before commit.',
      '/company/monorepo/infra/CLAUDE.md': 'Use Terraform. Always plan before apply.',
      '/company/monorepo/packages/frontend/src/components/App.tsx': 'x',
    });
    const c = chainOf(t, 'claw-code', '/company/monorepo/packages/frontend/src/components/App.tsx', { launchDir: '/company/monorepo/packages/frontend/src/components' });
    assert.equal(
      startText(c),
      [
        '# Claude instructions',
        '## CLAUDE.md (scope: /company/monorepo)',
        'Use conventional commits. Run CI before push.',
        '## CLAUDE.local.md (scope: /company/monorepo)',
        'My local API keys are in .env.local',
        '## instructions.md (scope: /company/monorepo)',
        'Shared team standards',
        '## CLAUDE.md (scope: /company/monorepo)',
        'Use React 19. Prefer server components.',
      ].join('\n\n'),
    );
    assert.ok(!c.sources.some((s) => s.path.includes('backend') || s.path.includes('infra')));
  });

  it('labels the scope with the launch-side directory when nothing above contains the file', () => {
    const t = tree({ '/p/.claude/CLAUDE.md': 'hidden variant' });
    const c = chainOf(t, 'claw-code', '/p', { launchDir: '/p' });
    assert.equal(startText(c), '# Claude instructions\n\n## CLAUDE.md (scope: /p/.claude)\n\nhidden variant');
  });

  it('a file at / makes every scope label "/"', () => {
    const t = tree({ '/CLAUDE.md': 'root of all', '/w/CLAUDE.md': 'w' });
    const c = chainOf(t, 'claw-code', '/w', { launchDir: '/w' });
    assert.equal(startText(c), '# Claude instructions\n\n## CLAUDE.md (scope: /)\n\nroot of all\n\n## CLAUDE.md (scope: /)\n\nw');
  });

  it('dedupes by normalized content, first wins (diagram 6 and dedupes_identical_instruction_content_across_scopes)', () => {
    const t = tree({ '/r/CLAUDE.md': 'same rules\n\n', '/r/apps/api/CLAUDE.md': 'same rules\n', '/r/x/CLAUDE.md': 'Use Rust.\n\n\nRun tests.\n', '/r/x/y/CLAUDE.md': 'Use Rust.   \n\nRun tests.' });
    const c = chainOf(t, 'claw-code', '/r/apps/api', { launchDir: '/r/apps/api' });
    assert.deepEqual(statuses(c), ['loaded /r/CLAUDE.md', 'duplicate /r/apps/api/CLAUDE.md']);
    const c2 = chainOf(t, 'claw-code', '/r/x/y', { launchDir: '/r/x/y' });
    assert.deepEqual(statuses(c2), ['loaded /r/CLAUDE.md', 'loaded /r/x/CLAUDE.md', 'duplicate /r/x/y/CLAUDE.md']);
    assert.ok(c2.diagnostics.some((d) => d.code === 'duplicate-content' && d.path === '/r/x/y/CLAUDE.md'));
  });

  it('keeps blank lines in the render: collapsing is only for the dedupe comparison', () => {
    const t = tree({ '/r/CLAUDE.md': '\n\n  line one\n\n\n\nline two  \n\n' });
    assert.equal(startText(chainOf(t, 'claw-code', '/r', { launchDir: '/r' })), '# Claude instructions\n\n## CLAUDE.md (scope: /r)\n\nline one\n\n\n\nline two');
  });

  it('three oversize files cost 4013, 4013 and 3974 chars; a fourth is omitted with the marker (diagram 5)', () => {
    const big = (ch: string) => ch.repeat(5000);
    const t = tree({ '/a/CLAUDE.md': big('a'), '/a/CLAUDE.local.md': big('b'), '/a/.claude/CLAUDE.md': big('c'), '/a/.claude/instructions.md': big('d') });
    const c = chainOf(t, 'claw-code', '/a', { launchDir: '/a' });
    assert.deepEqual(c.sources.map((s) => [s.status, s.injectedChars]), [['truncated', 4013], ['truncated', 4013], ['truncated', 3987], ['omitted', 0]]);
    assert.deepEqual(c.budget, { unit: 'chars', limit: 12000, perFile: 4000, used: 12000 });
    const text = startText(c);
    assert.ok(text.endsWith('c'.repeat(3974) + '\n\n[truncated]\n\n_Additional instruction content omitted after reaching the prompt budget._'));
    assert.equal(text.split('[truncated]').length - 1, 3);
    assert.ok(c.diagnostics.some((d) => d.code === 'file-truncated' && d.path === '/a/CLAUDE.md' && d.column === 4000));
    assert.ok(c.diagnostics.some((d) => d.code === 'chain-over-budget' && d.path === '/a/.claude/instructions.md'));
  });

  it('the seed budget example: 2,000 + 5,000 + 3,000 + 8,000 chars, the fifth file omitted', () => {
    const t = tree({
      '/CLAUDE.md': 'r'.repeat(2000),
      '/proj/CLAUDE.md': 'p'.repeat(5000),
      '/proj/CLAUDE.local.md': 'l'.repeat(3000),
      '/proj/src/CLAUDE.md': 's'.repeat(8000),
      '/proj/src/lib/CLAUDE.md': 'x'.repeat(10),
    });
    const c = chainOf(t, 'claw-code', '/proj/src/lib', { launchDir: '/proj/src/lib' });
    assert.deepEqual(c.sources.map((s) => s.status), ['loaded', 'truncated', 'loaded', 'truncated', 'omitted']);
    // 12,000 - 2,000 - 4,013 - 3,000 = 2,987 chars left for the fourth file.
    assert.equal(c.sources[3].injectedChars, 2987 + '\n\n[truncated]'.length);
  });

  it('a cut that leaves room for part of the marker is cut twice, as the source does', () => {
    const t = tree({ '/a/CLAUDE.md': 'a'.repeat(4000), '/a/CLAUDE.local.md': 'b'.repeat(4000), '/a/.claude/CLAUDE.md': 'c'.repeat(4010) });
    // 12,000 - 8,000 = 4,000 left: the third is cut at 4,000, rendered 4,013 chars, cost capped at 4,000.
    const c = chainOf(t, 'claw-code', '/a', { launchDir: '/a' });
    assert.equal(c.sources[2].status, 'truncated');
    assert.equal(c.budget.used, 12000);
  });

  it('skips whitespace-only files and reports them', () => {
    const t = tree({ '/r/CLAUDE.md': '  \n\t\n', '/r/CLAUDE.local.md': 'x' });
    const c = chainOf(t, 'claw-code', '/r', { launchDir: '/r' });
    assert.deepEqual(statuses(c), ['excluded /r/CLAUDE.md', 'loaded /r/CLAUDE.local.md']);
  });

  it('a candidate that is a directory or not UTF-8 makes the real program fail: fatal, with an error diagnostic', () => {
    const t = tree({ '/r/CLAUDE.md': new Uint8Array([0x66, 0xff, 0x66]) });
    t.fs.mkdir('/r/CLAUDE.local.md');
    const c = chainOf(t, 'claw-code', '/r', { launchDir: '/r' });
    assert.match(c.fatal ?? '', /not valid UTF-8/);
    assert.deepEqual(c.start, []);
    assert.deepEqual(c.diagnostics.map((d) => d.code).sort(), ['not-utf8', 'unreadable']);
  });

  it('counts chars as Unicode code points', () => {
    const t = tree({ '/r/CLAUDE.md': '🦀'.repeat(4001) });
    const c = chainOf(t, 'claw-code', '/r', { launchDir: '/r' });
    assert.equal(c.sources[0].status, 'truncated');
    assert.equal(startText(c), `# Claude instructions\n\n## CLAUDE.md (scope: /r)\n\n${'🦀'.repeat(4000)}\n\n[truncated]`);
  });

  it('no file found: no section at all', () => {
    const c = chainOf(tree({ '/r/x.ts': '' }), 'claw-code', '/r/x.ts', { launchDir: '/r' });
    assert.deepEqual(c.start, []);
  });
});

describe('claw-code@head', () => {
  it('stops at the git root, reads seven names, rules sorted, other frameworks, and heads "# Project instructions"', () => {
    const t = tree({
      '/above/CLAUDE.md': 'above the repo',
      '/above/r/.git/HEAD': 'ref',
      '/above/r/AGENTS.md': 'agents',
      '/above/r/CLAW.md': 'claw',
      '/above/r/.claw/rules/b.md': 'rule b',
      '/above/r/.claw/rules/a.txt': 'rule a',
      '/above/r/.claw/rules/skip.json': 'no',
      '/above/r/.cursorrules': 'cursor legacy',
      '/above/r/.github/copilot-instructions.md': 'copilot',
    });
    const c = chainOf(t, 'claw-code@head', '/above/r', { launchDir: '/above/r' });
    assert.deepEqual(c.sources.map((s) => s.path.slice('/above/r/'.length)), ['CLAW.md', 'AGENTS.md', '.claw/rules/a.txt', '.claw/rules/b.md', '.cursorrules', '.github/copilot-instructions.md']);
    assert.ok(startText(c).startsWith('# Project instructions\n\n## CLAW.md (scope: /above/r)\n\nclaw'));
  });

  it('without a git root reads the launch dir only', () => {
    const t = tree({ '/x/CLAUDE.md': 'parent', '/x/y/CLAUDE.md': 'child' });
    const c = chainOf(t, 'claw-code@head', '/x/y', { launchDir: '/x/y' });
    assert.deepEqual(statuses(c), ['loaded /x/y/CLAUDE.md']);
  });

  it('skips a directory named like a candidate instead of failing', () => {
    const t = tree({ '/x/AGENTS.md': 'ok' });
    t.fs.mkdir('/x/CLAUDE.md');
    const c = chainOf(t, 'claw-code@head', '/x', { launchDir: '/x' });
    assert.equal(c.fatal, undefined);
    assert.deepEqual(statuses(c), ['loaded /x/AGENTS.md']);
  });
});
