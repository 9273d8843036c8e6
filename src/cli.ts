import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { check, listFiles } from './core/check';
import { defaultLaunchDir, resolveChain, type Host } from './core/chain';
import { folderEditorSettings } from './core/editorSettings';
import { agentNames, describeDetections, detectFromRepository, nodeMachineProbe, probeMachine, usedProfiles, versionNotice, withMachine, type Detection } from './core/detect';
import { README_URL, RULES, ruleHelpUri } from './core/diagnostics';
import { NodeFileSystem, quickPaths } from './core/fs';
import { OneLookFileSystem } from './core/oneLookFs';
import { CliGitIndex } from './core/git';
import { checkAhead, checkHost, firstPassWhileListing } from './cliGitIndex';
import { gitListSearch } from './cliListText';
import type { Chain, Diagnostic } from './core/model';
import { findProfile, PROFILES } from './core/profiles';
import type { Profile } from './core/profile';
import type { VerifyReport } from './verify/verify';

declare const __VERSION__: string | undefined;

const USAGE = `Usage: instruction-lens <command> [options]

Commands:
  chain <path>    The instruction sources an agent loads for <path>, in load order
  render <path>   Exactly the text the agent injects (at start, or with --on-read when it reads <path>)
  check [dir]     Lint every instruction file under dir for the agents it uses (exit 1 on an error)
  agents          The agent profiles and the version each models
  agents --detect [dir]
                  Which agents dir uses and why: its files, and this machine's CLIs, home folders
  verify [path]   Run the agents installed here against a local fake model and check that they
                  send what render shows, at start and when they read --read (exit 1: a
                  difference; 3: an agent could not be run)

Options:
  --agent <id>        Agent profile (default: claude-code; check: the agents detected, repeatable)
  --detect <from>     check: detect agents from the repository (repo, the default) or also
                      from this machine (machine: CLIs on PATH, folders in the home)
  --launch-dir <dir>  Where the agent starts (default: the repository root, else <path>'s folder)
  --home <dir>        Home directory the agent reads user files from (default: yours)
  --on-read           render: what the agent adds when it reads <path>
  --agent-path <id>=<binary>  verify: where an agent's CLI is (default: on PATH; repeatable)
  --read <file>       verify: the file the agent is asked to read (default: <path> when a file)
  --json              Machine-readable output
  --format <f>        check: text, json or sarif
  --verbose           check: also the hints (how an agent works by design, not problems)
  -h, --help          This help
  -v, --version       The version`;

class UsageError extends Error {}

const OPTIONS = {
  agent: { type: 'string', multiple: true },
  'launch-dir': { type: 'string' },
  home: { type: 'string' },
  'on-read': { type: 'boolean' },
  'agent-path': { type: 'string', multiple: true },
  read: { type: 'string' },
  'keep-temp': { type: 'boolean' },
  json: { type: 'boolean' },
  verbose: { type: 'boolean' },
  detect: { type: 'string' },
  format: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

/** What every command gets: the parsed options, the disk and git, and argument checks. */
class Command {
  readonly fs = new NodeFileSystem(undefined, quickPaths());
  readonly host = { fs: this.fs, git: new CliGitIndex(this.fs) };
  readonly agents: Profile[];

  constructor(
    readonly name: string,
    readonly values: Values,
  ) {
    this.agents = (values.agent ?? []).map(profileOf);
  }

  /** The one agent of `chain` and `render`; the first profile by default. */
  one(): Profile {
    if (this.agents.length > 1) throw new UsageError(`${this.name} takes one --agent`);
    return this.agents[0] ?? PROFILES[0];
  }

  /** An argument that must name something on disk, absolute. */
  existing(p: string | undefined, what: string): string {
    if (!p) throw new UsageError(`${this.name} needs a ${what}`);
    const abs = path.resolve(p);
    if (!this.fs.stat(abs)) throw new Error(`${p}: no such file or directory`);
    return abs;
  }

  /** A directory option, absolute; undefined when not given. */
  dirOption(p: string | undefined, name: string): string | undefined {
    if (p === undefined) return undefined;
    const abs = path.resolve(p);
    if (this.fs.stat(abs)?.type !== 'dir') throw new Error(`--${name} ${p}: not a directory`);
    return abs;
  }
}

function main(argv: string[]): number | Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: normalizeDetect(argv), allowPositionals: true, options: OPTIONS });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.version) {
    out(typeof __VERSION__ === 'string' ? __VERSION__ : 'dev');
    return 0;
  }
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    out(USAGE);
    return command || values.help ? 0 : 2;
  }
  const cmd = new Command(command, values);
  switch (command) {
    case 'agents':
      return values.detect !== undefined ? detectAgents(cmd, rest) : listAgents(values);
    case 'chain':
    case 'render':
      if (rest.length > 1) throw new UsageError(`${command} takes one path`);
      return chainOrRender(cmd, cmd.existing(rest[0], 'path'));
    case 'check':
      if (rest.length > 1) throw new UsageError('check takes one folder');
      return runCheck(cmd, rest[0]);
    case 'verify':
      if (rest.length > 1) throw new UsageError('verify takes one path');
      return runVerify(cmd, cmd.existing(rest[0] ?? '.', 'path'));
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

function listAgents(values: Values): number {
  if (values.json) out(JSON.stringify(PROFILES.map((p) => ({ id: p.id, agent: p.agent, agentVersion: p.agentVersion, verified: p.verified, filePatterns: p.filePatterns })), null, 2));
  else out(table([['ID', 'AGENT', 'VERSION MODELLED', 'VERIFIED'], ...PROFILES.map((p) => [p.id, p.agent, p.agentVersion, p.verified])]));
  return 0;
}

/** `agents --detect [dir]`: which agents the folder uses and why, and the versions installed. */
async function detectAgents(cmd: Command, rest: string[]): Promise<number> {
  const { values } = cmd;
  // `agents --detect <dir>`: the folder may have been taken as the option's value.
  const from = values.detect === 'repo' ? 'repo' : 'machine';
  const dirs = values.detect === 'repo' || values.detect === 'machine' ? rest : [values.detect!, ...rest];
  if (dirs.length > 1) throw new UsageError('agents --detect takes one folder');
  const root = dirs[0] ? cmd.existing(dirs[0], 'folder') : process.cwd();
  const ds = await detect(cmd.host, root, from, values.home);
  if (values.json) {
    out(JSON.stringify(ds.map((d) => ({ id: d.profile.id, agent: d.profile.agent, used: d.used, evidence: d.evidence, agentVersion: d.profile.agentVersion, installed: d.installed ?? null, notice: versionNotice(d.profile, d.installed) ?? null })), null, 2));
    return 0;
  }
  out(table([['ID', 'USED', 'WHY', 'VERSION MODELLED', 'INSTALLED'], ...ds.map((d) => [d.profile.id, d.used ? 'yes' : 'no', d.evidence.join(', ') || '-', d.profile.agentVersion, d.installed ?? '-'])]));
  for (const d of ds) {
    const notice = versionNotice(d.profile, d.installed);
    if (notice) out(notice);
  }
  return 0;
}

/** `--detect` alone (as in `agents --detect [dir]`) means "everything": the machine too. */
function normalizeDetect(argv: string[]): string[] {
  return argv.flatMap((a, i) => (a === '--detect' && (argv[i + 1] === undefined || argv[i + 1].startsWith('-')) ? ['--detect=machine'] : [a]));
}

function homeOf(home: string | undefined): string {
  return home ? path.resolve(home) : os.homedir();
}

/** Which agents a folder uses: its files, and the machine when `from` is `machine`. */
async function detect(host: Host, root: string, from: 'repo' | 'machine', home: string | undefined): Promise<Detection[]> {
  const repo = detectFromRepository(listFiles(host, root).files, PROFILES);
  if (from === 'repo') return repo;
  return withMachine(repo, await probeMachine(PROFILES, nodeMachineProbe(homeOf(home), process.env)));
}

function chainOrRender(cmd: Command, target: string): number {
  const { values } = cmd;
  const profile = cmd.one();
  const launchDir = cmd.dirOption(values['launch-dir'], 'launch-dir');
  // VS Code's settings a profile reads come from the folder VS Code would open: the launch dir.
  const settings = folderEditorSettings(cmd.fs, launchDir ?? defaultLaunchDir(cmd.fs, path.resolve(target)), profile);
  const chain = resolveChain({ profile, target, launchDir, home: cmd.dirOption(values.home, 'home'), settings }, cmd.host);
  if (cmd.name === 'chain') {
    out(values.json ? JSON.stringify(chainJson(chain), null, 2) : chainText(chain));
    return 0;
  }
  if (chain.fatal) throw new Error(chain.fatal);
  const parts = values['on-read'] ? chain.onRead : chain.start;
  if (values.json) out(JSON.stringify({ agent: chain.agent, agentVersion: chain.agentVersion, parts }, null, 2));
  else if (parts.length === 1) write(parts[0].text);
  else write(parts.map((p) => `==> ${p.where} <==\n${p.text}`).join('\n'));
  return 0;
}

async function runCheck(cmd: Command, folder: string | undefined): Promise<number> {
  const { values, agents } = cmd;
  const root = folder ? cmd.existing(folder, 'folder') : process.cwd();
  if (cmd.fs.stat(root)?.type !== 'dir') throw new Error(`${folder}: not a directory`);
  const format = values.format ?? (values.json ? 'json' : 'text');
  if (!['text', 'json', 'sarif'].includes(format)) throw new UsageError(`--format must be text, json or sarif, not "${format}"`);
  const mode = values.detect ?? 'repo';
  if (mode !== 'repo' && mode !== 'machine') throw new UsageError(`--detect must be repo or machine, not "${mode}"`);
  // Pinned with --agent; else the repository's configuration; else the agents the repository
  // (and, when asked, this machine) shows.
  const machine = !agents.length && mode === 'machine' ? await probeMachine(PROFILES, nodeMachineProbe(homeOf(values.home), process.env)) : undefined;
  let detections: Detection[] = [];
  const choose = (files: readonly string[]) => {
    const repo = detectFromRepository(files, PROFILES);
    detections = machine ? withMachine(repo, machine) : repo;
    return usedProfiles(detections);
  };
  // The disk as it is at one moment, for the whole pass (`OneLookFileSystem`).
  const disk = new OneLookFileSystem(undefined, quickPaths());
  const chosen = agents.length ? agents : choose;
  // The pass's questions about every listed path asked of git's text of the listing.
  // --launch-dir: every folder checked as the agent launched there sees it (those inside it).
  const opts = { home: values.home ? path.resolve(values.home) : undefined, search: gitListSearch, launchDir: cmd.dirOption(values['launch-dir'], 'launch-dir') };
  const result = firstPassWhileListing(agents) ? await checkAhead(disk, root, chosen, opts) : check(await checkHost(disk, root, agents), root, chosen, opts);
  const checkedFor = result.agentsFrom === 'pinned'
    ? `${agentNames(agents).join(', ')} (--agent)`
    : result.agentsFrom === 'config'
      ? `${agentNames(result.agents.map((id) => findProfile(id)!)).join(', ')} (${path.relative(process.cwd(), result.configFile!) || result.configFile})`
      : describeDetections(detections);
  const hints = result.diagnostics.filter((d) => d.severity === 'hint').length;
  const ds = values.verbose ? result.diagnostics : result.diagnostics.filter((d) => d.severity !== 'hint');
  const agentsJson = result.agentsFrom === 'detected'
    ? detections.filter((d) => d.used).map((d) => ({ id: d.profile.id, evidence: d.evidence }))
    : result.agents.map((id) => ({ id, evidence: [result.agentsFrom === 'pinned' ? '--agent' : path.basename(result.configFile!)] }));
  if (format === 'json') out(JSON.stringify({ root: result.root, agents: agentsJson, files: result.files, diagnostics: ds.map(diagJson) }, null, 2));
  else if (format === 'sarif') out(JSON.stringify(sarif(root, ds), null, 2));
  else {
    for (const d of ds) out(`${path.relative(process.cwd(), d.path) || d.path}:${d.line + 1}:${d.column + 1}: ${d.severity} ${d.code}: ${d.message}`);
    const errors = ds.filter((d) => d.severity === 'error').length;
    const shown = ds.filter((d) => d.severity !== 'hint').length;
    const hidden = values.verbose || !hints ? '' : ` (${hints} hint${hints === 1 ? '' : 's'} with --verbose)`;
    out(`${result.files.length} instruction file${result.files.length === 1 ? '' : 's'} checked (found via ${result.via}) for ${checkedFor}: ${errors} error${errors === 1 ? '' : 's'}, ${shown - errors} other${hidden}.`);
  }
  return ds.some((d) => d.severity === 'error') ? 1 : 0;
}

async function runVerify(cmd: Command, target: string): Promise<number> {
  const { values, agents } = cmd;
  const agentPaths: Record<string, string> = {};
  for (const a of values['agent-path'] ?? []) {
    const eq = a.indexOf('=');
    if (eq <= 0 || eq === a.length - 1) throw new UsageError(`--agent-path takes <id>=<binary>, not "${a}"`);
    profileOf(a.slice(0, eq));
    agentPaths[a.slice(0, eq)] = a.slice(eq + 1);
  }
  if (values.read !== undefined) cmd.existing(values.read, 'file');
  // Loaded only for `verify`: its servers and processes cost every other command start-up time.
  const [{ verify }, { RUNNABLE_AGENTS }] = await Promise.all([import('./verify/verify'), import('./verify/runAgent')]);
  return verify({
    target,
    launchDir: cmd.dirOption(values['launch-dir'], 'launch-dir'),
    home: cmd.dirOption(values.home, 'home'),
    readFile: values.read,
    agents: agents.length ? agents.map((p) => p.id) : [...RUNNABLE_AGENTS],
    agentPaths,
    keep: values['keep-temp'],
    onProgress: values.json ? undefined : (m) => process.stderr.write(`${m}…\n`),
  }).then((report) => {
    out(values.json ? JSON.stringify(report, null, 2) : verifyText(report));
    return report.exitCode;
  });
}

function profileOf(id: string): Profile {
  const p = findProfile(id);
  if (!p) throw new UsageError(`unknown agent "${id}"; known agents: ${PROFILES.map((x) => x.id).join(', ')}`);
  return p;
}

/** Paths relative to the working folder when inside it, as the user typed them. */
function shown(p: string): string {
  const r = path.relative(process.cwd(), p);
  return r && !r.startsWith('..') && !path.isAbsolute(r) ? r : p;
}

function verifyText(r: VerifyReport): string {
  const lines = [`Verified ${shown(r.target)}, launched in ${shown(r.launchDir)}${r.readFile ? `, reading ${shown(r.readFile)}` : ' (start only)'}.`, ''];
  for (const a of r.agents) {
    const versions = a.versionRun ? `ran ${a.versionRun}, modelled ${a.versionModelled}` : `modelled ${a.versionModelled}`;
    if (a.status === 'not-run') {
      lines.push(`${a.name} (${a.agent}): not run — ${a.reason}`);
      continue;
    }
    const n = a.phases.reduce((k, p) => k + p.differences.length, 0);
    lines.push(`${a.name} (${a.agent}): ${versions} — ${a.status === 'match' ? 'matches byte for byte' : `${n} difference${n === 1 ? '' : 's'}`}`);
    for (const p of a.phases) {
      if (p.ok) {
        lines.push(`  ${p.phase.padEnd(5)} ${p.parts ? `matches byte for byte (${p.parts} part${p.parts === 1 ? '' : 's'})` : 'sends no instruction text, as modelled'}`);
        continue;
      }
      for (const d of p.differences) {
        lines.push(`  ${p.phase.padEnd(5)} ${d.file ? shown(d.file) : '(no file)'}${d.line ? ` (line ${d.line} of the part)` : ''}: ${d.message}`);
        if (d.expected !== undefined) lines.push(`        expected: ${JSON.stringify(d.expected)}`);
        if (d.sent !== undefined) lines.push(`        sent:     ${JSON.stringify(d.sent.length > 300 ? d.sent.slice(0, 300) + '…' : d.sent)}`);
      }
    }
  }
  return lines.join('\n');
}

function chainJson(c: Chain) {
  return {
    agent: c.agent,
    agentVersion: c.agentVersion,
    target: c.target,
    launchDir: c.launchDir,
    sources: c.sources.map((s) => ({
      path: s.path, kind: s.kind, scope: s.scope, loads: s.loads, status: s.status, chars: s.chars, bytes: s.bytes,
      injectedChars: s.injectedChars, injectedBytes: s.injectedBytes, importedBy: s.importedBy ?? null, reason: s.reason,
      ...(s.globs ? { globs: s.globs } : {}), ...(s.sentTwice ? { sentTwice: s.sentTwice } : {}), ...(s.cutAt ? { cutAt: { line: s.cutAt.line + 1, column: s.cutAt.column + 1 } } : {}),
    })),
    budget: { unit: c.budget.unit, limit: c.budget.limit, used: c.budget.used, onRead: c.budget.onRead ?? 0 },
    diagnostics: c.diagnostics.map(diagJson),
  };
}

/** Positions are 1-based on the command line, as editors and compilers print them. */
function diagJson(d: Diagnostic) {
  return { path: d.path, line: d.line + 1, column: d.column + 1, severity: d.severity, code: d.code, message: d.message, agents: d.agents ?? [] };
}

function chainText(c: Chain): string {
  // Paths as `check` prints them: from the current folder when inside it, else whole (a path from
  // the launch folder named its files `AGENTS.md` beside `/repo/AGENTS.md` above it).
  const rel = (p: string) => {
    const r = path.relative(process.cwd(), p);
    return r && !r.startsWith('..') && !path.isAbsolute(r) ? r : p;
  };
  const rows = c.sources.map((s, i) => [
    String(i + 1), s.loads, s.status, s.kind, String(s.chars), String(s.injectedChars), (s.importedBy ? '  ↳ ' : '') + rel(s.path), s.sentTwice ? `${s.reason} Sent twice: ${s.sentTwice}` : s.reason,
  ]);
  const lines = [
    `${c.agent} ${c.agentVersion} — ${c.target}`,
    `launch dir ${c.launchDir}`,
    '',
    rows.length ? table([['#', 'LOADS', 'STATUS', 'KIND', 'CHARS', 'INJECTED', 'PATH', 'WHY'], ...rows]) : 'No instruction file applies.',
    '',
    `budget: ${c.budget.used.toLocaleString('en-US')} ${c.budget.unit} at start${c.budget.limit !== null ? ` of ${c.budget.limit.toLocaleString('en-US')}` : ' (no limit)'}${c.budget.onRead ? `, ${c.budget.onRead.toLocaleString('en-US')} more on read` : ''}`,
  ];
  for (const d of c.diagnostics) lines.push(`${rel(d.path)}:${d.line + 1}:${d.column + 1}: ${d.severity} ${d.code}: ${d.message}`);
  return lines.join('\n');
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => [...(r[i] ?? '')].length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ')).join('\n');
}

/**
 * SARIF 2.1.0 for code scanning. Each rule carries what GitHub requires of it (a full description
 * and help) and links to its README section; validated with Microsoft's SARIF Multitool in the tests.
 */
function sarif(root: string, ds: Diagnostic[]) {
  const codes = [...new Set(ds.map((d) => d.code))];
  return {
    version: '2.1.0',
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    runs: [
      {
        tool: {
          driver: {
            name: 'instruction-lens',
            informationUri: README_URL,
            version: typeof __VERSION__ === 'string' ? __VERSION__ : 'dev',
            rules: codes.map(sarifRule),
          },
        },
        results: ds.map((d) => ({
          ruleId: d.code,
          level: d.severity === 'info' || d.severity === 'hint' ? 'note' : d.severity,
          message: { text: d.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: path.relative(root, d.path).split(path.sep).join('/') },
                region: { startLine: d.line + 1, startColumn: d.column + 1, endLine: d.endLine + 1, endColumn: d.endColumn + 1 },
              },
            },
          ],
        })),
      },
    ],
  };
}

function sarifRule(id: string) {
  const title = RULES[id as keyof typeof RULES]?.title ?? id;
  const helpUri = ruleHelpUri(id);
  return {
    id,
    // SARIF's friendly name is one PascalCase word: import-missing → ImportMissing.
    name: id.replace(/(^|-)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase()),
    shortDescription: { text: title },
    fullDescription: { text: `${title}. What it means for each agent, and how to fix it: ${helpUri}` },
    help: { text: `See ${helpUri}`, markdown: `[${title}: what it means and how to fix it](${helpUri})` },
    helpUri,
  };
}

function out(s: string): void {
  write(s + '\n');
}

/**
 * Standard output, written to its file descriptor: `process.stdout` is a stream, and its first
 * use loads Node's stream modules (for a pipe, `net` too), about a tenth of what a `chain` costs
 * beyond Node's start-up. Windows' console takes text through `process.stdout` only (it converts
 * it from UTF-8); a descriptor that would block (made non-blocking by another process sharing it)
 * gets the rest through `process.stdout`, after what was written.
 */
let direct = process.platform !== 'win32';

function write(s: string): void {
  if (!direct) {
    stdout().write(s);
    return;
  }
  const bytes = Buffer.from(s, 'utf8');
  let done = 0;
  try {
    while (done < bytes.length) done += fs.writeSync(1, bytes, done);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EPIPE') stopWriting();
    if (code !== 'EAGAIN') throw e;
    direct = false;
    stdout().write(bytes.subarray(done));
  }
}

/** `process.stdout`, made to end quietly on a closed pipe. */
function stdout(): NodeJS.WriteStream {
  if (process.stdout.listenerCount('error') === 0) {
    process.stdout.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') throw e;
      stopWriting();
    });
  }
  return process.stdout;
}

/** A reader that stops early (`check . | head -1`) closes the pipe: stop writing, quietly. */
function stopWriting(): never {
  process.exit(process.exitCode ?? 0);
}

function fail(e: unknown): void {
  process.stderr.write(`instruction-lens: ${(e as Error).message}\n`);
  process.exitCode = e instanceof UsageError ? 2 : 1;
}

try {
  const code = main(process.argv.slice(2));
  if (typeof code === 'number') process.exitCode = code;
  else code.then((c) => (process.exitCode = c), fail);
} catch (e) {
  fail(e);
}
