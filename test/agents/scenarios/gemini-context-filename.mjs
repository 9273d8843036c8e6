// Gemini CLI with context.fileName = ["AGENTS.md", "GEMINI.md"] in ~/.gemini/settings.json.
export default {
  name: 'gemini-context-filename',
  agents: ['gemini-cli'],
  git: true,
  launchDir: '.',
  readFile: 'src/x.ts',
  files: {
    'AGENTS.md': 'Context-filename root AGENTS.md.\n',
    'GEMINI.md': 'Context-filename root GEMINI.md.\n',
    'src/AGENTS.md': 'Context-filename src AGENTS.md.\n',
    'src/GEMINI.md': 'Context-filename src GEMINI.md.\n',
    'src/x.ts': 'export const x = 1;\n',
  },
  homeFiles: {
    '.gemini/settings.json': JSON.stringify({ context: { fileName: ['AGENTS.md', 'GEMINI.md'] } }, null, 2),
    '.gemini/AGENTS.md': 'Context-filename global AGENTS.md.\n',
    '.gemini/GEMINI.md': 'Context-filename global GEMINI.md.\n',
  },
};
