// Copilot in VS Code with chat.useNestedAgentsMdFiles on: the root AGENTS.md is attached, and
// every AGENTS.md (the root one too) is listed in the instructions index by folder. The root file
// alone: with nested ones beside it Copilot Chat listed them in its file search's order, which
// changed from run to run of the same tree (nested before root, web before api) and no profile
// can predict — a known gap in the README; the nested entries are modelled from the source.
export default {
  name: 'copilot-nested-agents',
  agents: ['copilot'],
  git: true,
  launchDir: '.',
  readFile: 'packages/web/src/page.ts',
  files: {
    '.vscode/settings.json': JSON.stringify({ 'chat.useNestedAgentsMdFiles': true }, null, 2),
    'AGENTS.md': 'Root AGENTS.md of a monorepo.\n',
    'packages/web/src/page.ts': 'export const page = 1;\n',
  },
};
