// The settings a verify run gives each agent: only the keys its profile reads, taken from the
// user's real settings files and written into the temporary home or copy. Nothing else of those
// files (permissions, hooks, MCP servers, tokens, model choices) is ever copied.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseJsonc, parseToml, stringifyToml, type ParseError } from '../core/formats';
import type { VerifyTree } from './tree';

/** One key written, for the report: "~/.codex/config.toml: project_doc_max_bytes". */
export interface ConfigKey {
  file: string;
  key: string;
}

function readJson(file: string): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  // As the agents read settings: comments allowed, trailing commas not.
  const errors: ParseError[] = [];
  const v: unknown = parseJsonc(text, errors, { allowTrailingComma: false, allowEmptyContent: false });
  return !errors.length && v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
}

/**
 * Write, per runnable agent, the instruction-related keys of the user's settings:
 * - Claude Code: `~/.claude.json` projects[<repository root>].hasClaudeMdExternalIncludesApproved,
 *   `claudeMdExcludes` of `~/.claude/settings.json` and the launch folder's `.claude/settings*.json`
 *   (absolute globs moved into the copy);
 * - Codex: `project_doc_max_bytes`, `project_doc_fallback_filenames`, `project_root_markers` of
 *   `~/.codex/config.toml`;
 * - Gemini CLI: the `context` object of `~/.gemini/settings.json` and of the launch folder's
 *   `.gemini/settings.json`;
 * - Copilot CLI reads no setting that changes what it loads.
 */
export function writeAgentConfig(tree: VerifyTree, realLaunchDir: string): ConfigKey[] {
  const written: ConfigKey[] = [];
  const realHome = tree.realHome;

  // Claude Code: external import approval.
  const claudeJson = readJson(path.join(realHome, '.claude.json'));
  const key = tree.repoRoot ?? realLaunchDir;
  const projects = claudeJson?.projects as Record<string, { hasClaudeMdExternalIncludesApproved?: unknown }> | undefined;
  if (projects?.[key]?.hasClaudeMdExternalIncludesApproved === true) {
    writeJson(path.join(tree.home, '.claude.json'), { projects: { [tree.toTemp(key)]: { hasClaudeMdExternalIncludesApproved: true } } });
    written.push({ file: '~/.claude.json', key: 'hasClaudeMdExternalIncludesApproved' });
  }
  // Claude Code: claudeMdExcludes (picomatch globs on absolute paths).
  const excludes: string[] = [];
  for (const f of [path.join(realHome, '.claude', 'settings.json'), path.join(realLaunchDir, '.claude', 'settings.json'), path.join(realLaunchDir, '.claude', 'settings.local.json')]) {
    const v = readJson(f)?.claudeMdExcludes;
    if (Array.isArray(v)) excludes.push(...v.filter((x): x is string => typeof x === 'string').map((g) => (g.startsWith('/') ? path.join(tree.fsRoot, g) : g)));
  }
  if (excludes.length) {
    writeJson(path.join(tree.home, '.claude', 'settings.json'), { claudeMdExcludes: excludes });
    written.push({ file: '~/.claude/settings.json', key: 'claudeMdExcludes' });
  }

  // Codex: the three top-level keys of config.toml, with the values the user wrote (a float stays a float).
  const toml = path.join(realHome, '.codex', 'config.toml');
  if (fs.existsSync(toml)) {
    const text = fs.readFileSync(toml, 'utf8');
    try {
      const data = parseToml(text, { integersAsBigInt: true });
      const lines = ['project_doc_max_bytes', 'project_doc_fallback_filenames', 'project_root_markers']
        .filter((k) => data[k] !== undefined)
        .map((k) => {
          written.push({ file: '~/.codex/config.toml', key: k });
          const v = data[k];
          return typeof v === 'number' && Number.isInteger(v) ? `${k} = ${v}.0` : stringifyToml({ [k]: v }).trim();
        });
      if (lines.length) {
        fs.mkdirSync(path.join(tree.home, '.codex'), { recursive: true });
        fs.writeFileSync(path.join(tree.home, '.codex', 'config.toml'), lines.join('\n') + '\n');
      }
    } catch {
      // A config.toml that does not parse makes Codex refuse to start; the profile reports it.
    }
  }

  // Gemini CLI: context.* (fileName, importFormat, memoryBoundaryMarkers …).
  for (const [real, temp, label] of [
    [path.join(realHome, '.gemini', 'settings.json'), path.join(tree.home, '.gemini', 'settings.json'), '~/.gemini/settings.json'],
    [path.join(realLaunchDir, '.gemini', 'settings.json'), path.join(tree.toTemp(realLaunchDir), '.gemini', 'settings.json'), '.gemini/settings.json'],
  ] as const) {
    if (path.resolve(realLaunchDir) === path.resolve(realHome) && label === '.gemini/settings.json') continue;
    const context = readJson(real)?.context;
    if (context && typeof context === 'object' && !Array.isArray(context)) {
      writeJson(temp, { context });
      written.push({ file: label, key: 'context' });
    }
  }
  return written;
}
