// The .vsix as vsce makes it: every bundle of the extension (scripts/extensionBundles.mjs), its
// icon and docs, nothing else (.vscodeignore). A bundle left out would fail only when loaded.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { extensionFiles } from '../../scripts/extensionBundles.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

test('the .vsix holds every bundle of the extension, its icon and docs, nothing else', () => {
  for (const file of extensionFiles()) assert.ok(fs.existsSync(path.join(repoRoot, file)), `${file} is built (npm run build)`);
  const listed = execFileSync(path.join(repoRoot, 'node_modules', '.bin', 'vsce'), ['ls'], { cwd: repoRoot, encoding: 'utf8' }).trim().split('\n').sort();
  const docs = ['CHANGELOG.md', 'LICENSE', 'README.md', 'media/icon.png', 'media/icon.svg', 'package.json'];
  assert.deepEqual(listed, [...extensionFiles(), ...docs].sort());
});
