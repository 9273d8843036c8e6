// Codex and a 40 KiB AGENTS.md whose bytes past the 32 KiB project-doc budget hold invalid UTF-8
// (0xFF) and a NUL: does Codex read past what it sends? (It sends the first 32,768 bytes; a
// warning about the bytes past them would show it reads the whole file.)
const line = (i) => `codex big doc line ${String(i).padStart(5, '0')}: keep the first thirty-two KiB only.\n`;
const text = (n) => {
  let s = '';
  for (let i = 1; s.length < n; i++) s += line(i);
  return s.slice(0, n);
};
const bytes = new Uint8Array(40 * 1024);
bytes.set(new TextEncoder().encode(text(bytes.length)));
bytes[36000] = 0xff;
bytes[38000] = 0;
export default {
  name: 'codex-big-doc',
  agents: ['codex'],
  git: true,
  launchDir: '.',
  readFile: 'src/x.ts',
  files: { 'AGENTS.md': bytes, 'src/x.ts': 'export const x = 1;\n' },
};
