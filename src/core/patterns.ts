import picomatch from 'picomatch';
import { globMatcher } from './globs';
import * as nodePath from 'node:path';
import type { PathApi } from './fs';
import type { Profile } from './profile';

/**
 * What a profile's `filePatterns` say without globbing: the fixed names behind them. The file
 * watcher, the CodeLens, the chain view and `check` all ask these questions; this is the one
 * place that answers them.
 */

/**
 * The fixed part of a pattern, after its leading `**\/`: `**\/CLAUDE.md` → `CLAUDE.md` (a whole
 * file name), `**\/.claude/rules/**\/*.md` → `.claude/rules` (a folder), `**\/*.md` → nothing.
 */
export function fixedPart(pattern: string): { path: string; isFile: boolean } {
  let known = fixedParts.get(pattern);
  if (!known) fixedParts.set(pattern, (known = findFixedPart(pattern)));
  return known;
}

/** Each pattern's answer, once: the watcher asks for every agent's at each start and for each folder outside the workspace. */
const fixedParts = new Map<string, { path: string; isFile: boolean }>();

function findFixedPart(pattern: string): { path: string; isFile: boolean } {
  const segments = pattern.replace(/^(\*\*\/)+/, '').split('/');
  const fixed: string[] = [];
  for (const s of segments) {
    if (picomatch.scan(s).isGlob) break;
    fixed.push(s);
  }
  return { path: fixed.join('/'), isFile: fixed.length === segments.length };
}

/**
 * The agents' folders a project may hold (`.claude`, `.github`, `.cursor`…): the leading
 * dot-folder of each fixed name behind the profiles' file patterns and evidence markers, and
 * each agent's home folder name, which agents also keep per project (`.gemini/settings.json`,
 * `.codex/config.toml`).
 */
export function agentFolders(profiles: readonly Pick<Profile, 'filePatterns' | 'evidence'>[]): Set<string> {
  const out = new Set<string>();
  for (const p of profiles) {
    for (const pattern of [...p.filePatterns, ...p.evidence.markers]) {
      const { path: fixed, isFile } = fixedPart(pattern);
      const segments = fixed.split('/');
      if (segments[0].startsWith('.') && (!isFile || segments.length > 1)) out.add(segments[0]);
    }
    if (p.evidence.homeDir) out.add(p.evidence.homeDir);
  }
  return out;
}

/** The fixed names behind a profile's patterns, files and folders, in pattern order. */
export function fixedNames(profile: Pick<Profile, 'filePatterns'>): string[] {
  return [...new Set(profile.filePatterns.map((p) => fixedPart(p).path).filter((p) => p !== ''))];
}

/**
 * The folder a file governs: its own, or the one holding the folders a pattern names
 * (`.claude/rules/x.md`, `.github/copilot-instructions.md` → the folder above them).
 * `file` is absolute with `/`; patterns are matched from `root` (where a pattern without `**\/`,
 * such as `.claude/skills/*\/SKILL.md`, is anchored).
 */
export function governedFolder(file: string, patterns: readonly string[], root?: string, path: PathApi = nodePath): string {
  return governedFolders(patterns, root ?? path.parse(file).root, path)(file);
}

/**
 * `governedFolder` for many files: the patterns compiled once (`check` asks it for every
 * instruction file of the workspace).
 */
export function governedFolders(patterns: readonly string[], root: string, path: PathApi): (file: string) => string {
  const compiled = patterns.map((pattern) => {
    const { path: fixed, isFile } = fixedPart(pattern);
    const dirs = fixed === '' ? [] : isFile ? fixed.split('/').slice(0, -1) : fixed.split('/');
    return { pattern, marker: dirs.length ? `${path.sep}${dirs.join(path.sep)}${path.sep}` : undefined };
  });
  const markers = compiled.flatMap(({ marker }) => (marker ? [marker] : []));
  return (file) => {
    // A file with none of the patterns' folders in its path governs its own folder, whichever
    // pattern it matches: most instruction files (a CLAUDE.md, an AGENTS.md), tested against no glob.
    if (!markers.some((m) => file.includes(m))) return path.dirname(file);
    const rel = path.relative(root, file).split(path.sep).join('/');
    for (const { pattern, marker } of compiled) {
      // A pattern whose folders are not in the path gives no folder, matching or not: its glob
      // is not compiled nor tried.
      if (marker && !file.includes(marker)) continue;
      if (!globMatcher(pattern)(rel)) continue;
      return marker ? file.slice(0, file.lastIndexOf(marker)) || path.sep : path.dirname(file);
    }
    return path.dirname(file);
  };
}
