import { Worker } from 'node:worker_threads';
import type { DotFn, WasmMemory } from './dot-kernel.js';

/**
 * A worker thread that runs the vector kernel (dot-kernel.ts) over a shared WebAssembly memory, so a search's
 * scan of every row runs on a second core while the event loop ranks its keyword lists (and serves other
 * requests). Node runs a process's JavaScript on one thread, and the kernel was a large share of a search's time,
 * all of it on the event loop.
 *
 * The thread only computes: it reads rows the owner (vector-index.ts) wrote and writes bounds into a region the
 * owner reserved for that job. The owner checks after each job that no row changed meanwhile and recomputes on
 * its own thread when one did, so the thread never needs a lock. Jobs run in the order posted.
 *
 * The worker's code is a few lines evaluated from a string: no file to locate, the same under tsx, vitest and
 * the compiled build. If the thread dies, every pending and later job fails and owners compute on the event loop.
 */
const WORKER_CODE = `
const { parentPort } = require('node:worker_threads');
const kernels = new Map();
parentPort.on('message', (m) => {
  if (m.kind === 'attach') {
    kernels.set(m.memory, new WebAssembly.Instance(m.module, { env: { memory: m.shared } }).exports.dots);
  } else if (m.kind === 'detach') {
    kernels.delete(m.memory);
  } else {
    let found = -1;
    let error;
    try {
      found = kernels.get(m.memory)(...m.args);
    } catch (err) {
      error = String(err);
    }
    parentPort.postMessage({ job: m.job, found, error });
  }
});
`;

interface Pending {
  resolve(found: number): void;
  reject(err: Error): void;
}

export class ScanThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextJob = 1;
  private nextMemory = 1;
  private failure: Error | undefined;
  private closed = false;

  /** Told once when the thread fails (the owners then scan on the event loop). */
  constructor(private readonly onError: (err: unknown) => void = () => {}) {}

  /** False once the thread has failed or been closed: scans then stay on the event loop. */
  get usable(): boolean {
    return !this.failure && !this.closed;
  }

  /** Scans handed to the thread so far (tests check that the thread, not the event loop, did the work). */
  get scansPosted(): number {
    return this.nextJob - 1;
  }

  /** Makes a shared memory and the kernel module for its layout known to the thread; returns its id for run(). */
  attach(memory: WasmMemory, module: object): number {
    const id = this.nextMemory++;
    this.thread()?.postMessage({ kind: 'attach', memory: id, shared: memory, module });
    return id;
  }

  /** Forgets a memory once the jobs posted on it have run (messages are handled in order). */
  detach(id: number): void {
    this.worker?.postMessage({ kind: 'detach', memory: id });
  }

  /** Runs the kernel with these arguments on the memory attached as `memory`; resolves with its return value. */
  run(memory: number, ...args: Parameters<DotFn>): Promise<number> {
    const worker = this.thread();
    if (!worker) return Promise.reject(this.failure ?? new Error('scan thread closed'));
    const job = this.nextJob++;
    return new Promise<number>((resolve, reject) => {
      this.pending.set(job, { resolve, reject });
      worker.postMessage({ kind: 'run', job, memory, args });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(new Error('scan thread closed'));
    await worker?.terminate();
  }

  private thread(): Worker | undefined {
    if (!this.usable) return undefined;
    if (this.worker) return this.worker;
    let worker: Worker;
    try {
      worker = new Worker(WORKER_CODE, { eval: true });
    } catch (err) {
      // No thread to be had (a resource limit, a runtime without workers): every scan stays on the event loop.
      this.fail(err instanceof Error ? err : new Error(String(err)));
      return undefined;
    }
    // The thread never keeps the process alive: an owner waiting on it is itself waiting on a request.
    worker.unref();
    worker.on('message', (m: { job: number; found: number; error?: string }) => {
      const p = this.pending.get(m.job);
      this.pending.delete(m.job);
      if (m.error !== undefined) p?.reject(new Error(`scan thread: ${m.error}`));
      else p?.resolve(m.found);
    });
    worker.on('error', (err) => this.fail(err));
    worker.on('exit', (code) => {
      if (!this.closed) this.fail(new Error(`scan thread exited with code ${code}`));
    });
    this.worker = worker;
    return worker;
  }

  private fail(err: Error): void {
    if (this.failure || this.closed) return;
    this.failure = err;
    this.worker = undefined;
    this.failAll(err);
    this.onError(err);
  }

  private failAll(err: Error): void {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }
}
