import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PartPlace, RenderPart } from '../core/model';
import type { Profile } from '../core/profile';
import { PROFILES } from '../core/profiles';
import type { ActiveChainModel, ResolvedChain } from './activeChain';
import { profileName, workspacePath } from './format';

export const PREVIEW_SCHEME = 'instruction-lens';

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
 * Read-only documents with what an agent injects for the active file: `instruction-lens:/…`
 * without a query follows the selected agent; `?agent=<id>` shows one agent (for comparing).
 * They refresh as the active chain changes.
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
    const active = this.model.current;
    if (!active) return `${RULE} Open a file to see what the agent injects for it ${RULE}\n`;
    const id = new URLSearchParams(uri.query).get('agent');
    const profile = (id && PROFILES.find((p) => p.id === id)) || active.profile;
    const chain = profile.id === active.profile.id ? active.chain : this.model.chainFor(profile.id, active.uri);
    return renderPreview(chain, profile);
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}

/** The preview of the selected agent's prompt. */
const SELECTED_PREVIEW = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: '/Rendered Prompt.md' });

/** The preview of one agent's prompt. */
function agentPreviewUri(profile: Profile): vscode.Uri {
  return vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/${profileName(profile)} Prompt.md`, query: `agent=${encodeURIComponent(profile.id)}` });
}

async function pickProfile(model: ActiveChainModel, title: string, except?: Profile): Promise<Profile | undefined> {
  const items = model.profiles
    .filter((p) => p !== except)
    .map((profile) => ({ profile, label: profileName(profile), description: `${profile.id} · models ${profile.agentVersion}` }));
  return (await vscode.window.showQuickPick(items, { title, placeHolder: 'Agent' }))?.profile;
}

export function registerPreview(model: ActiveChainModel): vscode.Disposable {
  const provider = new PromptPreviewProvider(model);
  return vscode.Disposable.from(
    provider,
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, provider),
    vscode.commands.registerCommand('instructionLens.previewPrompt', async () => {
      const doc = await vscode.workspace.openTextDocument(SELECTED_PREVIEW);
      await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: false, preserveFocus: true });
    }),
    // Ids may be given (from a keybinding's args); otherwise the user picks both agents.
    vscode.commands.registerCommand('instructionLens.compareAgents', async (leftId?: string, rightId?: string) => {
      const byId = (id?: string) => model.profiles.find((p) => p.id === id);
      const left = byId(leftId) ?? (await pickProfile(model, 'Instruction Lens: Compare Two Agents (1/2)'));
      if (!left) return;
      const right = byId(rightId) ?? (await pickProfile(model, `Instruction Lens: Compare ${profileName(left)} with… (2/2)`, left));
      if (!right) return;
      const target = model.current ? path.basename(model.current.uri.fsPath) : 'no file';
      await vscode.commands.executeCommand('vscode.diff', agentPreviewUri(left), agentPreviewUri(right), `${profileName(left)} ↔ ${profileName(right)} (${target})`, { preview: false });
    }),
  );
}
