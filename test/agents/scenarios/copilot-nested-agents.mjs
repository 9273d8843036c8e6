// Copilot in VS Code with chat.useNestedAgentsMdFiles on: the root AGENTS.md is attached, and
// every AGENTS.md (the root one too) is listed in the instructions index by folder. One nested
// file: with two (packages/api, packages/web) Copilot Chat listed them in either order from run to
// run, in its file search's order, which no profile can predict (a known gap in the README).
export default {
  name: 'copilot-nested-agents',
  agents: ['copilot'],
  git: true,
  launchDir: '.',
  readFile: 'packages/web/src/page.ts',
  files: {
    '.vscode/settings.json': JSON.stringify({ 'chat.useNestedAgentsMdFiles': true }, null, 2),
    'AGENTS.md': 'Root AGENTS.md of a monorepo with nested agent files.\n',
    'packages/web/AGENTS.md': 'Web package AGENTS.md: listed, not attached.\n',
    'packages/web/src/page.ts': 'export const page = 1;\n',
  },
};
