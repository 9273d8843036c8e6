import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Source } from '../core/model';
import { governedFolder } from '../core/patterns';
import type { Profile } from '../core/profile';
import type { ActiveChainModel, ResolvedChain } from './activeChain';
import { VIEW_ID } from './chainView';
import { budgetText, displayPath, escapeMarkdown, injected, profileName, scopeText, size, STATUS_LABEL } from './format';
import type { Settings } from './settings';

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
    const top = new vscode.Range(0, 0, 0, 0);
    const lens = (title: string, command = '', args: unknown[] = [], tooltip?: string) =>
      new vscode.CodeLens(top, { title, command, arguments: args, tooltip });
    const readers = views.filter((v) => v.source && READ.has(v.source.status));
    const lenses: vscode.CodeLens[] = [];
    // The selected agent speaks for the file when it reads it; else the first agent that does.
    const main = readers.find((v) => v.profile.id === this.model.profile.id) ?? readers[0];
    if (!main?.source) {
      const own = views.find((v) => v.profile.id === this.model.profile.id) ?? views[0];
      const why = own?.source ? `${own.profile.agent}: ${STATUS_LABEL[own.source.status]} — ${own.source.reason}` : 'No enabled agent reads this file for this folder.';
      lenses.push(lens(`$(circle-slash) no enabled agent reads this file here`, 'instructionLens.selectAgent', [], why));
    } else {
      const { source, chain } = main;
      const scope = scopeText(source, chain);
      lenses.push(lens(source.globs?.length ? `applies to files matching ${scope}` : scope === 'everywhere' ? 'applies everywhere' : `applies to ${scope}`, '', [], source.reason));
      lenses.push(lens(source.loads === 'start' ? 'loads at start' : source.globs?.length ? 'loads when the agent reads a matching file' : 'loads when the agent reads a file here'));
      // The first reader by name (the selected agent when it reads it), the rest counted; all in the tooltip.
      const skipped = views.filter((v) => !readers.includes(v));
      const named = [main, ...readers.filter((v) => v !== main)];
      lenses.push(
        lens(
          `read by ${profileName(main.profile)}${named.length > 1 ? ` +${named.length - 1}` : ''}${skipped.length ? ` · not by ${skipped.length}` : ''}`,
          'instructionLens.selectAgent',
          [],
          [
            `Read by: ${named.map((v) => profileName(v.profile)).join(', ')}`,
            ...skipped.map((v) => `${profileName(v.profile)}: ${v.source ? `${STATUS_LABEL[v.source.status]} — ${v.source.reason}` : 'does not read it here'}`),
          ].join('\n'),
        ),
      );
      const unit = chain.budget.unit;
      const sent = injected(source, unit);
      const share = source.loads === 'start' && chain.budget.limit ? ` · ${Math.round((sent / chain.budget.limit) * 100)}% of ${size(chain.budget.limit, unit)}` : '';
      lenses.push(lens(`${size(sent || (unit === 'bytes' ? source.bytes : source.chars), unit)}${share}`, `${VIEW_ID}.focus`, [], `${profileName(main.profile)}: ${budgetText(chain.budget)} for this folder's chain`));
    }
    for (const ref of this.facts.imports(document, views)) {
      const missing = ref.views.every((v) => v.source.status === 'missing');
      const first = ref.views[0];
      const where = displayPath(ref.target, (main ?? views[0]).chain);
      lenses.push(
        new vscode.CodeLens(
          ref.range,
          missing
            ? { title: `$(error) not found: ${where}`, command: '', tooltip: first.source.reason }
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
export function registerScopeCodeLens(model: ActiveChainModel, settings: Settings): vscode.Disposable {
  const facts = new InstructionFileFacts(model);
  let registrations: vscode.Disposable | undefined;
  const register = (e?: vscode.ConfigurationChangeEvent) => {
    if (!settings.changed(e, ['codeLens.enabled', 'agents'])) return;
    registrations?.dispose();
    const selector = [...new Set(model.profiles.flatMap((p) => p.filePatterns))].map((pattern) => ({ scheme: 'file', pattern }));
    const parts: vscode.Disposable[] = [
      vscode.languages.registerDocumentLinkProvider(selector, new ImportLinkProvider(facts)),
      vscode.languages.registerHoverProvider(selector, new ImportHoverProvider(facts)),
    ];
    if (settings.get('codeLens.enabled')) {
      const provider = new ScopeCodeLensProvider(model, facts);
      parts.push(provider, vscode.languages.registerCodeLensProvider(selector, provider));
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
