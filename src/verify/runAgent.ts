// Runs one REAL agent CLI non-interactively against the fake model on 127.0.0.1 and returns
// the request bodies it sent. The agent gets a fresh HOME (given), a config that points it at
// the fake model, and an environment built from scratch (no inherited keys, proxies or npm
// variables), so it can never reach the internet.
//
//   const r = await runAgent({ agent: 'claude-code', binary, launchDir, home, readFile })
//   r.requests  -> model-call bodies in order (JSON)
//   r.calls     -> every HTTP call {method, url, body, answer, ms}
//
// Agent ids are the profile ids; how each is run is its profile's `localRun`. Shared by the
// fidelity suite (test/agents/) and `instruction-lens verify`.
/* eslint-disable @typescript-eslint/no-explicit-any -- request bodies are the agents' JSON, untyped by nature */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { LocalRun } from '../core/profile';
import { findProfile, PROFILES } from '../core/profiles';
import { startFakeModel, type FakeToolCall } from './fakeModel';

/** The agents that can be run here: the profiles with `localRun` facts (claude-code, codex, gemini-cli, copilot-cli). */
export const RUNNABLE_AGENTS: readonly string[] = PROFILES.filter((p) => p.localRun).map((p) => p.id);

export function isRunnable(id: string): boolean {
  return localRunOf(id) !== undefined;
}

/** How to run the agent of a profile id here, if it can be. */
export function localRunOf(id: string): LocalRun | undefined {
  return findProfile(id)?.localRun;
}

/** How to start an agent: its executable, and whether it is a script for Node. */
export interface AgentBinary {
  cmd: string;
  node: boolean;
}

/** Request paths that are model turns (the others are model lists, token counts…). */
const MODEL_CALL = /\/messages(\?|$)|\/responses(\?|$)|:(stream)?[gG]enerateContent|\/chat\/completions(\?|$)/;

export interface RunAgentOptions {
  /** A profile id with `localRun` facts. */
  agent: string;
  binary: AgentBinary;
  /** The fixture's root; launchDir and readFile may be relative to it. */
  repoDir?: string;
  /** The agent's cwd (default repoDir). */
  launchDir?: string;
  /** A fresh, existing HOME directory (may already hold home files). */
  home: string;
  /** File to have the agent read (absolute, or relative to repoDir). */
  readFile?: string;
  /** Hard timeout (default 90 s); the process group is killed after it. */
  timeoutMs?: number;
  /** The user prompt (default "hi"). */
  prompt?: string;
  /** Extra environment. */
  env?: Record<string, string>;
  /** Where the agent unpacks its bundle (`localRun.bundleCache`), shared between runs so it is unpacked once. */
  bundleCache?: string;
  /** argv prefix, e.g. ['strace', '-f', '-e', 'trace=connect', '-o', log]. */
  wrap?: string[];
  /** Stops the agent (its whole process group) when aborted. */
  signal?: AbortSignal;
}

export interface AgentCall {
  method: string;
  url: string;
  body: any;
  answer: string;
  ms: number;
}

export interface AgentRun {
  requests: any[];
  calls: AgentCall[];
  toolCalls: FakeToolCall[];
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  stdout: string;
  stderr: string;
  ms: number;
  argv: string[];
}

export async function runAgent(o: RunAgentOptions): Promise<AgentRun> {
  const { agent, home } = o;
  const facts = localRunOf(agent);
  if (!facts) throw new Error(`unknown agent ${agent}; one of ${RUNNABLE_AGENTS.join(', ')}`);
  const base = o.repoDir ?? o.launchDir ?? process.cwd();
  const launchDir = o.launchDir ? path.resolve(base, o.launchDir) : base;
  const readFile = o.readFile ? path.resolve(base, o.readFile) : undefined;
  const timeoutMs = o.timeoutMs ?? 90_000;
  if (!existsSync(o.binary.cmd)) throw new Error(`${agent}: ${o.binary.cmd} does not exist`);
  mkdirSync(home, { recursive: true });

  const fake = await startFakeModel({ readFile });
  try {
    const { args, env } = configure(facts, { home, url: fake.url, prompt: o.prompt ?? 'hi', bundleCache: o.bundleCache });
    const argv = [...(o.wrap || []), ...commandLine(o.binary, args)];
    const started = Date.now();
    const r = await run(argv, { cwd: launchDir, env: { ...baseEnv(home), ...env, ...(o.env || {}) }, timeoutMs, signal: o.signal });
    // Let the last in-flight request finish being recorded.
    await new Promise((res) => setTimeout(res, 50));
    const calls = fake.calls.map(({ method, url, body, answer, at }) => ({ method, url, body, answer, ms: at - started }));
    return {
      requests: fake.calls.filter((c) => c.method === 'POST' && MODEL_CALL.test(c.url)).map((c) => c.body),
      calls,
      toolCalls: fake.toolCalls,
      ...r,
      ms: Date.now() - started,
      argv: argv.map((a) => (a === process.execPath ? 'node' : a)),
    };
  } finally {
    await fake.close();
  }
}

/** The argv that starts a binary: Node scripts run on this process's Node. */
export function commandLine(binary: AgentBinary, args: string[]): string[] {
  return binary.node ? [process.execPath, binary.cmd, ...args] : [binary.cmd, ...args];
}

/** An environment from scratch: nothing inherited but PATH and locale. */
export function baseEnv(home: string): Record<string, string> {
  const env: Record<string, string> = {
    HOME: home,
    USER: process.env.USER || 'root',
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    TMPDIR: process.env.TMPDIR || '/tmp',
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    // Loopback only, never through a proxy.
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
    // Common opt-outs.
    DO_NOT_TRACK: '1',
    CI: '1',
    GIT_CONFIG_NOSYSTEM: '1',
    // Codex 0.171 runs `git ls-remote https://github.com/openai/plugins.git` at start (plugin
    // marketplace sync): let git use local transports only, so it fails before any DNS lookup.
    GIT_ALLOW_PROTOCOL: 'file',
  };
  // Inside an Electron host (VS Code), its binary runs Node scripts only when told to.
  if (process.versions.electron) env.ELECTRON_RUN_AS_NODE = '1';
  return env;
}

/** The agent's config files written into HOME (kept from what a scenario put there), its argv and environment. */
function configure(facts: LocalRun, { home, url, prompt, bundleCache }: { home: string; url: string; prompt: string; bundleCache?: string }): { args: string[]; env: Record<string, string> } {
  const { args, env, homeFiles = {} } = facts.setup({ home, url, prompt });
  for (const [rel, make] of Object.entries(homeFiles)) {
    const file = path.join(home, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, make(existsSync(file) ? readFileSync(file, 'utf8') : undefined));
  }
  return { args, env: { ...(bundleCache && facts.bundleCache ? { [facts.bundleCache.env]: bundleCache } : {}), ...env } };
}

/** Spawn in its own process group; kill the whole group after timeoutMs or on abort. */
function run(argv: string[], { cwd, env, timeoutMs, signal }: { cwd: string; env: Record<string, string>; timeoutMs: number; signal?: AbortSignal }): Promise<{ exitCode: number | null; signal: string | null; timedOut: boolean; aborted: boolean; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let aborted = false;
    child.stdout.on('data', (d) => { if (stdout.length < 1e6) stdout += d; });
    child.stderr.on('data', (d) => { if (stderr.length < 1e6) stderr += d; });
    const kill = (sig: NodeJS.Signals) => { try { process.kill(-child.pid!, sig); } catch { /* gone */ } };
    const timer = setTimeout(() => {
      timedOut = true;
      kill('SIGTERM');
      setTimeout(() => kill('SIGKILL'), 3000).unref();
    }, timeoutMs);
    const onAbort = () => {
      aborted = true;
      kill('SIGTERM');
      setTimeout(() => kill('SIGKILL'), 2000).unref();
    };
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (e) => { stderr += String(e); });
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      // Leave no helper process behind (MCP servers, shells…).
      kill('SIGKILL');
      resolve({ exitCode: code, signal: sig, timedOut, aborted, stdout, stderr });
    });
  });
}
