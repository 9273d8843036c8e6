// Imports into a sibling folder, as monorepos share a policy: packages/web's files import
// `@../shared/POLICY.md`, and the root imports `@packages/shared/STYLE.md`. Claude Code, Copilot
// CLI and Gemini CLI inline them (on read for the nested files); Codex sends the lines as written.
export default {
  name: 'sibling-imports',
  agents: ['claude-code', 'codex', 'gemini-cli', 'copilot-cli'],
  git: true,
  launchDir: '.',
  readFile: 'packages/web/src/app.ts',
  files: {
    'CLAUDE.md': 'Root CLAUDE.md with a shared style.\n@packages/shared/STYLE.md\n',
    'AGENTS.md': 'Root AGENTS.md with a shared style.\n@packages/shared/STYLE.md\n',
    'GEMINI.md': 'Root GEMINI.md with a shared style.\n@packages/shared/STYLE.md\n',
    'packages/shared/STYLE.md': 'Shared style guide for every package.\n',
    'packages/shared/POLICY.md': '# Policy\nShared policy: never log secrets.\n@../shared/NESTED.md\n',
    'packages/shared/NESTED.md': 'Nested policy imported by the shared policy.\n',
    'packages/web/CLAUDE.md': 'Web CLAUDE.md follows @../shared/POLICY.md closely.\n',
    'packages/web/AGENTS.md': 'Web AGENTS.md.\n@../shared/POLICY.md\n',
    'packages/web/GEMINI.md': 'Web GEMINI.md.\n@../shared/POLICY.md\n',
    'packages/web/src/app.ts': 'export const app = 1;\n',
  },
};
