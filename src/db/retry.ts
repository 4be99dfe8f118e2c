import { isDatabaseUnavailable } from './unavailable.js';

/** The slice of pino a retry logs through. */
export interface RetryLogger {
  warn(obj: object, msg?: string): void;
}

export interface RetryOptions {
  logger: RetryLogger;
  /** First wait, ms (default 250); each later wait doubles, up to maxDelayMs. */
  initialDelayMs?: number;
  /** Longest wait between attempts, ms (default 15000): a database back from an outage is found within it. */
  maxDelayMs?: number;
  /** Checked before each wait: true ends the retries (the process is stopping) with the last error. */
  stopped?: () => boolean;
}

/**
 * Runs `attempt` until it succeeds, waiting with capped exponential backoff after each failure that says the
 * database is unavailable (refused, dropped, starting up), and logging every retry with the reason and the wait.
 * Any other failure (a changed migration, a bad configuration) is thrown at once: retrying cannot fix it. Each
 * wait is drawn between half and all of the backoff, so processes that lost the database together do not all
 * come back at the same instant. Hand-written rather than a retry package: the loop is a few lines, and what
 * counts as retryable and how a retry is logged are ours either way.
 */
export async function retryWhileUnavailable<T>(
  what: string,
  attempt: () => Promise<T>,
  opts: RetryOptions,
): Promise<T> {
  const max = opts.maxDelayMs ?? 15_000;
  let backoff = opts.initialDelayMs ?? 250;
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      if (!isDatabaseUnavailable(err) || opts.stopped?.()) throw err;
      const waitMs = Math.round(backoff * (0.5 + Math.random() / 2));
      opts.logger.warn(
        { attempt: n, retryInMs: waitMs, reason: (err as Error).message },
        `${what}: the database is unavailable; retrying`,
      );
      await new Promise((resolve) => setTimeout(resolve, waitMs));
      backoff = Math.min(backoff * 2, max);
    }
  }
}
