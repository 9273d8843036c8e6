// The reads every `check` of every agent makes, and nothing else: git's listing of the work tree
// (tracked and untracked files, as the CLI asks for it), each instruction file read whole, and
// each folder from the root down to one holding an instruction file listed once (where agents
// look for the files git does not list, such as an ignored CLAUDE.local.md). The instruction
// files are given, as `check` found them: picking them out of the listing is left out too. What a
// process of Node takes for this is less than any check in Node can take: the bench shows it
// beside the floor, to say how much of a `check` is work of its own.
//
//   node scripts/bench/reads.mjs <root> <file listing the instruction files, one absolute path a line>
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const [root, list] = process.argv.slice(2);
if (!root || !list) throw new Error('usage: node scripts/bench/reads.mjs <root> <file of instruction files>');
execFile('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, maxBuffer: 1 << 30 }, (error) => {
  if (error) throw error;
  const files = readFileSync(list, 'utf8').split('\n').filter(Boolean);
  const folders = new Set([root]);
  for (const f of files) {
    for (let d = path.dirname(f); d.startsWith(root) && !folders.has(d); d = path.dirname(d)) folders.add(d);
  }
  for (const d of folders) readdirSync(d, { withFileTypes: true });
  for (const f of files) readFileSync(f, 'utf8');
  process.stdout.write(JSON.stringify({ files: files.length, folders: folders.size }));
});
