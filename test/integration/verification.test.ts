import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { InstructionLensApi } from '../../src/extension';
import type { AgentVerification } from '../../src/verify/verify';
import { api, closeEditors, open, selectAgent, showView, until } from './helpers';
import { clickTitleAction, measure, screenshot } from './screenshot';

/** The Claude Code the fidelity suite pins (scripts/agents/install.mjs; the runner installs it). */
function pinnedClaude(): { binary: string; version: string } {
  const root = vscode.extensions.getExtension('instruction-lens.instruction-lens')!.extensionPath;
  const pkg = path.join(root, '.cache', 'agents', 'node_modules', '@anthropic-ai', 'claude-code');
  return { binary: path.join(pkg, 'bin', 'claude.exe'), version: JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8')).version };
}

describe('verify with the installed agent', () => {
  let lens: InstructionLensApi;
  const tooltip = () => String(lens.budgetStatus.item.tooltip ?? '');
  const VERIFY = 'Verify With Installed Agent';
  /**
   * Waits until the chain view's title bar, as the page shows it, has the Verify button or not
   * (with Select Agent, so the bar is drawn). Nothing where no runner reaches the page.
   */
  const verifyButton = async (shown: boolean) => {
    if (!(await measure())) return;
    await until(async () => {
      const buttons = (await measure())!.sidebar.actions;
      return buttons.some((b) => b.startsWith('Select Agent')) && buttons.some((b) => b.startsWith(VERIFY)) === shown;
    }, `the chain view's title bar ${shown ? 'with' : 'without'} the Verify button`);
  };

  before(async () => {
    lens = await api();
    await lens.verifications.clear();
    await selectAgent(lens, 'claude-code');
  });

  after(async () => {
    await lens.verifications.clear();
    await vscode.workspace.getConfiguration('instructionLens').update('agentPaths', undefined, vscode.ConfigurationTarget.Global);
    await closeEditors();
  });

  it('runs the installed Claude Code for the active file: a match, told, recorded for the meter and the chain header; the diff editor shows both sides', async function () {
    this.timeout(300_000);
    const claude = pinnedClaude();
    assert.ok(fs.existsSync(claude.binary), `the pinned Claude Code is installed at ${claude.binary}`);
    await vscode.workspace.getConfiguration('instructionLens').update('agentPaths', { 'claude-code': claude.binary }, vscode.ConfigurationTarget.Global);
    await open('packages/api/src/routes/orders.ts');
    await until(() => lens.model.current?.uri.fsPath.endsWith('orders.ts'), 'the chain of orders.ts');
    assert.match(tooltip(), /\nVerify with the installed Claude Code: the Verify button on the chain view's title bar, or the Command Palette\.\n/);
    assert.doesNotMatch(tooltip(), /verified with/);

    // The meter's click shows the chain view; its title bar has the Verify button.
    await vscode.commands.executeCommand((lens.budgetStatus.item.command as vscode.Command).command);
    await showView(lens);
    await verifyButton(true);
    // Clicked in the page where the runner reaches it; else the command, as the Command Palette runs it.
    const clicked = await clickTitleAction(VERIFY);
    const returned = clicked ? undefined : await vscode.commands.executeCommand<AgentVerification>('instructionLens.verifyWithInstalledAgent');
    const result = returned ?? (await until(() => lens.verifications.last.get('claude-code'), 'the verification to end', 240_000));
    assert.equal(result.status, 'match', JSON.stringify(result, null, 2).slice(0, 3000));
    assert.equal(result.versionRun, claude.version);
    assert.deepEqual(result.phases.map((p) => [p.phase, p.ok]), [['start', true], ['read', true]]);

    const said = `verified with Claude Code ${claude.version} on this machine`;
    await until(() => tooltip().includes(said), 'the meter tooltip to say it was verified');
    await until(() => lens.chainView.view.message?.includes(said), 'the chain header to say it was verified');
    assert.equal(lens.verifications.record(lens.model.profile)?.version, claude.version, 'recorded per agent and version');

    await vscode.commands.executeCommand('instructionLens.showVerification', 'claude-code');
    const diff = await until(() => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputTextDiff && input;
    }, 'the diff editor');
    const [left, right] = await Promise.all([vscode.workspace.openTextDocument(diff.original), vscode.workspace.openTextDocument(diff.modified)]);
    assert.match(left.getText(), /Contents of .*\/CLAUDE\.md \(project instructions, checked into the codebase\)/);
    assert.equal(left.getText(), right.getText(), 'a match: both sides are the same');
    assert.doesNotMatch(left.getText(), /instruction-lens-marker|il-verify-/, 'real paths, no markers');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await vscode.commands.executeCommand('workbench.action.focusSideBar');
    await screenshot('verify');
  });

  it('offers the Verify button only for an agent it can run here', async () => {
    await open('packages/api/src/routes/orders.ts');
    await selectAgent(lens, 'claw-code');
    await until(() => lens.model.current?.profile.id === 'claw-code', 'the claw-code chain');
    assert.doesNotMatch(tooltip(), /Verify with the installed/);
    await showView(lens);
    await verifyButton(false);
    await selectAgent(lens, 'claude-code');
    await until(() => lens.model.current?.profile.id === 'claude-code', 'the Claude Code chain');
    await verifyButton(true);
  });
});
