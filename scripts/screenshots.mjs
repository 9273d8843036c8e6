// Retakes the README's screenshots: runs the integration suite, whose tests take them in the
// real VS Code at its default window size (1600×1000) and default side bar width, and copies the
// ones README.md shows into docs/screenshots/. Look at them before committing.
//
//   node scripts/screenshots.mjs     # after `node scripts/build.mjs --tests`
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './testHost.mjs';

const taken = fs.mkdtempSync(path.join(os.tmpdir(), 'instruction-lens-screenshots-'));
const run = spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'runIntegrationTests.mjs')], {
  cwd: repoRoot,
  stdio: 'inherit',
  env: { ...process.env, INSTRUCTION_LENS_SCREENSHOT_DIR: taken },
});
if (run.status !== 0) {
  console.error('screenshots: the integration suite failed; docs/screenshots/ is left as it was.');
  process.exit(1);
}

const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
const shown = [...new Set([...readme.matchAll(/\(docs\/screenshots\/([\w.-]+\.png)\)/g)].map((m) => m[1]))];
const missing = shown.filter((name) => !fs.existsSync(path.join(taken, name)));
if (missing.length) {
  console.error(`screenshots: no test took ${missing.join(', ')}; docs/screenshots/ is left as it was.`);
  process.exit(1);
}
let total = 0;
for (const name of shown) {
  const to = path.join(repoRoot, 'docs', 'screenshots', name);
  fs.copyFileSync(path.join(taken, name), to);
  const { size } = fs.statSync(to);
  total += size;
  console.log(`docs/screenshots/${name}  ${Math.round(size / 1024)} KiB`);
}
console.log(`${shown.length} screenshots, ${Math.round(total / 1024)} KiB in all.`);
fs.rmSync(taken, { recursive: true, force: true });
