import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { check } from './core/check';
import { resolveChain } from './core/chain';
import { RULES } from './core/diagnostics';
import { NodeFileSystem } from './core/fs';
import { CliGitIndex } from './core/git';
import type { Chain, Diagnostic } from './core/model';
import { findProfile, PROFILES } from './core/profiles';
import type { Profile } from './core/profile';
import { verify, type VerifyReport } from './verify/verify';
import { RUNNABLE_AGENTS } from './verify/runAgent';

declare const __VERSION__: string | undefined;

const USAGE = `Usage: instruction-lens <command> [options]

Commands:
  chain <path>    The instruction sources an agent loads for <path>, in load order
  render <path>   Exactly the text the agent injects (at start, or with --on-read when it reads <path>)
  check [dir]     Lint every instruction file under dir (exit 1 on an error)
  agents          The agent profiles and the version each models
  verify [path]   Run the agents installed here against a local fake model and check that they
                  send what render shows, at start and when they read --read (exit 1: a
                  difference; 3: an agent could not be run)

Options:
  --agent <id>        Agent profile (default: claude-code; check: all, repeatable)
  --launch-dir <dir>  Where the agent starts (default: the repository root, else <path>'s folder)
  --home <dir>        Home directory the agent reads user files from (default: yours)
  --on-read           render: what the agent adds when it reads <path>
  --agent-path <id>=<binary>  verify: where an agent's CLI is (default: on PATH; repeatable)
  --read <file>       verify: the file the agent is asked to read (default: <path> when a file)
  --json              Machine-readable output
  --format <f>        check: text, json or sarif
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
  format: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

/** What every command gets: the parsed options, the disk and git, and argument checks. */
class Command {
  readonly fs = new NodeFileSystem();
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
    parsed = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
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
      return listAgents(values);
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

function chainOrRender(cmd: Command, target: string): number {
  const { values } = cmd;
  const chain = resolveChain({ profile: cmd.one(), target, launchDir: cmd.dirOption(values['launch-dir'], 'launch-dir'), home: cmd.dirOption(values.home, 'home') }, cmd.host);
  if (cmd.name === 'chain') {
    out(values.json ? JSON.stringify(chainJson(chain), null, 2) : chainText(chain));
    return 0;
  }
  if (chain.fatal) throw new Error(chain.fatal);
  const parts = values['on-read'] ? chain.onRead : chain.start;
  if (values.json) out(JSON.stringify({ agent: chain.agent, agentVersion: chain.agentVersion, parts }, null, 2));
  else if (parts.length === 1) process.stdout.write(parts[0].text);
  else process.stdout.write(parts.map((p) => `==> ${p.where} <==\n${p.text}`).join('\n'));
  return 0;
}

function runCheck(cmd: Command, folder: string | undefined): number {
  const { values } = cmd;
  const root = folder ? cmd.existing(folder, 'folder') : process.cwd();
  if (cmd.fs.stat(root)?.type !== 'dir') throw new Error(`${folder}: not a directory`);
  const format = values.format ?? (values.json ? 'json' : 'text');
  if (!['text', 'json', 'sarif'].includes(format)) throw new UsageError(`--format must be text, json or sarif, not "${format}"`);
  const result = check(cmd.host, root, cmd.agents.length ? cmd.agents : PROFILES, { home: values.home ? path.resolve(values.home) : undefined });
  const ds = result.diagnostics;
  if (format === 'json') out(JSON.stringify({ root: result.root, files: result.files, diagnostics: ds.map(diagJson) }, null, 2));
  else if (format === 'sarif') out(JSON.stringify(sarif(root, ds), null, 2));
  else {
    for (const d of ds) out(`${path.relative(process.cwd(), d.path) || d.path}:${d.line + 1}:${d.column + 1}: ${d.severity} ${d.code}: ${d.message}`);
    const errors = ds.filter((d) => d.severity === 'error').length;
    out(`${result.files.length} instruction file${result.files.length === 1 ? '' : 's'} checked (found via ${result.via}): ${errors} error${errors === 1 ? '' : 's'}, ${ds.length - errors} other.`);
  }
  return ds.some((d) => d.severity === 'error') ? 1 : 0;
}

function runVerify(cmd: Command, target: string): Promise<number> {
  const { values, agents } = cmd;
  const agentPaths: Record<string, string> = {};
  for (const a of values['agent-path'] ?? []) {
    const eq = a.indexOf('=');
    if (eq <= 0 || eq === a.length - 1) throw new UsageError(`--agent-path takes <id>=<binary>, not "${a}"`);
    profileOf(a.slice(0, eq));
    agentPaths[a.slice(0, eq)] = a.slice(eq + 1);
  }
  if (values.read !== undefined) cmd.existing(values.read, 'file');
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
      ...(s.globs ? { globs: s.globs } : {}), ...(s.cutAt ? { cutAt: { line: s.cutAt.line + 1, column: s.cutAt.column + 1 } } : {}),
    })),
    budget: { unit: c.budget.unit, limit: c.budget.limit, used: c.budget.used },
    diagnostics: c.diagnostics.map(diagJson),
  };
}

/** Positions are 1-based on the command line, as editors and compilers print them. */
function diagJson(d: Diagnostic) {
  return { path: d.path, line: d.line + 1, column: d.column + 1, severity: d.severity, code: d.code, message: d.message };
}

function chainText(c: Chain): string {
  const rel = (p: string) => {
    const r = path.relative(c.launchDir, p);
    return r.startsWith('..') ? p : r;
  };
  const rows = c.sources.map((s, i) => [
    String(i + 1), s.loads, s.status, s.kind, String(s.chars), String(s.injectedChars), (s.importedBy ? '  ↳ ' : '') + rel(s.path), s.reason,
  ]);
  const lines = [
    `${c.agent} ${c.agentVersion} — ${c.target}`,
    `launch dir ${c.launchDir}`,
    '',
    rows.length ? table([['#', 'LOADS', 'STATUS', 'KIND', 'CHARS', 'INJECTED', 'PATH', 'WHY'], ...rows]) : 'No instruction file applies.',
    '',
    `budget: ${c.budget.used.toLocaleString('en-US')} ${c.budget.unit} used${c.budget.limit !== null ? ` of ${c.budget.limit.toLocaleString('en-US')}` : ' (no limit)'}`,
  ];
  for (const d of c.diagnostics) lines.push(`${rel(d.path)}:${d.line + 1}:${d.column + 1}: ${d.severity} ${d.code}: ${d.message}`);
  return lines.join('\n');
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => [...(r[i] ?? '')].length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ')).join('\n');
}

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
            rules: codes.map((id) => ({ id, shortDescription: { text: RULES[id as keyof typeof RULES]?.title ?? id } })),
          },
        },
        results: ds.map((d) => ({
          ruleId: d.code,
          level: d.severity === 'info' ? 'note' : d.severity,
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

function out(s: string): void {
  process.stdout.write(s + '\n');
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
