// 45,000-character instruction files (Claude flags >40,000 but does not cut; Codex cuts at its
// 32 KiB budget; Gemini has no cap; Copilot: whatever it does).
const big = (tag, n = 45000) => {
  let s = '';
  for (let i = 1; s.length < n; i++) s += `${tag} oversize line ${String(i).padStart(5, '0')}: lorem ipsum dolor sit amet.\n`;
  return s.slice(0, n - 1) + '\n';
};
export default {
  name: 'oversize',
  agents: ['claude-code', 'codex', 'gemini-cli', 'copilot-cli'],
  git: true,
  launchDir: '.',
  readFile: 'src/x.ts',
  files: {
    'CLAUDE.md': big('claude'),
    'AGENTS.md': big('agents'),
    'GEMINI.md': big('gemini'),
    '.github/copilot-instructions.md': big('copilot'),
    'src/x.ts': 'export const x = 1;\n',
  },
};
