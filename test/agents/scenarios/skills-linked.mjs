// Skills kept once in .agents/skills and reached through linked folders (.claude/skills,
// .github/skills, .gemini/skills → ../.agents/skills), the way repositories share them between
// agents; CLAUDE.md → AGENTS.md beside them. All five agents list the skill's name and
// description in their prompt; no profile models that yet: a known gap, checked here to be the
// only difference (README, "Agent profiles").
const gap = { files: ['.agents/skills/deploy/SKILL.md'], readme: 'known gaps: skills' };
export default {
  name: 'skills-linked',
  agents: ['claude-code', 'codex', 'gemini-cli', 'copilot-cli', 'copilot'],
  gaps: { 'claude-code': gap, codex: gap, 'gemini-cli': gap, 'copilot-cli': gap, copilot: gap },
  git: true,
  launchDir: '.',
  readFile: 'src/deploy.ts',
  files: {
    'AGENTS.md': 'Root AGENTS.md next to the linked skills folders.\n',
    'GEMINI.md': 'Root GEMINI.md next to the linked skills folders.\n',
    '.agents/skills/deploy/SKILL.md': '---\nname: deploy\ndescription: >-\n  Deploy skill description, listed through the linked skills folders.\n---\n# Deploy\nDeploy skill body, read only when the skill is used.\n',
    'src/deploy.ts': 'export const deploy = 1;\n',
  },
  symlinks: {
    'CLAUDE.md': 'AGENTS.md',
    '.claude/skills': '../.agents/skills',
    '.github/skills': '../.agents/skills',
    '.gemini/skills': '../.agents/skills',
  },
};
