// Codex: project_doc_max_bytes from ~/.codex/config.toml, with the cut inside a multi-byte
// UTF-8 character (lossy decoding at the cut).
export default {
  name: 'codex-budget-config',
  agents: ['codex'],
  git: true,
  launchDir: '.',
  readFile: null,
  files: {
    // 98 ASCII bytes, then "é" (2 bytes) straddling byte 100, then more.
    'AGENTS.md': 'a'.repeat(97) + '\n' + 'ééé after the cut\n',
  },
  homeFiles: { '.codex/config.toml': 'project_doc_max_bytes = 99\n' },
};
