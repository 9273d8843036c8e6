// Instruction files three levels below the launch dir; the read file has no final newline
// and the nested files carry characters an agent might escape (" ' & < >).
const special = 'Quotes "double" and \'single\', ampersand & and <angle> brackets >.';
export default {
  name: 'nested-deep',
  agents: ['claude-code', 'codex', 'gemini-cli', 'copilot-cli'],
  git: true,
  launchDir: '.',
  readFile: 'a/b/c/file.ts',
  files: {
    'CLAUDE.md': 'Root CLAUDE.md.\n',
    'AGENTS.md': 'Root AGENTS.md.\n',
    'GEMINI.md': 'Root GEMINI.md.\n',
    'a/CLAUDE.md': `a/CLAUDE.md: ${special}\n`,
    'a/b/c/CLAUDE.md': 'a/b/c/CLAUDE.md without newline',
    'a/AGENTS.md': `a/AGENTS.md: ${special}\n`,
    'a/b/c/AGENTS.md': 'a/b/c/AGENTS.md without newline',
    'a/GEMINI.md': `a/GEMINI.md: ${special}\n`,
    'a/b/c/GEMINI.md': 'a/b/c/GEMINI.md without newline',
    'a/b/c/file.ts': 'export const file = "no final newline";',
  },
  homeFiles: {},
};
