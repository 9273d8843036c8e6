// The extension in the real VS Code (the integration tests' host: code-server and headless
// Chromium, scripts/testHost.mjs), on a copy of a materialized tree. Two windows on the same
// copy, one after the other: one without the extension (the baseline: the same workbench, its
// git extension and file watcher on the same 57k files) and one with it. Both load
// test/bench/vscode/index.ts as their extension tests' entry, which does the same things in both
// and measures from inside the extension host.
//
// The extension is loaded from a staging folder that holds the built bundles (dist/ and media/,
// linked) and package.json without activation events, so the entry activates it itself and
// times `activate()`; every other part of the manifest is the one shipped.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';
import { extensionFiles } from '../extensionBundles.mjs';
import { chromiumArgs, chromiumPath, ensureHost, hostDir, isNoise, startServer, workbenchUrl } from '../testHost.mjs';

/** The extension's id, its global storage's folder. */
const EXTENSION_ID = 'instruction-lens.instruction-lens';
/** How long one window may take, all phases together. */
const WINDOW_TIMEOUT_MS = 20 * 60_000;

/**
 * Runs both windows on a copy of `tree` (from materialize()) under `work`.
 * Returns { without, with, bundles, setup } with each window's figures (see the entry) and the
 * size in bytes of each file of the extension's JavaScript the .vsix ships.
 */
export async function benchVscode({ repo, tree, work, switches = 20, edits = 3, log = console.log }) {
  await ensureHost();
  const t0 = Date.now();
  const copy = path.join(work, 'vscode-tree');
  // A copy: the edits must not touch the cached tree another bench may be reading.
  execFileSync('cp', ['-a', '--sparse=always', tree.root, copy]);
  const setupMs = Date.now() - t0;

  const entryDir = path.join(work, 'vscode-entry');
  await build({
    entryPoints: [path.join(repo, 'test/bench/vscode/index.ts')],
    outfile: path.join(entryDir, 'index.js'),
    bundle: true, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'], logLevel: 'warning',
  });
  const withExt = stageExtension(repo, path.join(work, 'vscode-ext'));
  const withoutExt = path.join(work, 'vscode-baseline-ext');
  fs.mkdirSync(withoutExt, { recursive: true });
  fs.writeFileSync(path.join(withoutExt, 'package.json'), JSON.stringify({ name: 'bench-baseline', publisher: 'bench', version: '0.0.0', engines: { vscode: '^1.99.0' } }));

  const plan = pickFiles(copy, tree, switches);
  const home = path.join(work, 'vscode-home');
  fs.mkdirSync(home, { recursive: true });
  const figures = {};
  for (const [name, extDir, withExtension] of [['without', withoutExt, false], ['with', withExt, true]]) {
    log(`  VS Code window ${withExtension ? 'with' : 'without'} the extension…`);
    // IL_BENCH_PROFILE=<folder>: a CPU profile of each phase of each extension host (start-up, switches, edits, at rest) and a heap snapshot at its end.
    const profileDir = process.env.IL_BENCH_PROFILE ? path.resolve(process.env.IL_BENCH_PROFILE) : undefined;
    if (profileDir) fs.mkdirSync(profileDir, { recursive: true });
    // IL_BENCH_VIEW=1: the extension's window opens its chain view as it activates (a window restored
    // with the view shown), so the first chain's rows are drawn; by default the Explorer stays in front.
    const config = { withExtension, ...plan, edits, out: path.join(work, `vscode-${name}.json`), profileDir, name, openView: !!process.env.IL_BENCH_VIEW };
    const configFile = path.join(work, `vscode-${name}.config.json`);
    fs.writeFileSync(configFile, JSON.stringify(config));
    // IL_BENCH_CODE_CACHE=<folder>: the extension's global storage, where its worker threads
    // write the core's code cache (src/codeCache.ts), kept there from one run to the next (a
    // first start without it, the next ones with it: the build must be the same).
    const kept = withExtension && process.env.IL_BENCH_CODE_CACHE ? path.resolve(process.env.IL_BENCH_CODE_CACHE) : undefined;
    const storage = path.join(work, `vscode-data-${name}`, 'User', 'globalStorage', EXTENSION_ID);
    if (kept && fs.existsSync(kept)) fs.cpSync(kept, storage, { recursive: true });
    figures[name] = await runWindow({ work, name, copy, extDir, entry: path.join(entryDir, 'index.js'), configFile, home, out: config.out });
    if (kept && fs.existsSync(storage)) {
      fs.rmSync(kept, { recursive: true, force: true });
      fs.cpSync(storage, kept, { recursive: true });
    }
    // The window's logs (the extension's own channel among them) beside its profiles.
    if (profileDir) fs.cpSync(path.join(work, `vscode-data-${name}`, 'logs'), path.join(profileDir, `${name}-logs`), { recursive: true });
    // And its figures, whose stalls (each with its time) line up with the profiles and the logs.
    if (profileDir) fs.copyFileSync(config.out, path.join(profileDir, `${name}-figures.json`));
  }
  const bundles = Object.fromEntries(extensionFiles().map((f) => [f, fs.statSync(path.join(repo, f)).size]));
  return { ...figures, plan, setupMs, bundles };
}

/** The extension as shipped, but activated only when the bench asks. */
function stageExtension(repo, dir) {
  fs.mkdirSync(dir, { recursive: true });
  const manifest = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8'));
  manifest.activationEvents = [];
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  for (const part of ['dist', 'media']) fs.symlinkSync(path.join(repo, part), path.join(dir, part));
  return dir;
}

/**
 * What the windows do: open the file twelve folders deep, switch through files spread over the
 * tree (each in another folder), and edit an instruction file that is not in the deep file's chain.
 */
function pickFiles(copy, tree, count) {
  const listed = execFileSync('git', ['ls-files'], { cwd: copy, encoding: 'utf8', maxBuffer: 1 << 28 }).split('\n').filter(Boolean);
  const js = listed.filter((p) => p.endsWith('.js'));
  const step = Math.max(1, Math.floor(js.length / count));
  const switches = [];
  const seen = new Set();
  for (let i = step >> 1; i < js.length && switches.length < count; i += step) {
    const dir = path.posix.dirname(js[i]);
    if (seen.has(dir)) continue;
    seen.add(dir);
    switches.push(path.join(copy, js[i]));
    // The tree's files are sparse filler (zeros), which the editor refuses as binary: text, the
    // same length, for the files opened (the entry puts the edited file back as it found it).
    fs.writeFileSync(path.join(copy, js[i]), `// ${js[i]}\n`.padEnd(fs.statSync(path.join(copy, js[i])).size, ' '));
  }
  const deepDir = path.posix.dirname(tree.deepFile);
  const edit = listed.find((p) => p.endsWith('/CLAUDE.md') && !`${deepDir}/`.startsWith(`${path.posix.dirname(p)}/`));
  return { first: path.join(copy, tree.deepFile), switches, edit: path.join(copy, edit) };
}

/** One window: a server on the copy, its workbench in headless Chromium, until the entry exits. */
async function runWindow({ work, name, copy, extDir, entry, configFile, home, out }) {
  const { chromium } = createRequire(path.join(hostDir, 'package.json'))('playwright-core');
  const server = await startServer({
    workspace: copy,
    userDataDir: path.join(work, `vscode-data-${name}`),
    // Both windows see the same (empty) agents' home, whatever the machine's own holds.
    // The files open as plain text in both: the built-in TypeScript support would otherwise share
    // the extension host with a language server's traffic for every JavaScript file opened.
    settings: { 'instructionLens.home': home, 'files.associations': { '*.js': 'plaintext' } },
    env: { IL_BENCH_VSCODE: configFile },
  });
  let browser;
  try {
    browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    const errors = [];
    page.on('pageerror', (err) => errors.push(String(err)));
    let onExit;
    const exited = new Promise((resolve) => (onExit = resolve));
    await page.exposeFunction('codeAutomationLog', () => {});
    await page.exposeFunction('codeAutomationExit', (code) => onExit(Number(code) || 0));
    page.on('close', () => onExit(1));
    await page.goto(workbenchUrl(server, copy, [
      ['extensionDevelopmentPath', server.remoteUri(extDir)],
      ['extensionTestsPath', server.remoteUri(entry)],
      ['skipWelcome', 'true'],
    ]));
    let timer;
    const timeout = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`the ${name} window did not finish within ${WINDOW_TIMEOUT_MS / 60_000} minutes`)), WINDOW_TIMEOUT_MS)));
    await Promise.race([exited, timeout]).finally(() => clearTimeout(timer));
    if (!fs.existsSync(out)) {
      const serverLog = server.logs.filter((l) => l.trim() && !isNoise(l)).slice(-15).join('\n');
      throw new Error(`the ${name} window wrote no figures.\n${errors.slice(-5).join('\n')}\n${serverLog}`);
    }
    const figures = JSON.parse(fs.readFileSync(out, 'utf8'));
    if (figures.error) throw new Error(`the ${name} window failed: ${figures.error}`);
    return figures;
  } finally {
    await browser?.close().catch(() => {});
    await server.stop();
  }
}
