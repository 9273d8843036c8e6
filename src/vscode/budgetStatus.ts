import * as path from 'node:path';
import * as vscode from 'vscode';
import { fmt } from '../core/text';
import type { ActiveChain, ActiveChainModel } from './activeChain';
import { VIEW_ID } from './ids';
import { amount, budgetWords, displayPath, injected, profileName, quantity } from './format';
import { VERIFY_COMMAND, type Verifications } from './verification';

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

    const md = new vscode.MarkdownString('', true);
    md.isTrusted = { enabledCommands: [VERIFY_COMMAND] };
    md.appendMarkdown(`**${profileName(profile)}** ${profile.agentVersion} — instructions for \`${path.basename(chain.target)}\`\n\n`);
    const share = budget.limit ? ` (${Math.round((budget.used / budget.limit) * 100)} % of ${quantity(budget.limit, budget.unit)})` : ' (the agent sets no limit)';
    md.appendMarkdown(`At start: ${fmt(budget.used)} ${budget.unit}${share}, about ${amount(Math.ceil(budget.used / 4))} tokens (estimated at 4 ${budget.unit} a token).\n\n`);
    const top = chain.sources
      .filter((s) => s.loads === 'start' && injected(s, budget.unit) > 0)
      .sort((a, b) => injected(b, budget.unit) - injected(a, budget.unit))
      .slice(0, TOP_SOURCES);
    if (top.length) md.appendMarkdown(`Largest:\n${top.map((s) => `- \`${displayPath(s.path, chain)}\` ${quantity(injected(s, budget.unit), budget.unit)}`).join('\n')}\n\n`);
    if (cut.length) md.appendMarkdown(`$(warning) ${cut.map((s) => `\`${displayPath(s.path, chain)}\` ${s.status}`).join(', ')}\n\n`);
    if (budget.onRead) md.appendMarkdown(`On read of \`${path.basename(chain.target)}\`: ${fmt(budget.onRead)} ${budget.unit} more.\n\n`);
    if (chain.fatal) md.appendMarkdown(`$(error) ${chain.fatal}\n\n`);
    const verified = verifications.notice(profile);
    if (verified) md.appendMarkdown(`$(${verified.startsWith('verified') ? 'pass' : 'warning'}) ${verified}\n\n`);
    if (profile.localRun && vscode.workspace.isTrusted) md.appendMarkdown(`[Verify with the installed ${profile.agent}](command:${VERIFY_COMMAND})\n\n`);
    const notice = model.versionNotice(profile);
    if (notice) md.appendMarkdown(`$(info) ${notice}\n\n`);
    md.appendMarkdown('Click to show the chain.');
    item.tooltip = md;
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
