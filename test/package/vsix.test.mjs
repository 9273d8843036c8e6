// The .vsix as vsce makes it: every bundle of the extension (scripts/extensionBundles.mjs) and
// its libraries' licence notices, its icon and docs, nothing else (.vscodeignore). A bundle left
// out would fail only when loaded.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { extensionFiles, extensionNotices } from '../../scripts/extensionBundles.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

test('the .vsix holds every bundle of the extension and its licence notices, its icon and docs, nothing else', () => {
  for (const file of extensionFiles()) assert.ok(fs.existsSync(path.join(repoRoot, file)), `${file} is built (npm run build)`);
  const listed = execFileSync(path.join(repoRoot, 'node_modules', '.bin', 'vsce'), ['ls'], { cwd: repoRoot, encoding: 'utf8' }).trim().split('\n').sort();
  const docs = ['CHANGELOG.md', 'LICENSE', 'README.md', 'media/icon.png', 'media/icon.svg', 'package.json'];
  assert.deepEqual(listed, [...extensionFiles(), ...extensionNotices(), ...docs].sort());
});

test("the libraries' licence notices are beside the bundles, not in them", () => {
  const notices = extensionNotices().map((file) => fs.readFileSync(path.join(repoRoot, file), 'utf8')).join('\n');
  // smol-toml's BSD licence asks for its notice in a binary's distribution; chokidar's is one line.
  assert.match(notices, /Copyright \(c\) Squirrel Chat et al\./);
  assert.match(notices, /chokidar - MIT License/);
  for (const file of extensionFiles()) assert.ok(!/\/\*!|@license|@preserve/.test(fs.readFileSync(path.join(repoRoot, file), 'utf8')), `${file} holds a licence comment`);
});
