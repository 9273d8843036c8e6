// Verify a chain against the agents installed on this machine: copy what the agents may read into
// a temporary tree (tree.ts), give each agent only the settings keys its profile reads
// (config.ts), run it against the fake model on 127.0.0.1 (runAgent.ts), let it read one file,
// and compare what it sent with our render, part by part (compare.ts). Shared by
// `instruction-lens verify`, the extension's "Verify With Installed Agent" and the fidelity
// suite's real-repository mode.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { resolveChain, type ChainRequest } from '../core/chain';
import { NodeFileSystem } from '../core/fs';
import { CliGitIndex } from '../core/git';
import type { RenderPart } from '../core/model';
import type { Profile } from '../core/profile';
import { findProfile } from '../core/profiles';
import { compare, locateDifference, segmentsOf, pickRequest, protocolOf, type CompareError, type Segment } from './compare';
import { writeAgentConfig } from './config';
import { baseEnv, commandLine, RUNNABLE_AGENTS, runAgent, type AgentBinary, type AgentRun } from './runAgent';
import { buildTree, type VerifyTree } from './tree';

export type Phase = 'start' | 'read';

/** One way what the agent sent differs from our render. */
export interface Difference {
  phase: Phase;
  /** `differs`: our part is not what the agent sent; `not-rendered`: the agent sent a file we do not show; `order`: both, in another order. */
  kind: 'differs' | 'not-rendered' | 'order';
  /** The instruction file concerned (real path), when known. */
  file?: string;
  /** 1-based line, in our part, of the first difference. */
  line?: number;
  /** That line as we render it, and as the agent sent it. */
  expected?: string;
  sent?: string;
  message: string;
}

export interface PhaseResult {
  phase: Phase;
  ok: boolean;
  parts: number;
  differences: Difference[];
}

export interface AgentVerification {
  agent: string;
  /** The agent's name, e.g. "Claude Code". */
  name: string;
  status: 'match' | 'differs' | 'not-run';
  /** Why it was not run (not installed, not runnable, failed, cancelled). */
  reason?: string;
  versionModelled: string;
  versionRun?: string;
  binary?: string;
  phases: PhaseResult[];
  /** Our render and what the agent sent, part by part, for a side-by-side view (real paths, markers removed). */
  expectedText?: string;
  sentText?: string;
  ms?: number;
}

export interface VerifyReport {
  target: string;
  launchDir: string;
  readFile?: string;
  agents: AgentVerification[];
  /** Files not copied into the temporary tree, and why. */
  skipped: Array<{ path: string; reason: string }>;
  /** 0 every agent run matches, 1 one differs, 3 none differs but one could not be run. */
  exitCode: 0 | 1 | 3;
}

/** Where an agent's binary comes from. */
export interface AgentLocation {
  binary: AgentBinary;
  /** Where the agent's bundle is unpacked (`localRun.bundleCache`), shared between runs. */
  bundleCache?: string;
}

export interface VerifyOptions {
  /** File or folder to verify (real, absolute or relative to the cwd). */
  target: string;
  launchDir?: string;
  /** The home whose user instruction files are copied (default: the user's). */
  home?: string;
  /** The file the agent reads; default the target when it is a file; null: start only. */
  readFile?: string | null;
  /** Profile ids. */
  agents: string[];
  /** Explicit binaries by agent id (`--agent-path`, the setting). */
  agentPaths?: Readonly<Record<string, string>>;
  /** Explicit locations by agent id (the fidelity suite's pinned installs). */
  locations?: Readonly<Record<string, AgentLocation>>;
  /** Our render of one chain; the default is the core's. Tests pass a wrong one. */
  render?: (req: ChainRequest) => { start: RenderPart[]; onRead: RenderPart[]; fatal?: string };
  markers?: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
  /** Keep the temporary trees (for debugging); printed in the report. */
  keep?: boolean;
  /** Wrap each agent's command line (e.g. strace). */
  wrap?: (agent: string) => string[] | undefined;
}

/** Find an executable on PATH. */
export function onPath(name: string, envPath = process.env.PATH ?? ''): string | undefined {
  for (const dir of envPath.split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, name);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      if (fs.statSync(p).isFile()) return p;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

/** How to start a binary: Node scripts run on this process's Node (they may need no shebang). */
export function binaryAt(file: string): AgentBinary {
  let real = file;
  try {
    real = fs.realpathSync(file);
  } catch {
    /* reported when run */
  }
  return { cmd: real, node: /\.(c|m)?js$/.test(real) };
}

/** An agent that unpacks a large bundle on first run: reuse the copy its installation, or its user cache, already has. */
function bundleCacheOf(profile: Profile, binary: AgentBinary, realHome: string): string | undefined {
  const facts = profile.localRun?.bundleCache;
  if (!facts) return undefined;
  const installed = binary.cmd.indexOf(`/node_modules/${profile.localRun!.npmPackage}/`);
  if (installed >= 0 && fs.existsSync(path.join(binary.cmd.slice(0, installed), facts.installDir, 'pkg'))) return path.join(binary.cmd.slice(0, installed), facts.installDir);
  const cache = path.join(process.env.XDG_CACHE_HOME || path.join(realHome, '.cache'), facts.userCacheDir);
  return fs.existsSync(path.join(cache, 'pkg')) ? cache : undefined;
}

/** Find an agent: explicit location, explicit path, else its command on PATH. */
export function locateAgent(profile: Profile, o: Pick<VerifyOptions, 'agentPaths' | 'locations'>, realHome: string): AgentLocation | { missing: string } {
  const id = profile.id;
  const given = o.locations?.[id];
  if (given) return given;
  const explicit = o.agentPaths?.[id];
  if (explicit) {
    const abs = path.resolve(explicit);
    if (!fs.existsSync(abs)) return { missing: `${explicit} does not exist` };
    const binary = binaryAt(abs);
    return { binary, bundleCache: bundleCacheOf(profile, binary, realHome) };
  }
  const command = profile.evidence.cli?.command ?? id;
  const found = onPath(command);
  if (!found) return { missing: `\`${command}\` is not on PATH (give its location with --agent-path ${id}=<binary>)` };
  const binary = binaryAt(found);
  return { binary, bundleCache: bundleCacheOf(profile, binary, realHome) };
}

/**
 * The version of an installed agent: from the package.json of its npm package (Gemini CLI takes
 * ~20 s to answer `--version`), except where the CLI may run a newer bundle than its package
 * says (`localRun.versionFromCli`); otherwise `--version` in a clean environment like its runs.
 */
export function installedVersion(profile: Profile, loc: AgentLocation, home: string): string | undefined {
  const facts = profile.localRun;
  if (!facts) return undefined;
  if (!facts.versionFromCli) {
    for (let d = path.dirname(loc.binary.cmd); path.dirname(d) !== d; d = path.dirname(d)) {
      try {
        const pkg = JSON.parse(fs.readFileSync(path.join(d, 'package.json'), 'utf8')) as { name?: string; version?: string };
        if (pkg.name === facts.npmPackage && pkg.version) return pkg.version;
        if (pkg.name) break;
      } catch {
        /* no package.json here */
      }
    }
  }
  // The environment of a run (offline, no updates), with nothing written in the home.
  const { env: runEnv } = facts.setup({ home, url: 'http://127.0.0.1:9', prompt: '' });
  const env = { ...baseEnv(home), ...runEnv, ...(loc.bundleCache && facts.bundleCache ? { [facts.bundleCache.env]: loc.bundleCache } : {}) };
  const [cmd, ...args] = commandLine(loc.binary, ['--version']);
  const r = spawnSync(cmd, args, { env, encoding: 'utf8', timeout: 60_000, cwd: home });
  return /\d+\.\d+\.\d+(?:-[\w.]+)?/.exec(`${r.stdout ?? ''}\n${r.stderr ?? ''}`)?.[0];
}


function defaultRender(req: ChainRequest) {
  const fsys = new NodeFileSystem();
  return resolveChain(req, { fs: fsys, git: new CliGitIndex(fsys) });
}

function dedupe(parts: RenderPart[]): RenderPart[] {
  const seen = new Set<string>();
  return parts.filter((p) => {
    const k = `${p.where}\u0000${p.text}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Files any runnable profile says its agent loads for this target: copied even outside the usual folders. */
function knownFiles(target: string, launchDir: string, home: string): string[] {
  const out = new Set<string>();
  for (const id of RUNNABLE_AGENTS) {
    const profile = findProfile(id)!;
    const chain = defaultRender({ profile, target, launchDir, home, env: {} });
    for (const s of chain.sources) if (s.status !== 'missing') out.add(s.path);
  }
  return [...out];
}

/** Verify every chosen agent. Never throws for an agent that fails: it is reported. */
export async function verify(o: VerifyOptions): Promise<VerifyReport> {
  const target = path.resolve(o.target);
  if (!fs.existsSync(target)) throw new Error(`${o.target}: no such file or directory`);
  const targetIsDir = fs.statSync(target).isDirectory();
  const launchDir = path.resolve(o.launchDir ?? defaultLaunch(target, targetIsDir));
  const home = path.resolve(o.home ?? process.env.HOME ?? '/');
  const readFile = o.readFile === null ? undefined : o.readFile ? path.resolve(o.readFile) : targetIsDir ? undefined : target;
  if (readFile && !fs.statSync(readFile, { throwIfNoEntry: false })?.isFile()) throw new Error(`--read ${o.readFile}: not a file`);
  const known = knownFiles(readFile ?? target, launchDir, home);
  const agents: AgentVerification[] = [];
  let skipped: VerifyReport['skipped'] = [];
  for (const id of o.agents) {
    if (o.signal?.aborted) {
      agents.push(notRun(id, 'cancelled'));
      continue;
    }
    const profile = findProfile(id);
    if (!profile) throw new Error(`unknown agent "${id}"`);
    if (!profile.localRun) {
      agents.push(notRun(id, `cannot be verified: ${profile.notRunnable ?? 'no CLI of this agent can be run against a local model.'}`));
      continue;
    }
    const loc = locateAgent(profile, o, home);
    if ('missing' in loc) {
      agents.push(notRun(id, `not found: ${loc.missing}`));
      continue;
    }
    o.onProgress?.(`${profile.agent}: copying the tree`);
    const tree = buildTree({ target, launchDir, home, known, readFile, markers: o.markers });
    skipped = tree.skipped;
    try {
      const version = installedVersion(profile, loc, tree.home);
      o.onProgress?.(`${profile.agent}${version ? ` ${version}` : ''}: running against the local fake model`);
      agents.push(await verifyOne(profile, loc, tree, { target, launchDir, readFile, version }, o));
    } finally {
      if (o.keep) o.onProgress?.(`${profile.agent}: temporary tree kept at ${tree.tmpRoot}`);
      else tree.remove();
    }
  }
  const ran = agents.filter((a) => a.status !== 'not-run');
  const exitCode = agents.some((a) => a.status === 'differs') ? 1 : ran.length === agents.length && ran.length > 0 ? 0 : 3;
  return { target, launchDir, ...(readFile ? { readFile } : {}), agents, skipped, exitCode };
}

function defaultLaunch(target: string, isDir: boolean): string {
  const dir = isDir ? target : path.dirname(target);
  for (let d = dir; ; d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, '.git'))) return d;
    if (path.dirname(d) === d) return dir;
  }
}

function notRun(id: string, reason: string): AgentVerification {
  const p = findProfile(id);
  return { agent: id, name: p?.agent ?? id, status: 'not-run', reason, versionModelled: p?.agentVersion ?? '', phases: [] };
}

async function verifyOne(
  profile: Profile,
  loc: AgentLocation,
  tree: VerifyTree,
  real: { target: string; launchDir: string; readFile?: string; version?: string },
  o: VerifyOptions,
): Promise<AgentVerification> {
  const agent = profile.id;
  const base = { agent, name: profile.agent, versionModelled: profile.agentVersion, versionRun: real.version, binary: loc.binary.cmd };
  writeAgentConfig(tree, real.launchDir);
  const launchDir = tree.toTemp(real.launchDir);
  const readFile = real.readFile ? tree.toTemp(real.readFile) : undefined;
  const renderTarget = readFile ?? tree.toTemp(real.target);

  // Our render first, on the untouched copy (the agents write state into the home).
  const render = o.render ?? defaultRender;
  const req: ChainRequest = { profile, target: renderTarget, launchDir, home: tree.home, env: {}, settings: {} };
  const ours = render(req);
  if (ours.fatal) return { ...base, status: 'not-run', reason: `our profile says ${profile.agent} refuses to start here: ${ours.fatal}`, phases: [] };
  const startParts = ours.start;
  const readParts = readFile ? ours.onRead : [];
  const parts = dedupe([...startParts, ...readParts]);

  const started = Date.now();
  let run: AgentRun;
  try {
    run = await runAgent({
      agent, binary: loc.binary, bundleCache: loc.bundleCache, launchDir, home: tree.home, readFile,
      timeoutMs: o.timeoutMs ?? 120_000, signal: o.signal, wrap: o.wrap?.(agent),
    });
  } catch (e) {
    return { ...base, status: 'not-run', reason: `could not be started: ${(e as Error).message}`, phases: [] };
  }
  const ms = Date.now() - started;
  const tail = (s: string) => s.trim().split('\n').slice(-3).join(' / ').slice(0, 400);
  if (run.aborted) return { ...base, status: 'not-run', reason: 'cancelled', phases: [], ms };
  if (run.timedOut) return { ...base, status: 'not-run', reason: `timed out after ${Math.round(run.ms / 1000)} s`, phases: [], ms };
  if (run.exitCode !== 0) return { ...base, status: 'not-run', reason: `exited with code ${run.exitCode}${run.stderr.trim() ? `: ${tail(run.stderr)}` : ''}`, phases: [], ms };
  if (!run.requests.length) return { ...base, status: 'not-run', reason: 'sent no request to the model', phases: [], ms };
  if (readFile && !run.toolCalls.length) return { ...base, status: 'not-run', reason: 'never offered a file-reading tool, so it could not be asked to read the file', phases: [], ms };

  const markers = tree.files.filter((f) => f.marker);
  const instructionTexts = markers.map((f) => ({ path: f.real, text: f.marker! }));
  const result = compare({ requests: run.requests, parts, instructionTexts, tmpRoot: tree.fsRoot, agent });
  const { body } = pickRequest(run.requests, protocolOf(null, agent));
  const segments = body ? segmentsOf(body, protocolOf(body, agent)).segments : [];
  const clean = cleaner(tree);

  const phaseOfPart = (i: number): Phase => (startParts.some((p) => p.where === parts[i].where && p.text === parts[i].text) ? 'start' : 'read');
  // A marker our render holds is in a part that differs (reported as such): only a marker we do
  // not render at all is a file we do not show.
  const rendered = (file?: string) => markers.some((m) => m.real === file && parts.some((p) => p.text.includes(m.marker!)));
  const errors = result.errors.filter((e) => e.kind !== 'uncovered-text' || !rendered(e.file));
  const differences = errors.map((e) => difference(e, parts, segments, markers, phaseOfPart, clean));
  const phases: PhaseResult[] = (readFile ? (['start', 'read'] as const) : (['start'] as const)).map((phase) => {
    const ds = differences.filter((d) => d.phase === phase);
    return { phase, ok: ds.length === 0, parts: phase === 'start' ? startParts.length : parts.length - startParts.length, differences: ds };
  });
  const { expectedText, sentText } = sideBySide(parts, result.matches, segments, differences, clean);
  return { ...base, status: result.ok ? 'match' : 'differs', phases, expectedText, sentText, ms };
}

/** Temporary paths → real ones, marker lines removed: what a user recognises. */
function cleaner(tree: VerifyTree): (s: string) => string {
  const markerLine = new RegExp(`\\ninstruction-lens-marker-[a-z0-9]+-\\d+-end(?=\\n|$)`, 'g');
  const bare = new RegExp(`instruction-lens-marker-[a-z0-9]+-\\d+-end\\n?`, 'g');
  return (s) => s.split(tree.fsRoot).join('').replace(markerLine, '').replace(bare, '');
}

function lineAround(s: string, i: number): string {
  const from = s.lastIndexOf('\n', i - 1) + 1;
  const to = s.indexOf('\n', i);
  return s.slice(from, to < 0 ? s.length : to);
}

function difference(
  e: CompareError,
  parts: RenderPart[],
  segments: Segment[],
  markers: Array<{ real: string; temp: string; marker?: string }>,
  phaseOfPart: (i: number) => Phase,
  clean: (s: string) => string,
): Difference {
  if (e.kind === 'uncovered-text') {
    const phase: Phase = e.where === 'system' || e.where === 'user' ? 'start' : 'read';
    const seg = segments.find((s) => s.path === e.segment);
    // The file's text ends at its marker: show as many lines before it as the file has.
    const m = markers.find((x) => x.real === e.file);
    const lines = m ? fs.readFileSync(m.temp, 'utf8').split('\n').length - 1 : 1;
    const before = seg && e.offset !== undefined ? seg.text.slice(0, e.offset).split('\n') : undefined;
    const sent = before ? before.slice(-lines).join('\n') : undefined;
    return { phase, kind: 'not-rendered', file: e.file, ...(sent !== undefined ? { sent: clean(sent) } : {}), message: 'sent by the agent, but our render does not show it' };
  }
  if (e.kind === 'no-request' || e.kind === 'bad-where' || e.part === undefined) return { phase: 'start', kind: 'differs', message: clean(e.message) };
  const part = parts[e.part];
  const phase = phaseOfPart(e.part);
  if (e.kind === 'order') return { phase, kind: 'order', message: `a part is sent in another order than we show (${part.where})` };
  const region = segments.filter((s) => s.where === part.where);
  const at = locateDifference(part.text, region.length ? region : segments);
  if (!at) return { phase, kind: 'differs', message: `our ${part.where} part is not sent at all`, expected: clean(part.text.split('\n')[0]) };
  // Each copied file ends with its marker: the first marker at or after the difference names the file.
  let file: string | undefined;
  let best = Infinity;
  for (const m of markers) {
    const p = m.marker ? part.text.indexOf(m.marker) : -1;
    if (p >= at.at && p < best) {
      best = p;
      file = m.real;
    }
  }
  const line = part.text.slice(0, at.at).split('\n').length;
  const expected = clean(lineAround(part.text, at.at));
  const sent = clean(lineAround(at.segment.text, at.sentAt));
  return { phase, kind: 'differs', ...(file ? { file } : {}), line, expected, sent, message: `what we render ${file ? 'for this file ' : `in the ${part.where} part `}differs from what the agent sent` };
}

/** Our parts on one side, the agent's matching text on the other, with the same headings. */
function sideBySide(
  parts: RenderPart[],
  matches: Array<{ part: number; path: string; start: number; end: number }>,
  segments: Segment[],
  differences: Difference[],
  clean: (s: string) => string,
): { expectedText: string; sentText: string } {
  const left: string[] = [];
  const right: string[] = [];
  parts.forEach((part, i) => {
    const heading = `──── ${part.where} (part ${i + 1} of ${parts.length}) ────`;
    left.push(heading, clean(part.text));
    const m = matches.find((x) => x.part === i);
    if (m) {
      const seg = segments.find((s) => s.path === m.path);
      right.push(heading, clean(seg ? seg.text.slice(m.start, m.end) : part.text));
      return;
    }
    const region = segments.filter((s) => s.where === part.where);
    const at = locateDifference(part.text, region.length ? region : segments);
    if (!at) {
      right.push(heading, '(not sent)');
      return;
    }
    // From where the texts start to agree, as far as our part's end would reach in the agent's text.
    const text = at.segment.text;
    const tail = part.text.slice(-40);
    const end = tail ? text.indexOf(tail, at.sentAt) : -1;
    right.push(heading, clean(text.slice(at.sentFrom, end >= 0 ? end + tail.length : Math.min(text.length, at.sentFrom + part.text.length + 200))));
  });
  for (const d of differences.filter((x) => x.kind === 'not-rendered')) {
    const heading = `──── sent by the agent, not in our render: ${d.file ?? ''} ────`;
    left.push(heading, '');
    right.push(heading, d.sent ?? '');
  }
  return { expectedText: left.join('\n') + '\n', sentText: right.join('\n') + '\n' };
}
