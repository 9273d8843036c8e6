import micromatch from 'micromatch';
import * as path from 'node:path';
import { resolveChain, type Host } from './chain';
import { diag, uniqueDiagnostics } from './diagnostics';
import { SnapshotGitIndex } from './git';
import { matchesAny, relativeInside } from './globs';
import { isInside } from './paths';
import type { Diagnostic } from './model';
import type { Profile } from './profile';

/** Folders an ignore-aware walk never enters. */
const SKIP_DIRS = new Set(['.git', 'node_modules', '.hg', '.svn']);

export interface CheckResult {
  root: string;
  /** Instruction files found, absolute. */
  files: string[];
  /** How they were found. */
  via: 'git' | 'walk';
  diagnostics: Diagnostic[];
}

/**
 * Every file under `root` (git: tracked plus untracked-not-ignored; otherwise a walk that
 * honours the root `.gitignore`), relative with `/`.
 */
export function listFiles(host: Host, root: string): { files: string[]; via: 'git' | 'walk' } {
  const gitRoot = host.git.root(root);
  if (gitRoot) {
    // Untracked instruction files are linted too: they are what the user is writing now.
    const tracked = host.git.workTreeFiles?.(gitRoot) ?? host.git.trackedFiles(gitRoot);
    if (tracked) {
      const files = tracked.map((f) => relativeInside(root, f)).filter((f): f is string => !!f);
      return { files, via: 'git' };
    }
  }
  return { files: walk(host, root), via: 'walk' };
}

function walk(host: Host, root: string): string[] {
  const ignore = readIgnore(host, root);
  const out: string[] = [];
  const stack = [''];
  while (stack.length) {
    const rel = stack.pop()!;
    for (const e of host.fs.readDir(path.join(root, rel))) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (ignore.length && micromatch.isMatch(child, ignore, { dot: true })) continue;
      if (e.type === 'dir') {
        if (!SKIP_DIRS.has(e.name)) stack.push(child);
      } else if (e.type === 'file') out.push(child);
    }
  }
  return out.sort();
}

/** The root `.gitignore` as globs (enough for the common cases; negations are not honoured). */
function readIgnore(host: Host, root: string): string[] {
  let text = '';
  try {
    text = new TextDecoder().decode(host.fs.readFile(path.join(root, '.gitignore')));
  } catch {
    return [];
  }
  const out: string[] = [];
  for (let line of text.split(/\r?\n/)) {
    line = line.trim();
    if (!line || line.startsWith('#') || line.startsWith('!')) continue;
    const anchored = line.startsWith('/') || line.slice(0, -1).includes('/');
    let g = line.replace(/^\//, '').replace(/\/$/, '');
    if (!anchored) g = `**/${g}`;
    out.push(g, `${g}/**`);
  }
  return out;
}

/**
 * Lint every instruction file under `root` for the given agents: resolve the chain each agent
 * builds for every folder that holds instruction files, keep the diagnostics about files
 * under `root`, and check every conditional rule's globs against the files that exist.
 */
export interface CheckOptions {
  home?: string;
  env?: Record<string, string | undefined>;
  settings?: Record<string, Record<string, unknown>>;
  /**
   * Where the agent starts for a folder being checked: a directory, or a function of the folder
   * (the extension's `fileFolder` mode). Default: the repository root, else `root`.
   */
  launchDir?: string | ((folder: string) => string);
}

export function check(host: Host, root: string, profiles: readonly Profile[], opts: CheckOptions = {}): CheckResult {
  root = path.resolve(root);
  // One answer per git question for the whole pass: every profile and folder asks the same ones.
  host = { fs: host.fs, git: new SnapshotGitIndex(host.git) };
  const { files, via } = listFiles(host, root);
  const patterns = [...new Set(profiles.flatMap((p) => p.filePatterns))];
  const matchers = patterns.map((p) => micromatch.matcher(p, { dot: true }));
  const instructionFiles = files.filter((f) => matchers.some((m) => m(f)));
  const defaultLaunch = typeof opts.launchDir === 'string' ? path.resolve(opts.launchDir) : host.git.root(root) ?? root;
  const launchFor = typeof opts.launchDir === 'function' ? opts.launchDir : () => defaultLaunch;
  // The folder each file governs: its own, or the one above a dot-folder (.claude/rules/x.md → .).
  const dirs = instructionFiles.map((f) => {
    const parts = f.split('/').slice(0, -1);
    const dot = parts.findIndex((p) => p.startsWith('.'));
    return path.join(root, ...(dot >= 0 ? parts.slice(0, dot) : parts));
  });
  const targets = [...new Set([root, ...dirs])].filter((d) => isInside(d, launchFor(d)));
  const diagnostics: Diagnostic[] = [];
  const globChecked = new Set<string>();
  const scoped = new Map<string, string[]>();
  /** The listed files below a folder, relative to it. */
  const filesUnder = (dir: string): string[] => {
    let list = scoped.get(dir);
    if (!list) {
      const prefix = relativeInside(root, dir);
      list = prefix === undefined ? [] : prefix === '' ? files : files.filter((f) => f.startsWith(prefix + '/')).map((f) => f.slice(prefix.length + 1));
      scoped.set(dir, list);
    }
    return list;
  };
  for (const profile of profiles) {
    for (const target of targets) {
      const chain = resolveChain({ profile, target, launchDir: launchFor(target), home: opts.home, env: opts.env, settings: opts.settings?.[profile.id] }, host);
      if (chain.fatal) diagnostics.push(...chain.diagnostics.filter((d) => d.severity === 'error'));
      diagnostics.push(...chain.diagnostics.filter((d) => d.path === root || d.path.startsWith(root + '/')));
      for (const s of chain.sources) {
        if (!s.globs || globChecked.has(`${s.path}\0${s.scope}`) || !s.path.startsWith(root + '/')) continue;
        globChecked.add(`${s.path}\0${s.scope}`);
        const inScope = filesUnder(s.scope);
        const dead = s.globs.filter((g) => !inScope.some((f) => matchesAny(f, [g], { basenameAnywhere: profile.id === 'claude-code', folders: profile.id === 'claude-code' })));
        if (dead.length) {
          diagnostics.push(diag('glob-no-match', s.path, `${dead.map((g) => `"${g}"`).join(', ')} ${dead.length === 1 ? 'matches' : 'match'} no file under ${path.relative(root, s.scope) || '.'}; ${profile.agent} will never load this rule for ${dead.length === s.globs.length ? 'any file' : 'those patterns'}.`));
        }
      }
    }
  }
  return { root, files: instructionFiles.map((f) => path.join(root, f)), via, diagnostics: uniqueDiagnostics(diagnostics) };
}
