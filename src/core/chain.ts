import * as os from 'node:os';
import { CachedFileSystem } from './cachedFs';
import type { FileSystem } from './fs';
import { findGitRoot, SnapshotGitIndex, type GitIndex } from './git';
import { diag, uniqueDiagnostics } from './diagnostics';
import { linkAsTextDiagnostics } from './linkAsText';
import type { Budget, BudgetUnit, Chain, Diagnostic, Source } from './model';
import type { Profile, ProfileResult, ResolveContext } from './profile';

export interface ChainRequest {
  profile: Profile;
  /** File or directory the user looks at (absolute or relative to the process cwd). */
  target: string;
  /** Defaults to the nearest ancestor of the target holding `.git`, else the target's directory. */
  launchDir?: string;
  /** Defaults to the user's home directory. */
  home?: string;
  platform?: NodeJS.Platform;
  env?: Readonly<Record<string, string | undefined>>;
  settings?: Readonly<Record<string, unknown>>;
  /** See `ResolveContext.problemsIn`. */
  problemsIn?: string;
}

/**
 * `@word` in code is usually not meant as an import (`@scope/pkg`, `@apply`, decorators, JSDoc
 * tags): report it only when the token names a file that exists, which the author probably meant.
 */
function meantAFile(fs: FileSystem, d: Diagnostic): boolean {
  const target = d.data?.target;
  return !!target && fs.stat(target)?.type === 'file';
}

/**
 * The diagnostics a chain reports, each marked with the agent that reports it. In place: a
 * memoized diagnostic comes back from many chains of this profile as one object.
 */
function ownDiagnostics(list: Diagnostic[], fs: FileSystem, agent: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  // Indexed: `check` runs in V8's baseline tier, where each step of a `for...of` allocates.
  for (let i = 0; i < list.length; i++) {
    const d = list[i];
    if (d.code === 'import-in-code' && !meantAFile(fs, d)) continue;
    d.agents ??= [agent];
    out.push(d);
  }
  return out;
}

/** What the files loading on read add, in the budget's unit. */
function onReadUse(sources: readonly Source[], unit: BudgetUnit): number {
  let n = 0;
  for (let i = 0; i < sources.length; i++) {
    const s = sources[i];
    if (s.loads === 'on-read') n += unit === 'bytes' ? s.injectedBytes : s.injectedChars;
  }
  return n;
}

function withOnRead(budget: Budget, onRead: number): Budget {
  return onRead ? { ...budget, onRead } : budget;
}

export interface Host {
  fs: FileSystem;
  git: GitIndex;
}

/**
 * A host for one refresh: every file-system and git answer cached (see `CachedFileSystem`).
 * A host that is already one is returned as is, so one refresh can span many chains.
 */
export function refreshHost(host: Host): Host {
  if (host.fs instanceof CachedFileSystem && host.git instanceof SnapshotGitIndex) return host;
  const fs = CachedFileSystem.of(host.fs);
  if (host.git instanceof SnapshotGitIndex) return { fs, git: host.git };
  // git's roots are found through this refresh's cache when the index looks for `.git` on the same disk.
  const from = host.git.rootsFrom;
  return { fs, git: new SnapshotGitIndex(host.git, from && (from === fs || from === fs.inner) ? fs : undefined) };
}

/**
 * The host for the next refresh when only the `written` files' contents changed (nothing created,
 * deleted or renamed): every other answer, git's lists included, still holds and is kept.
 * Nothing written: `host` itself, its folders listed to answer `stat` listed again when asked
 * (`CachedFileSystem.relist`). Undefined when `host` keeps no answers (make a new one).
 */
export function carryHost(host: Host, written: readonly string[]): Host | undefined {
  if (!(host.fs instanceof CachedFileSystem && host.git instanceof SnapshotGitIndex)) return undefined;
  if (!written.length) {
    host.fs.relist();
    return host;
  }
  const fs = host.fs.carry(new Set(written));
  return { fs, git: host.git.carry(fs) };
}

/** The launch dir an agent most likely starts in for a target: the repository root, else the target's folder. */
export function defaultLaunchDir(fs: FileSystem, target: string): string {
  const dir = fs.stat(target)?.type === 'dir' ? target : fs.path.dirname(target);
  return findGitRoot(fs, dir) ?? dir;
}

/**
 * The platform whose rules a file system follows, when the caller does not say: Windows for
 * Windows paths, else the platform the core runs on (a POSIX tree read on Windows: Linux).
 */
function platformOf(fs: FileSystem): NodeJS.Platform {
  if (fs.path.sep === '\\') return 'win32';
  return process.platform === 'win32' ? 'linux' : process.platform;
}

/**
 * Resolve the chain of instruction sources one agent loads for one target. Never throws for
 * anything the disk holds: problems become diagnostics, sources with a status, or `fatal`.
 */
export function resolveChain(req: ChainRequest, host: Host, ctx = resolveContext(req, host)): Chain & { fatal?: string } {
  let result: ProfileResult;
  try {
    result = req.profile.resolve(ctx);
  } catch (e) {
    // A profile must never throw; if one does, this chain says so and every other goes on.
    const message = `Instruction Lens could not build ${req.profile.agent}'s chain here (${(e as Error)?.message ?? String(e)}). Please report it with the file tree that caused it.`;
    result = { sources: [], budget: { unit: 'chars', limit: null, used: 0 }, diagnostics: [diag('internal-error', ctx.target, message)], start: [], onRead: [] };
  }
  return {
    agent: req.profile.id,
    agentVersion: req.profile.agentVersion,
    target: ctx.target,
    launchDir: ctx.launchDir,
    home: ctx.home,
    sources: result.sources,
    budget: withOnRead(result.budget, onReadUse(result.sources, result.budget.unit)),
    diagnostics: ownDiagnostics(uniqueDiagnostics([...result.diagnostics, ...linkAsTextDiagnostics(ctx.fs, result.sources, req.profile.agent, ctx.memo)]), ctx.fs, req.profile.id),
    start: result.start,
    onRead: result.onRead,
    ...(result.fatal ? { fatal: result.fatal } : {}),
  };
}

/**
 * The profile's `checkKey` for a request, asked with the context `resolveChain` would give it
 * (`check` hands both the same one); undefined when the profile has none (or it throws: then the
 * chain is resolved, and says so).
 */
export function checkKey(req: ChainRequest, host: Host, ctx?: ResolveContext): string | undefined {
  if (!req.profile.checkKey) return undefined;
  ctx ??= resolveContext(req, host);
  try {
    return `${ctx.launchDir}\0${req.profile.checkKey(ctx)}`;
  } catch {
    return undefined;
  }
}

/** What a profile is given to resolve one request, in one refresh. */
export function resolveContext(req: ChainRequest, host: Host): ResolveContext {
  host = refreshHost(host);
  const path = host.fs.path;
  const target = path.resolve(req.target);
  const launchDir = path.resolve(req.launchDir ?? defaultLaunchDir(host.fs, target));
  const fs = host.fs as CachedFileSystem;
  return {
    fs,
    git: host.git,
    target,
    launchDir,
    home: path.resolve(req.home ?? os.homedir()),
    platform: req.platform ?? platformOf(fs),
    env: req.env ?? process.env,
    settings: req.settings ?? {},
    ...(req.problemsIn ? { problemsIn: path.resolve(req.problemsIn) } : {}),
    memo: (key, compute) => fs.memo(req.profile.id, key, compute),
  };
}
