import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Budget, BudgetUnit, Source, SourceStatus } from '../core/model';
import type { Profile } from '../core/profile';
import type { ResolvedChain } from './activeChain';

/** How the views show sizes, paths, scopes and statuses, so they all say the same thing. */

/** `980 chars`, `12.0k chars`, `1.2M bytes`. */
export function size(n: number, unit: BudgetUnit): string {
  return `${amount(n)} ${unit}`;
}

export function amount(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/**
 * An amount in the agent's own unit, as the meter says it: characters in thousands (`1.6k chars`,
 * `12k chars`); bytes in binary units, as the byte-counting agents set their limits (Codex's
 * 32 KiB is 32,768 bytes): `980 bytes`, `4.2 KiB`, `32 KiB`.
 */
export function quantity(n: number, unit: BudgetUnit): string {
  const short = (x: number) => x.toFixed(1).replace(/\.0$/, '');
  if (unit === 'bytes') {
    if (n < 1024) return `${n} bytes`;
    if (n < 1024 * 1024) return `${short(n / 1024)} KiB`;
    return `${short(n / (1024 * 1024))} MiB`;
  }
  if (n < 1000) return `${n} chars`;
  if (n < 1_000_000) return `${short(n / 1000)}k chars`;
  return `${short(n / 1_000_000)}M chars`;
}

/** `1.6k chars · no limit`, `4.1k / 12k chars`, `16 bytes / 32 KiB`: used, then the limit in words. */
export function budgetWords(budget: Budget): string {
  if (budget.limit === null) return `${quantity(budget.used, budget.unit)} · no limit`;
  const used = quantity(budget.used, budget.unit);
  const limit = quantity(budget.limit, budget.unit);
  // One unit at the end when both amounts share it: `4.1k / 12k chars`.
  const unitOf = (q: string) => q.slice(q.indexOf(' '));
  return unitOf(used) === unitOf(limit) ? `${used.slice(0, used.indexOf(' '))} / ${limit}` : `${used} / ${limit}`;
}

/** `12.0k / 12.0k chars`, or `3.4k chars` when the agent sets no limit. */
export function budgetText(budget: Budget): string {
  const start = budget.limit === null ? size(budget.used, budget.unit) : `${amount(budget.used)} / ${size(budget.limit, budget.unit)}`;
  // What loads on read is apart: a chain that loads only on read does not "use 0".
  if (!budget.onRead || budget.used > 0) return start;
  return budget.limit === null ? `${size(budget.onRead, budget.unit)} on read` : `${start} + ${amount(budget.onRead)} on read`;
}

/**
 * A path as the user thinks of it: relative to the launch dir (with `../` while both are in
 * the same workspace folder), else `~/…`, else absolute.
 */
export function displayPath(p: string, chain: Pick<ResolvedChain, 'launchDir' | 'home'>): string {
  const rel = path.relative(chain.launchDir, p);
  if (rel === '') return '.';
  if (!rel.startsWith('..') && !path.isAbsolute(rel)) return rel;
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(chain.launchDir));
  if (folder && folder === vscode.workspace.getWorkspaceFolder(vscode.Uri.file(p))) return rel;
  const fromHome = path.relative(chain.home, p);
  if (!fromHome.startsWith('..') && !path.isAbsolute(fromHome)) return `~/${fromHome}`;
  return p;
}

/** A path as the workspace shows it: `workspace/packages/api` inside a workspace folder, else `~/…` or absolute. */
export function workspacePath(p: string, home: string): string {
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(p));
  if (folder) return path.posix.join(folder.name, path.relative(folder.uri.fsPath, p).split(path.sep).join('/'));
  const fromHome = path.relative(home, p);
  return fromHome.startsWith('..') || path.isAbsolute(fromHome) ? p : `~/${fromHome}`;
}

/** The files a source governs: `everywhere`, `packages/api/**`, or its globs. */
export function scopeText(source: Source, chain: Pick<ResolvedChain, 'launchDir' | 'home'>): string {
  const up = path.relative(source.scope, chain.launchDir);
  // A scope at or above the launch dir covers everything the agent sees.
  const everywhere = !up.startsWith('..') && !path.isAbsolute(up);
  if (source.globs?.length) return `${source.globs.join(', ')}${everywhere ? '' : ` in ${displayPath(source.scope, chain)}`}`;
  return everywhere ? 'everywhere' : `${displayPath(source.scope, chain)}/**`;
}

/** What the agent injects of a source, in the budget's unit. */
export function injected(source: Source, unit: BudgetUnit): number {
  return unit === 'bytes' ? source.injectedBytes : source.injectedChars;
}

export function onDisk(source: Source, unit: BudgetUnit): number {
  return unit === 'bytes' ? source.bytes : source.chars;
}

export const STATUS_LABEL: Record<SourceStatus, string> = {
  loaded: 'loaded',
  truncated: 'truncated',
  omitted: 'omitted',
  duplicate: 'duplicate',
  'not-matched': 'not matched',
  'on-read': 'on read',
  listed: 'listed',
  excluded: 'excluded',
  missing: 'missing',
  unreadable: 'unreadable',
};

export function statusIcon(status: SourceStatus): vscode.ThemeIcon {
  switch (status) {
    case 'loaded':
      return new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'));
    case 'truncated':
      return new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
    case 'omitted':
    case 'excluded':
      return new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('disabledForeground'));
    case 'duplicate':
      return new vscode.ThemeIcon('copy', new vscode.ThemeColor('disabledForeground'));
    case 'not-matched':
      return new vscode.ThemeIcon('eye-closed', new vscode.ThemeColor('disabledForeground'));
    case 'listed':
      return new vscode.ThemeIcon('list-unordered');
    case 'on-read':
      return new vscode.ThemeIcon('clock');
    case 'missing':
    case 'unreadable':
      return new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground'));
  }
}

const VERIFIED: Record<Profile['verified'], string> = {
  'real agent': 'checked against the real agent',
  source: 'ported from its source',
  docs: 'from its docs',
};

/**
 * One line on an agent for pickers and tooltips: what it is, the version modelled and how that
 * was checked (`OpenAI's coding agent, in the terminal · models 0.171.0 · checked against the real agent`).
 */
export function profileSummary(profile: Pick<Profile, 'about' | 'agentVersion' | 'verified'>): string {
  return `${profile.about} · models ${profile.agentVersion} · ${VERIFIED[profile.verified]}`;
}

/**
 * Statuses of a file the agent does not send for the active file at all: the chain view lists
 * them apart, never under "At start".
 */
export const NOT_LOADED: ReadonlySet<SourceStatus> = new Set<SourceStatus>(['omitted', 'excluded', 'duplicate', 'not-matched', 'missing', 'unreadable']);

/** An agent's name, with the variant when a profile id names one: `claw-code (head)`. */
export function profileName(profile: Pick<Profile, 'id' | 'agent'>): string {
  const at = profile.id.indexOf('@');
  return at < 0 ? profile.agent : `${profile.agent} (${profile.id.slice(at + 1)})`;
}

/** Text made safe to put in a MarkdownString (appendText would turn spaces into &nbsp;). */
export function escapeMarkdown(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
