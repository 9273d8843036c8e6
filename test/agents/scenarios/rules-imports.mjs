// @imports inside .claude/rules files (with and without paths:) and in a nested CLAUDE.md read on demand.
export default {
  name: 'rules-imports',
  agents: ['claude-code'],
  git: true,
  launchDir: '.',
  readFile: 'src/x.ts',
  files: {
    'CLAUDE.md': 'Root rule text for the rules-imports scenario.\n',
    '.claude/rules/ts.md': '---\npaths: ["src/**"]\n---\nPath-scoped rule imports @docs/ts-extra.md right here.\n',
    '.claude/rules/always.md': 'Unconditional rule imports @docs/always-extra.md right here.\n',
    'docs/ts-extra.md': 'Text that a path-scoped rule tries to import.\n',
    'docs/always-extra.md': 'Text that an unconditional rule tries to import.\n',
    'src/x.ts': 'export const x = 1;\n',
    'src/CLAUDE.md': 'Nested CLAUDE.md imports @../docs/src-extra.md on read.\n',
    'docs/src-extra.md': 'Text the nested CLAUDE.md imports when the agent reads in src.\n',
  },
};
