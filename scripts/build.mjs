// Bundles the extension, the CLI and the tests with esbuild: one file each, `vscode` left to
// the host. Type checking is `tsc --noEmit` (npm run typecheck).
//   node scripts/build.mjs            extension (its bundles) + CLI into dist/
//   node scripts/build.mjs --tests    also every test file into out/test/
//   node scripts/build.mjs --review   also the real-world review (test/review) into out/test/review/
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { buildExtension } from './extensionBundles.mjs';
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

/**
 * dist/cli.js: the loader (scripts/cliLoader.cjs) that runs the bundle with V8's code cache of
 * it, made here by one run of `chain` on the demo (what that run compiled is cached; the rest
 * compiles lazily as usual). Loading the bundle cost about 1.7× Node's own start-up without it.
 */
function cliEntry() {
  // The loader reads the bundle as Latin-1, the same as UTF-8 on ASCII only (esbuild's default `charset`).
  if (/[^\x00-\x7f]/.test(readFileSync('dist/cli.bundle.js', 'latin1'))) throw new Error('dist/cli.bundle.js is not ASCII: the loader reads it as Latin-1');
  copyFileSync('scripts/cliLoader.cjs', 'dist/cli.js');
  chmodSync('dist/cli.js', 0o755);
  rmSync('dist/cli.bundle.js.cache', { force: true });
  const r = spawnSync(process.execPath, ['dist/cli.js', 'chain', 'demo/packages/api/src/routes/orders.ts', '--json'], {
    env: { ...process.env, INSTRUCTION_LENS_WRITE_CODE_CACHE: '1' },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`making the CLI's code cache failed (exit ${r.status}):\n${r.stderr}`);
}

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
  // The extension: several bundles, the first loaded to activate, and its worker thread's (scripts/extensionBundles.mjs).
  buildExtension({ ...common, minify: !dev }),
  build({ ...common, minify: !dev, entryPoints: ['src/cli.ts'], outfile: 'dist/cli.bundle.js' }).then(cliEntry),
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
