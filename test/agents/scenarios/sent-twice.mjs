// One file sent twice, the way real repositories do it: an AGENTS.md that Copilot CLI sends as its
// own block, and a CLAUDE.md that says "See @AGENTS.md" (the usual bridge for Claude Code); a
// shared policy imported by both; the same bridge in a nested package, read on demand.
export default {
  name: 'sent-twice',
  agents: ['claude-code', 'codex', 'gemini-cli', 'copilot-cli'],
  git: true,
  launchDir: '.',
  readFile: 'packages/api/src/server.ts',
  files: {
    'AGENTS.md': '# Agents\nRoot AGENTS.md sent twice by Copilot CLI.\n@docs/POLICY.md\n',
    'CLAUDE.md': 'See @AGENTS.md for the rules.\nAlso read @docs/POLICY.md first.\n',
    'GEMINI.md': 'Root GEMINI.md: see @./AGENTS.md as well.\n',
    'docs/POLICY.md': 'Shared policy imported by two top files.\n',
    'packages/api/AGENTS.md': 'Api AGENTS.md behind a CLAUDE.md bridge.\n',
    'packages/api/CLAUDE.md': '@AGENTS.md\n',
    'packages/api/src/server.ts': 'export const server = 1;\n',
  },
};
