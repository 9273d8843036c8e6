// The .vsix as vsce makes it: every bundle of the extension (scripts/extensionBundles.mjs) and
// its libraries' licences, its icon and docs, nothing else (.vscodeignore). A bundle left out
// would fail only when loaded.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { extensionFiles, licenceFileOf, packageOf, THIRD_PARTY_NOTICES } from '../../scripts/extensionBundles.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

test('the .vsix holds every bundle of the extension and its libraries\' licences, its icon and docs, nothing else', () => {
  for (const file of extensionFiles()) assert.ok(fs.existsSync(path.join(repoRoot, file)), `${file} is built (npm run build)`);
  const listed = execFileSync(path.join(repoRoot, 'node_modules', '.bin', 'vsce'), ['ls'], { cwd: repoRoot, encoding: 'utf8' }).trim().split('\n').sort();
  const docs = ['CHANGELOG.md', 'LICENSE', 'README.md', 'media/icon.png', 'media/icon.svg', 'package.json'];
  assert.deepEqual(listed, [...extensionFiles(), THIRD_PARTY_NOTICES, ...docs].sort());
});

test("every library in the bundles has its licence's whole text in the notices, and no bundle holds a licence comment", () => {
  const notices = fs.readFileSync(path.join(repoRoot, THIRD_PARTY_NOTICES), 'utf8');
  // Which libraries a bundle holds, from its source map: what esbuild put in it, not what the build says it did.
  const libraries = new Set();
  for (const file of extensionFiles()) {
    const map = JSON.parse(fs.readFileSync(path.join(repoRoot, `${file}.map`), 'utf8'));
    for (const source of map.sources) {
      const folder = packageOf(path.resolve(path.dirname(path.join(repoRoot, file)), source));
      if (folder) libraries.add(folder);
    }
  }
  assert.ok(libraries.size >= 5, `the bundles' source maps name ${libraries.size} libraries`);
  for (const folder of libraries) {
    const { name, version } = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8'));
    const licence = licenceFileOf(folder);
    assert.ok(notices.includes(`${name} ${version} (`), `${name} ${version} is named in ${THIRD_PARTY_NOTICES}`);
    assert.ok(licence && notices.includes(fs.readFileSync(licence, 'utf8').trim()), `${name}'s licence text is in ${THIRD_PARTY_NOTICES}`);
  }
  for (const file of extensionFiles()) assert.ok(!/\/\*!|@license|@preserve/.test(fs.readFileSync(path.join(repoRoot, file), 'utf8')), `${file} holds a licence comment`);
});

test("the extension's JavaScript, every bundle the .vsix ships, stays within 500 KB", () => {
  // Issue 10's budget, which the VS Code bench reports: checked here too, so that every test run fails on it.
  const sizes = extensionFiles().map((file) => [file, fs.statSync(path.join(repoRoot, file)).size]);
  const total = sizes.reduce((sum, [, size]) => sum + size, 0);
  assert.ok(total <= 500 * 1024, `the bundles hold ${total} bytes, over 512,000: ${sizes.map(([f, s]) => `${f} ${s}`).join(', ')}`);
});
