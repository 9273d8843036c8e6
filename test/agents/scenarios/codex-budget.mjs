// Codex's 32 KiB project-doc budget: a 40,000-byte root AGENTS.md keeps 32,768 bytes and the
// nested one (launched in src/) is dropped.
const bytes = (tag, n) => {
  let s = '';
  for (let i = 1; s.length < n; i++) s += `${tag} budget line ${String(i).padStart(5, '0')} xxxxxxxxxxxxxxxxxxxx\n`;
  return s.slice(0, n);
};
export default {
  name: 'codex-budget',
  agents: ['codex'],
  git: true,
  launchDir: 'src',
  readFile: 'src/x.ts',
  files: { 'AGENTS.md': bytes('root', 40000), 'src/AGENTS.md': 'src AGENTS.md: dropped by the budget.\n', 'src/x.ts': 'export const x = 1;\n' },
  homeFiles: { '.codex/AGENTS.md': 'Global codex file, outside the budget.\n' },
};
