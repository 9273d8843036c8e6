import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Source } from '../core/model';
import { governedFolder } from '../core/patterns';
import type { Profile } from '../core/profile';
import type { ActiveChainModel, ResolvedChain } from './activeChain';
import { REVEAL_COMMAND } from './chainView';
import { displayPath, escapeMarkdown, injected, onDisk, profileName, quantity, scopeText, STATUS_LABEL } from './format';
import type { Settings } from './settings';
import type { Surface } from './surface';

/** Statuses that mean the agent does read the file (now, on read, or when a match is read). */
const READ = new Set<Source['status']>(['loaded', 'truncated', 'on-read', 'not-matched', 'listed']);

/** One agent's view of an instruction file. */
interface AgentView {
  profile: Profile;
  chain: ResolvedChain;
  /** The file's entry in the chain, when the agent considers it at all. */
  source: Source | undefined;
}

/** An `@path` of the file that an agent follows, with where it leads for each agent. */
interface ImportRef {
  range: vscode.Range;
  target: string;
  written: string;
  views: { profile: Profile; source: Source }[];
}

/**
 * What every enabled agent makes of one instruction file: each agent's chain for the folder
 * the file governs (through the model's cache), and the imports the agents followed.
 */
class InstructionFileFacts {
  constructor(private readonly model: ActiveChainModel) {}

  views(document: vscode.TextDocument): AgentView[] {
    const file = document.uri.fsPath;
    const launchDir = this.model.launchDirFor(document.uri);
    const dir = vscode.Uri.file(governedFolder(file, this.model.profiles.flatMap((p) => p.filePatterns)));
    return this.model.profiles.map((profile) => {
      const chain = this.model.chainFor(profile.id, dir, launchDir);
      const entries = chain.sources.filter((s) => s.path === file);
      return { profile, chain, source: entries.find((s) => READ.has(s.status)) ?? entries[0] };
    });
  }

  /** Each `@path` an agent followed, found the way that agent finds imports (`Profile.importRefs`). */
  imports(document: vscode.TextDocument, views = this.views(document)): ImportRef[] {
    const file = document.uri.fsPath;
    let text: string | undefined;
    const byPlace = new Map<string, ImportRef & { start: number }>();
    for (const { profile, chain } of views) {
      const followed = new Map(chain.sources.filter((s) => s.importedBy === file).map((s) => [s.path, s]));
      if (!followed.size || !profile.importRefs) continue;
      text ??= document.getText();
      for (const ref of profile.importRefs(text)) {
        const target = ref.path.startsWith('~/') ? path.join(chain.home, ref.path.slice(2)) : path.resolve(path.dirname(file), ref.path);
        const source = followed.get(target);
        if (!source) continue;
        const key = `${ref.start}:${ref.end}:${target}`;
        const known = byPlace.get(key);
        if (known) known.views.push({ profile, source });
        else byPlace.set(key, { start: ref.start, range: new vscode.Range(document.positionAt(ref.start), document.positionAt(ref.end)), target, written: ref.written, views: [{ profile, source }] });
      }
    }
    return [...byPlace.values()].sort((a, b) => a.start - b.start).map(({ range, target, written, views: agents }) => ({ range, target, written, views: agents }));
  }
}

class ScopeCodeLensProvider implements vscode.CodeLensProvider {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.emitter.event;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly model: ActiveChainModel,
    private readonly facts: InstructionFileFacts,
  ) {
    this.subscription = model.onDidChange(() => this.emitter.fire());
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    if (document.uri.scheme !== 'file') return [];
    const views = this.facts.views(document);
    const readers = views.filter((v) => v.source && READ.has(v.source.status));
    // The selected agent speaks for the file when it reads it; else the first agent that does.
    const main = readers.find((v) => v.profile.id === this.model.profile.id) ?? readers[0];
    const named = main ? [main, ...readers.filter((v) => v !== main)] : [];
    // One line: a row of lenses would run past the editor's edge on a long path.
    const title = main?.source ? `${readerNames(named)} · ${loadsText(main.source)} · ${appliesText(main.source, main.chain)}` : '$(circle-slash)\u00a0no enabled agent reads this file here';
    const reveal = { title, command: REVEAL_COMMAND, arguments: [document.uri.fsPath, main?.profile.id], tooltip: agentsTooltip(views) };
    const lenses = [new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), reveal)];
    for (const ref of this.facts.imports(document, views)) {
      const missing = ref.views.every((v) => v.source.status === 'missing');
      const first = ref.views[0];
      const where = shorten(displayPath(ref.target, (main ?? views[0]).chain));
      lenses.push(
        new vscode.CodeLens(
          ref.range,
          // A no-break space: the lens drops an ordinary one after the icon.
          missing
            ? { title: `$(error)\u00a0not found: ${where}`, command: '', tooltip: first.source.reason }
            : { title: `→ ${where} · ${STATUS_LABEL[first.source.status]}`, command: 'vscode.open', arguments: [vscode.Uri.file(ref.target)], tooltip: first.source.reason },
        ),
      );
    }
    return lenses;
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}

/** The readers by name, at most two: `Claude Code, Codex CLI`, `Claude Code +3`. */
function readerNames(readers: readonly AgentView[]): string {
  const names = readers.map((v) => profileName(v.profile));
  if (names.length <= 2 && names.join(', ').length <= 32) return names.join(', ');
  return `${names[0]} +${names.length - 1}`;
}

function loadsText(source: Source): string {
  return source.loads === 'start' ? 'loads at start' : source.globs?.length ? 'loads on a matching read' : 'loads on read here';
}

function appliesText(source: Source, chain: ResolvedChain): string {
  const scope = scopeText(source, chain);
  if (source.globs?.length) return `applies to ${shorten(source.globs.length > 1 ? `${source.globs[0]} +${source.globs.length - 1}` : source.globs[0])}`;
  return scope === 'everywhere' ? 'applies everywhere' : `applies to ${shorten(scope)}`;
}

/** A path or glob cut to its last parts when long: `…/routes/admin/**`. */
function shorten(text: string, max = 36): string {
  if (text.length <= max) return text;
  const parts = text.split('/');
  let tail = parts.pop()!;
  while (parts.length && parts[parts.length - 1].length + tail.length + 3 <= max) tail = `${parts.pop()}/${tail}`;
  return `…/${tail}`.length <= max + 2 ? `…/${tail}` : `…${text.slice(-max)}`;
}

/** Every enabled agent and what it does with the file, one line each. */
function agentsTooltip(views: readonly AgentView[]): string {
  const lines = views.map(({ profile, chain, source }) => {
    const name = profileName(profile);
    if (!source) return `${name}: does not read it here.`;
    if (!READ.has(source.status)) return `${name}: ${STATUS_LABEL[source.status]} — ${source.reason}`;
    const { unit } = chain.budget;
    const sent = injected(source, unit) || onDisk(source, unit);
    const scope = scopeText(source, chain);
    return `${name}: ${loadsText(source)}, ${quantity(sent, unit)}, applies ${scope === 'everywhere' ? 'everywhere' : `to ${scope}`} — ${source.reason}`;
  });
  return [...lines, '', 'Click to show it in the chain view.'].join('\n');
}

class ImportLinkProvider implements vscode.DocumentLinkProvider {
  constructor(private readonly facts: InstructionFileFacts) {}

  provideDocumentLinks(document: vscode.TextDocument): vscode.DocumentLink[] {
    return this.facts
      .imports(document)
      .filter((ref) => ref.views.some((v) => v.source.status !== 'missing'))
      .map((ref) => {
        const link = new vscode.DocumentLink(ref.range, vscode.Uri.file(ref.target));
        link.tooltip = `Open ${ref.target}`;
        return link;
      });
  }
}

class ImportHoverProvider implements vscode.HoverProvider {
  constructor(private readonly facts: InstructionFileFacts) {}

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const ref = this.facts.imports(document).find((r) => r.range.contains(position));
    if (!ref) return undefined;
    // An import that leads nowhere has a problem at the same place, whose hover says it all.
    const said = vscode.languages.getDiagnostics(document.uri).some((d) => d.source === 'instruction-lens' && d.range.intersection(ref.range));
    if (said && ref.views.every((v) => v.source.status === 'missing')) return undefined;
    const md = new vscode.MarkdownString();
    md.appendMarkdown('**Import** ');
    md.appendCodeblock(ref.target, 'text');
    for (const { profile, source } of ref.views) {
      md.appendMarkdown(`- **${escapeMarkdown(profileName(profile))}** — ${STATUS_LABEL[source.status]}: ${escapeMarkdown(source.reason)}\n`);
    }
    return new vscode.Hover(md, ref.range);
  }
}

/**
 * On every instruction file: CodeLenses saying what the file governs, when it loads, which
 * agents read it and what it costs (registered only while `instructionLens.codeLens.enabled`),
 * and on each `@import` where it leads; links and hovers on the imports.
 */
export function registerScopeCodeLens(surface: Surface, model: ActiveChainModel, settings: Settings): vscode.Disposable {
  const facts = new InstructionFileFacts(model);
  let registrations: vscode.Disposable | undefined;
  const register = (e?: vscode.ConfigurationChangeEvent) => {
    if (!settings.changed(e, ['codeLens.enabled', 'agents'])) return;
    registrations?.dispose();
    const selector = [...new Set(model.profiles.flatMap((p) => p.filePatterns))].map((pattern) => ({ scheme: 'file', pattern }));
    const parts: vscode.Disposable[] = [
      surface.registerDocumentLinkProvider(selector, new ImportLinkProvider(facts)),
      surface.registerHoverProvider(selector, new ImportHoverProvider(facts)),
    ];
    if (settings.get('codeLens.enabled')) {
      const provider = new ScopeCodeLensProvider(model, facts);
      parts.push(provider, surface.registerCodeLensProvider(selector, provider));
    }
    registrations = vscode.Disposable.from(...parts);
  };
  register();
  const subscription = settings.onDidChange(register);
  return new vscode.Disposable(() => {
    subscription.dispose();
    registrations?.dispose();
  });
}
