// Quick start: opens the extension, built from this checkout, in VS Code in your browser, on the
// demo workspace (demo/, copied into a git repository of its own). Runs until Ctrl-C.
//
//   node scripts/openDemo.mjs [--port 8080] [--no-build] [--verbose]
//   node scripts/openDemo.mjs --smoke   # check it opens: headless screenshot to test-results/demo.png
//
// The VS Code is code-server from test/host (installed on first use), listening on 127.0.0.1 only.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import {
  chromiumArgs,
  chromiumPath,
  ensureHost,
  hostDir,
  repoRoot,
  startServer,
  waitForWorkbench,
} from './testHost.mjs';

const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const verbose = args.includes('--verbose');
// The smoke check takes any free port, so it can run beside an open demo.
const port = args.includes('--port') ? Number(args[args.indexOf('--port') + 1]) : smoke ? 0 : 8080;
const demoDir = path.join(repoRoot, 'demo');
const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
const extensionId = `${manifest.publisher}.${manifest.name}`;

function fail(message) {
  console.error(`openDemo: ${message}`);
  process.exit(1);
}

if (!Number.isInteger(port) || port < 0 || port > 65535) fail('--port needs a port number');
if (!args.includes('--no-build') && fs.existsSync(path.join(repoRoot, 'scripts', 'build.mjs'))) {
  const build = spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'build.mjs')], { cwd: repoRoot, stdio: 'inherit' });
  if (build.status !== 0) fail('the build failed');
}
if (!fs.existsSync(path.join(repoRoot, manifest.main))) fail(`${manifest.main} is missing: run \`npm run build\` first.`);

try {
  await ensureHost({ browser: smoke });
} catch (err) {
  fail(err.message);
}

// Installed the way VS Code finds any extension: a folder <publisher>.<name>-<version> in the
// extensions directory, here a link to this checkout, so a rebuild and a window reload show changes.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'instruction-lens-demo-'));
const extensionsDir = path.join(tmp, 'extensions');
fs.mkdirSync(extensionsDir);
fs.symlinkSync(repoRoot, path.join(extensionsDir, `${extensionId}-${manifest.version}`), 'dir');
process.on('exit', () => process.env.IL_KEEP_DEMO || fs.rmSync(tmp, { recursive: true, force: true }));

// The demo opens as a project of its own: a copy of demo/ in a git repository of its own, as a
// user's project is. Inside this checkout, an agent that starts from the git root (GitHub Copilot
// CLI) would start from the checkout's and report every rule of the demo as matching no file.
// Edits made in the demo go to the copy, and leave with it.
const workspace = path.join(tmp, 'demo');
fs.cpSync(demoDir, workspace, { recursive: true });
const git = (...gitArgs) =>
  spawnSync('git', ['-c', 'init.defaultBranch=main', '-c', 'user.name=Instruction Lens demo', '-c', 'user.email=demo@localhost', '-c', 'commit.gpgsign=false', ...gitArgs], { cwd: workspace, encoding: 'utf8' });
for (const step of [['init', '-q'], ['add', '-A'], ['commit', '-q', '-m', 'demo']]) {
  const r = git(...step);
  if (r.status !== 0) {
    console.error(`openDemo: git ${step[0]} failed in the demo's copy, which opens without a repository of its own: ${(r.stderr || r.error?.message || '').trim()}`);
    break;
  }
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(smoke ? 130 : 0));

let server;
try {
  server = await startServer({
    workspace,
    userDataDir: path.join(tmp, 'data'),
    extensionsDir,
    port,
    smokeTestDriver: false,
    onLog: (line) => verbose && console.error(`[code-server] ${line}`),
  });
} catch (err) {
  fail(`${err.message}${port ? `\n(Is port ${port} already in use? Try --port.)` : ''}`);
}
// code-server's own short form of the folder parameter: readable when printed.
const url = `${server.baseUrl}?folder=${encodeURI(workspace)}`;

if (!smoke) {
  console.log(`\nInstruction Lens demo: open ${url}\nPress Ctrl-C to stop.\n`);
  server.process.once('exit', (code) => fail(`code-server stopped (code ${code}).`));
} else {
  const timer = setTimeout(() => fail('the demo did not open within 2 minutes.'), 120_000);
  const { chromium } = createRequire(path.join(hostDir, 'package.json'))('playwright-core');
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    await page.goto(url);
    await waitForWorkbench(page);
    // The extension must be installed: look for it in the Extensions view.
    await page.keyboard.press('Control+Shift+X');
    await page
      .locator('.part.sidebar .extension-list-item', { hasText: manifest.displayName })
      .first()
      .waitFor({ timeout: 30_000 })
      .catch(() => fail(`${extensionId} is not listed among the installed extensions.`));
    // Then show the demo as a person would first see it: the Explorer and the root CLAUDE.md.
    await page.keyboard.press('Control+Shift+E');
    await page.keyboard.press('Control+P');
    await page.keyboard.type('CLAUDE.md');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'CLAUDE.md' }).first().waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.tabs-container .tab', { hasText: 'CLAUDE.md' }).first().waitFor();
    // Let extensions finish activating and the editor settle (highlighting, decorations).
    await page
      .locator('.statusbar', { hasText: 'Activating Extensions' })
      .waitFor({ state: 'hidden', timeout: 30_000 })
      .catch(() => {});
    // What a user sees first from the extension: the budget meter for CLAUDE.md, and its
    // diagnostics (the demo has a broken import on purpose).
    await page
      .locator('.statusbar-item', { hasText: /Claude Code · [\d.]+k? chars/ })
      .first()
      .waitFor({ timeout: 30_000 })
        .catch(async () => { await page.screenshot({ path: path.join(repoRoot, 'test-results', 'demo-failed.png') }); fail('the budget meter never appeared in the status bar: the extension did not work on the demo (test-results/demo-failed.png).'); });
    await page.waitForTimeout(1_000);
    const file = path.join(repoRoot, 'test-results', 'demo.png');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await page.screenshot({ path: file });
    console.log(`Demo opened with ${extensionId} installed; screenshot: ${path.relative(repoRoot, file)}`);
  } finally {
    clearTimeout(timer);
    await browser.close();
    await server.stop();
  }
  process.exit(0);
}
