// Symlinks as real repositories use them: CLAUDE.md → AGENTS.md at the root and in a nested
// package (one text, two names), a package folder that is itself a link to another folder (the
// file read is reached through it), and two separate files with the same text. Copilot CLI
// sends a linked file once on read but both of two identical files; Claude Code reads a
// CLAUDE.md link as CLAUDE.md.
export default {
  name: 'symlink-shapes',
  agents: ['claude-code', 'codex', 'gemini-cli', 'copilot-cli'],
  git: true,
  launchDir: '.',
  readFile: 'packages/ui/src/button.ts',
  files: {
    'AGENTS.md': 'Root AGENTS.md shared with CLAUDE.md and GEMINI.md through links.\n',
    'libs/ui/AGENTS.md': 'Ui AGENTS.md, also reached as CLAUDE.md and through the packages/ui link.\n',
    'libs/ui/src/AGENTS.md': 'Same text in two separate files of ui/src.\n',
    'libs/ui/src/CLAUDE.md': 'Same text in two separate files of ui/src.\n',
    'libs/ui/src/button.ts': 'export const button = 1;\n',
  },
  symlinks: {
    'CLAUDE.md': 'AGENTS.md',
    'GEMINI.md': 'AGENTS.md',
    'libs/ui/CLAUDE.md': 'AGENTS.md',
    'libs/ui/GEMINI.md': 'AGENTS.md',
    'packages/ui': '../libs/ui',
  },
};
