import * as vscode from 'vscode';
import { PREVIEW_SCHEME, VERIFY_SCHEME, VIEW_ID, WORKING_MESSAGE } from './ids';

// The type of `vscode.commands.registerCommand`'s callback.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (...args: any[]) => unknown;

/**
 * What the user sees of the extension, registered by `activate()` before the rest of it is
 * loaded (src/vscode/lens.ts, a bundle of its own with the core): every contributed command, the
 * chain view, the status bar item, and one provider of each kind the extension offers (CodeLens,
 * links, hovers, quick fixes, the documents of its schemes). The rest registers its parts through
 * the methods below, which have the signatures of VS Code's own, and each registration here
 * forwards to them. A request that comes before the rest is loaded waits for it: nothing the user
 * asks for early is lost.
 */
export class Surface implements vscode.Disposable {
  readonly view: vscode.TreeView<unknown>;
  /** The budget's item (src/vscode/budgetStatus.ts), hidden until there is a chain. */
  readonly statusItem: vscode.StatusBarItem;
  /** Resolves once the rest is loaded and started: true, or false when it could not be. */
  readonly started: Promise<boolean>;
  private markStarted!: (ok: boolean) => void;

  private readonly tree = new ForwardTree(() => this.started);
  private readonly commands = new Map<string, Handler>();
  private readonly codeLenses = new Targets<vscode.CodeLensProvider>();
  private readonly links = new Targets<vscode.DocumentLinkProvider>();
  private readonly hovers = new Targets<vscode.HoverProvider>();
  private readonly codeActions = new Targets<vscode.CodeActionProvider>();
  private readonly documents = new Map<string, ForwardDocuments>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly commandIds: ReadonlySet<string>;

  constructor(commandIds: readonly string[]) {
    this.commandIds = new Set(commandIds);
    this.started = new Promise((resolve) => (this.markStarted = resolve));
    this.view = vscode.window.createTreeView(VIEW_ID, { treeDataProvider: this.tree });
    this.view.message = WORKING_MESSAGE;
    this.statusItem = vscode.window.createStatusBarItem('instructionLens.budget', vscode.StatusBarAlignment.Right, 100);
    this.statusItem.name = 'Instruction Lens Budget';
    for (const scheme of [PREVIEW_SCHEME, VERIFY_SCHEME]) this.documents.set(scheme, new ForwardDocuments(() => this.started));
    const files: vscode.DocumentSelector = { scheme: 'file' };
    this.disposables.push(
      this.view,
      this.statusItem,
      this.tree,
      ...commandIds.map((id) => vscode.commands.registerCommand(id, (...args: unknown[]) => this.run(id, args))),
      vscode.languages.registerCodeLensProvider(files, this.forwardCodeLenses()),
      vscode.languages.registerDocumentLinkProvider(files, {
        provideDocumentLinks: (doc, token) => this.collect(this.links, doc, (p) => p.provideDocumentLinks(doc, token)),
      }),
      vscode.languages.registerHoverProvider(files, {
        provideHover: async (doc, position, token) => (await this.collect(this.hovers, doc, async (p) => [await p.provideHover(doc, position, token)]))[0],
      }),
      vscode.languages.registerCodeActionsProvider(
        files,
        { provideCodeActions: (doc, range, context, token) => this.collect(this.codeActions, doc, (p) => p.provideCodeActions(doc, range, context, token)) },
        { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] },
      ),
      ...[...this.documents].map(([scheme, forward]) => vscode.workspace.registerTextDocumentContentProvider(scheme, forward)),
      ...this.documents.values(),
      this.codeLenses,
      this.links,
      this.hovers,
      this.codeActions,
    );
  }

  /** The rest is loaded (`ok`), or could not be: requests that waited are answered now. */
  start(ok: boolean): void {
    this.markStarted(ok);
  }

  /** The chain view's rows, from the rest's provider. */
  setTreeProvider(provider: vscode.TreeDataProvider<unknown>): vscode.Disposable {
    return this.tree.forwardTo(provider);
  }

  registerCommand(id: string, handler: Handler): vscode.Disposable {
    // A command the manifest does not contribute was not registered at activation.
    if (!this.commandIds.has(id)) return vscode.commands.registerCommand(id, handler);
    this.commands.set(id, handler);
    return new vscode.Disposable(() => this.commands.get(id) === handler && this.commands.delete(id));
  }

  registerCodeLensProvider(selector: vscode.DocumentSelector, provider: vscode.CodeLensProvider): vscode.Disposable {
    return this.codeLenses.add(selector, provider, provider.onDidChangeCodeLenses);
  }

  registerDocumentLinkProvider(selector: vscode.DocumentSelector, provider: vscode.DocumentLinkProvider): vscode.Disposable {
    return this.links.add(selector, provider);
  }

  registerHoverProvider(selector: vscode.DocumentSelector, provider: vscode.HoverProvider): vscode.Disposable {
    return this.hovers.add(selector, provider);
  }

  /** Quick fixes only: the kind registered at activation. */
  registerCodeActionsProvider(selector: vscode.DocumentSelector, provider: vscode.CodeActionProvider): vscode.Disposable {
    return this.codeActions.add(selector, provider);
  }

  registerTextDocumentContentProvider(scheme: string, provider: vscode.TextDocumentContentProvider): vscode.Disposable {
    const forward = this.documents.get(scheme);
    return forward ? forward.forwardTo(provider) : vscode.workspace.registerTextDocumentContentProvider(scheme, provider);
  }

  private async run(id: string, args: unknown[]): Promise<unknown> {
    if (!(await this.started)) throw new Error('Instruction Lens could not start: see its output channel.');
    const handler = this.commands.get(id);
    if (!handler) throw new Error(`Instruction Lens has no command ${id}.`);
    return handler(...args);
  }

  /** What every provider whose selector matches the document answers, once the rest is loaded. */
  private async collect<P, T>(targets: Targets<P>, doc: vscode.TextDocument, ask: (p: P) => vscode.ProviderResult<T[]>): Promise<T[]> {
    if (!(await this.started)) return [];
    const out: T[] = [];
    for (const provider of targets.matching(doc)) for (const item of (await ask(provider)) ?? []) if (item) out.push(item);
    return out;
  }

  private forwardCodeLenses(): vscode.CodeLensProvider {
    const from = new WeakMap<vscode.CodeLens, vscode.CodeLensProvider>();
    return {
      onDidChangeCodeLenses: this.codeLenses.onDidChange,
      provideCodeLenses: (doc, token) =>
        this.collect(this.codeLenses, doc, async (p) => {
          const lenses = (await p.provideCodeLenses(doc, token)) ?? [];
          for (const lens of lenses) from.set(lens, p);
          return lenses;
        }),
      resolveCodeLens: (lens, token) => from.get(lens)?.resolveCodeLens?.(lens, token) ?? lens,
    };
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

/** The providers of one kind the rest registered, each with its selector. */
class Targets<P> implements vscode.Disposable {
  private readonly list: { selector: vscode.DocumentSelector; provider: P }[] = [];
  private readonly emitter = new vscode.EventEmitter<void>();
  /** A provider came or went, or one said its answers changed. */
  readonly onDidChange = this.emitter.event;

  add(selector: vscode.DocumentSelector, provider: P, changes?: vscode.Event<void>): vscode.Disposable {
    const entry = { selector, provider };
    this.list.push(entry);
    const subscription = changes?.(() => this.emitter.fire());
    this.emitter.fire();
    return new vscode.Disposable(() => {
      subscription?.dispose();
      const i = this.list.indexOf(entry);
      if (i >= 0) this.list.splice(i, 1);
      this.emitter.fire();
    });
  }

  matching(doc: vscode.TextDocument): P[] {
    return this.list.filter((t) => vscode.languages.match(t.selector, doc) > 0).map((t) => t.provider);
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

/** The chain view's data: nothing until the rest is loaded (the view shows progress meanwhile), then the rest's provider. */
class ForwardTree implements vscode.TreeDataProvider<unknown>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<unknown>();
  readonly onDidChangeTreeData = this.emitter.event;
  private target: vscode.TreeDataProvider<unknown> | undefined;

  constructor(private readonly started: () => Promise<boolean>) {}

  forwardTo(provider: vscode.TreeDataProvider<unknown>): vscode.Disposable {
    this.target = provider;
    const subscription = provider.onDidChangeTreeData?.((e) => this.emitter.fire(e));
    this.emitter.fire(undefined);
    return new vscode.Disposable(() => {
      subscription?.dispose();
      if (this.target === provider) this.target = undefined;
    });
  }

  async getChildren(node?: unknown): Promise<unknown[]> {
    if (!this.target && !(await this.started())) return [];
    return (await this.target?.getChildren(node)) ?? [];
  }

  getTreeItem(node: unknown): vscode.TreeItem | Thenable<vscode.TreeItem> {
    return this.target!.getTreeItem(node);
  }

  getParent(node: unknown): vscode.ProviderResult<unknown> {
    return this.target?.getParent?.(node);
  }

  resolveTreeItem(item: vscode.TreeItem, node: unknown, token: vscode.CancellationToken): vscode.ProviderResult<vscode.TreeItem> {
    return this.target?.resolveTreeItem ? this.target.resolveTreeItem(item, node, token) : item;
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

/** The documents of one scheme: answered by the rest's provider once it is loaded. */
class ForwardDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  private target: vscode.TextDocumentContentProvider | undefined;

  constructor(private readonly started: () => Promise<boolean>) {}

  forwardTo(provider: vscode.TextDocumentContentProvider): vscode.Disposable {
    this.target = provider;
    const subscription = provider.onDidChange?.((uri) => this.emitter.fire(uri));
    return new vscode.Disposable(() => {
      subscription?.dispose();
      if (this.target === provider) this.target = undefined;
    });
  }

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string | undefined> {
    await this.started();
    return (await this.target?.provideTextDocumentContent(uri, token)) ?? undefined;
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
