import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { fmt } from '../core/text';
import type { LoadTime, Source } from '../core/model';
import type { Profile } from '../core/profile';
import type { Verifications } from './verification';
import type { ActiveChain, ActiveChainModel } from './activeChain';
import { VIEW_ID, WORKING_MESSAGE } from './ids';
import type { Surface } from './surface';
import { budgetText, displayPath, escapeMarkdown, injected, NOT_LOADED, onDisk, profileName, profileSummary, quantity, scopeText, STATUS_LABEL, statusIcon, workspacePath } from './format';

export { VIEW_ID };
/** Shows the chain view with a file's row selected (the CodeLens's click). */
export const REVEAL_COMMAND = 'instructionLens.revealInChain';

export type ChainNode = GroupNode | SourceNode;

/** The tree's top level: when the sources load, and apart from them those that do not. */
export type Group = LoadTime | 'not-loaded';

export interface GroupNode {
  readonly type: 'group';
  readonly group: Group;
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

/** How long `drawn` waits for the workbench to ask a visible view for its rows. */
const DRAW_WAIT_MS = 500;

const GROUP_LABEL: Record<Group, string> = {
  start: 'At start',
  'on-read': 'When the agent reads here',
  'not-loaded': 'Not loaded',
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
  /** Called when the workbench next asks for the rows (`drawn`). */
  private asked: (() => void) | undefined;

  /** What the rows showed when last told to the workbench (`rowsKey`). */
  private shownRows = '';

  /**
   * Rebuild from the model's chain; the workbench is told only when a row changed. Most updates
   * keep every row (a change elsewhere, an equal chain resolved again), and each refresh told
   * makes the workbench ask for the rows again. One told while the workbench still fetched an
   * expanded group's rows could leave that group drawn empty: the extension host forgets every
   * row when told, answers a group asked after that with nothing, and the workbench's tree hands
   * a fetch still under way to the refresh that follows (seen in VS Code 1.139's code).
   */
  update(active: ActiveChain | undefined): void {
    this.active = active;
    this.roots = active ? groups(active.chain.sources) : [];
    const rows = this.rowsKey();
    if (rows === this.shownRows) return;
    this.shownRows = rows;
    this.emitter.fire(undefined);
  }

  /**
   * Every row as the workbench gets it (its item, in tree order, with its depth), as one string.
   * With its tooltip's text: the workbench keeps a row's resolved tooltip until the tree is refreshed.
   */
  private rowsKey(): string {
    const out: string[] = [];
    const walk = (nodes: readonly ChainNode[], depth: number) => {
      for (const node of nodes) {
        const tip = node.type === 'source' && this.active ? tooltip(node.source, this.active).value : '';
        out.push(`${depth} ${JSON.stringify(this.getTreeItem(node))} ${tip}`);
        walk(node.children, depth + 1);
      }
    };
    walk(this.roots, 0);
    return out.join('\n');
  }

  getChildren(node?: ChainNode): ChainNode[] {
    if (!node) this.asked?.();
    return node ? node.children : this.roots;
  }

  /** Settles once the workbench asks for the rows, or after `ms`. */
  drawn(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.asked = resolve;
      setTimeout(resolve, ms);
    });
  }

  getTreeItem(node: ChainNode): vscode.TreeItem {
    const active = this.active!;
    if (node.type === 'group') {
      const item = new vscode.TreeItem(GROUP_LABEL[node.group], vscode.TreeItemCollapsibleState.Expanded);
      item.id = `group:${node.group}`;
      const count = countAll(node.children);
      item.description = `${count} file${count === 1 ? '' : 's'}`;
      item.contextValue = 'group';
      return item;
    }
    const { source } = node;
    // The file's name and its status lead, so a narrow sidebar still shows both; the folder
    // follows, and the tooltip has the rest.
    const item = new vscode.TreeItem(
      rowName(source.path),
      node.children.length ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
    );
    item.id = `source:${node.index}:${source.path}`;
    item.description = describe(source, active);
    item.iconPath = statusIcon(source.status);
    item.contextValue = `source.${source.status}`;
    if (source.status !== 'missing') {
      const selection = source.cutAt ? new vscode.Range(source.cutAt.line, source.cutAt.column, source.cutAt.line, source.cutAt.column) : undefined;
      item.command = { title: 'Open', command: 'vscode.open', arguments: [vscode.Uri.file(source.path), { selection, preview: true }] };
    }
    item.resourceUri = vscode.Uri.file(source.path);
    return item;
  }

  /**
   * A row's tooltip, made when the pointer rests on the row, not with the row: VS Code's extension
   * host lexes each Markdown tooltip as it receives it, and its first lex compiles the Markdown
   * parser's rules (75-160 ms of one task in Node, whatever the text), which every row of the
   * first chain would otherwise pay when the view draws.
   */
  resolveTreeItem(item: vscode.TreeItem, node: ChainNode): vscode.TreeItem {
    if (node.type === 'source' && this.active) item.tooltip = tooltip(node.source, this.active);
    return item;
  }

  /** The first row of a file, in the order the tree shows them. */
  find(file: string): SourceNode | undefined {
    const walk = (nodes: readonly ChainNode[]): SourceNode | undefined => {
      for (const n of nodes) {
        if (n.type === 'source' && n.source.path === file) return n;
        const hit = walk(n.children);
        if (hit) return hit;
      }
      return undefined;
    };
    return walk(this.roots);
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

/** Which group a source is listed in: a file the agent does not send is never under its load time. */
export function groupOf(source: Pick<Source, 'loads' | 'status'>): Group {
  return NOT_LOADED.has(source.status) ? 'not-loaded' : source.loads;
}

function groups(sources: readonly Source[]): GroupNode[] {
  const out: GroupNode[] = [];
  for (const group of ['start', 'on-read', 'not-loaded'] as const) {
    const roots: SourceNode[] = [];
    // An import sits under the node of the file that imported it, when that file is in the group.
    const byPath = new Map<string, SourceNode>();
    sources.forEach((source, index) => {
      if (groupOf(source) !== group) return;
      const node: SourceNode = { type: 'source', source, index, children: [] };
      const importer = source.importedBy ? byPath.get(source.importedBy) : undefined;
      (importer ? importer.children : roots).push(node);
      if (!byPath.has(source.path) && source.status !== 'duplicate') byPath.set(source.path, node);
    });
    if (roots.length) out.push({ type: 'group', group, children: roots });
  }
  return out;
}

function countAll(nodes: readonly SourceNode[]): number {
  return nodes.reduce((n, c) => n + 1 + countAll(c.children), 0);
}

/**
 * A row's label: the file's name, a `*.instructions.md` by what comes before that suffix, as
 * VS Code's chat names these files (getCleanPromptName). The suffix is the same on every such file,
 * and would push the part that tells them apart past the edge of the default side bar. A name
 * still too long is cut at its end, as in the Explorer; the tooltip has the whole path.
 */
export function rowName(file: string): string {
  const name = path.basename(file);
  const stem = name.replace(/\.instructions\.md$/i, '');
  return stem || name;
}

/** The one word a row leads with: what happened to the file. */
function statusWord(source: Source): string {
  return source.sentTwice ? 'sent twice' : STATUS_LABEL[source.status];
}

/**
 * `loaded`, or `on read · api` when another file of the chain has the same name: the status,
 * then as little of the folder as tells the two apart (as editor tabs do). The full path is in
 * the tooltip; a row stays short enough for the default sidebar width.
 */
function describe(source: Source, { chain }: ActiveChain): string {
  const name = rowName(source.path);
  const others = new Set(chain.sources.filter((s) => s.path !== source.path && rowName(s.path) === name).map((s) => s.path));
  if (!others.size) return statusWord(source);
  // A folder above the launch dir by its name (`loaded · workspace`), not as `..`.
  const folders = (p: string) => {
    const dir = path.dirname(displayPath(p, chain));
    return dir.split(/[\\/]/).includes('..') ? [path.basename(path.dirname(p))] : dir.split(/[\\/]/);
  };
  const own = folders(source.path);
  if (own.length === 1 && own[0] === '.') return statusWord(source);
  // The user's own files: their folder in full, `~/.claude`, which says whose they are.
  if (own[0] === '~') return `${statusWord(source)} · ${own.join('/')}`;
  const rest = [...others].map(folders);
  for (let n = 1; n <= own.length; n++) {
    const tail = own.slice(-n).join('/');
    if (!rest.some((f) => f.slice(-n).join('/') === tail)) return `${statusWord(source)} · ${tail}`;
  }
  return `${statusWord(source)} · ${own.join('/')}`;
}

/**
 * What share of the budget a file takes, saying of what: the agent's limit, or, for an agent
 * that sets none, all it loads at start.
 */
function shareText(source: Source, { chain, profile }: ActiveChain): string | undefined {
  const { budget } = chain;
  const sent = injected(source, budget.unit);
  if (source.loads !== 'start' || !sent) return undefined;
  if (budget.limit) return `${Math.round((sent / budget.limit) * 100)}% of ${profileName(profile)}'s limit of ${quantity(budget.limit, budget.unit)}`;
  if (budget.used > 0) return `${Math.round((sent / budget.used) * 100)}% of the ${quantity(budget.used, budget.unit)} loaded at start (${profileName(profile)} sets no limit)`;
  return undefined;
}

const LOADS: Record<Group, string> = {
  start: 'at start',
  'on-read': 'when the agent reads a file here',
  'not-loaded': 'not for this file',
};

function tooltip(source: Source, active: ActiveChain): vscode.MarkdownString {
  const { chain, profile } = active;
  const unit = chain.budget.unit;
  const md = new vscode.MarkdownString('', true);
  md.appendMarkdown(`**${escapeMarkdown(displayPath(source.path, chain))}** — ${statusWord(source)}\n\n`);
  md.appendMarkdown(`${escapeMarkdown(source.reason)}\n\n`);
  const sent = injected(source, unit);
  const whole = onDisk(source, unit);
  const facts = [`loads: ${LOADS[groupOf(source)]}`, `applies to: ${scopeText(source, chain)}`];
  if (sent) facts.push(`sent: ${quantity(sent, unit)}`);
  if (whole) facts.push(`on disk: ${fmt(source.chars)} chars, ${fmt(source.bytes)} bytes`);
  const share = shareText(source, active);
  if (share) facts.push(`share: ${share}`);
  facts.push(`kind: ${source.kind}`);
  if (source.importedBy) facts.push(`imported by: ${displayPath(source.importedBy, chain)}`);
  if (source.cutAt) facts.push(`cut at: line ${source.cutAt.line + 1}, column ${source.cutAt.column + 1}`);
  if (source.sentTwice) facts.push(`sent twice: ${source.sentTwice}`);
  md.appendMarkdown(facts.map((f) => `- ${escapeMarkdown(f)}`).join('\n'));
  md.appendMarkdown(`\n\n_${escapeMarkdown(profileName(profile))} ${escapeMarkdown(profile.agentVersion)}_`);
  return md;
}

/**
 * The sidebar: the tree, its title bar (agent and budget), the agent switcher, refresh, and
 * the button of the welcome view that creates the agent's main file. The view itself was
 * registered at activation (src/vscode/surface.ts); this fills it.
 */
export function registerChainView(
  surface: Surface,
  model: ActiveChainModel,
  verifications: Verifications,
): vscode.Disposable & { provider: ChainTreeProvider; view: vscode.TreeView<ChainNode>; drawn(): Promise<void> } {
  const provider = new ChainTreeProvider();
  const view = surface.view as vscode.TreeView<ChainNode>;
  // Each set is a message to the workbench (the title again, or the tree's refresh), even with
  // the text it had: an editor switch mostly keeps both.
  const label = (description: string | undefined, message: string | undefined) => {
    if (view.description !== description) view.description = description;
    if (view.message !== message) view.message = message;
  };
  const update = (active: ActiveChain | undefined) => {
    provider.update(active);
    // The agent is named in the message, not the title: the workbench capitalizes view titles
    // ("claw-code" would read "Claw-Code"), and a long title is cut at the default width.
    const profile = model.profile;
    if (!active) return label(undefined, model.working ? WORKING_MESSAGE : undefined);
    const { chain } = active;
    // The message hides the welcome view, so an empty chain shows the welcome instead.
    const lines = chain.sources.length ? [`${profileName(profile)} · ${path.basename(chain.target)}, launched in ${workspacePath(chain.launchDir, chain.home)}`] : [];
    // Said even when nothing is left to list: an empty view would only offer to create a file.
    const gone = goneNotice(active.uri);
    if (gone) lines.push(`⚠ ${gone}`);
    if (chain.fatal) lines.push(`⚠ ${chain.fatal}`);
    const verified = verifications.notice(profile);
    if (verified && lines.length) lines.push(verified);
    const notice = model.versionNotice(profile);
    if (notice && lines.length) lines.push(notice);
    label(budgetText(chain.budget), lines.length ? lines.join('\n') : undefined);
  };
  update(model.current);
  const disposables = [
    provider,
    surface.setTreeProvider(provider as vscode.TreeDataProvider<unknown>),
    model.onDidChange(update),
    verifications.onDidChange(() => update(model.current)),
    surface.registerCommand('instructionLens.selectAgent', () => pickAgent(model)),
    surface.registerCommand('instructionLens.refresh', () => model.refresh()),
    surface.registerCommand('instructionLens.createInstructionFile', () => createInstructionFile(model)),
    surface.registerCommand(REVEAL_COMMAND, (file?: string, agentId?: string) => revealInChain(model, provider, view, file, agentId)),
    surface.registerCommand('instructionLens.revealSource', (node?: SourceNode) => {
      if (node?.type === 'source') return vscode.commands.executeCommand('revealInExplorer', vscode.Uri.file(node.source.path));
    }),
  ];
  return {
    provider,
    view,
    // The rows shown last on screen (a hidden view is not asked for them).
    drawn: async () => void (view.visible && (await provider.drawn(DRAW_WAIT_MS))),
    dispose: () => disposables.forEach((d) => d.dispose()),
  };
}

/**
 * Focuses the chain view and selects the file's row; when the selected agent does not list the
 * file and `agentId` (the agent the CodeLens spoke for) does, that agent is selected first.
 */
async function revealInChain(model: ActiveChainModel, provider: ChainTreeProvider, view: vscode.TreeView<ChainNode>, file?: string, agentId?: string): Promise<void> {
  await vscode.commands.executeCommand(`${VIEW_ID}.focus`);
  if (!file) return;
  if (!provider.find(file) && agentId && agentId !== model.profile.id && model.profiles.some((p) => p.id === agentId)) await model.selectAgent(agentId);
  const node = provider.find(file);
  if (!node) return;
  try {
    await view.reveal(node, { select: true, focus: true, expand: true });
  } catch {
    // The workbench had not yet taken the tree's last update ("Data tree node not found"): once it
    // has, the row is there. The view is shown either way; the selection is not worth an error.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const again = provider.find(file);
    if (again) await Promise.resolve(view.reveal(again, { select: true, focus: true, expand: true })).catch(() => undefined);
  }
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
    label: profileName(profile),
    description: [profile.id === current.id ? 'selected' : '', model.whyEnabled(profile)].filter(Boolean).join(' · '),
    detail: [profileSummary(profile), model.versionNotice(profile)].filter(Boolean).join(' · '),
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
  const active = await model.settled();
  const profile = model.profile;
  const name = profile.mainFile;
  if (!active || !name) {
    void vscode.window.showInformationMessage(active ? `${profileName(profile)} has no single main instruction file.` : 'Open a file first: the instruction file is created where the agent starts for it.');
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
  const chosen = await vscode.window.showQuickPick(items, { title: `Instruction Lens: Create ${name} for ${profileName(profile)}`, placeHolder: 'Where to create it' });
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

/**
 * What happened when the active file is no longer on disk (a deleted folder, a branch switch):
 * the chain shown is then what the agent would load for a file at that place. The deleted
 * folder named is the highest one missing, so a deleted workspace folder is called that.
 */
function goneNotice(uri: vscode.Uri): string | undefined {
  const file = uri.fsPath;
  if (existsOnDisk(file) || vscode.workspace.textDocuments.some((d) => d.isDirty && d.uri.fsPath === file)) return undefined;
  let top: string | undefined;
  for (let dir = path.dirname(file); !existsOnDisk(dir) && path.dirname(dir) !== dir; dir = path.dirname(dir)) top = dir;
  const name = path.basename(file);
  if (!top) return `${name} is no longer on disk.`;
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file' && f.uri.fsPath === top);
  if (folder) return `${name} is no longer on disk: the workspace folder ${folder.name} was deleted.`;
  const owner = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(top));
  const where = owner ? path.relative(owner.uri.fsPath, top).split(path.sep).join('/') : top;
  return `${name} is no longer on disk: the folder ${where} was deleted.`;
}
