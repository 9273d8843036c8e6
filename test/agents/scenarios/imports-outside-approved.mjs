// Claude Code: the same outside imports once ~/.claude.json approves external includes for the repo.
import base from './imports-outside.mjs';
export default {
  ...base,
  name: 'imports-outside-approved',
  agents: ['claude-code'],
  homeFiles: {
    ...base.homeFiles,
    '.claude.json': ({ repo }) => JSON.stringify({ projects: { [repo]: { hasClaudeMdExternalIncludesApproved: true, hasClaudeMdExternalIncludesWarningShown: true } } }, null, 2),
  },
};
