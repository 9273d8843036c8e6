// Codex: a 32,700-byte root AGENTS.md leaves 68 bytes for the nested one, cut mid-line.
const bytes = (tag, n) => {
  let s = '';
  for (let i = 1; s.length < n; i++) s += `${tag} budget line ${String(i).padStart(5, '0')} xxxxxxxxxxxxxxxxxxxx\n`;
  return s.slice(0, n);
};
export default {
  name: 'codex-budget-remainder',
  agents: ['codex'],
  git: true,
  launchDir: 'src',
  readFile: 'src/x.ts',
  files: {
    'AGENTS.md': bytes('root', 32700),
    'src/AGENTS.md': 'src AGENTS.md: the first sixty-eight bytes of this nested file survive the cut, the rest does not.\n',
    'src/x.ts': 'export const x = 1;\n',
  },
};
