// @imports: present, missing, in inline code, in a fenced block, `./` relative, with a fragment,
// and one followed by punctuation. Each agent's own file imports its own targets.
const body = (tag) => [
  `# ${tag} imports`,
  `Present import: @docs/${tag}-present.md`,
  `Missing import: @docs/${tag}-missing.md`,
  `Inline code: \`@docs/${tag}-inline.md\` stays text.`,
  '',
  '```',
  `@docs/${tag}-fenced.md`,
  '```',
  '',
  `Dot-relative import: @./docs/${tag}-dot.md`,
  `Punctuation after it (@docs/${tag}-punct.md).`,
  `Last line of the ${tag} importer.`,
  '',
].join('\n');
const targets = (tag) => ({
  [`docs/${tag}-present.md`]: `${tag} present import target text.\n`,
  [`docs/${tag}-inline.md`]: `${tag} inline-code target text (must not load).\n`,
  [`docs/${tag}-fenced.md`]: `${tag} fenced target text (must not load).\n`,
  [`docs/${tag}-dot.md`]: `${tag} dot-relative import target text.\n`,
  [`docs/${tag}-punct.md`]: `${tag} punctuation target text.\n`,
});
export default {
  name: 'imports',
  agents: ['claude-code', 'codex', 'gemini-cli', 'copilot-cli', 'copilot'],
  git: true,
  launchDir: '.',
  readFile: 'src/x.ts',
  files: {
    'CLAUDE.md': body('claude'),
    'AGENTS.md': body('agents'),
    'GEMINI.md': body('gemini'),
    ...targets('claude'),
    ...targets('agents'),
    ...targets('gemini'),
    'src/x.ts': 'export const x = 1;\n',
  },
  homeFiles: {},
};
