// Instruction names in other cases, as real repositories have them: a lowercase claude.md at the
// root, agents.md / Claude.md in a package, and docs pages that happen to be called gemini.md.
// Copilot CLI matches AGENTS.md, CLAUDE.md and GEMINI.md ignoring case (the exact name first);
// the other agents read the exact names only.
export default {
  name: 'lowercase-names',
  agents: ['claude-code', 'codex', 'gemini-cli', 'copilot-cli', 'copilot'],
  git: true,
  launchDir: '.',
  readFile: 'packages/web/src/app.ts',
  files: {
    'AGENTS.md': 'Root AGENTS.md in capitals for the case scenario.\n',
    'CLAUDE.md': 'Root CLAUDE.md in capitals for the case scenario.\n',
    'claude.md': 'Root claude.md in lowercase beside CLAUDE.md.\n',
    'gemini.md': '# Using Gemini\nRoot docs page gemini.md about the Gemini API.\n',
    'packages/web/agents.md': 'Web agents.md in lowercase: run pnpm test in packages/web.\n',
    'packages/web/Claude.md': 'Web Claude.md in mixed case: keep components small.\n',
    'packages/web/src/gemini.md': '# Gemini client\nWeb src docs page gemini.md, not meant for agents.\n',
    'packages/web/src/app.ts': 'export const app = 1;\n',
  },
};
