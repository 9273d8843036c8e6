// Lays a fidelity scenario out on disk (test/agents/):
//   <tmpRoot>/repo     the project (git init + one commit when scenario.git)
//   <tmpRoot>/home     a fresh HOME holding scenario.homeFiles
//   <tmpRoot>/outside  scenario.outsideFiles (a directory outside the repo, for imports and
//                      symlink targets that leave the project)
//
// Scenario module shape (test/agents/scenarios/*.mjs, default export or named exports):
//   {
//     name: 'imports-missing',
//     agents: ['claude-code', 'gemini-cli'],         // which agents the scenario is for
//     files: { 'CLAUDE.md': '…', 'src/x.ts': '…' },   // relative to the repo
//     homeFiles: { '.claude/CLAUDE.md': '…' },         // relative to HOME
//     outsideFiles: { 'shared.md': '…' },              // optional, relative to <tmpRoot>/outside
//     symlinks: { 'CLAUDE.md': 'docs/real.md' },       // optional, link (relative to repo) -> target
//     launchDir: 'src',                               // relative to the repo ('' or '.' = root)
//     readFile: 'src/x.ts',                           // relative to the repo; null = start only
//     git: true,                                      // git init + commit
//     env: { … },                                     // optional extra env for the agent
//   }
// Text values (files, homeFiles, outsideFiles, symlink targets) may use the placeholders
// {{REPO}}, {{HOME}} and {{OUTSIDE}} for the absolute directories, or be a function
// ({repo, home, outside}) => string; a Uint8Array is written as its bytes (invalid UTF-8). A `null` value creates an empty directory.
// A symlink target starting with `~/` is taken relative to HOME; one starting with `outside:`
// relative to the outside dir; otherwise it is used as written (relative to the link's dir).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

type Ctx = { repo: string; home: string; outside: string };
type Text = string | ((ctx: Ctx) => string);
/** A file's content: text, or bytes written as they are. */
type Content = Text | Uint8Array;

export interface Scenario {
  name: string;
  agents: string[];
  files?: Record<string, Content | null>;
  homeFiles?: Record<string, Content | null>;
  outsideFiles?: Record<string, Content | null>;
  symlinks?: Record<string, Text>;
  launchDir?: string;
  readFile?: string | null;
  git?: boolean;
  env?: Record<string, string>;
}

export interface Fixture {
  tmpRoot: string;
  repoDir: string;
  home: string;
  outside: string;
  launchDir: string;
  readFile: string | undefined;
}

export function materialize(scenario: Scenario, opts: { tmpRoot?: string } = {}): Fixture {
  // realpath: /tmp may itself be a symlink on some machines; agents print resolved paths.
  const tmpRoot = opts.tmpRoot ?? realpathSync(mkdtempSync(path.join(os.tmpdir(), 'il-agents-')));
  const repo = path.join(tmpRoot, 'repo');
  const home = path.join(tmpRoot, 'home');
  const outside = path.join(tmpRoot, 'outside');
  for (const d of [repo, home, outside]) mkdirSync(d, { recursive: true });
  const ctx: Ctx = { repo, home, outside };

  writeTree(repo, scenario.files || {}, ctx);
  writeTree(home, scenario.homeFiles || {}, ctx);
  writeTree(outside, scenario.outsideFiles || {}, ctx);
  for (const [link, rawTarget] of Object.entries(scenario.symlinks || {})) {
    const abs = path.join(repo, link);
    mkdirSync(path.dirname(abs), { recursive: true });
    let target = subst(rawTarget, ctx);
    if (target.startsWith('~/')) target = path.join(home, target.slice(2));
    else if (target.startsWith('outside:')) target = path.join(outside, target.slice('outside:'.length));
    symlinkSync(target, abs);
  }
  if (scenario.git) gitInit(repo);
  const launchDir = path.resolve(repo, scenario.launchDir || '.');
  mkdirSync(launchDir, { recursive: true });
  const readFile = scenario.readFile ? path.resolve(repo, scenario.readFile) : undefined;
  return { tmpRoot, repoDir: repo, home, outside, launchDir, readFile };
}

function subst(v: Text, ctx: Ctx): string {
  if (typeof v === 'function') return v(ctx);
  return String(v).replaceAll('{{REPO}}', ctx.repo).replaceAll('{{HOME}}', ctx.home).replaceAll('{{OUTSIDE}}', ctx.outside);
}

function writeTree(root: string, files: Record<string, Content | null>, ctx: Ctx): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, rel);
    if (content === null) {
      mkdirSync(abs, { recursive: true });
      continue;
    }
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, content instanceof Uint8Array ? content : subst(content, ctx));
  }
}

/** git init + one commit of everything, with no user or system git config. */
export function gitInit(repo: string): void {
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 'Fixture', GIT_AUTHOR_EMAIL: 'fixture@example.invalid',
    GIT_COMMITTER_NAME: 'Fixture', GIT_COMMITTER_EMAIL: 'fixture@example.invalid',
    GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null',
  };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '--allow-empty', '-m', 'fixture');
}
