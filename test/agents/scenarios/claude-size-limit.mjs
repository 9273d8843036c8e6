// Claude Code's size limit for a memory file, 4,194,304 bytes (the same as the most Instruction
// Lens reads of a file): a CLAUDE.md of exactly that size loads whole, a .claude/CLAUDE.md one
// byte larger is skipped whole, without a word. Distinctive lines around one repeated filler line.
const sized = (tag, n) => {
  const head = `${tag} size limit head: the first line.\n`;
  const tail = `${tag} size limit tail: the last line.\n`;
  const filler = `${tag} filler line, the same from here to near the end.\n`;
  const body = filler.repeat(Math.ceil((n - head.length - tail.length) / filler.length));
  return head + body.slice(0, n - head.length - tail.length) + tail;
};
export default {
  name: 'claude-size-limit',
  agents: ['claude-code'],
  git: true,
  launchDir: '.',
  readFile: null,
  files: {
    'CLAUDE.md': sized('at-limit', 4 * 1024 * 1024),
    '.claude/CLAUDE.md': sized('over-limit', 4 * 1024 * 1024 + 1),
  },
};
