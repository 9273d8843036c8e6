import { resolveChain } from '../../src/core/chain';
import { MemoryGitIndex } from './doubles/memoryGit';
import { MemoryFileSystem, type MemoryFsOptions } from './doubles/memoryFs';
import type { Chain } from '../../src/core/model';
import { findProfile } from '../../src/core/profiles';

/**
 * An in-memory tree for one test: files by absolute path, plus what git tracks and holds; POSIX
 * and case-sensitive unless `fsOptions` says otherwise.
 */
export function tree(files: Record<string, string | Uint8Array>, git: { tracked?: string[]; committed?: Record<string, string> } = {}, fsOptions: MemoryFsOptions = {}) {
  const fs = new MemoryFileSystem(files, fsOptions);
  const index = new MemoryGitIndex(fs, new Set(git.tracked ?? []), new Map(Object.entries(git.committed ?? {})));
  return { fs, host: { fs, git: index } };
}

/** Resolve a chain on an in-memory tree, with a fixed home, platform and environment. */
export function chainOf(
  t: ReturnType<typeof tree>,
  agent: string,
  target: string,
  opts: { launchDir?: string; home?: string; env?: Record<string, string>; settings?: Record<string, unknown>; platform?: NodeJS.Platform } = {},
): Chain & { fatal?: string } {
  const profile = findProfile(agent);
  if (!profile) throw new Error(`no profile ${agent}`);
  return resolveChain(
    { profile, target, launchDir: opts.launchDir, home: opts.home ?? '/home/u', env: opts.env ?? {}, settings: opts.settings ?? {}, platform: opts.platform ?? 'linux' },
    t.host,
  );
}

/** The text of the single start part (throws when there is not exactly one). */
export function startText(c: Chain): string {
  if (c.start.length !== 1) throw new Error(`expected one start part, got ${c.start.length}`);
  return c.start[0].text;
}

/** Sources as `status path` lines, the shape most assertions read best in. */
export function statuses(c: Chain): string[] {
  return c.sources.map((s) => `${s.status} ${s.path}`);
}
