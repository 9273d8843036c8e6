// CLAUDE.local.md and .claude/CLAUDE.md at the root and below the launch dir.
export default {
  name: 'local-nested',
  agents: ['claude-code', 'copilot-cli', 'copilot'],
  git: true,
  launchDir: '.',
  readFile: 'src/x.ts',
  files: {
    'CLAUDE.md': 'Local-nested root CLAUDE.md.\n',
    '.claude/CLAUDE.md': 'Local-nested root .claude/CLAUDE.md.\n',
    'CLAUDE.local.md': 'Local-nested root CLAUDE.local.md.\n',
    'src/CLAUDE.md': 'Local-nested src CLAUDE.md.\n',
    'src/.claude/CLAUDE.md': 'Local-nested src .claude/CLAUDE.md.\n',
    'src/CLAUDE.local.md': 'Local-nested src CLAUDE.local.md.\n',
    'src/x.ts': 'export const x = 1;\n',
  },
  homeFiles: { '.claude/rules/user-rule.md': 'User-level rule text from ~/.claude/rules.\n' },
};
