#!/usr/bin/env node
// Installs the real agent CLIs (pinned in test/agents/package.json + lock) once into
// .cache/agents/. Skipped when the stamp there names the same lock hash.
//
//   node scripts/agents/install.mjs [--force]
//
// Exported: installAgents() -> { dir, binaries }, and agentBinaries(dir).
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '..', '..');
const manifestDir = path.join(repoRoot, 'test', 'agents');
export const agentsDir = path.join(repoRoot, '.cache', 'agents');

/** The executables of each agent, inside an installed agents dir. */
export function agentBinaries(dir = agentsDir) {
  const nm = path.join(dir, 'node_modules');
  return {
    'claude-code': { cmd: path.join(nm, '@anthropic-ai', 'claude-code', 'bin', 'claude.exe'), node: false },
    codex: { cmd: path.join(nm, '@openai', 'codex', 'bin', 'codex.js'), node: true },
    'gemini-cli': { cmd: path.join(nm, '@google', 'gemini-cli', 'bundle', 'gemini.js'), node: true },
    'copilot-cli': { cmd: path.join(nm, '@github', 'copilot', 'npm-loader.js'), node: true },
  };
}

/** What runAgent needs to start a pinned agent: its binary and Copilot's shared bundle cache. */
export function pinnedAgent(agent, dir = agentsDir) {
  return { binary: agentBinaries(dir)[agent], bundleCache: copilotPkgCache(dir) };
}

/** Where Copilot CLI's self-extracting binary unpacks its bundle (shared by all runs). */
export function copilotPkgCache(dir = agentsDir) {
  return path.join(dir, 'copilot-pkg');
}

/** Unpack Copilot's bundle once, so parallel runs never race to extract it. */
function warmCopilot(dir, log) {
  const cache = copilotPkgCache(dir);
  if (existsSync(path.join(cache, 'pkg'))) return;
  const home = mkdtempSync(path.join(os.tmpdir(), 'il-copilot-warm-'));
  const b = agentBinaries(dir)['copilot-cli'];
  const r = spawnSync(process.execPath, [b.cmd, '--version'], {
    env: { PATH: process.env.PATH, HOME: home, COPILOT_PKG_CACHE_HOME: cache, COPILOT_AUTO_UPDATE: 'false', COPILOT_OFFLINE: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });
  rmSync(home, { recursive: true, force: true });
  if (r.status !== 0) log(`warning: unpacking Copilot CLI failed (${r.status}): ${String(r.stderr).slice(0, 500)}`);
}

function lockHash() {
  const h = createHash('sha256');
  h.update(readFileSync(path.join(manifestDir, 'package.json')));
  h.update(readFileSync(path.join(manifestDir, 'package-lock.json')));
  return h.digest('hex');
}

/** An environment for the nested npm without the outer `npm run`'s npm_config_* leaking in. */
function cleanNpmEnv() {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^npm_(config|package|lifecycle)_/i.test(k) || k === 'npm_execpath' || k === 'npm_node_execpath' || k === 'INIT_CWD') continue;
    env[k] = v;
  }
  return env;
}

export function installAgents({ force = false, log = (m) => process.stderr.write(m + '\n') } = {}) {
  const stamp = path.join(agentsDir, '.stamp');
  const hash = lockHash();
  const binaries = agentBinaries();
  const allThere = Object.values(binaries).every((b) => existsSync(b.cmd));
  if (!force && allThere && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === hash) {
    warmCopilot(agentsDir, log);
    return { dir: agentsDir, binaries, skipped: true };
  }
  log(`installing agent CLIs into ${path.relative(repoRoot, agentsDir)} (npm ci)…`);
  rmSync(agentsDir, { recursive: true, force: true });
  mkdirSync(agentsDir, { recursive: true });
  copyFileSync(path.join(manifestDir, 'package.json'), path.join(agentsDir, 'package.json'));
  copyFileSync(path.join(manifestDir, 'package-lock.json'), path.join(agentsDir, 'package-lock.json'));
  const started = Date.now();
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: agentsDir,
    env: cleanNpmEnv(),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`npm ci in ${agentsDir} failed with exit code ${r.status}`);
  const missing = Object.entries(binaries).filter(([, b]) => !existsSync(b.cmd));
  if (missing.length) throw new Error(`npm ci finished but these agent binaries are missing: ${missing.map(([k, b]) => `${k} (${b.cmd})`).join(', ')}`);
  warmCopilot(agentsDir, log);
  writeFileSync(stamp, hash + '\n');
  log(`agent CLIs installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return { dir: agentsDir, binaries, skipped: false };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = installAgents({ force: process.argv.includes('--force') });
  console.log(r.skipped ? `agent CLIs up to date in ${r.dir}` : `agent CLIs ready in ${r.dir}`);
}
