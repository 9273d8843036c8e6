// HTML comments: whole line, inline, multi-line block, indented, inside a code block and inline code.
const body = (tag) => [
  `# ${tag} HTML comments`,
  `<!-- ${tag} whole-line comment -->`,
  `${tag} text with an <!-- ${tag} inline comment --> inside.`,
  '<!--',
  `${tag} multi-line block comment body`,
  '-->',
  `${tag} after the block.`,
  `   <!-- ${tag} indented comment line -->`,
  '```html',
  `<!-- ${tag} comment inside a code block -->`,
  '```',
  `\`<!-- ${tag} comment in inline code -->\``,
  `${tag} last line.`,
  '',
].join('\n');
export default {
  name: 'html-comments',
  agents: ['claude-code', 'codex', 'gemini-cli', 'copilot-cli', 'copilot'],
  git: true,
  launchDir: '.',
  readFile: 'src/x.ts',
  files: {
    'CLAUDE.md': body('claude'),
    'AGENTS.md': body('agents'),
    'GEMINI.md': body('gemini'),
    '.github/copilot-instructions.md': body('copilot'),
    'src/CLAUDE.md': body('src-claude'),
    'src/x.ts': 'export const x = 1;\n',
  },
};
