// Runs one REAL agent CLI non-interactively against the fake model on 127.0.0.1 and returns
// the request bodies it sent. The agent gets a fresh HOME (given), a config that points it at
// the fake model, and an environment built from scratch (no inherited keys, proxies or npm
// variables), so it can never reach the internet.
//
//   const r = await runAgent({ agent: 'claude-code', binary, launchDir, home, readFile })
//   r.requests  -> model-call bodies in order (JSON)
//   r.calls     -> every HTTP call {method, url, body, answer, ms}
//
// Agent ids are the profile ids: claude-code, codex, gemini-cli, copilot-cli. Shared by the
// fidelity suite (test/agents/) and `instruction-lens verify`.
/* eslint-disable @typescript-eslint/no-explicit-any -- request bodies are the agents' JSON, untyped by nature */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { startFakeModel, type FakeToolCall } from './fakeModel';

export const RUNNABLE_AGENTS = ['claude-code', 'codex', 'gemini-cli', 'copilot-cli'] as const;
export type RunnableAgent = (typeof RUNNABLE_AGENTS)[number];

export function isRunnable(id: string): id is RunnableAgent {
  return (RUNNABLE_AGENTS as readonly string[]).includes(id);
}

/** How to start an agent: its executable, and whether it is a script for Node. */
export interface AgentBinary {
  cmd: string;
  node: boolean;
}

/** The model the agents are told to use (any name works with the fake model). */
const MODELS: Record<RunnableAgent, string | undefined> = { 'claude-code': undefined, codex: 'gpt-5.1-codex', 'gemini-cli': undefined, 'copilot-cli': 'gpt-4.1' };

/** Codex features switched off (see configure()). */
const CODEX_FEATURES_OFF = ['plugins', 'remote_plugin', 'plugin_sharing', 'apps', 'in_app_updates', 'daemon_auto_start', 'tool_suggest', 'skill_mcp_dependency_install', 'workspace_dependencies'];

/** Request paths that are model turns (the others are model lists, token counts…). */
const MODEL_CALL = /\/messages(\?|$)|\/responses(\?|$)|:(stream)?[gG]enerateContent|\/chat\/completions(\?|$)/;

export interface RunAgentOptions {
  agent: RunnableAgent;
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
  /** Where Copilot CLI unpacks its bundle (shared between runs, so it is unpacked once). */
  copilotPkgCache?: string;
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
  if (!isRunnable(agent)) throw new Error(`unknown agent ${agent}; one of ${RUNNABLE_AGENTS.join(', ')}`);
  const base = o.repoDir ?? o.launchDir ?? process.cwd();
  const launchDir = o.launchDir ? path.resolve(base, o.launchDir) : base;
  const readFile = o.readFile ? path.resolve(base, o.readFile) : undefined;
  const timeoutMs = o.timeoutMs ?? 90_000;
  if (!existsSync(o.binary.cmd)) throw new Error(`${agent}: ${o.binary.cmd} does not exist`);
  mkdirSync(home, { recursive: true });

  const fake = await startFakeModel({ readFile });
  try {
    const { args, env } = configure(agent, { home, url: fake.url, prompt: o.prompt ?? 'hi', copilotPkgCache: o.copilotPkgCache });
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

/** Per agent: the config files in HOME, the argv and the environment. */
function configure(agent: RunnableAgent, { home, url, prompt, copilotPkgCache }: { home: string; url: string; prompt: string; copilotPkgCache?: string }): { args: string[]; env: Record<string, string> } {
  switch (agent) {
    case 'claude-code': {
      const args = ['-p', prompt, '--allowedTools', 'Read'];
      return {
        args,
        env: {
          ANTHROPIC_BASE_URL: url,
          ANTHROPIC_API_KEY: 'sk-ant-fake-key-for-loopback',
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          DISABLE_TELEMETRY: '1',
          DISABLE_AUTOUPDATER: '1',
          DISABLE_ERROR_REPORTING: '1',
          DISABLE_BUG_COMMAND: '1',
          CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: '1',
          CLAUDE_CODE_USE_BEDROCK: '',
          CLAUDE_CODE_USE_VERTEX: '',
        },
      };
    }
    case 'codex': {
      const codexHome = path.join(home, '.codex');
      mkdirSync(codexHome, { recursive: true });
      // A scenario's own config.toml (e.g. project_doc_max_bytes) is kept: its lines go after
      // our top-level keys and before our tables, so its top-level keys stay top-level.
      const cfgPath = path.join(codexHome, 'config.toml');
      const own = existsSync(cfgPath) ? readFileSync(cfgPath, 'utf8') : '';
      const toml = [
        `model = "${MODELS.codex}"`,
        `model_provider = "fake"`,
        `check_for_update_on_startup = false`,
        own,
        ``,
        `[model_providers.fake]`,
        `name = "fake"`,
        `base_url = "${url}/v1"`,
        `wire_api = "responses"`,
        `env_key = "FAKE_MODEL_API_KEY"`,
        `request_max_retries = 0`,
        `stream_max_retries = 0`,
        ``,
        `[analytics]`,
        `enabled = false`,
        ``,
        `[feedback]`,
        `enabled = false`,
        ``,
        // Features that reach OpenAI or GitHub at start (plugin marketplace, apps, remote
        // plugins, updates): off, so nothing leaves loopback. None touches AGENTS.md loading.
        `[features]`,
        ...CODEX_FEATURES_OFF.map((f) => `${f} = false`),
        ``,
      ].join('\n');
      writeFileSync(cfgPath, toml);
      return {
        args: ['exec', '--skip-git-repo-check', prompt],
        env: { CODEX_HOME: codexHome, FAKE_MODEL_API_KEY: 'fake-key-for-loopback', RUST_LOG: 'error' },
      };
    }
    case 'gemini-cli': {
      const dir = path.join(home, '.gemini');
      mkdirSync(dir, { recursive: true });
      // Merged into a scenario's own settings.json (e.g. context.fileName).
      const settingsPath = path.join(dir, 'settings.json');
      const own = existsSync(settingsPath) ? JSON.parse(readFileSync(settingsPath, 'utf8')) : {};
      const settings = deepMerge(own, {
        security: { auth: { selectedType: 'gemini-api-key' } },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { disableAutoUpdate: true, disableUpdateNag: true },
      });
      writeFileSync(settingsPath, JSON.stringify(settings, null, 2));
      return {
        args: ['-p', prompt],
        env: {
          GEMINI_API_KEY: 'fake-key-for-loopback',
          GOOGLE_GEMINI_BASE_URL: url,
          GEMINI_CLI_TRUST_WORKSPACE: 'true',
          GEMINI_CLI_NO_RELAUNCH: '1',
        },
      };
    }
    case 'copilot-cli': {
      return {
        args: ['-p', prompt],
        env: {
          ...(copilotPkgCache ? { COPILOT_PKG_CACHE_HOME: copilotPkgCache } : {}),
          COPILOT_OFFLINE: 'true',
          COPILOT_PROVIDER_BASE_URL: `${url}/v1`,
          COPILOT_PROVIDER_API_KEY: 'fake-key-for-loopback',
          COPILOT_MODEL: MODELS['copilot-cli']!,
          COPILOT_ALLOW_ALL: 'true',
          COPILOT_AUTO_UPDATE: 'false',
          // Own-provider models get a small default prompt budget; the oversize scenarios
          // (4 × 45,000 chars) would make it refuse with "Static system messages … exceed the
          // model's usable context budget". Raise it so the request is sent.
          COPILOT_PROVIDER_MAX_PROMPT_TOKENS: '1000000',
        },
      };
    }
  }
  throw new Error(`unknown agent ${agent}`);
}

function deepMerge(a: any, b: any): any {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) {
    out[k] = v && typeof v === 'object' && !Array.isArray(v) && a[k] && typeof a[k] === 'object' ? deepMerge(a[k], v) : v;
  }
  return out;
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
