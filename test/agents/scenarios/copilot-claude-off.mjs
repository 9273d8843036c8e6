// Copilot in VS Code with chat.useClaudeMdFile off: CLAUDE.md, CLAUDE.local.md, .claude/CLAUDE.md
// and ~/.claude/CLAUDE.md stay out; AGENTS.md and .claude/rules still count.
export default {
  name: 'copilot-claude-off',
  agents: ['copilot'],
  git: true,
  launchDir: '.',
  readFile: 'src/x.ts',
  files: {
    '.vscode/settings.json': JSON.stringify({ 'chat.useClaudeMdFile': false }, null, 2),
    'CLAUDE.md': 'Root CLAUDE.md that Copilot skips with the setting off.\n',
    'CLAUDE.local.md': 'Local CLAUDE.local.md that Copilot skips too.\n',
    'AGENTS.md': 'Root AGENTS.md that Copilot still attaches.\n',
    '.claude/rules/style.md': 'A .claude/rules file with no paths, still attached.\n',
    'src/x.ts': 'export const x = 1;\n',
  },
  homeFiles: {
    '.claude/CLAUDE.md': 'User ~/.claude/CLAUDE.md that Copilot skips with the setting off.\n',
  },
};
