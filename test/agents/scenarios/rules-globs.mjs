// .claude/rules with and without `paths:` (string, list, miss, `**`, trailing `/**`, subfolder,
// frontmatter without paths). Claude loads the unconditional ones at start and the matching ones
// on read; Copilot inlines the bare ones and lists the path-scoped ones.
export default {
  name: 'rules-globs',
  agents: ['claude-code', 'copilot-cli', 'copilot'],
  git: true,
  launchDir: '.',
  readFile: 'src/x.ts',
  files: {
    'CLAUDE.md': 'Root CLAUDE.md for the rules scenario.\n',
    '.claude/rules/always.md': 'Rule always: no frontmatter.\n',
    '.claude/rules/string.md': '---\npaths: src/**/*.ts\n---\nRule string: paths as a string.\n',
    '.claude/rules/list.md': '---\npaths:\n  - "lib/**"\n  - "src/**/*.ts"\n---\nRule list: paths as a YAML list.\n',
    '.claude/rules/miss.md': '---\npaths: ["docs/**/*.md"]\n---\nRule miss: never matches src/x.ts.\n',
    '.claude/rules/star.md': '---\npaths: ["**"]\n---\nRule star: all-** paths.\n',
    '.claude/rules/trailing.md': '---\npaths: ["src/**"]\n---\nRule trailing: src/** with a trailing /**.\n',
    '.claude/rules/described.md': '---\ndescription: has a description, no paths\n---\nRule described: frontmatter without paths.\n',
    '.claude/rules/sub/nested.md': 'Rule nested: in a subfolder, no frontmatter.\n',
    'src/x.ts': 'export const x = 1;\n',
  },
};
