// Copilot: .github/instructions/*.instructions.md with applyTo `**`, a narrow glob, a list, a
// glob that misses, and none; next to .claude/rules (bare and path-scoped) and AGENTS.md.
export default {
  name: 'copilot-instruction-files',
  agents: ['copilot-cli', 'copilot'],
  git: true,
  launchDir: '.',
  readFile: 'src/x.ts',
  files: {
    '.github/copilot-instructions.md': 'Repo-wide copilot instructions.\n',
    '.github/instructions/all.instructions.md': '---\napplyTo: "**"\n---\nAll-files instruction text.\n',
    '.github/instructions/ts.instructions.md': '---\napplyTo: "src/**/*.ts"\ndescription: TypeScript rules\n---\nTypeScript instruction text.\n',
    '.github/instructions/multi.instructions.md': '---\napplyTo: "lib/**,src/**"\n---\nMulti-glob instruction text.\n',
    '.github/instructions/md.instructions.md': '---\napplyTo: "**/*.md"\n---\nMarkdown-only instruction text.\n',
    '.github/instructions/none.instructions.md': '---\ndescription: no applyTo at all\n---\nNo-applyTo instruction text.\n',
    // Mixed with .claude/rules, to see how the two kinds interleave.
    '.claude/rules/bare.md': 'Bare claude rule next to instruction files.\n',
    '.claude/rules/scoped.md': '---\npaths: ["src/**"]\n---\nScoped claude rule next to instruction files.\n',
    'AGENTS.md': 'Root AGENTS.md next to instruction files.\n',
    'src/x.ts': 'export const x = 1;\n',
  },
};
