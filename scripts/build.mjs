// Bundles the extension, the CLI and the tests with esbuild: one file each, `vscode` left to
// the host. Type checking is `tsc --noEmit` (npm run typecheck).
//   node scripts/build.mjs            extension (its bundles) + CLI into dist/
//   node scripts/build.mjs --tests    also every test file into out/test/
//   node scripts/build.mjs --review   also the real-world review (test/review) into out/test/review/
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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
 * it, and the parsers' bundles (the extension's dist/marked.js and dist/yaml.js) with theirs when
 * a text needs them. The caches are made here by running the CLI on the demo (what a run compiled
 * is cached, with what it read from the cache; the rest compiles lazily as usual): `check`'s
 * (cli.bundle.js.check.cache) by a check of every agent in JSON and one of the detected agents in
 * text, the other commands' (cli.bundle.js.cache) by a chain, which needs both parsers; then the
 * same runs again for the parsers' caches, under the flag the loader sets before it loads a
 * parser (the CLI's are made under V8's default flags). Loading the bundle cost about 1.7× Node's
 * own start-up without a cache.
 */
function cliEntry() {
  // The loader reads the bundles as Latin-1, the same as UTF-8 on ASCII only (esbuild's default
  // `charset`), and so does the extension's of the core (src/codeCache.ts). A --dev bundle keeps
  // the sources' comments, whose other characters read as Latin-1 change nothing the bundle does.
  for (const file of [...CLI_BUNDLES, 'dist/core.js']) {
    if (!dev && /[^\x00-\x7f]/.test(readFileSync(file, 'latin1'))) throw new Error(`${file} is not ASCII: the loader reads it as Latin-1`);
  }
  copyFileSync('scripts/cliLoader.cjs', 'dist/cli.js');
  chmodSync('dist/cli.js', 0o755);
  for (const file of CLI_CACHES) rmSync(file, { force: true });
  const agents = spawnSync(process.execPath, ['dist/cli.js', 'agents', '--json'], { encoding: 'utf8' });
  if (agents.status !== 0) throw new Error(`dist/cli.js agents failed (exit ${agents.status}):\n${agents.stderr}`);
  const every = JSON.parse(agents.stdout).flatMap((a) => ['--agent', a.id]);
  const runs = [
    ['check', 'demo', ...every, '--format', 'json'],
    ['check', 'demo'],
    ['chain', 'demo/packages/api/src/routes/orders.ts', '--json'],
  ];
  for (const caches of ['cli', 'parsers']) {
    for (const argv of runs) {
      const r = spawnSync(process.execPath, ['dist/cli.js', ...argv], { env: { ...process.env, INSTRUCTION_LENS_WRITE_CODE_CACHE: caches }, encoding: 'utf8' });
      // check's exit 1: the demo has a problem to show.
      if (r.status !== 0 && !(argv[0] === 'check' && r.status === 1)) throw new Error(`making the CLI's code cache (${caches}: ${argv.join(' ')}) failed (exit ${r.status}):\n${r.stderr}`);
    }
  }
  for (const file of CLI_CACHES) if (!existsSync(file)) throw new Error(`the runs on the demo made no code cache ${file}`);
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

/** What the CLI runs (scripts/cliLoader.cjs), and their code caches; the npm package ships them (.npmignore). */
const CLI_BUNDLES = ['dist/cli.bundle.js', 'dist/marked.js', 'dist/yaml.js'];
const CLI_CACHES = ['dist/cli.bundle.js.check.cache', ...CLI_BUNDLES.map((file) => `${file}.cache`)];

const profiles = 'out/manifest/profiles.js';
const jobs = [
  // package.json's lists of profiles and rule codes follow the code (scripts/manifest.mjs).
  build({ ...common, stdin: { contents: "export { PROFILES } from './src/core/profiles'; export { fixedNames } from './src/core/patterns'; export { RULES } from './src/core/diagnostics';", resolveDir: '.', loader: 'ts' }, outfile: profiles })
    .then(() => syncManifest(profiles)),
  // The extension: several bundles, the first loaded to activate, and its worker thread's
  // (scripts/extensionBundles.mjs); then the CLI, which loads the extension's parsers' bundles.
  // The .vsix ships no source maps (.vscodeignore): its bundles name none, where each would name a
  // file not there (247 bytes of the 500 KB the bundles may hold). The maps are still written, for
  // profiles and for the package test's list of the libraries bundled; a --dev build (F5,
  // .vscode/tasks.json) names them, for the debugger.
  buildExtension({ ...common, minify: !dev, sourcemap: dev ? true : 'external' })
    .then(({ linkTo }) => build({ ...common, minify: !dev, entryPoints: ['src/cli.ts'], outfile: 'dist/cli.bundle.js', plugins: [...common.plugins, linkTo(['marked', 'yaml'])] }))
    .then(cliEntry),
];
if (process.argv.includes('--tests')) {
  // A test file deleted or renamed leaves its build behind, which `node --test out/test/unit/` would still run.
  for (const dir of ['out/test/unit', 'out/test/integration']) rmSync(dir, { recursive: true, force: true });
  jobs.push(
    build({ ...common, entryPoints: testFiles('test/unit'), outdir: 'out/test/unit', outbase: 'test/unit', external: ['vscode', 'esbuild'] }),
    build({ ...common, entryPoints: testFiles('test/integration'), outdir: 'out/test/integration', outbase: 'test/integration', external: ['vscode', 'mocha'] }),
  );
}
if (process.argv.includes('--tests') || process.argv.includes('--review')) {
  jobs.push(build({ ...common, entryPoints: ['test/review/cli.ts'], outfile: 'out/test/review/review.js' }));
}
await Promise.all(jobs);
