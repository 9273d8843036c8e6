import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { InstructionLensApi } from '../../src/extension';
import { api, closeEditors, codeOf, diagnosticsOf, open, remove, restoreSetting, selectAgent, setting, sleep, treeRows, until, untilTree, workspaceDir, write, ws } from './helpers';
import { measure } from './screenshot';

// What a user's disk does to a running extension: folders deleted under it, files it cannot
// read, a branch switch replacing every instruction file, a hostile tree. None of it may show an
// error notification or a stack trace; the views say what happened and recover.

const root = path.dirname(workspaceDir);
const second = path.join(root, 'second');

/** Whether this process is refused a file without read permission (not so for root with its usual capabilities). */
function permissionsBind(): boolean {
  const probe = path.join(root, 'mode-probe');
  fs.writeFileSync(probe, 'x');
  fs.chmodSync(probe, 0o000);
  try {
    fs.readFileSync(probe);
    return false;
  } catch {
    return true;
  } finally {
    fs.rmSync(probe, { force: true });
  }
}

/** The notification toasts the page shows now (undefined where the runner takes no measures). */
async function toasts(): Promise<string[] | undefined> {
  return (await measure())?.notifications;
}

/** The text of the `.log` files in a folder (the extension's own log, or the extension host's). */
function logsIn(dir: string): string {
  if (!fs.existsSync(dir)) return '';
  return fs.readdirSync(dir).filter((f) => f.endsWith('.log')).map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('\n');
}

/**
 * Watches for what a user would see go wrong from the moment it is made: a new notification toast;
 * in the extension's log an error; in the extension host's log an error naming this extension or
 * a stack trace through it.
 */
async function watchForErrors(lens: InstructionLensApi): Promise<{ check(what: string): Promise<void> }> {
  const own = lens.logUri.fsPath;
  const host = path.dirname(own);
  const before = new Set((await toasts()) ?? []);
  const [ownLength, hostLength] = [logsIn(own).length, logsIn(host).length];
  return {
    async check(what: string) {
      const shown = ((await toasts()) ?? []).filter((t) => !before.has(t));
      assert.deepEqual(shown, [], `${what}: a notification was shown`);
      const ownBad = logsIn(own).slice(ownLength).split('\n').filter((l) => /\[error\]|^\s+at /.test(l));
      const hostBad = logsIn(host).slice(hostLength).split('\n').filter((l) => (/\[error\]/.test(l) && /instruction-?lens/i.test(l)) || /^\s+at .*dist[\\/]extension\.js/.test(l));
      assert.deepEqual([...ownBad, ...hostBad], [], `${what}: the log holds an error or a stack trace`);
    },
  };
}

describe('robustness: the disk changing under the extension', () => {
  let lens: InstructionLensApi;

  before(async () => {
    lens = await api();
    await selectAgent(lens, 'claude-code');
  });

  afterEach(async () => {
    await closeEditors();
  });

  describe('deleting folders', () => {
    let kept: string;

    before(() => {
      // The second workspace folder as it is now, to put back afterwards.
      kept = fs.mkdtempSync(path.join(root, 'second-kept-'));
      fs.cpSync(second, kept, { recursive: true });
    });

    after(() => {
      fs.rmSync(second, { recursive: true, force: true });
      fs.cpSync(kept, second, { recursive: true });
      fs.rmSync(kept, { recursive: true, force: true });
    });

    it('a deleted workspace folder: no error, the chain view says so, and all comes back with the folder', async function () {
      this.timeout(60_000);
      write(path.join(second, 'CLAUDE.md'), 'Second rules.\n\nSee @gone.md\n');
      write(path.join(second, 'src', 'main.ts'), 'export {};\n');
      await open(path.join(second, 'src', 'main.ts'));
      await untilTree(lens, (rows) => rows.includes('  CLAUDE.md — loaded'), 'the second folder\'s chain');
      await until(() => diagnosticsOf(path.join(second, 'CLAUDE.md')).some((d) => codeOf(d) === 'import-missing'), 'its broken import reported');
      const errors = await watchForErrors(lens);

      fs.rmSync(second, { recursive: true, force: true });
      await until(() => /main\.ts is no longer on disk: the workspace folder second was deleted/.test(lens.chainView.view.message ?? ''), 'the view to say the folder is gone');
      await untilTree(lens, (rows) => !rows.some((r) => r.includes('CLAUDE.md')), 'the deleted CLAUDE.md gone from the tree');
      await until(() => diagnosticsOf(path.join(second, 'CLAUDE.md')).length === 0, 'the deleted file\'s diagnostics cleared');
      await sleep(500);
      await errors.check('deleting the workspace folder');

      // The folder comes back (a restore, a checkout, a re-clone): the chain and its problems with it.
      write(path.join(second, 'CLAUDE.md'), 'Second rules.\n\nSee @gone.md\n');
      write(path.join(second, 'src', 'main.ts'), 'export {};\n');
      await untilTree(lens, (rows) => rows.includes('  CLAUDE.md — loaded'), 'the chain back');
      await until(() => !/no longer on disk/.test(lens.chainView.view.message ?? ''), 'the notice gone');
      await until(() => diagnosticsOf(path.join(second, 'CLAUDE.md')).some((d) => codeOf(d) === 'import-missing'), 'its broken import reported again');
      // Later edits in the folder that came back are seen too: VS Code's watcher of a deleted
      // folder does not come back by itself.
      await sleep(1500);
      write(path.join(second, 'CLAUDE.md'), 'Second rules.\n\nSee @gone.md and @also-gone.md\n');
      await until(() => diagnosticsOf(path.join(second, 'CLAUDE.md')).filter((d) => codeOf(d) === 'import-missing').length === 2, 'an edit after the folder came back seen', 10_000);
      write(path.join(second, 'rules.md'), 'Shared rules.\n');
      write(path.join(second, 'CLAUDE.md'), 'Second rules.\n\nSee @rules.md\n');
      await until(() => !diagnosticsOf(path.join(second, 'CLAUDE.md')).some((d) => codeOf(d) === 'import-missing'), 'the fixed import seen', 10_000);
      await errors.check('the workspace folder back');
    });

    it('the deleted folder of the active file: no error, the view says so, the rest of the chain stays, and it comes back', async function () {
      this.timeout(60_000);
      const dir = ws('packages/api/src/routes');
      const saved = new Map(fs.readdirSync(dir).map((name) => [name, fs.readFileSync(path.join(dir, name))]));
      await open('packages/api/src/routes/orders.ts');
      await untilTree(lens, (rows) => rows.includes('  CLAUDE.md — on read · api'), 'the chain of orders.ts');
      const errors = await watchForErrors(lens);
      try {
        fs.rmSync(ws('packages/api/src'), { recursive: true, force: true });
        await until(() => /orders\.ts is no longer on disk: the folder packages\/api\/src was deleted/.test(lens.chainView.view.message ?? ''), 'the view to say the folder is gone');
        // What the agent would load for a file there is still what it was: the folders above are intact.
        assert.ok(treeRows(lens).includes('  CLAUDE.md — on read · api'), treeRows(lens).join('\n'));
        await sleep(500);
        await errors.check('deleting the active file\'s folder');
      } finally {
        for (const [name, bytes] of saved) write(path.join(dir, name), bytes.toString('utf8'));
      }
      await until(() => !/no longer on disk/.test(lens.chainView.view.message ?? ''), 'the notice gone once the folder is back');
      await errors.check('the folder back');
    });
  });

  describe('files it cannot read', () => {
    const conventions = ws('docs/conventions.md');
    const apiClaude = ws('packages/api/CLAUDE.md');
    let texts: Map<string, string>;

    before(() => {
      texts = new Map([conventions, apiClaude].map((f) => [f, fs.readFileSync(f, 'utf8')]));
    });

    afterEach(async () => {
      // The file goes, then comes back as a separate change: once in four runs, no event at all
      // reached the extension for a removal and re-creation made within milliseconds of the case's
      // own (a file made, then its mode changed), and the next test saw the old chain.
      for (const file of texts.keys()) fs.rmSync(file, { recursive: true, force: true });
      await sleep(400);
      for (const [file, text] of texts) write(file, text);
    });

    // A FIFO and a folder where a file is expected fail for everyone. A file's mode stops only a user
    // the permissions bind: as root the runner starts VS Code without the capabilities that let root
    // read any file (scripts/runIntegrationTests.mjs); where neither holds, that case cannot be made.
    const cases: { name: string; make: (file: string) => void }[] = [
      { name: 'a FIFO (opening it would block)', make: (file) => execFileSync('mkfifo', [file]) },
      ...(permissionsBind() ? [{ name: 'a file without read permission', make: (file: string) => (write(file, 'Secret.\n'), fs.chmodSync(file, 0o000)) }] : []),
    ];
    for (const { name, make } of cases) {
      it(`an imported file becoming ${name}: a clear diagnostic, the rest of the chain still shown`, async function () {
        this.timeout(30_000);
        await open('packages/api/src/routes/orders.ts');
        await untilTree(lens, (rows) => rows.includes('    conventions.md — loaded'), 'the chain of orders.ts');
        const errors = await watchForErrors(lens);
        fs.rmSync(conventions);
        make(conventions);
        const rows = await untilTree(lens, (r) => r.some((x) => /^ +conventions\.md — unreadable$/.test(x)), 'conventions.md shown as unreadable');
        assert.ok(rows.includes('  CLAUDE.md — loaded') && rows.includes('  CLAUDE.md — on read · api'), rows.join('\n'));
        const d = await until(() => diagnosticsOf(conventions).find((x) => codeOf(x) === 'unreadable'), 'an unreadable diagnostic on conventions.md');
        assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
        assert.match(d.message, /cannot read it|skips it/);
        await errors.check(name);
      });
    }

    it('a folder where an instruction file was: the rest of the chain still shown, no error', async function () {
      this.timeout(30_000);
      await open('packages/api/src/routes/orders.ts');
      // As the test before left it once its files were put back (conventions.md readable again).
      await untilTree(lens, (rows) => rows.includes('  CLAUDE.md — on read · api') && rows.includes('    conventions.md — loaded'), 'the chain of orders.ts');
      const errors = await watchForErrors(lens);
      fs.rmSync(apiClaude);
      write(path.join(apiClaude, 'notes.md'), 'A folder named CLAUDE.md.\n');
      const rows = await untilTree(lens, (r) => !r.includes('  CLAUDE.md — on read · api'), 'the folder no longer read as the CLAUDE.md');
      assert.ok(rows.includes('  CLAUDE.md — loaded') && rows.includes('    conventions.md — loaded'), rows.join('\n'));
      await sleep(500);
      await errors.check('a folder named CLAUDE.md');
    });
  });

  describe('a branch switch', () => {
    const repo = ws('branchy');
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo, stdio: 'ignore' });
    /** The files on each branch: every instruction file differs, some exist on one branch only. */
    const BRANCHES: Record<string, Record<string, string>> = {
      one: {
        'CLAUDE.md': '# One\n\nSee @one-missing.md\n\nDocs: @docs/one.md\n',
        'AGENTS.md': 'One agents.\n',
        '.claude/rules/style.md': '---\npaths: ["src/**"]\n---\nOne style.\n',
        'src/CLAUDE.md': 'One src.\n',
        'docs/one.md': 'One docs, and @nothing.md\n',
      },
      two: {
        'CLAUDE.md': '# Two\n\nRead @docs/two.md first.\n\nThen @two-missing.md\n',
        'AGENTS.md': 'Two agents, longer than before.\n',
        '.claude/rules/lint.md': '---\npaths: ["src/**"]\n---\nTwo lint.\n',
        'src/CLAUDE.md': 'Two src.\n',
        'docs/two.md': 'Two docs.\n',
      },
    };
    const problems = () => vscode.languages.getDiagnostics().filter(([uri]) => uri.fsPath.startsWith(repo + path.sep)).flatMap(([uri, ds]) => ds.filter((d) => d.source === 'instruction-lens').map((d) => `${path.relative(repo, uri.fsPath)}:${d.range.start.line + 1} ${codeOf(d)}`)).sort();

    before(async () => {
      // Claude Code only: what the other agents say of a repository nested in a folder that is not one is not the point here.
      await setting('agents', ['claude-code']);
      fs.mkdirSync(repo);
      git('init', '-q', '-b', 'one');
      for (const [branch, files] of Object.entries(BRANCHES)) {
        if (branch !== 'one') {
          git('checkout', '-q', '--orphan', branch);
          git('rm', '-rfq', '.');
        }
        for (const [rel, text] of Object.entries(files)) write(path.join(repo, rel), text);
        write(path.join(repo, 'src/main.ts'), 'export {};\n');
        git('add', '-A');
        git('commit', '-qm', branch);
      }
      git('checkout', '-q', 'one');
    });

    after(async () => {
      remove(repo);
      await restoreSetting('agents');
    });

    it('replacing every instruction file at once: a refresh or two, and the chain and the diagnostics are the new branch\'s', async function () {
      this.timeout(30_000);
      await open(path.join(repo, 'src/main.ts'));
      await untilTree(lens, (rows) => rows.includes('    style.md — on read') || rows.includes('  style.md — on read'), 'branch one\'s chain');
      const ONE = ['AGENTS.md:1 not-loaded', 'CLAUDE.md:3 import-missing', 'docs/one.md:1 import-missing'];
      await until(() => JSON.stringify(problems()) === JSON.stringify(ONE), 'branch one\'s problems').catch(() => assert.deepEqual(problems(), ONE));
      const before = treeRows(lens);
      await sleep(1000);
      let refreshes = 0;
      const counting = lens.model.onDidChange(() => refreshes++);
      const errors = await watchForErrors(lens);
      try {
        git('checkout', '-q', 'two');
        await untilTree(lens, (rows) => rows.some((r) => r.includes('lint.md')), 'branch two\'s chain');
        const TWO = ['AGENTS.md:1 not-loaded', 'CLAUDE.md:5 import-missing'];
        await until(() => JSON.stringify(problems()) === JSON.stringify(TWO), 'branch two\'s problems').catch(() => assert.deepEqual(problems(), TWO));
        await sleep(1500);
      } finally {
        counting.dispose();
      }
      const rows = treeRows(lens);
      assert.ok(!rows.some((r) => r.includes('style.md') || r.includes('one.md')), rows.join('\n'));
      assert.ok(rows.some((r) => /^\s+two\.md — /.test(r)), rows.join('\n'));
      assert.notDeepEqual(rows, before);
      // What the tree shows is what a fresh resolve of the new files gives.
      await vscode.commands.executeCommand('instructionLens.refresh');
      assert.deepEqual(treeRows(lens), rows);
      // VS Code's watcher may hand one checkout's events over in two batches further apart than
      // the debounce (seen under load: 0.7 s apart, the second chain the same as the first), as
      // the thousands-of-changes burst in watcher.test.ts allows; more would be refreshing per file.
      assert.ok(refreshes >= 1 && refreshes <= 2, `the switch caused ${refreshes} refreshes`);
      await errors.check('the branch switch');
    });
  });

  describe('a session of every command', () => {
    const LIB = ws('packages/lib/CLAUDE.md');
    let libText: string;

    before(() => {
      libText = fs.readFileSync(LIB, 'utf8');
    });

    after(async () => {
      await vscode.workspace.getConfiguration('instructionLens').update('agentPaths', undefined, vscode.ConfigurationTarget.Global);
      await lens.verifications.clear();
      write(LIB, libText);
    });

    it('writes nothing, quick fixes offered included; a picked quick fix changes its file only', async function () {
      this.timeout(300_000);
      const folders = [workspaceDir, second, path.join(root, 'home')];
      const hashBefore = hashTree(folders);
      const commands = (vscode.extensions.getExtension('instruction-lens.instruction-lens')!.packageJSON as { contributes: { commands: { command: string }[] } }).contributes.commands.map((c) => c.command);
      assert.ok(commands.length >= 9, commands.join(', '));

      // Every quick fix offered anywhere in the workspace, asked for and not picked.
      await open('packages/lib/CLAUDE.md');
      await until(() => diagnosticsOf(LIB).length >= 3, 'the diagnostics of packages/lib/CLAUDE.md');
      let offered = 0;
      const unasked: string[] = [];
      for (const [uri, ds] of vscode.languages.getDiagnostics()) {
        const ours = ds.filter((x) => x.source === 'instruction-lens');
        if (!ours.length) continue;
        for (const d of ours) {
          try {
            const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, d.range, vscode.CodeActionKind.QuickFix.value);
            offered += actions.length;
          } catch (e) {
            // VS Code opens no editor model for some files (a folder, a binary): no quick fix can be asked for there.
            unasked.push(`${path.relative(root, uri.fsPath)}: ${(e as Error).message}`);
          }
        }
      }
      // packages/lib/CLAUDE.md's three fixes at least (the workbench learns of a diagnostic a moment after the extension host: ask until they come).
      const libFixes = await until(async () => {
        const doc = await vscode.workspace.openTextDocument(LIB);
        const titles = new Set<string>();
        for (const line of [2, 4, 6]) for (const a of await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', doc.uri, doc.lineAt(line).range, vscode.CodeActionKind.QuickFix.value)) titles.add(a.title);
        return titles.size >= 3 && titles;
      }, 'the quick fixes of packages/lib/CLAUDE.md');
      offered += libFixes.size;
      assert.ok(offered >= 3, `quick fixes offered: ${offered}; not asked: ${unasked.join('; ')}`);

      // The verify command runs the pinned Claude Code, as its own test does.
      const claude = path.join(vscode.extensions.getExtension('instruction-lens.instruction-lens')!.extensionPath, '.cache', 'agents', 'node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe');
      if (fs.existsSync(claude)) await vscode.workspace.getConfiguration('instructionLens').update('agentPaths', { 'claude-code': claude }, vscode.ConfigurationTarget.Global);
      await open('packages/api/src/routes/orders.ts');
      await untilTree(lens, (rows) => rows.includes('  CLAUDE.md — on read · api'), 'the chain of orders.ts');
      const node = lens.chainView.provider.find(ws('packages/api/CLAUDE.md'));
      const args: Record<string, unknown[]> = {
        'instructionLens.revealSource': [node],
        'instructionLens.revealInChain': [ws('packages/api/CLAUDE.md'), 'claude-code'],
      };
      const ran: string[] = [];
      for (const command of commands) {
        await dismissing(vscode.commands.executeCommand(command, ...(args[command] ?? [])));
        ran.push(command);
        if (!vscode.window.activeTextEditor?.document.uri.fsPath.endsWith('orders.ts')) await open('packages/api/src/routes/orders.ts');
      }
      // The picker paths of the commands that take ids, too.
      await dismissing(vscode.commands.executeCommand('instructionLens.compareAgents', 'claude-code', 'codex'));
      await closeEditors();
      await sleep(500);
      assert.deepEqual(diffTrees(hashBefore, hashTree(folders)), [], `the commands ${ran.join(', ')} wrote`);

      // One quick fix picked: only its file changes.
      const doc = await vscode.workspace.openTextDocument(LIB);
      const fix = await until(async () => {
        const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', doc.uri, doc.lineAt(2).range, vscode.CodeActionKind.QuickFix.value);
        return actions.find((a) => a.title === 'Change to @setup.md');
      }, 'the quick fix');
      assert.ok(await vscode.workspace.applyEdit(fix.edit!));
      assert.ok(await doc.save());
      assert.deepEqual(diffTrees(hashBefore, hashTree(folders)), [path.relative(root, LIB)]);
    });
  });
});

describe('robustness: the hostile tree in the workspace', () => {
  const tree = ws('hostile');
  let lens: InstructionLensApi;
  let deepest: string;

  before(async function () {
    this.timeout(60_000);
    lens = await api();
    await selectAgent(lens, 'claude-code');
    // scripts/hostileTree.mjs as the CLI's tests build it: the 200 MB (sparse) file, the 2,000-deep
    // import chain, the 500 nested folders, the 5,000 instruction files, the FIFO, loops and links out.
    const script = path.join(vscode.extensions.getExtension('instruction-lens.instruction-lens')!.extensionPath, 'scripts', 'hostileTree.mjs');
    const code = `const { buildHostileTree } = await import(${JSON.stringify(script)}); console.log(buildHostileTree(${JSON.stringify(tree)}).deepest);`;
    deepest = execFileSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8', env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } }).trim();
  });

  after(async function () {
    // Deleting the tree (5,000 instruction files, 500 nested folders) took 4-17 s at load averages
    // of 8-15, and the extension 3-5 s more to clear its problems: the 30 s are the extension's,
    // counted once the files are gone. Deleted without holding this thread (the extension host's),
    // as a user's `rm` in a terminal does: a synchronous delete held the extension meanwhile.
    this.timeout(150_000);
    await closeEditors();
    await fs.promises.rm(tree, { recursive: true, force: true });
    await until(() => !vscode.languages.getDiagnostics().some(([uri, ds]) => uri.fsPath.startsWith(tree + path.sep) && ds.length), 'the tree\'s diagnostics gone', 30_000);
  });

  it('shows the chain of the deepest file and the planted problems as diagnostics, and answers meanwhile', async function () {
    this.timeout(120_000);
    const errors = await watchForErrors(lens);
    // The event loop's longest stall while the extension works, and a command's answer time meanwhile.
    let last = performance.now();
    let stall = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      stall = Math.max(stall, now - last);
      last = now;
    }, 20);
    const answers: number[] = [];
    const started = performance.now();
    // One of the extension's own commands, through the workbench and back, twice a second.
    const asking = setInterval(() => {
      const asked = performance.now();
      void vscode.commands.executeCommand('instructionLens.revealInChain').then(() => answers.push(performance.now() - asked), () => answers.push(Infinity));
    }, 500);
    // And another extension's command (registered here, in the same extension host), five times a
    // second: how long one waits while the chain resolves is this extension host's part alone
    // (the workbench's part, rendering 500 nested folders in the explorer, is not the extension's).
    const ping = vscode.commands.registerCommand('instructionLensTest.ping', () => performance.now());
    /** The pings asked before the chain was shown: when asked, how long their answers took. */
    const whileResolving: { asked: number; took?: number }[] = [];
    let chainShown = false;
    const pinging = setInterval(() => {
      if (chainShown) return;
      const entry: { asked: number; took?: number } = { asked: performance.now() - started };
      whileResolving.push(entry);
      void vscode.commands.executeCommand('instructionLensTest.ping').then(() => (entry.took = performance.now() - started - entry.asked));
    }, 200);
    let chainMs = 0;
    let problemsMs = 0;
    try {
      await open(deepest);
      const deepClaude = path.join(path.dirname(deepest), 'CLAUDE.md');
      await until(() => lens.model.current?.chain.sources.some((s) => s.path === deepClaude && s.status === 'on-read'), 'the deepest CLAUDE.md in the chain', 60_000);
      await untilTree(lens, (rows) => rows.some((r) => r.includes('CLAUDE.md — on read · d499')), 'its row in the tree');
      chainMs = performance.now() - started;
      chainShown = true;
      const expected = [
        ['huge/CLAUDE.md', 'too-large'],
        ['quotes/CLAUDE.md', 'too-deep'],
        ['fifo/CLAUDE.md', 'unreadable'],
        ['binary/CLAUDE.md', 'binary'],
        ['cycle/b.md', 'import-cycle'],
      ];
      const missing = () => expected.filter(([file, code]) => !diagnosticsOf(path.join(tree, file)).some((d) => codeOf(d) === code)).map((e) => e.join(' '));
      await until(() => missing().length === 0, 'the planted problems as diagnostics', 90_000).catch(() => assert.deepEqual(missing(), []));
      // The link loop's problem is shown at the folder it leads to (a link's problem goes to its real path).
      assert.ok(vscode.languages.getDiagnostics().some(([uri, ds]) => (uri.fsPath === tree || uri.fsPath === path.join(tree, 'loop')) && ds.some((d) => codeOf(d) === 'symlink-loop')), 'the link loop reported');
      problemsMs = performance.now() - started;
    } finally {
      clearInterval(ticker);
      clearInterval(asking);
      clearInterval(pinging);
    }
    const meanwhile = answers.length;
    // However long the workbench took to pass them on, the commands asked meanwhile are answered.
    await until(() => answers.length >= 2, 'the commands asked meanwhile to be answered', 30_000);
    const slowest = Math.max(...answers);
    await until(() => whileResolving.every((c) => c.took !== undefined), 'the commands asked while the chain resolved to be answered', 30_000).finally(() => ping.dispose());
    const slowestWhileResolving = Math.max(...whileResolving.map((c) => c.took!));
    const report = process.env.INSTRUCTION_LENS_TEST_REPORT;
    if (report) fs.appendFileSync(report, `      hostile tree: chain shown after ${Math.round(chainMs)} ms, problems after ${Math.round(problemsMs)} ms; longest event-loop stall ${Math.round(stall)} ms; another extension's command asked ${whileResolving.length} times while the chain resolved, answered within ${Math.round(slowestWhileResolving)} ms; ${meanwhile} of our commands (through the workbench) answered meanwhile, ${answers.length} by the end, slowest ${Math.round(slowest)} ms\n`);
    assert.ok(stall < 5000, `the extension host stalled ${Math.round(stall)} ms`);
    // The chain resolves on a worker thread: the extension host answers another command meanwhile.
    assert.ok(whileResolving.length > 0, 'no command was asked while the chain resolved');
    assert.ok(slowestWhileResolving <= 1000, `a command asked while the chain resolved took ${Math.round(slowestWhileResolving)} ms (when asked, how long: ${JSON.stringify(whileResolving.map((c) => [Math.round(c.asked), Math.round(c.took!)]))})`);
    await errors.check('the hostile tree');
  });
});

/**
 * Runs a command to its end, closing any quick pick it opens meanwhile (a user who looks and
 * presses Escape). Notifications it shows are left as they are.
 */
async function dismissing(run: Thenable<unknown>): Promise<void> {
  let done = false;
  const finished = Promise.resolve(run).finally(() => (done = true));
  while (!done) {
    await Promise.race([finished, sleep(300)]);
    if (!done) await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  }
  await finished;
}

/** Every path below the folders, links not followed, with its type, mode and a hash of its bytes (or its link target). */
function hashTree(folders: string[]): Map<string, string> {
  const out = new Map<string, string>();
  const stack = folders.filter((f) => fs.existsSync(f));
  while (stack.length) {
    const dir = stack.pop()!;
    for (const name of fs.readdirSync(dir)) {
      const p = path.join(dir, name);
      const st = fs.lstatSync(p);
      const what = st.isSymbolicLink() ? `link ${fs.readlinkSync(p)}` : st.isFile() ? createHash('sha256').update(fs.readFileSync(p)).digest('hex') : st.isDirectory() ? 'dir' : 'other';
      out.set(path.relative(root, p), `${st.mode.toString(8)} ${what}`);
      if (st.isDirectory()) stack.push(p);
    }
  }
  return out;
}

/** The paths added, removed or changed between two `hashTree`s, sorted. */
function diffTrees(a: Map<string, string>, b: Map<string, string>): string[] {
  return [...new Set([...a.keys(), ...b.keys()])].filter((k) => a.get(k) !== b.get(k)).sort();
}
