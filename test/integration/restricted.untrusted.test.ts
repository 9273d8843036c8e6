// Runs in a window of its own with workspace trust on and the fixture folder not trusted
// (`runIntegrationTests.mjs --untrusted`): everything that reads works, nothing writes, no git.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { InstructionLensApi } from '../../src/extension';
import { api, codeOf, diagnosticsOf, expectTree, open, selectAgent, showView, sleep, until, ws, ORDERS_TREE } from './helpers';
import { measure } from './screenshot';

describe('an untrusted workspace (restricted mode)', () => {
  let lens: InstructionLensApi;

  before(async () => {
    lens = await api();
    await selectAgent(lens, 'claude-code');
  });

  it('is restricted, and the extension is active there', () => {
    assert.equal(vscode.workspace.isTrusted, false);
    assert.ok(vscode.extensions.getExtension('instruction-lens.instruction-lens')?.isActive);
  });

  it('still shows the chain for the active file', async () => {
    await open('packages/api/src/routes/orders.ts');
    await expectTree(lens, ORDERS_TREE);
  });

  it('still reports problems, but offers no fix that would write a file', async () => {
    const file = ws('packages/lib/CLAUDE.md');
    const broken = await until(() => diagnosticsOf(file).find((d) => codeOf(d) === 'import-missing' && d.message.includes('stup.md')), 'the broken import reported');
    // The same query that, in a trusted window, offers "Change to @setup.md" and "Create stup.md".
    // Asked for two seconds: the workbench learns of a new diagnostic a moment after the
    // extension host, and a fix offered even once would be a failure.
    const doc = await vscode.workspace.openTextDocument(file);
    const offered = new Set<string>();
    let answered = 0;
    for (const stop = Date.now() + 2000; Date.now() < stop || !answered; await sleep(100)) {
      // The workbench cancels a query when the problems change meanwhile (a pass publishing): ask again.
      const actions = await vscode.commands
        .executeCommand<(vscode.CodeAction | vscode.Command)[]>('vscode.executeCodeActionProvider', doc.uri, doc.lineAt(broken.range.start.line).range, vscode.CodeActionKind.QuickFix.value)
        .then(
          (a) => a,
          (e: unknown) => {
            if (e instanceof Error && (e.name === 'Canceled' || e.message === 'Canceled')) return undefined;
            throw e;
          },
        );
      if (!actions) continue;
      answered++;
      for (const a of actions) if (('edit' in a && a.edit) || /^(Change|Create|Remove|Move)/.test(a.title)) offered.add(a.title);
    }
    assert.deepEqual([...offered], []);
  });

  it('does not offer to verify with an installed agent', async () => {
    await open('packages/api/src/routes/orders.ts');
    const tooltip = await until(() => lens.budgetStatus.item.tooltip, 'the meter tooltip');
    assert.equal(typeof tooltip, 'string');
    assert.match(String(tooltip), /^Claude Code .* — instructions for orders\.ts\n/);
    assert.doesNotMatch(String(tooltip), /Verify/);
    // The chain view's title bar, as the page shows it: its buttons, without Verify.
    await showView(lens);
    if (await measure()) {
      const m = await until(async () => {
        const x = await measure();
        return x?.sidebar.actions.some((a) => a.startsWith('Select Agent')) && x;
      }, 'the chain view\'s title bar');
      assert.ok(!m.sidebar.actions.some((a) => a.startsWith('Verify')), m.sidebar.actions.join(', '));
    }
    assert.equal(await vscode.commands.executeCommand('instructionLens.verifyWithInstalledAgent'), undefined, 'nothing is run');
  });
});
