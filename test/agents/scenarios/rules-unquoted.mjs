// .claude/rules whose `paths:` is not valid YAML as written (a glob that starts with `*` or `{`
// reads as an alias or a map): Claude Code parses the block again with such values quoted, so
// the rule stays scoped, loaded on read of a matching file and not at start; a block that quoting
// does not repair is dropped, and its rule loads at start. Copilot CLI reads the patterns of such a
// header from its `key: value` lines, and no description. Not Copilot in VS Code, whose own YAML
// reader keeps what it read of a list or a quote never closed (its scenario: instructions-unquoted).
export default {
  name: 'rules-unquoted',
  agents: ['claude-code', 'copilot-cli'],
  git: true,
  launchDir: '.',
  readFile: 'src/y.tsx',
  files: {
    'CLAUDE.md': 'Root CLAUDE.md for the unquoted rules scenario.\n',
    '.claude/rules/alias.md': '---\npaths: **/*.tsx\ndescription: an unquoted glob\n---\nRule alias: an unquoted glob that YAML reads as an alias.\n',
    '.claude/rules/braces.md': '---\npaths: {src,lib}/**/*.tsx\n---\nRule braces: an unquoted brace glob that YAML reads as a map.\n',
    '.claude/rules/miss.md': '---\npaths: **/*.py\n---\nRule miss: an unquoted glob that matches no file read here.\n',
    // An unclosed bracket: quoted, it is a glob that matches nothing.
    '.claude/rules/bracket.md': '---\npaths: [**/*.tsx\n---\nRule bracket: a glob with a bracket never closed.\n',
    // A quote never closed: quoting the glob does not repair it, so the frontmatter is dropped and the rule loads at start.
    '.claude/rules/broken.md': '---\npaths: **/*.tsx\ndescription: "never closed\n---\nRule broken: frontmatter that no quoting repairs.\n',
    // A list indented with a tab, which YAML forbids: read again with each leading tab two spaces.
    '.claude/rules/tabs.md': '---\npaths:\n\t- "**/*.tsx"\n---\nRule tabs: a list indented with a tab.\n',
    // With CRLF line ends Claude Code quotes nothing (its `key: value` pattern stops at the CR).
    '.claude/rules/crlf.md': '---\r\npaths: **/*.tsx\r\n---\r\nRule crlf: an unquoted glob on a CRLF line.\n',
    'src/x.ts': 'export const x = 1;\n',
    'src/y.tsx': 'export const y = 1;\n',
  },
};
