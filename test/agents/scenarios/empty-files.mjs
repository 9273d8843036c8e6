// Empty and whitespace-only instruction files next to real ones.
export default {
  name: 'empty-files',
  agents: ['claude-code', 'codex', 'gemini-cli', 'copilot-cli', 'copilot'],
  git: true,
  launchDir: '.',
  readFile: 'src/x.ts',
  files: {
    'CLAUDE.md': '',
    'CLAUDE.local.md': '   \n\n',
    '.claude/rules/empty.md': '',
    '.claude/rules/real.md': 'Real rule text next to an empty one.\n',
    'AGENTS.md': '\n',
    'GEMINI.md': '',
    '.github/copilot-instructions.md': ' \n',
    'src/CLAUDE.md': 'src CLAUDE.md real text.\n',
    'src/AGENTS.md': '  ',
    'src/GEMINI.md': 'src GEMINI.md real text.\n',
    'src/x.ts': 'export const x = 1;\n',
  },
  homeFiles: { '.claude/CLAUDE.md': '\n\n', '.codex/AGENTS.md': '', '.gemini/GEMINI.md': 'User gemini real text.\n' },
};
