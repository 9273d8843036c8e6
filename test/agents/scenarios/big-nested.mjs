// A 30 KB instruction file in a nested package (real monorepos keep long per-package guides),
// next to a short root file: loaded whole on read by Claude Code, Copilot CLI and Gemini CLI.
const guide = (tag) => {
  const lines = [`# ${tag} package guide`];
  for (let i = 1; lines.join('\n').length < 30_000; i++) {
    lines.push(`${tag} rule ${String(i).padStart(4, '0')}: keep functions short, name things plainly, test edge case ${i}.`);
  }
  return lines.join('\n') + '\n';
};
export default {
  name: 'big-nested',
  agents: ['claude-code', 'codex', 'gemini-cli', 'copilot-cli'],
  git: true,
  launchDir: '.',
  readFile: 'packages/core/src/index.ts',
  files: {
    'CLAUDE.md': 'Root CLAUDE.md of the big-nested scenario.\n',
    'AGENTS.md': 'Root AGENTS.md of the big-nested scenario.\n',
    'GEMINI.md': 'Root GEMINI.md of the big-nested scenario.\n',
    'packages/core/CLAUDE.md': guide('core-claude'),
    'packages/core/AGENTS.md': guide('core-agents'),
    'packages/core/GEMINI.md': guide('core-gemini'),
    'packages/core/src/index.ts': 'export const core = 1;\n',
  },
};
