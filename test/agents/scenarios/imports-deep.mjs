// An import chain 7 files long: which depth is the last to load (Claude: 4 levels below the
// file; Gemini: 5), and Copilot's expansion of nested imports.
const chain = (tag, top) => {
  const files = { [top]: `${tag} level 0 imports @docs/${tag}-1.md\n` };
  for (let i = 1; i <= 7; i++) files[`docs/${tag}-${i}.md`] = `${tag} level ${i} text` + (i < 7 ? ` then @${tag}-${i + 1}.md` : '') + '\n';
  return files;
};
export default {
  name: 'imports-deep',
  agents: ['claude-code', 'gemini-cli', 'copilot-cli'],
  git: true,
  launchDir: '.',
  readFile: 'src/x.ts',
  files: { ...chain('claude', 'CLAUDE.md'), ...chain('agents', 'AGENTS.md'), ...chain('gemini', 'GEMINI.md'), 'src/x.ts': 'export const x = 1;\n' },
};
