/**
 * Per-host politeness: at most `concurrency` requests in flight to one host, and at least `delayMs` between
 * the starts of two requests to it. Both come from docs/sources.md (1–2 concurrent, a delay between
 * requests). Time is injected so tests never wait on a wall clock.
 */
export interface HostLimiterOptions {
  /** Requests in flight per host (default 2). */
  concurrency: number;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

interface HostState {
  active: number;
  waiters: Array<() => void>;
  nextStartAt: number;
}

export class HostLimiter {
  private readonly hosts = new Map<string, HostState>();

  constructor(private readonly opts: HostLimiterOptions) {}

  /** Runs `fn` under the host's limits; `delayMs` is the spacing wanted for this host (robots Crawl-delay may raise it). */
  async run<T>(host: string, delayMs: number, fn: () => Promise<T>): Promise<T> {
    const state = this.state(host);
    if (state.active >= this.opts.concurrency) {
      await new Promise<void>((resolve) => state.waiters.push(resolve));
    } else {
      state.active += 1;
    }
    try {
      // Reserve the next start slot before waiting so concurrent callers space out instead of bunching.
      const now = this.opts.now();
      const startAt = Math.max(now, state.nextStartAt);
      state.nextStartAt = startAt + delayMs;
      if (startAt > now) await this.opts.sleep(startAt - now);
      return await fn();
    } finally {
      const next = state.waiters.shift();
      if (next) next();
      else {
        state.active -= 1;
        if (state.active === 0 && state.nextStartAt <= this.opts.now()) this.hosts.delete(host);
      }
    }
  }

  private state(host: string): HostState {
    let s = this.hosts.get(host);
    if (!s) {
      s = { active: 0, waiters: [], nextStartAt: 0 };
      this.hosts.set(host, s);
    }
    return s;
  }
}
