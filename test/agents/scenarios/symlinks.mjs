// Instruction files that are symlinks: to a file in the repo, to one outside it.
export default {
  name: 'symlinks',
  agents: ['claude-code', 'codex', 'gemini-cli', 'copilot-cli', 'copilot'],
  git: true,
  launchDir: '.',
  readFile: 'src/x.ts',
  files: {
    'docs/real-claude.md': 'Real claude text behind the CLAUDE.md symlink.\n',
    'docs/real-gemini.md': 'Real gemini text behind the GEMINI.md symlink.\n',
    'docs/real-copilot.md': 'Real copilot text behind the copilot-instructions symlink.\n',
    'docs/real-src-claude.md': 'Real src claude text behind src/CLAUDE.md.\n',
    'src/x.ts': 'export const x = 1;\n',
  },
  outsideFiles: { 'real-agents.md': 'Real agents text outside the repo behind AGENTS.md.\n' },
  symlinks: {
    'CLAUDE.md': 'docs/real-claude.md',
    'GEMINI.md': 'docs/real-gemini.md',
    '.github/copilot-instructions.md': '../docs/real-copilot.md',
    'src/CLAUDE.md': '../docs/real-src-claude.md',
    'AGENTS.md': 'outside:real-agents.md',
  },
};
