// Every kind of instruction file at once, launched at the repo root. The capture baseline.
export default {
  name: 'basic',
  agents: ['claude-code', 'codex', 'gemini-cli', 'copilot-cli', 'copilot'],
  git: true,
  launchDir: '.',
  readFile: 'src/x.ts',
  files: {
    'CLAUDE.md': '# Root CLAUDE.md\n\n<!-- a whole-line HTML comment in CLAUDE.md -->\nRoot claude rule: use tabs.\n\n@docs/x.md\n\nLast line of root CLAUDE.md.\n',
    'docs/x.md': '# Imported docs/x.md\n\nImported rule: docs x.\n',
    'CLAUDE.local.md': '# CLAUDE.local.md\n\nLocal private rule.\n',
    '.claude/rules/a.md': '# Rule a (no frontmatter)\n\nRule a applies everywhere.\n',
    '.claude/rules/b.md': '---\npaths: ["src/**/*.ts"]\n---\n# Rule b (paths src/**/*.ts)\n\nRule b applies to TypeScript in src.\n',
    'src/CLAUDE.md': '# src/CLAUDE.md\n\nNested claude rule for src.\n',
    'src/x.ts': 'export const x = 1;\n',
    'AGENTS.md': '# Root AGENTS.md\n\nRoot agents rule: run the tests.\n',
    'src/AGENTS.md': '# src/AGENTS.md\n\nNested agents rule for src.\n',
    'GEMINI.md': '# Root GEMINI.md\n\nRoot gemini rule: be brief.\n',
    'src/GEMINI.md': '# src/GEMINI.md\n\nNested gemini rule for src.\n',
    '.github/copilot-instructions.md': '# copilot-instructions.md\n\nCopilot rule: prefer const.\n',
  },
  homeFiles: {
    '.claude/CLAUDE.md': '# User ~/.claude/CLAUDE.md\n\nUser global claude rule.\n',
    '.codex/AGENTS.md': '# User ~/.codex/AGENTS.md\n\nUser global codex rule.\n',
    '.gemini/GEMINI.md': '# User ~/.gemini/GEMINI.md\n\nUser global gemini rule.\n',
  },
};
