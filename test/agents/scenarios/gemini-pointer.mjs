// A GEMINI.md that only names the AGENTS.md beside it (a Markdown link), and one below that
// imports its AGENTS.md with the line the quick fix adds: Gemini CLI sends the sentence alone for
// the first, the imported text for the second.
export default {
  name: 'gemini-pointer',
  agents: ['gemini-cli'],
  git: true,
  launchDir: '.',
  readFile: 'pkg/x.ts',
  files: {
    'AGENTS.md': 'Pointer root AGENTS.md: run the tests.\n',
    'GEMINI.md': 'See [AGENTS.md](./AGENTS.md) for project context.\n',
    'pkg/AGENTS.md': 'Pointer pkg AGENTS.md: keep the API stable.\n',
    'pkg/GEMINI.md': 'See [AGENTS.md](./AGENTS.md) for project context.\n@AGENTS.md\n',
    'pkg/x.ts': 'export const x = 1;\n',
  },
};
