// Leading/trailing blank lines, no final newline, trailing spaces, CRLF: what each agent
// trims and what wrapper newlines it adds.
export default {
  name: 'whitespace',
  agents: ['claude-code', 'codex', 'gemini-cli', 'copilot-cli', 'copilot'],
  git: true,
  launchDir: '.',
  readFile: 'src/x.ts',
  files: {
    'CLAUDE.md': '\n\n  Root CLAUDE.md after two blank lines, indented.\nLast line without newline',
    'CLAUDE.local.md': 'Local with CRLF\r\nline two\r\n',
    '.claude/rules/a.md': 'Rule a with three trailing blank lines\n\n\n\n',
    '.claude/rules/b.md': '---\npaths: src/**/*.ts\n---\n\nRule b body after a blank line\n\n\n',
    'src/CLAUDE.md': 'src CLAUDE.md without newline',
    'src/x.ts': 'export const x = 1;\n',
    'AGENTS.md': '\n\nRoot AGENTS.md after two blank lines\n\n\n',
    'src/AGENTS.md': 'src AGENTS.md without newline',
    'GEMINI.md': '\n\nRoot GEMINI.md after two blank lines\n\n\n',
    'src/GEMINI.md': 'src GEMINI.md without newline',
    '.github/copilot-instructions.md': 'copilot-instructions without newline',
  },
  homeFiles: {
    '.claude/CLAUDE.md': 'User CLAUDE.md with trailing spaces   \n\n',
    '.codex/AGENTS.md': '  \nUser codex AGENTS.md  \n\n',
    '.gemini/GEMINI.md': '  User GEMINI.md indented  \n\n',
  },
};
