// No CLAUDE.md anywhere: Claude Code falls back to AGENTS.md (root at start, nested on read).
export default {
  name: 'agents-fallback',
  agents: ['claude-code', 'codex', 'copilot-cli', 'copilot'],
  git: true,
  launchDir: '.',
  readFile: 'src/x.ts',
  files: {
    'AGENTS.md': 'Fallback root AGENTS.md text.\n',
    '.claude/rules/r.md': 'Fallback scenario rule text.\n',
    'src/AGENTS.md': 'Fallback src AGENTS.md text.\n',
    'src/x.ts': 'export const x = 1;\n',
  },
};
