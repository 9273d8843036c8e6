// Two files with the same text (and two empty ones): does the agent drop duplicates?
export default {
  name: 'duplicate-content',
  agents: ['claude-code', 'codex', 'gemini-cli', 'copilot-cli', 'copilot'],
  git: true,
  launchDir: 'src',
  readFile: null,
  files: {
    'CLAUDE.md': 'Same text in several instruction files.\n',
    'AGENTS.md': 'Same text in several instruction files.\n',
    'GEMINI.md': 'Same text in several instruction files.\n',
    '.github/copilot-instructions.md': 'Same text in several instruction files.\n',
    'src/CLAUDE.md': 'Same text in several instruction files.\n',
    'src/AGENTS.md': 'Same text in several instruction files.\n',
    'src/GEMINI.md': 'Same text in several instruction files.\n',
    '.claude/rules/dup.md': 'Same text in several instruction files.\n',
  },
  homeFiles: {
    '.claude/CLAUDE.md': 'Same text in several instruction files.\n',
    '.gemini/GEMINI.md': 'Same text in several instruction files.\n',
    '.codex/AGENTS.md': 'Same text in several instruction files.\n',
  },
};
