import { type AppError, ShedError } from '../errors.js';

/**
 * Admission control for searches in one process. A search costs tens of milliseconds of database work, and on the
 * embedded database every query runs on the event loop, one at a time: 32 clients searching at once made each
 * wait seconds (and time out) and stalled every catalog read queued behind them. At most `maxInFlight` searches
 * run; up to `maxQueued` more wait, each at most `maxWaitMs`; anything beyond answers 503 at once, with
 * Retry-After, so clients back off and the rest of the API keeps answering. Only rankings pass the gate: a job
 * search the shortlist cache answers (another page of a ranked search) never waits or is refused (hybrid.ts).
 *
 * Job search now runs in memory without waiting for I/O, so an admitted search would finish inside the event-loop
 * turn that received its request, and the gate would never see a second one: requests would pile up unseen in the
 * sockets (32 clients: p50 128 ms, nothing shed). An admitted search therefore first yields one turn, which lets
 * the requests that arrived meanwhile reach the gate, where they queue or are refused.
 */
export interface SearchLimits {
  maxInFlight: number;
  maxQueued: number;
  maxWaitMs: number;
}

export type RejectReason = 'queue_full' | 'queue_timeout';

interface Waiter {
  admit(): void;
  timer: NodeJS.Timeout;
}

export class SearchGate {
  private inFlight = 0;
  private readonly queue: Waiter[] = [];

  constructor(
    private readonly limits: SearchLimits,
    private readonly onReject: (reason: RejectReason) => void = () => {},
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      await new Promise<void>((resolve) => setImmediate(resolve));
      return await task();
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.inFlight < this.limits.maxInFlight) {
      this.inFlight++;
      return Promise.resolve();
    }
    if (this.queue.length >= this.limits.maxQueued) return Promise.reject(this.busy('queue_full'));
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
