import * as path from 'node:path';
import * as vscode from 'vscode';
import { fmt } from '../core/text';
import type { ActiveChain, ActiveChainModel } from './activeChain';
import { VIEW_ID } from './ids';
import { amount, budgetWords, displayPath, injected, profileName, quantity } from './format';
import type { Verifications } from './verification';

/** From this share of the limit on, the item warns. */
const WARN_AT = 0.9;
/** Sources named in the tooltip. */
const TOP_SOURCES = 5;

/**
 * The status bar item (made at activation, src/vscode/surface.ts): how much of the selected
 * agent's budget the active file's chain uses. Warning colours from 90 %, error colours over the
 * limit or when something is cut or left out.
 */
export function registerBudgetStatus(item: vscode.StatusBarItem, model: ActiveChainModel, verifications: Verifications): vscode.Disposable & { item: vscode.StatusBarItem } {
  item.command = { title: 'Show the instruction chain', command: `${VIEW_ID}.focus` };
  const update = (active: ActiveChain | undefined) => {
    if (!active) return item.hide();
    const { chain, profile } = active;
    const { budget } = chain;
    // The agent first: the same numbers mean different things for different agents.
    item.text = `$(book) ${profileName(profile)} · ${budgetWords(budget)}`;
    const cut = chain.sources.filter((s) => s.status === 'truncated' || s.status === 'omitted');
    const over = budget.limit !== null && budget.used > budget.limit;
    const near = budget.limit !== null && budget.limit > 0 && budget.used >= budget.limit * WARN_AT;
    item.backgroundColor = over || cut.length || chain.fatal
      ? new vscode.ThemeColor('statusBarItem.errorBackground')
      : near
        ? new vscode.ThemeColor('statusBarItem.warningBackground')
        : undefined;
    item.accessibilityInformation = { label: `${profileName(profile)} instructions: ${budget.used} ${budget.unit} used${budget.limit === null ? ', no limit' : ` of ${budget.limit}`}` };

    // Plain text, not Markdown: VS Code's extension host lexes a Markdown tooltip as it receives
    // it, and the first lex compiles the Markdown parser's rules (a profiled VS Code bench start-up:
    // 262 ms in one task, the longest of ours); the meter's tooltip was the first at start-up.
    const name = path.basename(chain.target);
    const share = budget.limit ? ` (${Math.round((budget.used / budget.limit) * 100)} % of ${quantity(budget.limit, budget.unit)})` : ' (the agent sets no limit)';
    const lines = [`${profileName(profile)} ${profile.agentVersion} — instructions for ${name}`, '', `At start: ${fmt(budget.used)} ${budget.unit}${share}, about ${amount(Math.ceil(budget.used / 4))} tokens (estimated at 4 ${budget.unit} a token).`];
    const top = chain.sources
      .filter((s) => s.loads === 'start' && injected(s, budget.unit) > 0)
      .sort((a, b) => injected(b, budget.unit) - injected(a, budget.unit))
      .slice(0, TOP_SOURCES);
    if (top.length) lines.push('', 'Largest:', ...top.map((s) => `• ${displayPath(s.path, chain)} ${quantity(injected(s, budget.unit), budget.unit)}`));
    lines.push('');
    if (cut.length) lines.push(`⚠ ${cut.map((s) => `${displayPath(s.path, chain)} ${s.status}`).join(', ')}`);
    if (budget.onRead) lines.push(`On read of ${name}: ${fmt(budget.onRead)} ${budget.unit} more.`);
    if (chain.fatal) lines.push(`✖ ${chain.fatal}`);
    const verified = verifications.notice(profile);
    if (verified) lines.push(`${verified.startsWith('verified') ? '✓' : '⚠'} ${verified}`);
    // The verify command is a button on the chain view's title bar (package.json), a click away.
    if (profile.localRun && vscode.workspace.isTrusted) lines.push(`Verify with the installed ${profile.agent}: the Verify button on the chain view's title bar, or the Command Palette.`);
    const notice = model.versionNotice(profile);
    if (notice) lines.push(`ⓘ ${notice}`);
    lines.push('Click to show the chain.');
    item.tooltip = lines.join('\n');
    item.show();
  };
  update(model.current);
  const subscription = vscode.Disposable.from(model.onDidChange(update), verifications.onDidChange(() => update(model.current)));
  return {
    item,
    dispose: () => {
      subscription.dispose();
      item.hide();
    },
  };
}
