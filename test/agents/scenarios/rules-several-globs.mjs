// .claude/rules the way real repositories scope them: several globs per rule (a YAML list and a
// comma-separated string), braces, a rule matched only by its second glob, one that misses, one in
// a subfolder. Claude Code loads the matches on read; Copilot CLI lists them and sends the
// matching ones on read; Codex and Gemini CLI ignore .claude/rules.
export default {
  name: 'rules-several-globs',
  agents: ['claude-code', 'codex', 'gemini-cli', 'copilot-cli', 'copilot'],
  git: true,
  launchDir: '.',
  readFile: 'apps/web/src/page.tsx',
  files: {
    'CLAUDE.md': 'Root CLAUDE.md for the several-globs scenario.\n',
    'AGENTS.md': 'Root AGENTS.md for the several-globs scenario.\n',
    '.claude/rules/react.md': '---\npaths:\n  - "apps/*/src/**/*.{ts,tsx}"\n  - "packages/ui/**/*.tsx"\n---\nReact rule: function components and hooks only.\n',
    '.claude/rules/second-glob.md': '---\npaths:\n  - "server/**/*.go"\n  - "**/*.tsx"\n---\nSecond-glob rule: matched by its second pattern.\n',
    '.claude/rules/comma.md': '---\npaths: "docs/**/*.md, apps/web/**"\n---\nComma rule: two globs in one string.\n',
    '.claude/rules/miss.md': '---\npaths:\n  - "**/*.py"\n  - "scripts/**"\n---\nMiss rule: Python and scripts only.\n',
    '.claude/rules/testing/tests.md': '---\npaths:\n  - "**/*.test.ts"\n  - "**/*.spec.tsx"\n---\nTests rule: in a subfolder of the rules.\n',
    '.claude/rules/general.md': 'General rule without frontmatter.\n',
    'apps/web/src/page.tsx': 'export const page = 1;\n',
  },
};
