// No .git anywhere, launched in src/: Codex and Gemini have no project root above the launch dir.
export default {
  name: 'no-git',
  agents: ['claude-code', 'codex', 'gemini-cli', 'copilot-cli', 'copilot'],
  git: false,
  launchDir: 'src',
  readFile: 'src/deeper/y.ts',
  files: {
    'CLAUDE.md': 'No-git root CLAUDE.md.\n',
    'AGENTS.md': 'No-git root AGENTS.md.\n',
    'GEMINI.md': 'No-git root GEMINI.md.\n',
    '.github/copilot-instructions.md': 'No-git copilot instructions.\n',
    'src/CLAUDE.md': 'No-git src CLAUDE.md.\n',
    'src/AGENTS.md': 'No-git src AGENTS.md.\n',
    'src/GEMINI.md': 'No-git src GEMINI.md.\n',
    'src/deeper/CLAUDE.md': 'No-git src/deeper CLAUDE.md.\n',
    'src/deeper/AGENTS.md': 'No-git src/deeper AGENTS.md.\n',
    'src/deeper/GEMINI.md': 'No-git src/deeper GEMINI.md.\n',
    'src/deeper/y.ts': 'export const y = 2;\n',
  },
};
