// Import cycles: A -> B -> A, and B -> the importer itself.
const chain = (tag, top) => ({
  [top]: `Top ${tag} file imports @docs/${tag}-one.md\n`,
  [`docs/${tag}-one.md`]: `${tag} one, imports @${tag}-two.md\n`,
  [`docs/${tag}-two.md`]: `${tag} two, imports back @${tag}-one.md and @../${top}\n`,
});
export default {
  name: 'imports-cyclic',
  agents: ['claude-code', 'gemini-cli', 'copilot-cli'],
  git: true,
  launchDir: '.',
  readFile: 'src/x.ts',
  files: {
    ...chain('claude', 'CLAUDE.md'),
    ...chain('agents', 'AGENTS.md'),
    ...chain('gemini', 'GEMINI.md'),
    'src/x.ts': 'export const x = 1;\n',
  },
};
