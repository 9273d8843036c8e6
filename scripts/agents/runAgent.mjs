// Runs one REAL agent CLI non-interactively against the fake model on 127.0.0.1 and returns
// the request bodies it sent. The agent gets a fresh HOME (given), a config that points it at
// the fake model, and an environment built from scratch (no inherited keys, proxies or npm
// variables), so it can never reach the internet.
//
//   const r = await runAgent({ agent: 'claude-code', repoDir, launchDir, home, readFile })
//   r.requests  -> model-call bodies in order (JSON)
//   r.calls     -> every HTTP call {method, url, body, answer, at}
//
// Agent ids are the profile ids: claude-code, codex, gemini-cli, copilot-cli.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { startFakeModel } from './fakeModel.mjs';
import { agentBinaries, agentsDir, copilotPkgCache } from './install.mjs';

export const AGENTS = ['claude-code', 'codex', 'gemini-cli', 'copilot-cli'];

/** The model the agents are told to use (any name works with the fake model). */
const MODELS = { 'claude-code': undefined, codex: 'gpt-5.1-codex', 'gemini-cli': undefined, 'copilot-cli': 'gpt-4.1' };

/** Codex features switched off (see configure()). */
const CODEX_FEATURES_OFF = ['plugins', 'remote_plugin', 'plugin_sharing', 'apps', 'in_app_updates', 'daemon_auto_start', 'tool_suggest', 'skill_mcp_dependency_install', 'workspace_dependencies'];

/** Request paths that are model turns (the others are model lists, token counts…). */
const MODEL_CALL = /\/messages(\?|$)|\/responses(\?|$)|:(stream)?[gG]enerateContent|\/chat\/completions(\?|$)/;

/**
 * @param {object} o
 * @param {'claude-code'|'codex'|'gemini-cli'|'copilot-cli'} o.agent
 * @param {string} o.repoDir   the fixture's root
 * @param {string} [o.launchDir] the agent's cwd; absolute or relative to repoDir (default repoDir)
 * @param {string} o.home      a fresh, existing HOME directory (may already hold home files)
 * @param {string} [o.readFile] file to have the agent read (absolute or relative to repoDir)
 * @param {number} [o.timeoutMs] hard timeout (default 90 s); the process group is killed after it
 * @param {string} [o.prompt]  the user prompt (default "hi")
 * @param {Record<string,string>} [o.env] extra environment
 * @param {string} [o.installDir] where the agents are installed (default .cache/agents)
 * @param {string[]} [o.wrap] argv prefix, e.g. ['strace', '-f', '-e', 'trace=connect', '-o', log]
 * @returns {Promise<{requests: any[], calls: any[], toolCalls: any[], exitCode: number|null, signal: string|null, timedOut: boolean, stdout: string, stderr: string, ms: number, argv: string[]}>}
 */
export async function runAgent(o) {
  const { agent, repoDir, home } = o;
  if (!AGENTS.includes(agent)) throw new Error(`unknown agent ${agent}; one of ${AGENTS.join(', ')}`);
  const launchDir = o.launchDir ? path.resolve(repoDir, o.launchDir) : repoDir;
  const readFile = o.readFile ? path.resolve(repoDir, o.readFile) : undefined;
  const timeoutMs = o.timeoutMs ?? 90_000;
  const bin = agentBinaries(o.installDir ?? agentsDir)[agent];
  if (!existsSync(bin.cmd)) throw new Error(`${agent} is not installed (${bin.cmd}); run node scripts/agents/install.mjs`);
  mkdirSync(home, { recursive: true });

  const fake = await startFakeModel({ readFile });
  try {
    const { args, env } = configure(agent, { home, url: fake.url, readFile, prompt: o.prompt ?? 'hi', installDir: o.installDir ?? agentsDir });
    const argv = [...(o.wrap || []), ...(bin.node ? [process.execPath, bin.cmd, ...args] : [bin.cmd, ...args])];
    const started = Date.now();
    const r = await run(argv, { cwd: launchDir, env: { ...baseEnv(home), ...env, ...(o.env || {}) }, timeoutMs });
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

/** An environment from scratch: nothing inherited but PATH and locale. */
function baseEnv(home) {
  const env = {
    HOME: home,
    USER: process.env.USER || 'root',
    PATH: process.env.PATH,
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
  return env;
}

/** Per agent: the config files in HOME, the argv and the environment. */
function configure(agent, { home, url, readFile, prompt, installDir }) {
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
          COPILOT_OFFLINE: 'true',
          COPILOT_PROVIDER_BASE_URL: `${url}/v1`,
          COPILOT_PROVIDER_API_KEY: 'fake-key-for-loopback',
          COPILOT_MODEL: MODELS['copilot-cli'],
          COPILOT_ALLOW_ALL: 'true',
          COPILOT_AUTO_UPDATE: 'false',
          // The binary unpacks a 235 MB JS bundle on first run: share one unpacked copy
          // (install.mjs warms it) instead of one per fresh HOME.
          COPILOT_PKG_CACHE_HOME: copilotPkgCache(installDir),
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

function deepMerge(a, b) {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) {
    out[k] = v && typeof v === 'object' && !Array.isArray(v) && a[k] && typeof a[k] === 'object' ? deepMerge(a[k], v) : v;
  }
  return out;
}

/** Spawn in its own process group; kill the whole group after timeoutMs. */
function run(argv, { cwd, env, timeoutMs }) {
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d) => { if (stdout.length < 1e6) stdout += d; });
    child.stderr.on('data', (d) => { if (stderr.length < 1e6) stderr += d; });
    const kill = (sig) => { try { process.kill(-child.pid, sig); } catch { /* gone */ } };
    const timer = setTimeout(() => {
      timedOut = true;
      kill('SIGTERM');
      setTimeout(() => kill('SIGKILL'), 3000).unref();
    }, timeoutMs);
    child.on('error', (e) => { stderr += String(e); });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // Leave no helper process behind (MCP servers, shells…).
      kill('SIGKILL');
      resolve({ exitCode: code, signal, timedOut, stdout, stderr });
    });
  });
}
