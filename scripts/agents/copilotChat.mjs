// Runs the REAL Copilot Chat (built into the VS Code server of test/host) against the fake model
// on 127.0.0.1 and returns the requests it sent, in the shape of runAgent (src/verify/runAgent.ts),
// so the fidelity suite compares them the same way.
//
//   const r = await runCopilotChat({ launchDir, home, readFile, settings })
//
// How it runs without a GitHub sign-in and without leaving the machine:
// - the fake model is a "Custom Endpoint" bring-your-own-key model (chatLanguageModels.json in
//   the user data folder, Chat Completions API, a dummy key);
// - the workbench opens `launchDir` as its folder, with HOME = `home`, and loads the driver
//   (test/agents/copilotChat/driver.cjs), which enables the built-in Copilot Chat (disabled
//   until chat set-up has run) and sends one agent-mode request with that model; with a
//   bring-your-own-key model the workbench skips chat set-up, so no sign-in is asked for;
// - nothing leaves 127.0.0.1: the server and its extension hosts get a proxy on a closed
//   loopback port for everything but 127.0.0.1 (the extension gallery, GitHub's token service
//   fail at once), their connect() calls are traced with strace and any other address fails the
//   run, and Chromium may fetch nothing but 127.0.0.1 (other requests are aborted).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { chromiumArgs, chromiumPath, ensureHost, hostDir, startServer, workbenchUrl } from '../testHost.mjs';
import { startFakeModel } from './harness.mjs';
import { nonLoopbackConnects } from './strace.mjs';

const driverDir = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'test', 'agents', 'copilotChat');
const MODEL_CALL = /\/chat\/completions(\?|$)/;
// Everything but 127.0.0.1 goes to a proxy that is not there (port 9, discard: closed here), in
// VS Code's settings (extension hosts) and the environment (the server's own requests).
const NO_PROXY = ['127.0.0.1', 'localhost'];
const NO_NETWORK_SETTINGS = { 'http.proxy': 'http://127.0.0.1:9', 'http.noProxy': NO_PROXY, 'http.proxySupport': 'override' };
const NO_NETWORK_ENV = { HTTP_PROXY: 'http://127.0.0.1:9', HTTPS_PROXY: 'http://127.0.0.1:9', NO_PROXY: NO_PROXY.join(','), http_proxy: 'http://127.0.0.1:9', https_proxy: 'http://127.0.0.1:9', no_proxy: NO_PROXY.join(',') };
const MODEL_ID = 'fake-model';

/** The versions run: `Copilot Chat <x> (VS Code <y>)`, as the `copilot` profile names what it models. */
export function copilotChatVersion() {
  const vscode = path.join(hostDir, 'node_modules', 'code-server', 'lib', 'vscode');
  const version = (file) => JSON.parse(fs.readFileSync(path.join(vscode, file), 'utf8')).version;
  return `Copilot Chat ${version('extensions/copilot/package.json')} (VS Code ${version('product.json')})`;
}

/**
 * One chat request in agent mode: "read <readFile>" when given (the fake model answers with a
 * read_file call of it, then with text), else "hi". Resolves once the fake model has answered
 * the last turn, or after `timeoutMs` with `timedOut`.
 */
export async function runCopilotChat({ launchDir, home, readFile, settings = {}, timeoutMs = 300_000 }) {
  const started = Date.now();
  await ensureHost();
  const fake = await startFakeModel({ readFile });
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'il-copilot-chat-'));
  const driverLog = path.join(data, 'driver.log');
  fs.writeFileSync(driverLog, '');
  fs.mkdirSync(path.join(data, 'User'), { recursive: true });
  fs.writeFileSync(path.join(data, 'User', 'chatLanguageModels.json'), JSON.stringify([{
    name: 'Fake model',
    vendor: 'customendpoint',
    apiKey: 'not-a-key',
    models: [{ id: MODEL_ID, name: 'Fake model', url: `${fake.url}/v1/chat/completions`, toolCalling: true, vision: false, maxInputTokens: 128_000, maxOutputTokens: 4_096 }],
  }], null, 2));
  const blocked = [];
  const straceLog = path.join(data, 'connect.strace');
  const traced = spawnSync('strace', ['-V']).status === 0;
  const cleanups = [];
  let timedOut = false;
  try {
    const server = await startServer({
      workspace: launchDir,
      userDataDir: data,
      settings: { 'chat.disableAIFeatures': false, ...NO_NETWORK_SETTINGS, ...settings },
      wrap: traced ? ['strace', '-f', '-qq', '-e', 'trace=connect', '-o', straceLog] : [],
      env: { ...NO_NETWORK_ENV, HOME: home, CC_DRIVER_LOG: driverLog, CC_QUERY: readFile ? `Read ${readFile}` : 'hi', CC_ATTACH: readFile ?? '' },
    });
    cleanups.push(server.stop);
    const { chromium } = createRequire(path.join(hostDir, 'package.json'))('playwright-core');
    const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
    cleanups.push(() => browser.close());
    const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    await page.route('**/*', (route) => {
      const { hostname, href } = new URL(route.request().url());
      if (hostname === '127.0.0.1') return route.continue();
      blocked.push(href);
      return route.abort();
    });
    // The globals a workbench run with the smoke-test driver calls (see runIntegrationTests.mjs).
    await page.exposeFunction('codeAutomationLog', () => {});
    await page.exposeFunction('codeAutomationExit', () => {});
    await page.goto(workbenchUrl(server, launchDir, [
      ['extensionDevelopmentPath', server.remoteUri(driverDir)],
      ['extensionTestsPath', server.remoteUri(path.join(driverDir, 'driver.cjs'))],
      ['skipWelcome', 'true'],
    ]));
    // Done when the fake model has answered with text after the read (or at once, without one).
    const done = () => fake.calls.some((c, i) => c.answer === 'text' && (!readFile || fake.calls.slice(0, i).some((p) => p.answer.startsWith('tool:'))));
    const deadline = started + timeoutMs;
    while (!done() && Date.now() < deadline && !/^error /m.test(fs.readFileSync(driverLog, 'utf8'))) await new Promise((r) => setTimeout(r, 200));
    timedOut = !done();
    // Let a request that follows the answer (a title, a summary) arrive and be recorded.
    if (!timedOut) await new Promise((r) => setTimeout(r, 500));
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    await fake.close();
  }
  let log = fs.readFileSync(driverLog, 'utf8');
  if (!traced) log += 'not traced: strace is missing (apt-get install strace)\n';
  else {
    const { others } = nonLoopbackConnects(fs.existsSync(straceLog) ? fs.readFileSync(straceLog, 'utf8') : '');
    if (others.length) log += `error: the VS Code server connected to another address than 127.0.0.1:\n${others.slice(0, 10).join('\n')}\n`;
  }
  if (process.env.IL_AGENTS_KEEP !== '1') fs.rmSync(data, { recursive: true, force: true });
  const calls = fake.calls.map((c) => ({ method: c.method, url: c.url, body: c.body, answer: c.answer, ms: c.at - started }));
  return {
    requests: fake.calls.filter((c) => c.method === 'POST' && MODEL_CALL.test(c.url)).map((c) => c.body),
    calls,
    toolCalls: fake.toolCalls,
    exitCode: /^error[ :]/m.test(log) ? 1 : 0,
    timedOut,
    ms: Date.now() - started,
    stderr: `${log}${blocked.length ? `blocked (not 127.0.0.1): ${[...new Set(blocked)].join(', ')}\n` : ''}`,
  };
}
