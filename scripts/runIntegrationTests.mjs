// Runs the integration tests (out/test/integration) inside a real VS Code and exits with their result.
//
//   node scripts/runIntegrationTests.mjs [--host auto|server|electron] [--untrusted] [--verbose]
//
// --untrusted: workspace trust on and the fixture folder not trusted (restricted mode); runs
//   only the `*.untrusted.test.js` files, which the normal run leaves out.
//
// server (the default, and what `auto` picks unless INSTRUCTION_LENS_TEST_HOST=electron): the
//   VS Code server (code-server) from test/host, its workbench opened in headless Chromium.
// electron: a desktop VS Code downloaded by @vscode/test-electron; needs internet.
//
// Builds nothing: `dist/extension.js` and `out/test/integration/` must exist
// (`node scripts/build.mjs --tests`, which `npm test` runs first).
// Environment: INSTRUCTION_LENS_SCREENSHOT_DIR (default test-results/screenshots) receives the
// tests' screenshots; INSTRUCTION_LENS_TEST_TIMEOUT_MS overrides the 10 minute limit.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import util from 'node:util';
import {
  chromiumArgs,
  chromiumPath,
  ensureHost,
  hostDir,
  isNoise,
  repoRoot,
  startServer,
  waitForWorkbench,
  workbenchUrl,
} from './testHost.mjs';
import { installAgents } from './agents/install.mjs';

const args = process.argv.slice(2);
const verbose = args.includes('--verbose');
const untrusted = args.includes('--untrusted');
const hostArg = args.includes('--host') ? args[args.indexOf('--host') + 1] : 'auto';
if (!['auto', 'server', 'electron'].includes(hostArg)) fail(`--host must be auto, server or electron, not ${hostArg}`);
// `auto` means server: test-electron's download cannot work on a machine without internet.
const host = hostArg === 'auto' ? (process.env.INSTRUCTION_LENS_TEST_HOST === 'electron' ? 'electron' : 'server') : hostArg;

const timeoutMs = Number(process.env.INSTRUCTION_LENS_TEST_TIMEOUT_MS) || 10 * 60_000;
const extensionTestsPath = path.join(repoRoot, 'out', 'test', 'integration', 'index.js');
const fixture = path.join(repoRoot, 'test', 'fixtures', 'workspace');
const screenshotDir = path.resolve(
  process.env.INSTRUCTION_LENS_SCREENSHOT_DIR || path.join(repoRoot, 'test-results', 'screenshots'),
);

function fail(message) {
  console.error(`runIntegrationTests: ${message}`);
  process.exit(1);
}

// The verify command's test runs the pinned Claude Code (installed once; npm run test:agents reuses it).
if (!untrusted) installAgents();

for (const file of [path.join(repoRoot, 'dist', 'extension.js'), extensionTestsPath]) {
  if (!fs.existsSync(file)) fail(`${path.relative(repoRoot, file)} is missing: run \`node scripts/build.mjs --tests\` first.`);
}

if (host === 'server') {
  try {
    await ensureHost(); // before the clock starts: a first install takes minutes, with its own limit
  } catch (err) {
    fail(err.message);
  }
}

// A fresh copy of the fixture workspace, so tests may create and delete files freely.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'instruction-lens-it-'));
const workspace = path.join(tmp, 'workspace');
if (fs.existsSync(fixture)) fs.cpSync(fixture, workspace, { recursive: true });
else fs.mkdirSync(workspace);
// The suite runs in a two-folder workspace, so multi-root behaviour is tested for real; the
// fixture stays the first folder, and the settings it needs at window level are repeated here.
const second = path.join(tmp, 'second');
fs.mkdirSync(second);
// The agents' home (`instructionLens.home`) with Codex's folder in it, for the machine's evidence
// the extension looks up at its start (empty: no file of it is read).
fs.mkdirSync(path.join(tmp, 'home', '.codex'), { recursive: true });
const workspaceFile = path.join(tmp, 'suite.code-workspace');
fs.writeFileSync(workspaceFile, JSON.stringify({ folders: [{ path: 'workspace' }, { path: 'second' }], settings: { 'instructionLens.home': '../home', 'instructionLens.agents': [] } }, null, 2));
const reportFile = path.join(tmp, 'report.txt');
fs.writeFileSync(reportFile, '');

/** Copies what the test entry appends to the report file to stdout, as it grows. */
function tailReport() {
  let offset = 0;
  const decoder = new StringDecoder('utf8');
  const pump = () => {
    const size = fs.statSync(reportFile).size;
    if (size <= offset) return;
    const buffer = Buffer.alloc(size - offset);
    const fd = fs.openSync(reportFile, 'r');
    try {
      offset += fs.readSync(fd, buffer, 0, buffer.length, offset);
    } finally {
      fs.closeSync(fd);
    }
    process.stdout.write(decoder.write(buffer));
  };
  const timer = setInterval(pump, 100);
  return {
    stop() {
      clearInterval(timer);
      pump();
      process.stdout.write(decoder.end());
      return offset;
    },
  };
}

let cleanups = [];
async function cleanUp() {
  const pending = cleanups.reverse();
  cleanups = [];
  for (const cleanup of pending) await cleanup().catch(() => {});
}
// Ctrl-C: run the 'exit' hooks that stop the server's process group.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

// Shown when something hangs: filled in once there is a server and a page to ask.
let diagnose = () => '';

async function runOnServer() {
  const { chromium } = createRequire(path.join(hostDir, 'package.json'))('playwright-core');
  const pageErrors = [];
  let page;

  // Tests ask for screenshots, and for measures of the rendered page, over HTTP: the extension
  // host cannot reach the page.
  const shots = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://127.0.0.1');
      if (url.pathname === '/measure') {
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(await page.evaluate(measurePage)));
        return;
      }
      // `/click?action=<label>`: clicks the side bar title's button of that name, as a user would.
      if (url.pathname === '/click') {
        await page.locator(`.part.sidebar .title-actions .action-label[aria-label^="${url.searchParams.get('action')?.replace(/["\\]/g, '')}"]`).click({ timeout: 10_000 });
        res.writeHead(200, { 'content-type': 'text/plain' }).end('clicked');
        return;
      }
      const name = url.searchParams.get('name') || 'screenshot';
      const file = path.join(screenshotDir, `${name.replace(/[^\w.-]+/g, '-')}.png`);
      fs.mkdirSync(screenshotDir, { recursive: true });
      // Let the workbench paint what the test just did.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      // `clip=x,y,width,height`: a part of the window, where the rest would only add bytes.
      const [x, y, width, height] = (url.searchParams.get('clip') ?? '').split(',').map(Number);
      await page.screenshot({ path: file, ...(width > 0 && height > 0 ? { clip: { x, y, width, height } } : {}) });
      res.writeHead(200, { 'content-type': 'text/plain' }).end(file);
    } catch (err) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err?.message ?? err));
    }
  });
  await new Promise((resolve) => shots.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => shots.close(resolve)));

  const server = await startServer({
    workspace,
    userDataDir: path.join(tmp, 'data'),
    workspaceTrust: untrusted,
    // Restricted mode ignores workspace values of restricted settings: the test home goes in the user settings.
    settings: untrusted ? { 'security.workspace.trust.startupPrompt': 'never', 'instructionLens.home': path.join(tmp, 'home') } : {},
    env: {
      INSTRUCTION_LENS_TEST_FILES: untrusted ? 'untrusted' : (process.env.INSTRUCTION_LENS_TEST_FILES ?? ''),
      INSTRUCTION_LENS_TEST_REPORT: reportFile,
      INSTRUCTION_LENS_SCREENSHOT_URL: `http://127.0.0.1:${shots.address().port}/`,
    },
    onLog: (line) => verbose && console.error(`[code-server] ${line}`),
    wrap: permissionsBinding(),
  });
  cleanups.push(server.stop);
  let workbenchShown = false;
  diagnose = () =>
    [
      workbenchShown ? 'The workbench opened.' : 'The workbench did not appear.',
      `Last code-server output:\n${server.logs.filter((l) => l.trim() && !isNoise(l)).slice(-20).join('\n')}`,
      ...(pageErrors.length ? [`Workbench errors:\n${pageErrors.slice(-10).join('\n')}`] : []),
    ].join('\n');

  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
  cleanups.push(() => browser.close());
  // VS Code's default window size; the side bar keeps its default width (no test resizes it).
  page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  page.on('pageerror', (err) => pageErrors.push(String(err)));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !isNoise(msg.text())) pageErrors.push(msg.text());
  });

  // The two globals a workbench run with enable-smoke-test-driver calls, as in VS Code's own
  // browser test runs: its log, and the tests' exit code.
  let onExit;
  const exited = new Promise((resolve) => (onExit = resolve));
  // codeAutomationLog carries the workbench's own log (not the tests' console): chatty at info
  // level, so only warnings and errors are shown unless --verbose.
  await page.exposeFunction('codeAutomationLog', (type, logArgs) => {
    const line = util.format(...(Array.isArray(logArgs) ? logArgs : [logArgs]));
    const shown = verbose || type === 'error' || type === 'warn';
    if (shown && !isNoise(line)) console.error(`[workbench ${type}] ${line}`);
  });
  await page.exposeFunction('codeAutomationExit', (code) => onExit(Number(code) || 0));
  page.on('close', () => onExit(1));

  const url = workbenchUrl(server, untrusted ? workspace : workspaceFile, [
    ['extensionDevelopmentPath', server.remoteUri(repoRoot)],
    ['extensionTestsPath', server.remoteUri(extensionTestsPath)],
    ['skipWelcome', 'true'],
  ]);
  await page.goto(url);
  waitForWorkbench(page).then(() => (workbenchShown = true), () => {});
  return await exited;
}

/**
 * What a user sees of the extension, measured in the page (runs in the browser): the window, the
 * side bar's title and its buttons (their names), every row of the tree it shows, each CodeLens, the status bar items and
 * the panel's title, and the notification toasts shown. `fits`: the element's text is not cut (scroll width within client width,
 * and within the editor for a CodeLens).
 */
function measurePage() {
  const fits = (el) => el.scrollWidth <= el.clientWidth;
  const text = (el) => (el?.textContent ?? '').replace(/\u00a0/g, ' ');
  const sidebar = document.querySelector('.part.sidebar');
  const title = sidebar?.querySelector('.title-label h2');
  const rows = [...(sidebar?.querySelectorAll('.pane-body .monaco-list-row') ?? [])].map((row) => {
    const container = row.querySelector('.monaco-icon-label-container');
    const name = row.querySelector('.label-name');
    const description = row.querySelector('.label-description');
    const right = (el) => el?.getBoundingClientRect().right ?? Infinity;
    return {
      label: text(name),
      description: text(description),
      // The label whole: VS Code cuts the description first, then the label, with an ellipsis.
      fits: !!container && !!name && right(name) <= right(container) + 0.5,
      descriptionFits: !!container && fits(container) && (!description || right(description) <= right(container) + 0.5),
      // The label's width and the room its row leaves it, in pixels: how far a cut label is from fitting.
      expanded: row.getAttribute('aria-expanded'),
      labelWidth: Math.round(name?.getBoundingClientRect().width ?? 0),
      room: Math.round(container ? container.getBoundingClientRect().right - (name?.getBoundingClientRect().left ?? 0) : 0),
    };
  });
  const codeLenses = [...document.querySelectorAll('.monaco-editor .codelens-decoration')].map((lens) => {
    const editor = lens.closest('.monaco-editor').querySelector('.monaco-scrollable-element.editor-scrollable') ?? lens.closest('.monaco-editor');
    return { text: text(lens), fits: fits(lens) && lens.getBoundingClientRect().right <= editor.getBoundingClientRect().right + 0.5 };
  });
  return {
    window: { width: window.innerWidth, height: window.innerHeight },
    sidebar: {
      width: sidebar?.getBoundingClientRect().width ?? 0,
      title: text(title),
      titleFits: !!title && fits(title),
      actions: [...(sidebar?.querySelectorAll('.title-actions .action-label') ?? [])].map((a) => a.getAttribute('aria-label') ?? ''),
    },
    rows,
    codeLenses,
    statusBar: [...document.querySelectorAll('.part.statusbar .statusbar-item')].map((item) => ({ id: item.id, text: text(item).trim() })),
    panel: text(document.querySelector('.part.panel .title')),
    notifications: [...document.querySelectorAll('.notifications-toasts .notification-list-item-message')].map((el) => text(el).trim()),
  };
}

/**
 * Root reads any file whatever its mode, so as root a file without read permission would not be one
 * to the extension. As root (CI), the server and the extension host it starts run without the two
 * capabilities that let root ignore permissions (setpriv, from util-linux): files keep their owner,
 * and a mode of 000 stops reads as it does for a user.
 */
function permissionsBinding() {
  if (process.getuid?.() !== 0 || spawnSync('setpriv', ['--version']).status !== 0) return [];
  const caps = '-dac_override,-dac_read_search';
  return ['setpriv', `--bounding-set=${caps}`, `--inh-caps=${caps}`];
}

async function runOnElectron() {
  const { runTests } = await import('@vscode/test-electron');
  try {
    await runTests({
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath,
      launchArgs: [workspaceFile, '--user-data-dir', path.join(tmp, 'data'), '--disable-extensions', '--disable-workspace-trust'],
      extensionTestsEnv: { INSTRUCTION_LENS_TEST_REPORT: reportFile },
    });
    return 0;
  } catch (err) {
    console.error(String(err?.message ?? err));
    return typeof err?.code === 'number' && err.code !== 0 ? err.code : 1;
  }
}

const tail = tailReport();
let timer;
const timeout = new Promise((_, reject) => {
  timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs / 1000} s.`)), timeoutMs);
});
let code = 1;
try {
  const where = host === 'server' ? 'code-server + headless Chromium' : 'desktop VS Code via @vscode/test-electron';
  console.log(`Running the integration tests in VS Code (${where})…`);
  code = await Promise.race([host === 'server' ? runOnServer() : runOnElectron(), timeout]);
  // A run that ends before the test entry wrote anything: say why, not just the code.
  if (tail.stop() === 0 && code !== 0) console.error(`No test report was written.\n${diagnose()}`);
} catch (err) {
  tail.stop();
  console.error([`Integration tests failed: ${err?.message ?? err}`, diagnose()].filter(Boolean).join('\n'));
  code = 1;
}
clearTimeout(timer);
await cleanUp();
if (code === 0) fs.rmSync(tmp, { recursive: true, force: true });
else {
  const logs = path.join(tmp, 'data', 'logs');
  console.error(`Integration tests exited with code ${code}${fs.existsSync(logs) ? `; VS Code's logs are kept in ${logs}` : ''}.`);
}
process.exit(code);
