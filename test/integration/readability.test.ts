import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { InstructionLensApi } from '../../src/extension';
import { profileName } from '../../src/vscode/format';
import { api, closeEditors, open, remove, setting, showView, tooltipOf, treeRows, until, untilTree, write } from './helpers';
import { measure, screenshot, type PageMeasure } from './screenshot';

/** A folder deep enough that its whole path would not fit the side bar. */
const DEEP = 'packages/api/src/routes/admin/reports/quarterly/exports';

/** Measures until `ready` holds (the workbench paints a moment after the extension's change). */
async function measureUntil(ready: (m: PageMeasure) => unknown, what: string): Promise<PageMeasure> {
  let last: PageMeasure | undefined;
  try {
    // The workbench asks for CodeLenses again a while after an editor opens: give it time.
    return await until(async () => {
      last = await measure();
      return last && ready(last) ? last : false;
    }, what, 20_000);
  } catch (e) {
    const picture = await screenshot(`readability-failed-${what}`).catch(() => undefined);
    assert.fail(`${(e as Error).message}\nthe page showed (${picture ?? 'no screenshot'}): ${JSON.stringify(last, null, 1)}\n${await extensionState()}`);
  }
}

/**
 * What the extension itself holds when the page does not show what a test waits for: the page
 * may be behind the extension (the workbench did not ask again) or the extension wrong.
 */
async function extensionState(): Promise<string> {
  const lens = await api();
  const doc = vscode.window.activeTextEditor?.document;
  const lenses = doc ? await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri).then((l) => l.map((x) => x.command?.title), (err: Error) => err.message) : 'no active editor';
  return [
    `the extension: agent ${lens.model.profile.id} of ${lens.model.profiles.map((p) => p.id).join(', ')}; active ${doc?.uri.fsPath ?? 'none'}`,
    `its CodeLenses now: ${JSON.stringify(lenses)}`,
    `its chain view rows: ${JSON.stringify(treeRows(lens))}`,
  ].join('\n');
}

/** What the side bar's rows show, `label — description`, as the page renders them. */
function rendered(m: PageMeasure): string[] {
  return m.rows.map((r) => `${r.label} — ${r.description}`);
}

// The user-visible promise of a narrow side bar: measured in the real page, at VS Code's default
// window size and side bar width, with Playwright (through the runner).
describe('readable at the default window size', function () {
  // Each test waits for the workbench to paint, up to 20 s a measure.
  this.timeout(60_000);
  let lens: InstructionLensApi;

  before(async function () {
    if (!(await measure())) this.skip(); // the desktop runner takes no measures
    lens = await api();
    await setting('agents', []);
    await lens.model.selectAgent('claude-code');
    write(`${DEEP}/CLAUDE.md`, 'Exports stream CSV.\n\n@../../../../../../../../docs/missing-export-guide.md\n');
    write(`${DEEP}/.claude/rules/background-jobs.md`, '---\npaths:\n  - "**/*.{csv,parquet,jsonl}.generated.ts"\n---\nQueue it.\n');
    write(`${DEEP}/streamQuarterlyRevenueByRegion.ts`, 'export {};\n');
  });

  after(async () => {
    if (!lens) return;
    await closeEditors();
    await lens.model.selectAgent('claude-code');
    remove('packages/api/src/routes/admin');
  });

  it('cuts no row of the chain view, however deep the file', async () => {
    await open(`${DEEP}/streamQuarterlyRevenueByRegion.ts`);
    await untilTree(lens, (rows) => rows.some((r) => r.startsWith('Not loaded')), 'the chain with its not loaded files');
    await showView(lens);
    const expected = treeRows(lens);
    const m = await measureUntil((x) => x.rows.length === expected.length, 'every row rendered');
    assert.deepEqual(m.window, { width: 1600, height: 1000 });
    // Nothing resized the side bar: VS Code's default, about 300 px.
    assert.ok(m.sidebar.width > 200 && m.sidebar.width <= 320, `side bar ${m.sidebar.width} px`);
    assert.deepEqual(rendered(m), expected.map((r) => r.trim()), 'the page shows the tree the extension built');
    assert.deepEqual(m.rows.filter((r) => !r.fits || !r.descriptionFits), [], 'rows cut at the side bar\'s edge');
    assert.ok(m.sidebar.titleFits, `the view title "${m.sidebar.title}" is cut`);
    // Files that never load are apart, each with its reason word, not under "At start".
    const notLoaded = expected.slice(expected.findIndex((r) => r.startsWith('Not loaded')));
    assert.ok(notLoaded.some((r) => /^ {2}missing-export-guide\.md — missing$/.test(r)), notLoaded.join('\n'));
    assert.ok(notLoaded.some((r) => /^ {2}background-jobs\.md — not matched$/.test(r)), notLoaded.join('\n'));
  });

  it('shows a long file name whole, for every agent that lists it', async () => {
    // File names as long as real repositories give them. VS Code's chat names a
    // `*.instructions.md` by what comes before the suffix every such file shares; so do the rows.
    const rule = `${DEEP}/.claude/rules/database-migrations-policy.md`;
    const instructions = '.github/instructions/frontend-components.instructions.md';
    write(rule, '---\npaths:\n  - "**/*.ts"\n---\nMigrations are reversible.\n');
    write(instructions, '---\napplyTo: "**/*.ts"\n---\nOne component a file.\n');
    try {
      await open(`${DEEP}/streamQuarterlyRevenueByRegion.ts`);
      await showView(lens);
      for (const [agent, file, label] of [
        ['claude-code', rule, 'database-migrations-policy.md'],
        ['copilot', instructions, 'frontend-components'],
      ]) {
        await lens.model.selectAgent(agent);
        const row = await untilTree(lens, (rows) => rows.some((r) => r.trim().startsWith(`${label} — `)), `${agent}'s chain with ${label}`);
        const shown = row.find((r) => r.trim().startsWith(`${label} — `))!.trim();
        assert.ok(tooltipOf(lens, shown).startsWith(`**${file}**`), `the tooltip names the whole path: ${tooltipOf(lens, shown)}`);
        const expected = treeRows(lens);
        const m = await measureUntil((x) => x.rows.length === expected.length && x.rows.some((r) => r.label === label), `${label} rendered`);
        assert.deepEqual(m.rows.filter((r) => !r.fits), [], `labels cut at the side bar's edge (${agent}): ${JSON.stringify(m.rows)}`);
      }
    } finally {
      remove(rule);
      remove('.github');
    }
  });

  it('keeps each CodeLens within the editor, also on a long path', async () => {
    await lens.model.selectAgent('claude-code');
    for (const file of ['CLAUDE.md', `${DEEP}/.claude/rules/background-jobs.md`, `${DEEP}/CLAUDE.md`]) {
      await closeEditors();
      await open(file);
      const m = await measureUntil((x) => x.codeLenses.some((l) => l.text.startsWith('Claude Code')), `the CodeLens of ${file}`);
      assert.deepEqual(m.codeLenses.filter((l) => !l.fits), [], `a CodeLens of ${file} runs past the editor`);
      if (file === `${DEEP}/CLAUDE.md`) assert.ok(m.codeLenses.some((l) => l.text.includes(' not found: docs/missing-export-guide.md')), m.codeLenses.map((l) => l.text).join('\n'));
    }
  });

  it('names the agent in the meter, for every agent', async () => {
    await open('packages/api/src/routes/orders.ts');
    for (const profile of lens.model.profiles) {
      await lens.model.selectAgent(profile.id);
      const m = await measureUntil((x) => x.statusBar.some((i) => i.id.endsWith('instructionLens.budget') && i.text.startsWith(`${profileName(profile)} · `)), `the meter for ${profile.id}`);
      const meter = m.statusBar.find((i) => i.id.endsWith('instructionLens.budget'))!;
      assert.match(meter.text, /· (.+ · no limit|.+ \/ .+)$/, 'used, then the limit or "no limit"');
    }
  });

  it('has an "Instruction Lens" output channel', async () => {
    assert.equal(lens.log.name, 'Instruction Lens');
    lens.log.show(true);
    await measureUntil((x) => x.panel.includes('Instruction Lens'), 'the output channel in the panel');
    await vscode.commands.executeCommand('workbench.action.closePanel');
  });
});
