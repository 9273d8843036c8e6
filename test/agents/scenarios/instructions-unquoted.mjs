// Instruction headers that are not valid YAML as written, as real repositories write them: an
// unquoted `applyTo:` or `paths:` glob that starts with `*` (a YAML alias), a description holding
// `: `, a comment after the glob, CRLF line ends, a brace glob that YAML reads as a map. Copilot in
// VS Code reads the header with its own YAML reader, which takes a plain value as written.
export default {
  name: 'instructions-unquoted',
  agents: ['copilot', 'copilot-cli'],
  git: true,
  launchDir: '.',
  readFile: 'src/y.tsx',
  files: {
    '.github/copilot-instructions.md': 'Repository-wide Copilot instructions for the unquoted scenario.\n',
    '.github/instructions/alias.instructions.md': '---\napplyTo: **/*.tsx\n---\nAlias instructions: an unquoted glob that YAML reads as an alias.\n',
    '.github/instructions/miss.instructions.md': '---\napplyTo: **/*.py\n---\nMiss instructions: an unquoted glob that matches no file read here.\n',
    '.github/instructions/colon.instructions.md': '---\ndescription: Note: components only\napplyTo: src/**/*.tsx\n---\nColon instructions: a description holding a colon.\n',
    '.github/instructions/comment.instructions.md': '---\napplyTo: **/*.tsx # the components\n---\nComment instructions: a comment after the glob.\n',
    '.github/instructions/crlf.instructions.md': '---\r\napplyTo: **/*.tsx\r\n---\r\nCRLF instructions: an unquoted glob on a CRLF line.\n',
    '.github/instructions/braces.instructions.md': '---\napplyTo: {src,lib}/**/*.tsx\n---\nBraces instructions: a brace glob that YAML reads as a map.\n',
    '.claude/rules/alias.md': '---\npaths: **/*.tsx\n---\nRule alias: an unquoted paths glob.\n',
    '.claude/rules/miss.md': '---\npaths: **/*.py\n---\nRule miss: an unquoted paths glob that matches nothing read here.\n',
    'src/x.ts': 'export const x = 1;\n',
    'src/y.tsx': 'export const y = 1;\n',
  },
};
