// A monorepo that keeps only AGENTS.md files: the root and three folders deep on the way to the
// file read. Claude Code falls back to AGENTS.md and sends the nested ones in one block on read;
// Copilot CLI sends a reminder per folder; Codex loads the root only; Gemini CLI reads none.
export default {
  name: 'nested-agents-only',
  agents: ['claude-code', 'codex', 'gemini-cli', 'copilot-cli', 'copilot'],
  git: true,
  launchDir: '.',
  readFile: 'packages/web/src/app.ts',
  files: {
    'AGENTS.md': '# Monorepo\nRoot AGENTS.md: use pnpm for everything.\n',
    'packages/AGENTS.md': 'Packages AGENTS.md: every package has its own tests.\n',
    'packages/web/AGENTS.md': '# Web\n\nWeb AGENTS.md: React components live in src/components.\n\n',
    'packages/web/src/AGENTS.md': 'Web src AGENTS.md: no default exports here.',
    'packages/web/src/app.ts': 'export const app = 1;\n',
    'packages/api/AGENTS.md': 'Api AGENTS.md: a sibling folder the read never touches.\n',
  },
};
