// Imported files with no final newline, extra trailing blank lines and leading blank lines:
// what each agent trims around an import and its wrapper.
const body = (tag) => `${tag} importer first line.\nNo newline: @docs/${tag}-nonl.md\nTrailing blank lines: @docs/${tag}-trail.md\n@docs/${tag}-lead.md\n${tag} importer last line, no final newline`;
const targets = (tag) => ({
  [`docs/${tag}-nonl.md`]: `${tag} import without final newline`,
  [`docs/${tag}-trail.md`]: `${tag} import with three trailing blank lines\n\n\n\n`,
  [`docs/${tag}-lead.md`]: `\n\n  ${tag} import after two blank lines, indented\n`,
});
export default {
  name: 'imports-whitespace',
  agents: ['claude-code', 'gemini-cli', 'copilot-cli'],
  git: true,
  launchDir: '.',
  readFile: null,
  files: {
    'CLAUDE.md': body('claude'), 'AGENTS.md': body('agents'), 'GEMINI.md': body('gemini'),
    ...targets('claude'), ...targets('agents'), ...targets('gemini'),
  },
};
