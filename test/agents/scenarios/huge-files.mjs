// Instruction files of 5 MiB, over the 4 MiB Instruction Lens reads whole: what each agent sends
// of a file that large (Codex only the first project_doc_max_bytes; the others whole, cut or
// not at all). Each file is a few distinctive lines around one repeated filler line, so the
// comparison stays cheap, with a distinctive last line that shows whether the end was sent.
const huge = (tag, n = 5 * 1024 * 1024 + 123) => {
  const head = `${tag} huge head: the first line of a five-mebibyte instruction file.\n`;
  const tail = `${tag} huge tail: the last line, sent only when the whole file is.\n`;
  const filler = `${tag} filler line, the same from here to near the end of the file.\n`;
  const body = filler.repeat(Math.ceil((n - head.length - tail.length) / filler.length));
  return head + body.slice(0, n - head.length - tail.length) + tail;
};
export default {
  name: 'huge-files',
  agents: ['claude-code', 'codex', 'gemini-cli', 'copilot-cli'],
  // Both read the 5 MiB files whole; the prompt then passes the model's window, and they stop.
  sendsNothing: {
    'gemini-cli': 'its estimate of the first request passes the 1,048,576-token window; gemini -p ends without a request',
    'copilot-cli': '"Static system messages and tool definitions exceed the model\'s usable context budget", exit 1',
  },
  git: true,
  launchDir: '.',
  readFile: 'src/x.ts',
  files: {
    'CLAUDE.md': huge('claude'),
    'AGENTS.md': huge('agents'),
    'GEMINI.md': huge('gemini'),
    'src/x.ts': 'export const x = 1;\n',
  },
};
