import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PartPlace, RenderPart } from '../core/model';
import type { Profile } from '../core/profile';
import { PROFILES } from '../core/profiles';
import type { ActiveChainModel, ResolvedChain } from './activeChain';
import { profileName, profileSummary, workspacePath } from './format';
import { PREVIEW_SCHEME } from './ids';
import type { Surface } from './surface';

export { PREVIEW_SCHEME };

/** Every line we add starts and ends with this, so it cannot be mistaken for the agent's text. */
const RULE = '────';

const PLACE: Record<PartPlace, string> = {
  system: 'system prompt',
  user: 'first user message',
  'tool-result': 'inside the tool result',
  'after-tool-result': 'after the tool result',
  message: 'a message of its own',
};

/** The line that heads one section of the preview. */
function sectionHeading(loads: 'at start' | 'on read', place: PartPlace): string {
  return `${RULE} ${loads} · ${PLACE[place]} ${RULE}`;
}

/**
 * The text one agent injects for a file, as a document: a title line, then one section per
 * render part, each a heading line of ours followed by the part's text verbatim. Sections are
 * joined by one line break, so a part's text is exactly what lies between its heading's line
 * break and the line break before the next heading (or the end).
 */
export function renderPreview(chain: ResolvedChain, profile: Profile): string {
  const where = (p: string) => workspacePath(p, chain.home);
  const sections = [`${RULE} ${profileName(profile)} ${profile.agentVersion} · ${where(chain.target)} · launched in ${where(chain.launchDir)} ${RULE}`];
  if (chain.fatal) sections.push(`${RULE} ${chain.fatal} ${RULE}`);
  const add = (loads: 'at start' | 'on read', parts: RenderPart[], none: string) => {
    if (!parts.length) sections.push(`${RULE} ${loads} · ${none} ${RULE}`);
    for (const part of parts) sections.push(`${sectionHeading(loads, part.where)}\n${part.text}`);
  };
  add('at start', chain.start, 'nothing is injected');
  add('on read', chain.onRead, 'nothing more is injected when the agent reads this file');
  return sections.join('\n');
}

/**
 * Read-only documents with what one agent injects for one file: `instruction-lens:/<name>?agent=<id>&file=<path>`.
 * The name, which the tab shows, says which file and which agent. They refresh as the chains
 * change (edits, saves, settings), and stay on their agent and file when the selection moves.
 */
class PromptPreviewProvider implements vscode.TextDocumentContentProvider {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly model: ActiveChainModel) {
    this.subscription = model.onDidChange(() => {
      for (const doc of vscode.workspace.textDocuments) if (doc.uri.scheme === PREVIEW_SCHEME) this.emitter.fire(doc.uri);
    });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const query = new URLSearchParams(uri.query);
    const profile = PROFILES.find((p) => p.id === query.get('agent'));
    const file = query.get('file');
    if (!profile || !file) return `${RULE} Open a file to see what the agent injects for it ${RULE}\n`;
    return renderPreview(this.model.chainFor(profile.id, vscode.Uri.file(file)), profile);
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}

/**
 * The preview of one agent's prompt for one file, named for its tab: `orders.ts · Claude Code
 * prompt` (the file first and no extension of its own, so the name's end cannot pick a language).
 */
export function previewUri(profile: Profile, file: vscode.Uri): vscode.Uri {
  return vscode.Uri.from({
    scheme: PREVIEW_SCHEME,
    path: `/${path.basename(file.fsPath)} · ${profileName(profile)} prompt`,
    query: new URLSearchParams({ agent: profile.id, file: file.fsPath }).toString(),
  });
}

async function openPreview(uri: vscode.Uri, options: vscode.TextDocumentShowOptions): Promise<void> {
  // Markdown: the instruction files are, so headings and lists read as they do there.
  const doc = await vscode.languages.setTextDocumentLanguage(await vscode.workspace.openTextDocument(uri), 'markdown');
  await vscode.window.showTextDocument(doc, options);
}

async function pickProfile(model: ActiveChainModel, title: string, except?: Profile): Promise<Profile | undefined> {
  const items = model.profiles
    .filter((p) => p !== except)
    .map((profile) => ({ profile, label: profileName(profile), detail: profileSummary(profile) }));
  return (await vscode.window.showQuickPick(items, { title, placeHolder: 'Agent' }))?.profile;
}

export function registerPreview(surface: Surface, model: ActiveChainModel): vscode.Disposable {
  const provider = new PromptPreviewProvider(model);
  return vscode.Disposable.from(
    provider,
    surface.registerTextDocumentContentProvider(PREVIEW_SCHEME, provider),
    // In the active editor group, as a tab of its own: the preview is read in full, not beside.
    surface.registerCommand('instructionLens.previewPrompt', async () => {
      const active = await model.settled();
      if (!active) {
        void vscode.window.showInformationMessage('Open a file first: the preview shows what the agent injects for it.');
        return;
      }
      await openPreview(previewUri(active.profile, active.uri), { viewColumn: vscode.ViewColumn.Active, preview: false });
    }),
    // Ids may be given (from a keybinding's args); otherwise the user picks both agents.
    surface.registerCommand('instructionLens.compareAgents', async (leftId?: string, rightId?: string) => {
      const active = await model.settled();
      if (!active) {
        void vscode.window.showInformationMessage('Open a file first: the comparison shows what two agents inject for it.');
        return;
      }
      const byId = (id?: string) => model.profiles.find((p) => p.id === id);
      const left = byId(leftId) ?? (await pickProfile(model, 'Instruction Lens: Compare Two Agents (1/2)'));
      if (!left) return;
      const right = byId(rightId) ?? (await pickProfile(model, `Instruction Lens: Compare ${profileName(left)} with… (2/2)`, left));
      if (!right) return;
      const target = path.basename(active.uri.fsPath);
      await vscode.commands.executeCommand('vscode.diff', previewUri(left, active.uri), previewUri(right, active.uri), `${profileName(left)} ↔ ${profileName(right)} (${target})`, { preview: false });
    }),
  );
}
