import type { Worker } from 'node:worker_threads';
import * as vscode from 'vscode';
import { now, type ChainJob, type CheckAnswer, type CheckJob, type CheckMessage, type CheckRequest, type LookJob, type Reals } from '../core/checkService';
import type { MachineEvidence } from '../core/detect';
import type { Chain, Diagnostic } from '../core/model';
import { startCheckThread, type CheckThread } from './checkThread';
import { unsavedKey, unsavedTexts } from './overlayFs';

/**
 * A chain from the worker thread, and where the time to it went (see `CheckWorker.chain`): the
 * question waiting for the worker (busy, or loading), the worker answering, the answer waiting for this thread.
 */
export interface ChainAnswer {
  chain: Chain;
  /** The real path of each path with problems (`Reals`). */
  reals: Reals;
  ms: Spent;
}
type Spent = [queued: number, worker: number, waited: number];
/** What the machine shows of one agent (`MachineEvidence` without its profile, which cannot be posted). */
export type MachineFound = Omit<MachineEvidence, 'profile'>;

/** A quick look's problems, where the time went (as `ChainAnswer`'s), and whether the worker read everything anew (not only what was written). */
export interface LookAnswer {
  diagnostics: Diagnostic[];
  reals: Reals;
  ms: Spent;
  anew: boolean;
  /** Of the worker's time, its thread's on a core and waiting for one (see `CheckAnswer`). */
  cpu?: number[];
}

/**
 * The diagnostics' heavy work on a worker thread (dist/checkWorker.js, src/core/checkService.ts):
 * a `check` pass over 57k files and hundreds of instruction files, or a chain 500 folders deep,
 * would otherwise hold the extension host, which every other extension and the editor share.
 * This side sends each request with what changed on disk since the previous one (so the worker
 * keeps its cache of everything else) and the editor's unsaved texts, and waits for the answer.
 * The worker starts with the first request; if it dies, the next request starts another.
 */
export class CheckWorker implements vscode.Disposable {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, (answer: CheckAnswer | undefined) => void>();
  /** What changed on disk since the last request: these files' contents only, or anything. */
  private written: Set<string> | undefined;
  private idle: ReturnType<typeof setTimeout> | undefined;
  /**
   * A workspace folder added or removed: the worker's cache starts anew, as the chains' does. No
   * watcher reports it, and a folder listed before it was made (looking for `.git` above the
   * workspace) would still read as missing.
   */
  private readonly folders = vscode.workspace.onDidChangeWorkspaceFolders(() => this.changed());

  /**
   * @param idleStopMs when set, the worker stops once it has answered everything and nothing
   * was asked for this long: its memory (its heap and cache) goes back, and the next request
   * starts another, which reads the disk anew.
   * @param early a thread started ahead (src/extension.ts), used for the first request
   * @param codeCacheDir where the core's code cache is (src/codeCache.ts); a worker that stops
   * when idle only reads it, the other writes it
   */
  constructor(
    private readonly log?: vscode.LogOutputChannel,
    private readonly idleStopMs?: number,
    private early?: CheckThread,
    readonly codeCacheDir?: string,
  ) {}

  /** The watcher saw a change: `written`, only these files' contents; undefined, anything. */
  changed(written?: readonly string[]): void {
    if (!written || !this.written) this.written = undefined;
    else for (const p of written) this.written.add(p);
  }

  /**
   * A `check` of each job's folder: its problems (with their real paths), or undefined when the
   * pass was cancelled (it stops at the worker's next pause) or failed (logged).
   */
  check(jobs: CheckJob[]): { answer: Promise<{ diagnostics: Diagnostic[]; reals: Reals } | undefined>; cancel(): void } {
    const id = this.nextId++;
    return { answer: this.ask(id, { id, kind: 'check', jobs, change: this.change() }), cancel: () => this.worker?.postMessage({ kind: 'cancel', id } satisfies CheckMessage) };
  }

  /** The problems in each job's file from the chains of the folder it governs; undefined when that failed (logged). */
  async look(jobs: LookJob[]): Promise<LookAnswer | undefined> {
    const id = this.nextId++;
    const sent = now();
    const anew = !this.written;
    const answer = await this.ask(id, { id, kind: 'look', jobs, change: this.change() });
    return answer && { diagnostics: answer.diagnostics, reals: answer.reals, ms: spent(sent, answer.times), anew, cpu: answer.cpu };
  }

  private change(): CheckRequest['change'] {
    const written = this.written;
    this.written = new Set();
    return { written: written && [...written], unsaved: [...unsavedTexts()], unsavedKey: unsavedKey(), trusted: vscode.workspace.isTrusted };
  }

  /**
   * One agent's chain for one file, with how long the worker took to answer and how long its
   * answer then waited for this thread; undefined when that failed (logged: the caller resolves it itself).
   */
  async chain(job: ChainJob): Promise<ChainAnswer | undefined> {
    const id = this.nextId++;
    const sent = now();
    const answer = await this.send(id, { id, kind: 'chain', job, change: this.change() });
    if (answer && 'error' in answer) this.log?.error(`Instruction Lens could not resolve a chain on its checking thread: ${answer.error}`);
    if (!answer || !('chain' in answer)) return undefined;
    return { chain: answer.chain, reals: answer.reals, ms: spent(sent, answer.times) };
  }

  /**
   * Which agents a folder's files show (`CheckAnswer`'s `evidence`), read on the worker: git's
   * process started from this thread held it for tens of milliseconds. Undefined when that failed.
   */
  detect(folder: string): Promise<string[][] | undefined> {
    return this.field({ kind: 'detect', folder }, 'evidence');
  }

  /**
   * This machine's evidence of each agent, in registry order, looked at on the worker: the look
   * runs each agent's CLI found on PATH, whose start held this thread. Undefined when that failed.
   */
  machine(home: string, extensions: string[]): Promise<MachineFound[] | undefined> {
    return this.field({ kind: 'machine', home, extensions }, 'machine');
  }

  /** The answer's `key` to a request, undefined when that failed. */
  private async field<K extends 'evidence' | 'machine'>(request: { kind: 'detect'; folder: string } | { kind: 'machine'; home: string; extensions: string[] }, key: K) {
    const id = this.nextId++;
    const answer = await this.send(id, { id, ...request, change: this.change() } as CheckRequest);
    return answer && key in answer ? (answer as Extract<CheckAnswer, Record<K, unknown>>)[key] : undefined;
  }

  private ask(id: number, request: CheckRequest): Promise<Extract<CheckAnswer, { diagnostics: Diagnostic[] }> | undefined> {
    return this.send(id, request).then((answer) => {
      if (answer && 'error' in answer) this.log?.error(`Instruction Lens could not check the workspace: ${answer.error}`);
      return answer && 'diagnostics' in answer ? answer : undefined;
    });
  }

  private send(id: number, request: CheckRequest): Promise<CheckAnswer | undefined> {
    clearTimeout(this.idle);
    return new Promise<CheckAnswer | undefined>((resolve) => {
      this.pending.set(id, resolve);
      try {
        this.start().postMessage(request);
      } catch (e) {
        this.pending.delete(id);
        resolve({ id, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
      }
    });
  }

  /** Starts the worker ahead of the first request, so that request does not wait for it to load. */
  start(): Worker {
    if (this.worker) return this.worker;
    const early = this.early;
    this.early = undefined;
    const { worker } = early && !early.stopped() ? early : startCheckThread(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath, this.codeCacheDir, this.idleStopMs === undefined);
    worker.on('message', (answer: CheckAnswer) => {
      const resolve = this.pending.get(answer.id);
      this.pending.delete(answer.id);
      resolve?.(answer);
      if (this.idleStopMs !== undefined && !this.pending.size) this.idle = setTimeout(() => this.stop(worker), this.idleStopMs);
    });
    const gone = (why: string) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      // Everything the worker held goes with it: the next one reads the disk anew.
      this.written = undefined;
      for (const resolve of this.pending.values()) resolve(undefined);
      this.pending.clear();
      if (why) this.log?.error(`Instruction Lens's checking thread stopped: ${why}`);
    };
    worker.on('error', (e) => gone(e.stack ?? e.message));
    worker.on('exit', (code) => gone(code === 0 ? '' : `exit code ${code}`));
    this.worker = worker;
    return worker;
  }

  private stop(worker: Worker): void {
    if (this.worker !== worker || this.pending.size) return;
    this.worker = undefined;
    this.written = undefined;
    void worker.terminate();
  }

  dispose(): void {
    this.folders.dispose();
    clearTimeout(this.idle);
    void this.early?.worker.terminate();
    this.early = undefined;
    const worker = this.worker;
    this.worker = undefined;
    for (const resolve of this.pending.values()) resolve(undefined);
    this.pending.clear();
    void worker?.terminate();
  }
}

/** Sent at `sent`, received and answered at `times` (the worker's clock, comparable): the wait for the worker, its work, the answer's wait for this thread. */
function spent(sent: number, [received, answered] = [sent, sent]): Spent {
  return [received - sent, answered - received, now() - answered];
}
