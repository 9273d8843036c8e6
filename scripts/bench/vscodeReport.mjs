// The table of the extension's figures in VS Code (scripts/bench/vscode.mjs), each beside the
// same window without the extension, and the goals they are judged by.

/**
 * The watcher's debounce (src/vscode/watcher.ts): an edit's quick look starts when it ends
 * (src/vscode/diagnostics.ts; the pass 300 ms later only follows the look's answer).
 */
export const DEBOUNCE_MS = 150;

/** A phase's three longest stalls, each with the time it began. */
const stalls = (loop) => (loop.stalls ?? []).toSorted((a, b) => b.ms - a.ms).slice(0, 3).map((s) => `${f(s.ms)} at ${s.at.slice(11, 23)}`).join(', ') || '–';
/**
 * The phases in which the extension runs, from its activation (the start-up phase) to the end;
 * the goal compares each with the same phase of the baseline window, so a stall of the window's
 * own in one phase does not hide one of ours in another. Not the whole run: before activation
 * the window starts on its own (the bench activates the extension itself, none of its code runs
 * before), and between the phases the bench writes its profiles (IL_BENCH_PROFILE), each a stall
 * of several hundred ms in both windows that neither window's figures should count.
 */
const PHASES = [['start-up', 'startup'], ['switches', 'switchLoop'], ['edits', 'editLoop'], ['at rest', 'restLoop']];
const running = (r) => Math.max(...PHASES.map(([, key]) => r[key].maxMs));

/** One write of the edits: where its time went. */
const step = (s) => `${f(s.shownMs)} (${f(s.deliveryMs)} + ${f(s.shownMs - s.deliveryMs)}${s.look ? `: ${[s.look.debounce, s.look.queued, s.look.worker, s.look.answerQueued, s.look.published].map(f).join(' / ')}${s.look.onCore === undefined ? '' : ` (the worker ${f(s.look.onCore)} on a core, ${f(s.look.waitingForCore)} waiting for one)`}${s.look.anew ? ', the worker reading everything anew' : ''}` : ''})`;
const f = (n) => (n === undefined ? '–' : n >= 100 ? n.toFixed(0) : n.toFixed(1));

/** The first chain's way, in ms from asking VS Code to activate the extension (see timeChainThread in the entry). */
const timeline = (w) => {
  const t = w.chainThread;
  if (!t) return '–';
  const chains = t.chains.map((c) => `${c.agent ?? ''}${c.differs ? ` (asked again: ${c.differs.join(', ') || 'the same question'})` : ''} ${f(c.askedMs)} (${f(c.receivedMs)}, ${f(c.answeredMs)}, ${f(c.backMs)})`).join('; ');
  return `${f(w.activateCalledMs)}; ${f(t.startedMs)} (online ${f(t.onlineMs)}); ${chains || '–'}`;
};

/** From the chains' thread's start to the first chain back: where the two cores went. */
const firstChainCpu = (w) => {
  const c = w.chainThread?.cpu;
  if (!c) return '–';
  const pair = (p) => (p ? `${f(p[0])} on a core, ${f(p[1])} waiting` : '–');
  return `over ${f(c.overMs)} ms: the worker ${pair(c.worker)}; the extension host's thread ${pair(c.host)}; CPU spent by the extension host ${f(c.hostProcessMs)}, the VS Code server's processes ${f(c.serverMs)}, the machine ${f(c.machineMs)} ms`;
};

/** Prints the table; returns the goals as { what, figure, limit, unit }. */
export function reportVscode({ with: w, without: b, bundles }, print) {
  // The extension's size: all the JavaScript the .vsix ships for it, every bundle (source maps are
  // not shipped); the first, loaded to activate, beside it.
  const shippedKb = Object.values(bundles).reduce((a, n) => a + n, 0) / 1024;
  const entryKb = bundles['dist/extension.js'] / 1024;
  const parts = Object.entries(bundles).map(([f, n]) => `${f.replace(/^dist\//, '')} ${(n / 1024).toFixed(0)}`).join(', ');
  const rows = [
    ['activation as VS Code counts it (Running Extensions: code loading + the activate() call)', `${f(w.codeLoadingMs + w.activateCallMs)} ms (${f(w.codeLoadingMs)} + ${f(w.activateCallMs)})`, '–'],
    ['extension.activate() until it resolves (also the extension host\'s own steps and other work meanwhile)', `${f(w.activationMs)} ms`, '–'],
    ['the rest of the extension loaded and started, after activation', `${f(w.restLoadedMs)} ms`, '–'],
    ['first chain, after activation', `${f(w.firstChainMs)} ms`, '–'],
    ['… from asking VS Code to activate it: activate() called; the chains\' thread started; each chain asked of it: its agent, when (received, answered there, back)', timeline(w), '–'],
    ['… from the thread\'s start to the first chain back: the worker\'s thread and the extension host\'s, on a core and waiting for one (ms); the CPU spent meanwhile by the whole extension host (every extension), by the VS Code server\'s processes (the extension host among them), by the machine (every core)', firstChainCpu(w), '–'],
    ['the chain view meanwhile', w.viewWhileWorking ?? '(nothing)', '–'],
    ['first problems shown, after activation', `${f(w.firstDiagnosticsMs)} ms`, '–'],
    [`editor switch, shown, p95 (${w.switch.count} files)`, `${f(w.switch.shown.p95)} ms`, `${f(b.switch.shown.p95)} ms`],
    ['editor switch, the extension following it (its listeners, from the editor change to the new chain), p50 / p95', `${f(w.switch.followed.p50)} / ${f(w.switch.followed.p95)} ms`, '–'],
    ['editor switch, the chain there once the editor is shown, p95', `${f(w.switch.lag.p95)} ms`, '–'],
    ['an edit on disk to an instruction file outside the chain: its diagnostic shown, from the write, p50 / max', `${f(w.edit.appear.p50)} / ${f(w.edit.appear.max)} ms`, '–'],
    ['… and gone after the edit is undone, from the write, p50 / max', `${f(w.edit.clear.p50)} / ${f(w.edit.clear.max)} ms`, '–'],
    [`… VS Code's delivery of each write's event to the extension host (its file watcher, another process), p50 / max (${w.edit.steps.length} writes)`, `${f(w.edit.delivery.p50)} / ${f(w.edit.delivery.max)} ms`, `${f(b.edit.delivery.p50)} / ${f(b.edit.delivery.max)} ms`],
    [`… the diagnostic shown or gone from that delivery (the extension's part, the ${DEBOUNCE_MS} ms debounce in it), p50 / max`, `${f(w.edit.fromDelivery.p50)} / ${f(w.edit.fromDelivery.max)} ms`, '–'],
    ['… each write in ms: from the write (delivery + from it; the extension\'s log: debounce, queued for the worker, the worker, the answer queued on the host, publish)', w.edit.steps.map(step).join('; '), '–'],
    ['extension host event-loop delay, longest, start-up', `${f(w.startup.maxMs)} ms`, `${f(b.startup.maxMs)} ms`],
    ['… its longest stalls in the start-up, ms at the wall clock (the extension\'s log\'s)', stalls(w.startup), stalls(b.startup)],
    ['… the extension\'s longest run of samples on the extension host\'s thread, start-up (only with IL_BENCH_PROFILE)', w.ourLongestTask ? `${f(w.ourLongestTask.ms)} ms` : '–', '–'],
    ['extension host event-loop delay, longest, switches', `${f(w.switchLoop.maxMs)} ms`, `${f(b.switchLoop.maxMs)} ms`],
    ['extension host event-loop delay, longest, edits', `${f(w.editLoop.maxMs)} ms`, `${f(b.editLoop.maxMs)} ms`],
    ['… its longest stalls in the edits, ms at the wall clock (the extension\'s log\'s)', stalls(w.editLoop), stalls(b.editLoop)],
    [`extension host event-loop delay, longest, at rest (${f(w.restMs / 1000)} s after the edits)`, `${f(w.restLoop.maxMs)} ms`, `${f(b.restLoop.maxMs)} ms`],
    ['… its longest stalls at rest, ms at the wall clock (the extension\'s log\'s)', stalls(w.restLoop), stalls(b.restLoop)],
    ['extension host event-loop delay, longest, while the extension runs (start-up, switches, edits, at rest)', `${f(running(w))} ms`, `${f(running(b))} ms`],
    ['extension host event-loop delay, longest, whole run (also the window\'s own start before the extension is activated, and the bench\'s steps between phases)', `${f(w.whole.maxMs)} ms`, `${f(b.whole.maxMs)} ms`],
    ['… its longest stalls in the whole run, ms at the wall clock (the extension\'s log\'s)', stalls(w.whole), stalls(b.whole)],
    ['extension host event-loop delay, p99, whole run', `${f(w.whole.p99Ms)} ms`, `${f(b.whole.p99Ms)} ms`],
    ['extension host memory (RSS) at the end', `${f(w.rssMb)} MB`, `${f(b.rssMb)} MB`],
    ['extension host JS heap at the end', `${f(w.heapMb)} MB`, `${f(b.heapMb)} MB`],
    ['inotify watches, extension host', `${w.watches.extensionHost}`, `${b.watches.extensionHost}`],
    ['inotify watches, every process of the VS Code server', `${w.watches.group}`, `${b.watches.group}`],
    ['the extension\'s JavaScript in the .vsix, every bundle (KB each)', `${shippedKb.toFixed(0)} KB (${parts})`, '–'],
    ['… of which loaded to activate (dist/extension.js)', `${entryKb.toFixed(1)} KB`, '–'],
  ];
  print('| figure | with the extension | without (baseline window) |');
  print('|---|---:|---:|');
  for (const [what, a, c] of rows) print(`| ${what} | ${a} | ${c} |`);
  print(`(the watcher's debounce before an edit's quick look: ${DEBOUNCE_MS} ms; "after the debounce" below is the figure minus it)`);
  const updated = Math.max(w.edit.appear.max, w.edit.clear.max);
  const worst = PHASES.map(([phase, key]) => ({ phase, over: w[key].maxMs - b[key].maxMs })).reduce((a, c) => (c.over > a.over ? c : a));
  return [
    { what: 'activation (code loading + activate())', figure: w.codeLoadingMs + w.activateCallMs, limit: 50, unit: 'ms' },
    { what: 'first chain, after activation', figure: w.firstChainMs, limit: 1000, unit: 'ms' },
    { what: 'editor switch: the extension following it, p95', figure: w.switch.followed.p95, limit: 50, unit: 'ms' },
    { what: `edit → its diagnostic shown or gone, from VS Code's delivery of the event, after the debounce, max (from the write: ${f(Math.max(0, updated - DEBOUNCE_MS))} ms)`, figure: Math.max(0, w.edit.fromDelivery.max - DEBOUNCE_MS), limit: 300, unit: 'ms' },
    { what: `longest event-loop delay beyond the baseline window's in the same phase, worst phase (${worst.phase})`, figure: Math.max(0, worst.over), limit: 50, unit: 'ms' },
    { what: 'memory (RSS) over the baseline window', figure: w.rssMb - b.rssMb, limit: 50, unit: 'MB' },
    { what: 'inotify watches added by the extension host', figure: w.watches.extensionHost - b.watches.extensionHost, limit: 50, unit: 'watches' },
    { what: 'the extension\'s JavaScript in the .vsix, every bundle', figure: shippedKb, limit: 500, unit: 'KB' },
  ];
}
