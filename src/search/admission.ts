import { type AppError, ShedError } from '../errors.js';

/**
 * Admission control for searches in one process. A search can cost tens of milliseconds of database work on the
 * event loop (the embedded database runs one query at a time, and SEARCH=sql ranks there); unbounded, 32 clients
 * searching at once would each wait seconds (and time out) and stall every catalog read queued behind them. At
 * most `maxInFlight` searches run;
 * more wait, in arrival order, while their expected wait fits `maxWaitMs` (below); anything beyond answers 503 at
 * once, with Retry-After, so clients back off and the rest of the API keeps answering. Only rankings pass the gate: a job
 * search the shortlist cache answers (another page of a ranked search) never waits or is refused (hybrid.ts).
 *
 * Job search over the replica runs in memory without waiting for I/O, so an admitted search would finish inside the
 * event-loop turn that received its request, and the gate would never see a second one: requests would pile up
 * unseen in the sockets (latency growing with the clients, and nothing shed). An admitted search therefore first
 * yields one turn, which lets the requests that arrived meanwhile reach the gate, where they queue or are refused.
 *
 * Who is refused is decided by time, not by a count: a search queues when the wait it can expect fits
 * `maxWaitMs`, because an answer a little later serves a client better than a 503 and a retry a second later.
 * The expected wait is its place in the queue times the gate's service interval: the time a search holds its slot
 * (exponentially weighted, updated by every finished search, so a slow spell's estimate cannot outlive it)
 * divided by the slots. A queue bounded by a count alone would refuse most of 32 clients on the embedded database,
 * where a search is short and a long queue drains within `maxWaitMs`. `maxQueued` is a hard cap on waiting requests
 * besides, and a queued search still gives up after `maxWaitMs` if the estimate was wrong.
 */
export interface SearchLimits {
  maxInFlight: number;
  maxQueued: number;
  maxWaitMs: number;
}

export type RejectReason = 'queue_full' | 'expected_wait' | 'queue_timeout';

interface Waiter {
  admit(): void;
  timer: NodeJS.Timeout;
}

export class SearchGate {
  private inFlight = 0;
  private readonly queue: Waiter[] = [];
  /** How long a search holds its slot, in ms (exponentially weighted); undefined until one has finished. */
  private holdMs: number | undefined;

  constructor(
    private readonly limits: SearchLimits,
    private readonly onReject: (reason: RejectReason) => void = () => {},
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The wait a search arriving now can expect, in ms (0 while one would run at once or nothing is measured). */
  expectedWaitMs(): number {
    if (this.inFlight < this.limits.maxInFlight || this.holdMs === undefined) return 0;
    return ((this.queue.length + 1) * this.holdMs) / this.limits.maxInFlight;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    const start = this.now();
    try {
      await new Promise<void>((resolve) => setImmediate(resolve));
      return await task();
    } finally {
      const held = this.now() - start;
      this.holdMs = this.holdMs === undefined ? held : 0.8 * this.holdMs + 0.2 * held;
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.inFlight < this.limits.maxInFlight) {
      this.inFlight++;
      return Promise.resolve();
    }
    if (this.queue.length >= this.limits.maxQueued) return Promise.reject(this.busy('queue_full'));
    if (this.expectedWaitMs() > this.limits.maxWaitMs) return Promise.reject(this.busy('expected_wait'));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        admit: () => {
          clearTimeout(waiter.timer);
          this.inFlight++;
          resolve();
        },
        timer: setTimeout(() => {
          this.queue.splice(this.queue.indexOf(waiter), 1);
          reject(this.busy('queue_timeout'));
        }, this.limits.maxWaitMs),
      };
      this.queue.push(waiter);
    });
  }

  private release(): void {
    this.inFlight--;
    this.queue.shift()?.admit();
  }

  private busy(reason: RejectReason): AppError {
    this.onReject(reason);
    return new ShedError('Search is at capacity in this process; retry after Retry-After seconds', 1);
  }
}
