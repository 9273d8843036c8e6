// The in-editor half of `npm run bench` (scripts/bench/vscode.mjs): loaded by VS Code as the
// extension tests' entry (extensionTestsPath), so it runs inside the extension host it measures.
// The same entry runs in two windows on the same tree: one with Instruction Lens, one without
// (the baseline), and does the same things in both — open a file, switch between files, edit
// an instruction file on disk — while it samples the extension host's event loop. The extension
// itself ships nothing for this: everything is read from outside it, through its API.
//
// Its configuration is a JSON file named by IL_BENCH_VSCODE (see `Config`); it writes its figures
// as JSON to `config.out`.
import * as fs from 'node:fs';
import { Session } from 'node:inspector';
import Module from 'node:module';
import * as path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import * as v8 from 'node:v8';
import type { TransferListItem } from 'node:worker_threads';
import * as vscode from 'vscode';
import type { InstructionLensApi } from '../../../src/extension';

interface Config {
  /** Whether this window has the extension (else it is the baseline window). */
  withExtension: boolean;
  /** The file opened first, whose chain is the first one. */
  first: string;
  /** Files to switch between, in order (each a different folder). */
  switches: string[];
  /** An instruction file outside the first file's chain, edited on disk to break an import. */
  edit: string;
  /** How many times the edit is made (and undone). */
  edits: number;
  /** Where the figures go. */
  out: string;
  /**
   * A folder for CPU profiles of the extension host (start-up, over the same span as its
   * event-loop figure: until the window has settled after the first problems; switches; edits), a sampled allocation profile of the whole run and a heap snapshot at its end
   * (`IL_BENCH_PROFILE`: slows the window, so its figures are only for finding causes).
   */
  profileDir?: string;
  /** This window's name in those files' names. */
  name?: string;
  /** The extension's window opens its chain view as it activates (`IL_BENCH_VIEW`). */
  openView?: boolean;
}

const EXTENSION_ID = 'instruction-lens.instruction-lens';
/** How long after the last edit the memory is read (see `measure`). */
const AT_REST_MS = 10_000;

export async function run(): Promise<void> {
  const config = JSON.parse(fs.readFileSync(process.env.IL_BENCH_VSCODE!, 'utf8')) as Config;
  const result: Record<string, unknown> = {};
  try {
    await measure(config, result);
  } catch (e) {
    result.error = e instanceof Error ? e.stack ?? e.message : String(e);
  }
  fs.writeFileSync(config.out, JSON.stringify(result, null, 2));
}

/** A stall: the event loop blocked `ms` (beyond the heartbeat's period) from `at`. */
interface Stall {
  /** When it began, as the wall clock read it (the extension's log's clock). */
  at: string;
  /** When it began on the monotonic clock, in µs (a CPU profile's `startTime` clock). */
  monoUs: number;
  ms: number;
}
/** The heartbeat's period, and the shortest stall recorded. */
const BEAT_MS = 5;
const STALL_MS = 40;

/**
 * Event-loop delay over a phase: the longest block and the 99th percentile, in ms, and each stall
 * over 40 ms with its time, to be lined up with a CPU profile's samples and the extension's log
 * (the histogram says how long, not when).
 */
function loopMonitor() {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const stalls: Stall[] = [];
  let last = { mono: process.hrtime.bigint(), wall: Date.now() };
  const beat = setInterval(() => {
    const now = { mono: process.hrtime.bigint(), wall: Date.now() };
    const ms = Number(now.mono - last.mono) / 1e6 - BEAT_MS;
    if (ms >= STALL_MS) stalls.push({ at: new Date(last.wall).toISOString(), monoUs: Number(last.mono / 1000n), ms });
    last = now;
  }, BEAT_MS);
  return {
    stop() {
      histogram.disable();
      clearInterval(beat);
      // The histogram counts the delay on top of its resolution, in nanoseconds.
      return { maxMs: histogram.max / 1e6, p99Ms: histogram.percentile(99) / 1e6, stalls };
    },
  };
}

async function measure(config: Config, result: Record<string, unknown>): Promise<void> {
  const whole = loopMonitor();
  // Let the window finish starting (its own indexing, other extensions) the same way in both.
  await settle();
  result.startRssMb = mb(process.memoryUsage().rss);

  const openStarted = performance.now();
  await show(config.first);
  result.openMs = performance.now() - openStarted;

  const allocations = config.profileDir ? await startAllocationSampling() : undefined;
  const profiler = config.profileDir ? await startProfile() : undefined;
  const startup = loopMonitor();
  // Registered before the extension's own listeners, so they run first: from this stamp to the
  // model's change is the extension's synchronous work on an editor switch. Both events: VS Code
  // tells the visible editors first, the active one already set, and the extension follows
  // whichever comes first (the later one's stamp, after the model's change, is not read).
  let editorChanged = 0;
  const stamp = vscode.Disposable.from(
    vscode.window.onDidChangeVisibleTextEditors(() => (editorChanged = performance.now())),
    vscode.window.onDidChangeActiveTextEditor(() => (editorChanged = performance.now())),
  );
  let lens: InstructionLensApi | undefined;
  if (config.withExtension) {
    const extension = vscode.extensions.getExtension<InstructionLensApi>(EXTENSION_ID);
    if (!extension) throw new Error('the extension is not installed in this window');
    if (extension.isActive) throw new Error('the extension was active before the bench activated it: activation cannot be timed');
    const timed = timeActivation(fs.realpathSync(path.join(extension.extensionPath, (extension.packageJSON as { main: string }).main)));
    const core = timeCoreLoad(fs.realpathSync(path.join(extension.extensionPath, 'dist', 'core.js')));
    // The extension host's threads before activation: the chains' thread is the one new after.
    const threads = new Set(await threadIds());
    const activating = performance.now();
    const thread = timeChainThread(activating, threads);
    const activation = extension.activate();
    // As in a window restored with the chain view shown: it draws the first chain's rows.
    if (config.openView) void vscode.commands.executeCommand('workbench.view.extension.instructionLens');
    lens = await activation;
    const activated = performance.now();
    result.activationMs = activated - activating;
    result.codeLoadingMs = timed.loadMs;
    result.activateCallMs = timed.activateMs;
    // From asking VS Code to activate it to its `activate()` being called.
    result.activateCalledMs = timed.calledAt - activating;
    // What the chain view says meanwhile (the first chain comes after activation).
    result.viewWhileWorking = lens.view.message;
    // The rest of the extension loads after activation returns (src/extension.ts); reading the
    // model before would load it at once, which is not what happens in a window.
    await lens.started;
    result.restLoadedMs = performance.now() - activated;
    await waitFor(() => lens!.model.current?.uri.fsPath === config.first && lens!.model.current.chain.sources.length > 0, 'the first chain', 120_000);
    result.firstChainMs = performance.now() - activated;
    result.firstChainSources = lens.model.current!.chain.sources.length;
    result.coreLoad = core;
    result.chainThread = thread;
    // The first problems shown (the active chain's own, or the whole-workspace check's).
    const checked = await waitFor(() => countDiagnostics() > 0, 'the first diagnostics', 300_000).then(
      () => performance.now() - activated,
      () => undefined,
    );
    result.firstDiagnosticsMs = checked;
  }
  const followed: number[] = [];
  const follow = lens?.model.onDidChange(() => {
    if (editorChanged) followed.push(performance.now() - editorChanged);
    editorChanged = 0;
  });
  await settle();
  result.startup = startup.stop();
  if (lens) result.firstChainLogged = firstChainLogged(lens.logUri);
  // Over the start-up's event-loop figure's span, so its longest block is in the profile.
  if (profiler) {
    const profile = await profiler.stop(path.join(config.profileDir!, `${config.name}-startup.cpuprofile`));
    if (lens) result.ourLongestTask = ourLongestTask(profile, fs.realpathSync(path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist')));
  }

  const switchProfiler = config.profileDir ? await startProfile() : undefined;
  const switching = loopMonitor();
  followed.length = 0;
  result.switch = { ...(await switches(config, lens)), followed: lens ? stats(followed) : undefined };
  result.switchLoop = switching.stop();
  if (switchProfiler) await switchProfiler.stop(path.join(config.profileDir!, `${config.name}-switches.cpuprofile`));
  follow?.dispose();
  stamp.dispose();

  const editProfiler = config.profileDir ? await startProfile() : undefined;
  const editing = loopMonitor();
  const writes: string[] = [];
  result.edit = await edits(config, lens, writes);
  result.editWrites = writes;
  result.editLoop = editing.stop();
  if (editProfiler) await editProfiler.stop(path.join(config.profileDir!, `${config.name}-edits.cpuprofile`));

  // Memory at rest, as a window sits once the user stops editing: the same wait in both windows,
  // past the stop of the extension's worker for the workspace checks (5 s after its last check).
  // Read sooner, the figure caught that worker's heap, which it gives back by design.
  // Profiled too (IL_BENCH_PROFILE), so that a block at rest can be traced to what ran then.
  const restProfiler = config.profileDir ? await startProfile() : undefined;
  const resting = loopMonitor();
  await sleep(AT_REST_MS);
  result.restLoop = resting.stop();
  result.restMs = AT_REST_MS;
  result.whole = whole.stop();
  const memory = process.memoryUsage();
  result.rssMb = mb(memory.rss);
  result.heapMb = mb(memory.heapUsed);
  result.watches = inotifyWatches();
  result.diagnostics = countDiagnostics();
  // After the memory is read: writing a profile makes garbage and blocks the thread.
  if (restProfiler) await restProfiler.stop(path.join(config.profileDir!, `${config.name}-rest.cpuprofile`));
  if (allocations) await allocations.stop(path.join(config.profileDir!, `${config.name}-allocations.heapprofile`));
  if (config.profileDir) v8.writeHeapSnapshot(path.join(config.profileDir, `${config.name}-end.heapsnapshot`));
}

function inspect() {
  const session = new Session();
  session.connect();
  const post = <T>(method: string, params?: object) =>
    new Promise<T>((resolve, reject) => session.post(method, params, (err, res) => (err ? reject(err) : resolve(res as T))));
  return { session, post };
}

/** What is allocated (garbage included), by where, sampled: what makes the heap grow. */
async function startAllocationSampling() {
  const { session, post } = inspect();
  await post('HeapProfiler.enable');
  await post('HeapProfiler.startSampling', { samplingInterval: 64 * 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  return {
    async stop(file: string) {
      const { profile } = await post<{ profile: object }>('HeapProfiler.stopSampling');
      fs.writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

/** A CPU profile of this extension host through the inspector (no flag needed: it is this process). */
async function startProfile() {
  const { session, post } = inspect();
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 500 });
  await post('Profiler.start');
  return {
    async stop(file: string) {
      const { profile } = await post<{ profile: CpuProfile }>('Profiler.stop');
      fs.writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
      return profile;
    },
  };
}

interface CpuProfile {
  nodes: { id: number; callFrame: { url: string }; children?: number[] }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * The extension's longest blocking task on this thread, from a CPU profile: the longest run of
 * consecutive samples whose stack holds a frame of the extension's bundles (in `dist`), the
 * garbage collector's samples inside such a run counted with it. `at`: its start on the
 * profile's clock (µs, as the stalls' `monoUs`). Only as fine as the sampling, and profiling
 * slows the code it samples.
 */
function ourLongestTask(profile: CpuProfile, dist: string): { ms: number; monoUs: number } {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const prefix = `file://${dist}/`;
  const ours = new Map<number, boolean>();
  const isOurs = (id: number): boolean => {
    let known = ours.get(id);
    if (known === undefined) {
      const url = byId.get(id)!.callFrame.url;
      const up = parent.get(id);
      known = url.startsWith(prefix) || (up !== undefined && isOurs(up));
      ours.set(id, known);
    }
    return known;
  };
  const gc = new Set(profile.nodes.filter((n) => (n.callFrame as { functionName?: string }).functionName === '(garbage collector)').map((n) => n.id));
  let best = { ms: 0, monoUs: profile.startTime };
  let t = profile.startTime;
  let run: { from: number; to: number } | undefined;
  profile.samples.forEach((id, i) => {
    const before = t;
    t += profile.timeDeltas[i];
    if (isOurs(id)) {
      run ??= { from: before, to: t };
      run.to = t;
      if ((run.to - run.from) / 1000 > best.ms) best = { ms: (run.to - run.from) / 1000, monoUs: run.from };
    } else if (!(run && gc.has(id))) run = undefined;
  });
  return best;
}

/** One thread's time on a core and waiting for one, in ms, from Linux's schedstat (undefined elsewhere). */
type Cpu = [onCore: number, waiting: number];

// Every read of /proc below is asynchronous (node:fs/promises: the reads run on libuv's threads):
// read synchronously, they held the extension host's thread in the extension's window only
// (every process's stat 10-80 ms under load, /proc/self/task around the thread's start up to
// 70 ms under the profiler), and the start-up's event-loop figure counted them against the extension.

async function threadCpu(tid: number | string): Promise<Cpu | undefined> {
  try {
    const [onCore, waiting] = (await fs.promises.readFile(`/proc/self/task/${tid}/schedstat`, 'latin1')).split(' ').map((ns) => Number(ns) / 1e6);
    return [onCore, waiting];
  } catch {
    return undefined;
  }
}

/** The whole machine's CPU time spent (ms, every core), from /proc/stat: what shared the cores meanwhile. */
async function machineCpuMs(): Promise<number | undefined> {
  try {
    const [, ...ticks] = (await fs.promises.readFile('/proc/stat', 'latin1')).split('\n', 1)[0].trim().split(/\s+/).map(Number);
    // user nice system idle iowait irq softirq steal: busy is all but idle and iowait, at 100 ticks a second.
    return (ticks.slice(0, 8).reduce((a, n) => a + n, 0) - ticks[3] - ticks[4]) * 10;
  } catch {
    return undefined;
  }
}

/**
 * CPU time spent (ms, user and system, children waited for included) by this process (the
 * extension host: every extension's threads) and by every process of its group (the VS Code
 * server's: the server, the extension host, the file watcher, the processes they started).
 */
async function processCpuMs(): Promise<{ self: number; group: number } | undefined> {
  const read = async (pid: string) => {
    try {
      const stat = await fs.promises.readFile(`/proc/${pid}/stat`, 'latin1');
      // After the command name: state, ppid, pgrp, …; utime, stime, cutime, cstime are the 14th-17th fields.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return { group: fields[2], ms: fields.slice(11, 15).reduce((a, n) => a + Number(n), 0) * 10 };
    } catch {
      return undefined;
    }
  };
  const self = await read('self');
  if (!self) return undefined;
  const all = await Promise.all((await fs.promises.readdir('/proc')).filter((p) => /^\d+$/.test(p)).map(read));
  return { self: self.ms, group: all.reduce((n, p) => n + (p?.group === self.group ? p.ms : 0), 0) };
}

/** This process's threads, by id. */
function threadIds(): Promise<string[]> {
  return fs.promises.readdir('/proc/self/task').catch(() => []);
}

/**
 * The chains' worker thread as the extension host sees it, from `since` (activation asked): when
 * it was started and online, and each chain asked of it — which agent, when asked, received and
 * answered there (the thread's own clock, `now()` of src/core/checkService.ts) and back on this
 * thread. Read through node:worker_threads' `Worker`, which the extension's bundles look up when
 * they start one. From its start to the first chain back (`cpu`): the worker's thread and this
 * one (the extension host's), each on a core and waiting for one; the CPU spent meanwhile by the
 * whole extension host, by the VS Code server's processes and by the machine (the new thread is
 * the one in /proc/self/task once it is online that was not there before activation, `before`;
 * the processes' from a task after the thread's start to one after the first chain back).
 */
function timeChainThread(since: number, before: Set<string>) {
  const ms = (at: number) => Math.round((at - since) * 10) / 10;
  const fromEpoch = (epochMs: number) => ms(epochMs - performance.timeOrigin);
  const round = (cpu: Cpu | undefined) => cpu?.map((n) => Math.round(n));
  type Spent = { worker?: number[]; host?: number[]; machineMs?: number; hostProcessMs?: number; serverMs?: number; overMs: number };
  type Chain = { agent?: string; differs?: string[]; askedMs: number; receivedMs?: number; answeredMs?: number; backMs?: number };
  const timeline: {
    startedMs?: number;
    onlineMs?: number;
    chains: Chain[];
    cpu?: Spent;
  } = { chains: [] };
  // Node's own module object, as in timeCoreLoad (an import's namespace is the bundle's, read-only).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const workerThreads = require('node:worker_threads') as typeof import('node:worker_threads');
  const { Worker } = workerThreads;
  const mutable = workerThreads as { Worker: typeof Worker };
  mutable.Worker = class extends Worker {
    constructor(...args: ConstructorParameters<typeof Worker>) {
      const host = threadCpu(process.pid);
      const machine = machineCpuMs();
      super(...args);
      const started = performance.now();
      // From a task after the thread's start to one after the first chain back (once the extension has shown it).
      let processes: ReturnType<typeof processCpuMs> | undefined;
      setImmediate(() => (processes = processCpuMs()));
      // The new thread: once it runs (named by then), the one not there before activation.
      const tid = new Promise<string | undefined>((resolve) =>
        this.once('online', () => void threadIds().then((now) => resolve(now.find((t) => !before.has(t))))),
      );
      // The first: the chains' thread, started ahead at activation.
      mutable.Worker = Worker;
      timeline.startedMs = ms(started);
      this.once('online', () => (timeline.onlineMs = ms(performance.now())));
      const asked = new Map<number, Chain>();
      const post = this.postMessage.bind(this);
      let previous: Record<string, unknown> | undefined;
      this.postMessage = (message: { kind?: string; id: number; job?: { agent: string }; change?: object }, transferList?: readonly TransferListItem[]) => {
        if (message?.kind === 'chain') {
          // Until the first chain is back: what differs from the question before (a chain asked again).
          const question: Record<string, unknown> = { ...message.job, ...message.change };
          const differs = previous && !timeline.cpu ? Object.keys(question).filter((k) => JSON.stringify(question[k]) !== JSON.stringify(previous![k])) : undefined;
          previous = question;
          const chain = { agent: message.job?.agent, askedMs: ms(performance.now()), differs };
          timeline.chains.push(chain);
          asked.set(message.id, chain);
        }
        post(message, transferList);
      };
      this.on('message', (answer: { id: number; times?: [number, number] }) => {
        const chain = asked.get(answer.id);
        if (!chain) return;
        const back = performance.now();
        chain.backMs = ms(back);
        if (answer.times) [chain.receivedMs, chain.answeredMs] = answer.times.map(fromEpoch);
        if (timeline.cpu) return;
        const cpu: Spent = (timeline.cpu = { overMs: Math.round(back - started) });
        const now = [threadCpu(process.pid), machineCpuMs(), tid.then((t) => (t ? threadCpu(t) : undefined))] as const;
        void Promise.all([host, machine, ...now]).then(([hostThen, machineThen, hostNow, machineNow, worker]) => {
          cpu.worker = round(worker);
          cpu.host = round(hostThen && (hostNow?.map((n, i) => n - hostThen[i]) as Cpu | undefined));
          cpu.machineMs = machineThen === undefined || machineNow === undefined ? undefined : machineNow - machineThen;
        });
        setImmediate(() => {
          void Promise.all([processes, processCpuMs()]).then(([then, processesNow]) => {
            cpu.hostProcessMs = then && processesNow && processesNow.self - then.self;
            cpu.serverMs = then && processesNow && processesNow.group - then.group;
          });
        });
      });
    }
  };
  return timeline;
}

/**
 * What VS Code counts as an extension's activation time (its Running Extensions list: code
 * loading plus the `activate()` call): the load of the extension's main file timed around
 * Node's module loader, and its `activate` wrapped once loaded. The wall time of
 * `extension.activate()` also holds the extension host's own steps and its other work meanwhile.
 */
function timeActivation(main: string): { loadMs: number; activateMs: number; calledAt: number } {
  type Loading = { exports: Record<string, unknown> };
  const proto = (Module as unknown as { prototype: { load(this: Loading, filename: string): void } }).prototype;
  const load = proto.load;
  const times = { loadMs: NaN, activateMs: NaN, calledAt: NaN };
  proto.load = function (this: Loading, filename: string) {
    if (filename !== main) return load.call(this, filename);
    proto.load = load;
    const started = performance.now();
    load.call(this, filename);
    times.loadMs = performance.now() - started;
    const activate = this.exports.activate as (...args: unknown[]) => unknown;
    this.exports = {
      ...this.exports,
      activate: (...args: unknown[]) => {
        const called = (times.calledAt = performance.now());
        try {
          return activate(...args);
        } finally {
          times.activateMs = performance.now() - called;
        }
      },
    };
  };
  return times;
}

/**
 * The extension host's load of the core's bundle (dist/core.js) in its own task after activation:
 * compiled (with or without its code cache, src/codeCache.ts) and run, or loaded by Node's
 * loader when the extension falls back to it.
 */
function timeCoreLoad(file: string): { ms: number; cached?: boolean } {
  const times: { ms: number; cached?: boolean } = { ms: NaN };
  // Node's own module object (an import would be the bundle's copy of it), whose `Script` the extension reads when it loads.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const vm = require('node:vm') as typeof import('node:vm');
  const { Script } = vm;
  const proto = (Module as unknown as { prototype: { load(this: unknown, filename: string): void } }).prototype;
  const load = proto.load;
  const restore = () => {
    vm.Script = Script;
    proto.load = load;
  };
  proto.load = function (this: unknown, filename: string) {
    if (filename !== file) return load.call(this, filename);
    restore();
    const started = performance.now();
    load.call(this, filename);
    times.ms = performance.now() - started;
  };
  vm.Script = class extends Script {
    constructor(code: string, options?: import('node:vm').ScriptOptions) {
      const started = performance.now();
      super(code, options);
      if (options?.filename !== file) return;
      restore();
      times.cached = this.cachedDataRejected === false;
      const compiled = performance.now() - started;
      const run = this.runInThisContext.bind(this);
      this.runInThisContext = (o) => {
        const wrapper = run(o) as (...args: unknown[]) => unknown;
        return function (this: unknown, ...args: unknown[]) {
          const called = performance.now();
          try {
            return wrapper.apply(this, args);
          } finally {
            times.ms = compiled + performance.now() - called;
          }
        };
      };
    }
  };
  return times;
}

/**
 * The first chain's line in the extension's log: its time, and its wait for the worker thread
 * (loading) and the worker's own. The channel's file is in the extension host's log folder (under
 * the extension's id, or another name for an extension under development).
 */
function firstChainLogged(logUri: vscode.Uri): { ms: number; queuedMs: number; workerMs: number } | undefined {
  const host = path.dirname(logUri.fsPath);
  for (const dir of fs.existsSync(host) ? fs.readdirSync(host) : []) {
    const file = path.join(host, dir, 'Instruction Lens.log');
    const line = fs.existsSync(file) && /Refreshed .* in ([\d.]+) ms: .*; queued ([\d.]+) ms, the worker ([\d.]+) ms/.exec(fs.readFileSync(file, 'utf8'));
    if (line) return { ms: Number(line[1]), queuedMs: Number(line[2]), workerMs: Number(line[3]) };
  }
  return undefined;
}

/** Each switch: the editor shown (both windows), and in the extension's window the chain following it. */
async function switches(config: Config, lens: InstructionLensApi | undefined) {
  const shown: number[] = [];
  const chained: number[] = [];
  /** From the editor shown to the chain following it: the extension's own part of a switch. */
  const lag: number[] = [];
  const files = [...config.switches, config.first];
  for (const file of files) {
    const started = performance.now();
    // As the explorer opens a file: the editor opens the document. Opened first (`show`), the
    // document would reach the extension host long before its editor, and the extension asks
    // for a document's chain as it opens.
    await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(file), { preview: false, viewColumn: vscode.ViewColumn.One });
    shown.push(performance.now() - started);
    if (lens) {
      await waitFor(() => lens.model.current?.uri.fsPath === file, `the chain of ${file}`, 60_000);
      chained.push(performance.now() - started);
      lag.push(chained[chained.length - 1] - shown[shown.length - 1]);
    }
  }
  return { count: files.length, shown: stats(shown), chained: lens ? stats(chained) : undefined, lag: lens ? stats(lag) : undefined };
}

/**
 * Each write's step lasts this long in both windows (longer only when the extension's problem
 * takes longer), and the phase goes on this long after the last one. VS Code's git extension
 * looks at the repository a second after the last change it saw (its status, each open editor's
 * quick diff, ignore checks: seconds of its work on this tree, much of it starting processes on
 * the extension host's thread), and both windows must hold the same share of that work. With
 * steps as long as the extension's wait in one window and 500 ms in the other, the baseline's
 * writes came faster than git's debounce and all of git's work fell after its phase, while the
 * extension's window held it (its edits' longest block was git's, counted against the extension).
 */
const EDIT_STEP_MS = 2_000;
const EDIT_SETTLE_MS = 5_000;

/**
 * An instruction file outside the active chain gets a broken `@import` on disk, and loses it
 * again: how long until its diagnostic appears and goes. In the baseline window the same writes
 * happen at the same pace; there is nothing to wait for.
 *
 * In both windows, when VS Code's file watcher (another process) delivers the write's event to
 * the extension host: a watcher of the workspace folder made as the extension makes its own, so
 * its events come in the same message. From that delivery on, the time is the extension's (and
 * the extension host's other work); before it, VS Code's. In the extension's window, its log's
 * debug line for each quick look says where its part went (src/vscode/diagnostics.ts, `lookAt`).
 */
async function edits(config: Config, lens: InstructionLensApi | undefined, writes: string[]) {
  const original = fs.readFileSync(config.edit, 'utf8');
  const uri = vscode.Uri.file(config.edit);
  const steps: EditStep[] = [];
  const broken = (n: number) => `missing-bench-${n}.md`;
  const has = (n: number) => vscode.languages.getDiagnostics(uri).some((d) => d.message.includes(broken(n)));
  let delivered: number | undefined;
  const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.workspace.getWorkspaceFolder(uri)!, '**/*'));
  const onEvent = (e: vscode.Uri) => {
    if (e.fsPath === config.edit) delivered ??= performance.now();
  };
  watcher.onDidChange(onEvent);
  watcher.onDidCreate(onEvent);
  let looked: string[] = [];
  const log = lens?.log;
  const debug = log?.debug;
  if (log && debug) log.debug = (message: string, ...args: unknown[]) => (looked.push(message), debug.call(log, message, ...args));
  /** Writes `text`; in the extension's window, times until `seen` holds; the step lasts EDIT_STEP_MS at least. */
  const step = async (text: string, seen: () => boolean, what: string, kind: EditStep['kind']) => {
    const started = performance.now();
    delivered = undefined;
    looked = [];
    writes.push(new Date().toISOString());
    fs.writeFileSync(config.edit, text);
    let shownMs: number | undefined;
    if (lens) {
      await waitFor(seen, what, 120_000);
      shownMs = performance.now() - started;
    }
    await waitFor(() => delivered !== undefined, `VS Code's event of the write to ${config.edit}`, 60_000);
    steps.push({ kind, shownMs, deliveryMs: delivered! - started, look: lookOf(looked[0]) });
    await sleep(started + EDIT_STEP_MS - performance.now());
  };
  try {
    for (let n = 0; n < config.edits; n++) {
      await step(`${original}\n@${broken(n)}\n`, () => has(n), `the diagnostic of ${broken(n)}`, 'appear');
      await step(original, () => !has(n), `the diagnostic of ${broken(n)} to go`, 'clear');
    }
    await sleep(EDIT_SETTLE_MS);
  } finally {
    fs.writeFileSync(config.edit, original);
    watcher.dispose();
    if (log && debug) log.debug = debug;
  }
  const shown = (kind: EditStep['kind']) => steps.filter((s) => s.kind === kind).map((s) => s.shownMs!);
  return {
    delivery: stats(steps.map((s) => s.deliveryMs)),
    appear: lens ? stats(shown('appear')) : undefined,
    clear: lens ? stats(shown('clear')) : undefined,
    /** Appearing or going, from VS Code's delivery of the write's event. */
    fromDelivery: lens ? stats(steps.map((s) => s.shownMs! - s.deliveryMs)) : undefined,
    steps,
  };
}

/** One write of the edits' phase: from the write, the diagnostic shown (or gone) and VS Code's delivery of its event. */
interface EditStep {
  kind: 'appear' | 'clear';
  shownMs?: number;
  deliveryMs: number;
  /** The extension's quick look after that write, as its log tells it (ms). */
  look?: { sinceSeen: number; debounce: number; queued: number; worker: number; answerQueued: number; published: number; anew: boolean; onCore?: number; waitingForCore?: number };
}

function lookOf(line: string | undefined): EditStep['look'] {
  const m = line && /after the first change seen: the debounce ([\d.]+) ms; queued ([\d.]+) ms, the worker ([\d.]+) ms[^,]*, the answer queued ([\d.]+) ms; published ([\d.]+) ms/.exec(line);
  const since = line && /([\d.]+) ms after the first change seen/.exec(line);
  if (!m || !since) return undefined;
  const [debounce, queued, worker, answerQueued, published] = m.slice(1).map(Number);
  // The worker thread's time on a core and waiting for one, where its log says (Linux).
  const cpu = /its thread ([\d.]+) ms on a core; ([\d.]+) ms waiting for one/.exec(line);
  return { sinceSeen: Number(since[1]), debounce, queued, worker, answerQueued, published, anew: line.includes('anew'), ...(cpu ? { onCore: Number(cpu[1]), waitingForCore: Number(cpu[2]) } : {}) };
}

async function show(file: string): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(file);
  await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.One });
}

function countDiagnostics(): number {
  return vscode.languages.getDiagnostics().reduce((n, [, ds]) => n + ds.filter((d) => d.source === 'instruction-lens').length, 0);
}

/**
 * The inotify watches held by this process (the extension host) and by every process of its
 * process group (the VS Code server, its file watcher and other helpers), from /proc/<pid>/fdinfo.
 */
function inotifyWatches(): { extensionHost: number; group: number } {
  const watchesOf = (pid: string) => {
    let n = 0;
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      return 0;
    }
    for (const fd of fds) {
      try {
        if (fs.readlinkSync(`/proc/${pid}/fd/${fd}`) !== 'anon_inode:inotify') continue;
        n += fs.readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8').split('\n').filter((l) => l.startsWith('inotify wd:')).length;
      } catch {
        // closed meanwhile
      }
    }
    return n;
  };
  const groupOf = (pid: string) => {
    try {
      // The fields after the command name (which may hold spaces): state, ppid, pgrp.
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2];
    } catch {
      return undefined;
    }
  };
  const group = groupOf('self');
  let inGroup = 0;
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) if (groupOf(pid) === group) inGroup += watchesOf(pid);
  return { extensionHost: watchesOf(String(process.pid)), group: inGroup };
}

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { p50: at(0.5), p95: at(0.95), max: s[s.length - 1] };
}

/** Quiet for a moment: the same pause in both windows before each phase is measured. */
function settle(): Promise<void> {
  return sleep(3000);
}

async function waitFor(probe: () => boolean, what: string, timeoutMs: number): Promise<void> {
  const started = Date.now();
  while (!probe()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    // Short: the figures are only as fine as this step.
    await sleep(5);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function mb(bytes: number): number {
  return bytes / (1 << 20);
}
