// .github/instructions as real repositories write them: applyTo with several globs, an always-on
// file, a file for the review agent only (excludeAgent: coding-agent) and one kept from the review
// (excludeAgent: code-review), a description, and one that misses. Copilot CLI inlines the
// always-on ones, lists the rest and sends the matches on read; the other agents ignore them.
export default {
  name: 'github-instructions',
  agents: ['claude-code', 'codex', 'gemini-cli', 'copilot-cli', 'copilot'],
  git: true,
  launchDir: '.',
  readFile: 'src/api/handler.ts',
  files: {
    'AGENTS.md': 'Root AGENTS.md for the instructions scenario.\n',
    'CLAUDE.md': 'Root CLAUDE.md for the instructions scenario.\n',
    '.github/copilot-instructions.md': 'Repository-wide Copilot instructions for the scenario.\n',
    '.github/instructions/typescript.instructions.md': '---\napplyTo: "**/*.ts,**/*.tsx"\ndescription: TypeScript conventions\n---\nTypeScript instructions: strict mode, no any.\n',
    '.github/instructions/everything.instructions.md': '---\napplyTo: "**"\n---\nEverything instructions: sent at start to every agent run.\n',
    '.github/instructions/review-only.instructions.md': '---\napplyTo: "**/*.ts"\nexcludeAgent: "coding-agent"\n---\nReview-only instructions: the coding agent skips these.\n',
    '.github/instructions/not-review.instructions.md': '---\napplyTo: "src/api/**"\nexcludeAgent: "code-review"\n---\nNot-review instructions: API handlers validate input.\n',
    '.github/instructions/python.instructions.md': '---\napplyTo: "**/*.py"\n---\nPython instructions that never match a TypeScript file.\n',
    'src/api/handler.ts': 'export const handler = 1;\n',
  },
};
