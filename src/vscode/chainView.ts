import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LoadTime, Source } from '../core/model';
import type { Profile } from '../core/profile';
import type { Verifications } from './verification';
import type { ActiveChain, ActiveChainModel } from './activeChain';
import { amount, budgetText, displayPath, escapeMarkdown, profileName, workspacePath, injected, onDisk, scopeText, size, STATUS_LABEL, statusIcon } from './format';

export const VIEW_ID = 'instructionLens.chain';

export type ChainNode = GroupNode | SourceNode;

export interface GroupNode {
  readonly type: 'group';
  readonly loads: LoadTime;
  readonly children: SourceNode[];
}

export interface SourceNode {
  readonly type: 'source';
  readonly source: Source;
  /** Position in the chain's load order (also the item's id). */
  readonly index: number;
  /** The sources it imports. */
  readonly children: SourceNode[];
}

const GROUP_LABEL: Record<LoadTime, string> = {
  start: 'At start',
  'on-read': 'When the agent reads here',
};

/**
 * The sources of the active chain, grouped by when they load, each import under its importer.
 * A view of `ActiveChainModel.current`: it never resolves anything itself.
 */
export class ChainTreeProvider implements vscode.TreeDataProvider<ChainNode> {
  private readonly emitter = new vscode.EventEmitter<ChainNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private roots: GroupNode[] = [];
  private active: ActiveChain | undefined;

  /** Rebuild from the model's chain. */
  update(active: ActiveChain | undefined): void {
    this.active = active;
    this.roots = active ? groups(active.chain.sources) : [];
    this.emitter.fire(undefined);
  }

  getChildren(node?: ChainNode): ChainNode[] {
    return node ? node.children : this.roots;
  }

  getTreeItem(node: ChainNode): vscode.TreeItem {
    const active = this.active!;
    if (node.type === 'group') {
      const item = new vscode.TreeItem(GROUP_LABEL[node.loads], vscode.TreeItemCollapsibleState.Expanded);
      item.id = `group:${node.loads}`;
      const count = countAll(node.children);
      item.description = `${count} file${count === 1 ? '' : 's'}`;
      item.contextValue = 'group';
      return item;
    }
    const { source } = node;
    const { chain } = active;
    const item = new vscode.TreeItem(
      displayPath(source.path, chain),
      node.children.length ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
    );
    item.id = `source:${node.index}:${source.path}`;
    item.description = describe(source, active);
    item.iconPath = statusIcon(source.status);
    item.tooltip = tooltip(source, active);
    item.contextValue = `source.${source.status}`;
    if (source.status !== 'missing') {
      const selection = source.cutAt ? new vscode.Range(source.cutAt.line, source.cutAt.column, source.cutAt.line, source.cutAt.column) : undefined;
      item.command = { title: 'Open', command: 'vscode.open', arguments: [vscode.Uri.file(source.path), { selection, preview: true }] };
    }
    item.resourceUri = vscode.Uri.file(source.path);
    return item;
  }

  getParent(node: ChainNode): ChainNode | undefined {
    const find = (nodes: ChainNode[], parent: ChainNode | undefined): ChainNode | undefined => {
      for (const n of nodes) {
        if (n === node) return parent;
        const hit = find(n.children, n);
        if (hit) return hit;
      }
      return undefined;
    };
    return find(this.roots, undefined);
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

function groups(sources: readonly Source[]): GroupNode[] {
  const out: GroupNode[] = [];
  for (const loads of ['start', 'on-read'] as const) {
    const roots: SourceNode[] = [];
    // An import sits under the node of the file that imported it, when that file is in the group.
    const byPath = new Map<string, SourceNode>();
    sources.forEach((source, index) => {
      if (source.loads !== loads) return;
      const node: SourceNode = { type: 'source', source, index, children: [] };
      const importer = source.importedBy ? byPath.get(source.importedBy) : undefined;
      (importer ? importer.children : roots).push(node);
      if (!byPath.has(source.path) && source.status !== 'duplicate') byPath.set(source.path, node);
    });
    if (roots.length) out.push({ type: 'group', loads, children: roots });
  }
  return out;
}

function countAll(nodes: readonly SourceNode[]): number {
  return nodes.reduce((n, c) => n + 1 + countAll(c.children), 0);
}

/** `1.2k chars · 10% · loaded · packages/api/**`: what it costs first, then what it governs. */
function describe(source: Source, { chain }: ActiveChain): string {
  const unit = chain.budget.unit;
  const parts: string[] = [];
  const sent = injected(source, unit);
  const whole = onDisk(source, unit);
  if (source.status === 'truncated') parts.push(`${amount(sent)} of ${size(whole, unit)}`);
  else if (sent) parts.push(size(sent, unit));
  else if (whole) parts.push(size(whole, unit));
  if (source.loads === 'start' && sent) {
    const of = chain.budget.limit ?? chain.budget.used;
    if (of > 0) parts.push(`${Math.round((sent / of) * 100)}%`);
  }
  parts.push(STATUS_LABEL[source.status]);
  if (source.sentTwice) parts.push('sent twice');
  parts.push(scopeText(source, chain));
  return parts.join(' · ');
}

function tooltip(source: Source, { chain, profile }: ActiveChain): vscode.MarkdownString {
  const md = new vscode.MarkdownString('', true);
  md.appendMarkdown(`**${escapeMarkdown(displayPath(source.path, chain))}** — ${STATUS_LABEL[source.status]}\n\n`);
  md.appendMarkdown(`${escapeMarkdown(source.reason)}\n\n`);
  const facts = [
    `kind: ${source.kind}`,
    `loads: ${source.loads === 'start' ? 'at start' : 'when the agent reads a file here'}`,
    `scope: ${scopeText(source, chain)}`,
    `on disk: ${source.chars.toLocaleString('en-US')} chars, ${source.bytes.toLocaleString('en-US')} bytes`,
    `injected: ${source.injectedChars.toLocaleString('en-US')} chars, ${source.injectedBytes.toLocaleString('en-US')} bytes`,
  ];
  if (source.importedBy) facts.push(`imported by: ${displayPath(source.importedBy, chain)}`);
  if (source.cutAt) facts.push(`cut at: line ${source.cutAt.line + 1}, column ${source.cutAt.column + 1}`);
  if (source.sentTwice) facts.push(`sent twice: ${source.sentTwice}`);
  md.appendMarkdown(facts.map((f) => `- ${escapeMarkdown(f)}`).join('\n'));
  md.appendMarkdown(`\n\n_${escapeMarkdown(profile.agent)} ${escapeMarkdown(profile.agentVersion)}_`);
  return md;
}

/**
 * The sidebar: the tree, its title bar (agent and budget), the agent switcher, refresh, and
 * the button of the welcome view that creates the agent's main file.
 */
export function registerChainView(model: ActiveChainModel, verifications: Verifications): vscode.Disposable & { provider: ChainTreeProvider; view: vscode.TreeView<ChainNode> } {
  const provider = new ChainTreeProvider();
  const view = vscode.window.createTreeView(VIEW_ID, { treeDataProvider: provider });
  const update = (active: ActiveChain | undefined) => {
    provider.update(active);
    // The title names the agent (a single view's header shows its title, not always its description).
    const profile = model.profile;
    view.title = profileName(profile);
    if (!active) {
      view.description = undefined;
      view.message = undefined;
      return;
    }
    const { chain } = active;
    view.description = budgetText(chain.budget);
    // The message hides the welcome view, so an empty chain shows the welcome instead.
    const lines = chain.sources.length ? [`${path.basename(chain.target)} — launched in ${workspacePath(chain.launchDir, chain.home)}`] : [];
    if (chain.fatal) lines.push(`⚠ ${chain.fatal}`);
    const verified = verifications.notice(profile);
    if (verified && lines.length) lines.push(verified);
    const notice = model.versionNotice(profile);
    if (notice && lines.length) lines.push(notice);
    view.message = lines.length ? lines.join('\n') : undefined;
  };
  update(model.current);
  const disposables = [
    view,
    provider,
    model.onDidChange(update),
    verifications.onDidChange(() => update(model.current)),
    vscode.commands.registerCommand('instructionLens.selectAgent', () => pickAgent(model)),
    vscode.commands.registerCommand('instructionLens.refresh', () => model.refresh()),
    vscode.commands.registerCommand('instructionLens.createInstructionFile', () => createInstructionFile(model)),
    vscode.commands.registerCommand('instructionLens.revealSource', (node?: SourceNode) => {
      if (node?.type === 'source') return vscode.commands.executeCommand('revealInExplorer', vscode.Uri.file(node.source.path));
    }),
  ];
  return {
    provider,
    view,
    dispose: () => disposables.forEach((d) => d.dispose()),
  };
}

/** The agent switcher: every enabled profile with the version it models; the selected one is active. */
async function pickAgent(model: ActiveChainModel): Promise<void> {
  type Item = vscode.QuickPickItem & { profile: Profile };
  const current = model.profile;
  const pick = vscode.window.createQuickPick<Item>();
  pick.title = 'Instruction Lens: Select Agent';
  pick.placeholder = 'Which agent\'s view of the instruction files to show';
  pick.items = model.profiles.map((profile) => ({
    profile,
    label: profile.agent,
    description: `${profile.id} · models ${profile.agentVersion}${profile.id === current.id ? ' · selected' : ''}`,
    detail: [model.whyEnabled(profile), model.versionNotice(profile) ?? `verified against: ${profile.verified}`].join(' · '),
  }));
  pick.activeItems = pick.items.filter((i) => i.profile.id === current.id);
  const chosen = await new Promise<Item | undefined>((resolve) => {
    pick.onDidAccept(() => resolve(pick.selectedItems[0]));
    pick.onDidHide(() => resolve(undefined));
    pick.show();
  });
  pick.dispose();
  if (chosen) await model.selectAgent(chosen.profile.id);
}

/**
 * Create the selected agent's main file where the user chooses (the launch dir or the file's
 * folder), then open it. An existing file is opened, never overwritten.
 */
async function createInstructionFile(model: ActiveChainModel): Promise<void> {
  const active = model.current;
  const profile = model.profile;
  const name = profile.mainFile;
  if (!active || !name) {
    void vscode.window.showInformationMessage(active ? `${profile.agent} has no single main instruction file.` : 'Open a file first: the instruction file is created where the agent starts for it.');
    return;
  }
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showInformationMessage('Instruction Lens creates files only in a trusted workspace.');
    return;
  }
  const { chain } = active;
  const dirs = [...new Set([chain.launchDir, path.dirname(active.uri.fsPath)])];
  const items = dirs.map((dir) => {
    const file = path.join(dir, name);
    const exists = !!vscode.workspace.textDocuments.find((d) => d.uri.fsPath === file) || existsOnDisk(file);
    return {
      file,
      label: `${exists ? 'Open' : 'Create'} ${displayPath(file, chain)}`,
      description: dir === chain.launchDir ? 'where the agent starts: loads at start' : 'next to this file',
    };
  });
  const chosen = await vscode.window.showQuickPick(items, { title: `Instruction Lens: Create ${name} for ${profile.agent}`, placeHolder: 'Where to create it' });
  if (!chosen) return;
  const uri = vscode.Uri.file(chosen.file);
  if (!existsOnDisk(chosen.file)) {
    const edit = new vscode.WorkspaceEdit();
    edit.createFile(uri, { ignoreIfExists: true });
    await vscode.workspace.applyEdit(edit);
  }
  await vscode.window.showTextDocument(uri);
}

function existsOnDisk(file: string): boolean {
  return existsSync(file);
}
