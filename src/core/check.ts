import ignore, { type Ignore } from 'ignore';
import micromatch from 'micromatch';
import * as path from 'node:path';
import { resolveChain, type Host } from './chain';
import { diag, uniqueDiagnostics } from './diagnostics';
import { SnapshotGitIndex } from './git';
import { matchesAny, relativeInside } from './globs';
import { isInside, SKIP_DIRS } from './paths';
import type { Diagnostic } from './model';
import { governedFolder } from './patterns';
import type { Profile } from './profile';
import { readText } from './readText';

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
 * honours every `.gitignore` on the way, as git does), relative with `/`.
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

/** The `.gitignore` of one folder, with the folder it speaks for (relative to the walk's root). */
interface IgnoreFile {
  base: string;
  rules: Ignore;
}

/**
 * A walk that skips what git would ignore: each folder's `.gitignore` applies below it, a
 * deeper file's rules (negations included) win over a shallower one's, and nothing below an
 * ignored folder comes back (as in git). `.git/info/exclude` and the global excludes file are
 * not read.
 */
function walk(host: Host, root: string): string[] {
  const out: string[] = [];
  const stack: { rel: string; ignores: IgnoreFile[] }[] = [{ rel: '', ignores: [] }];
  while (stack.length) {
    const { rel, ignores: above } = stack.pop()!;
    const dir = path.join(root, rel);
    const own = readIgnore(host, dir, rel);
    const ignores = own ? [...above, own] : above;
    for (const e of host.fs.readDir(dir)) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.type === 'dir') {
        if (!SKIP_DIRS.has(e.name) && !isIgnored(ignores, child, true)) stack.push({ rel: child, ignores });
      } else if (e.type === 'file' && !isIgnored(ignores, child, false)) out.push(child);
    }
  }
  return out.sort();
}

function readIgnore(host: Host, dir: string, base: string): IgnoreFile | undefined {
  const r = readText(host.fs, path.join(dir, '.gitignore'));
  return r.state === 'ok' ? { base, rules: ignore().add(r.text) } : undefined;
}

/** Whether git ignores `rel`: the deepest `.gitignore` with a rule for it decides. */
function isIgnored(ignores: readonly IgnoreFile[], rel: string, isDir: boolean): boolean {
  for (let i = ignores.length - 1; i >= 0; i--) {
    const { base, rules } = ignores[i];
    const sub = base ? rel.slice(base.length + 1) : rel;
    const verdict = rules.test(isDir ? `${sub}/` : sub);
    if (verdict.ignored) return true;
    if (verdict.unignored) return false;
  }
  return false;
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
  // The folder each file governs: its own, or the one above the folders a pattern names (.claude/rules/x.md → .).
  const dirs = instructionFiles.map((f) => governedFolder(path.join(root, f), patterns, root));
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
        const matches = profile.matchesGlob ?? ((rel: string, glob: string) => matchesAny(rel, [glob]));
        const dead = s.globs.filter((g) => !inScope.some((f) => matches(f, g)));
        if (dead.length) {
          diagnostics.push(diag('glob-no-match', s.path, `${dead.map((g) => `"${g}"`).join(', ')} ${dead.length === 1 ? 'matches' : 'match'} no file under ${path.relative(root, s.scope) || '.'}; ${profile.agent} will never load this rule for ${dead.length === s.globs.length ? 'any file' : 'those patterns'}.`));
        }
      }
    }
  }
  return { root, files: instructionFiles.map((f) => path.join(root, f)), via, diagnostics: uniqueDiagnostics(diagnostics) };
}
