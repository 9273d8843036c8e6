// Imports that leave the repository: relative (../outside), absolute, and ~/ (no approval given).
const body = (tag) => `# ${tag} outside imports\nRelative outside: @../outside/${tag}-rel.md\nAbsolute outside: @{{OUTSIDE}}/${tag}-abs.md\nHome: @~/${tag}-home.md\nEnd of ${tag} importer.\n`;
const outside = (tag) => ({ [`${tag}-rel.md`]: `${tag} relative outside target text.\n`, [`${tag}-abs.md`]: `${tag} absolute outside target text.\n` });
export default {
  name: 'imports-outside',
  agents: ['claude-code', 'gemini-cli', 'copilot-cli'],
  git: true,
  launchDir: '.',
  readFile: 'src/x.ts',
  files: { 'CLAUDE.md': body('claude'), 'AGENTS.md': body('agents'), 'GEMINI.md': body('gemini'), 'src/x.ts': 'export const x = 1;\n' },
  outsideFiles: { ...outside('claude'), ...outside('agents'), ...outside('gemini') },
  homeFiles: { 'claude-home.md': 'claude home target text.\n', 'agents-home.md': 'agents home target text.\n', 'gemini-home.md': 'gemini home target text.\n' },
};
