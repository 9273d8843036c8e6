// Bundles the extension, the CLI and the tests with esbuild: one file each, `vscode` left to
// the host. Type checking is `tsc --noEmit` (npm run typecheck).
//   node scripts/build.mjs            extension + CLI into dist/
//   node scripts/build.mjs --tests    also every test file into out/test/
//   node scripts/build.mjs --review   also the real-world review (test/review) into out/test/review/
import { build } from 'esbuild';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { syncManifest } from './manifest.mjs';
import { profileModules } from './profileModules.mjs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const dev = process.argv.includes('--dev');
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
  define: { __VERSION__: JSON.stringify(version) },
  // The profile registry (src/core/profiles.ts) imports every file of src/core/profiles/.
  plugins: [profileModules],
};

function testFiles(dir) {
  let out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out = out.concat(testFiles(p));
    else if (/\.ts$/.test(e.name)) out.push(p);
  }
  return out;
}

const profiles = 'out/manifest/profiles.js';
const jobs = [
  // package.json's lists of profiles and rule codes follow the code (scripts/manifest.mjs).
  build({ ...common, stdin: { contents: "export { PROFILES } from './src/core/profiles'; export { fixedNames } from './src/core/patterns'; export { RULES } from './src/core/diagnostics';", resolveDir: '.', loader: 'ts' }, outfile: profiles })
    .then(() => syncManifest(profiles)),
  build({ ...common, minify: !dev, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] }),
  build({ ...common, minify: !dev, entryPoints: ['src/cli.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } }),
];
if (process.argv.includes('--tests')) {
  jobs.push(
    build({ ...common, entryPoints: testFiles('test/unit'), outdir: 'out/test/unit', outbase: 'test/unit', external: ['vscode'] }),
    build({ ...common, entryPoints: testFiles('test/integration'), outdir: 'out/test/integration', outbase: 'test/integration', external: ['vscode', 'mocha'] }),
  );
}
if (process.argv.includes('--tests') || process.argv.includes('--review')) {
  jobs.push(build({ ...common, entryPoints: ['test/review/cli.ts'], outfile: 'out/test/review/review.js' }));
}
await Promise.all(jobs);
