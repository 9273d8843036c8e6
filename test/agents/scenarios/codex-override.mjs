// AGENTS.override.md beats AGENTS.md in its directory, even when empty (src/); launched in src/.
export default {
  name: 'codex-override',
  agents: ['codex', 'claude-code', 'copilot-cli'],
  git: true,
  launchDir: 'src',
  readFile: 'src/x.ts',
  files: {
    'AGENTS.override.md': 'Root AGENTS.override.md wins over AGENTS.md.\n',
    'AGENTS.md': 'Root AGENTS.md hidden by the override.\n',
    'src/AGENTS.override.md': '',
    'src/AGENTS.md': 'src AGENTS.md hidden by an empty override.\n',
    'src/x.ts': 'export const x = 1;\n',
  },
  homeFiles: { '.codex/AGENTS.override.md': 'Global override wins over the global AGENTS.md.\n', '.codex/AGENTS.md': 'Global AGENTS.md hidden by the global override.\n' },
};
