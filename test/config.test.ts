import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../src/config.js';

/** The one environment schema: documented defaults, and every bad value refused at start with a clear message. */
describe('configuration', () => {
  it('has the documented defaults on an empty environment', () => {
    const c = parseConfig({});
    expect(c).toMatchObject({
      host: '0.0.0.0',
      port: 3000,
      dataDir: './data',
      databaseUrl: undefined,
      embeddedCacheMb: 16,
      heapGrowingPercent: 40,
      role: 'all',
      workerConcurrency: 4,
      queuePollMs: 200,
      searchLimits: { maxInFlight: 2, maxQueued: 256, maxWaitMs: 1000 },
      // The scan thread wherever a second core runs it, the embedded database included.
      searchScanThreadRows: availableParallelism() > 1 ? 20_000 : 0,
      workerHeartbeatMs: 10_000,
      workerDeadAfterMs: 120_000,
    });
  });

  it('refuses a dead-worker threshold shorter than three heartbeats', () => {
    expect(parseConfig({ WORKER_HEARTBEAT_MS: '500', WORKER_DEAD_AFTER_MS: '1500' }).workerDeadAfterMs).toBe(
      1500,
    );
    expect(() => parseConfig({ WORKER_HEARTBEAT_MS: '1000', WORKER_DEAD_AFTER_MS: '2000' })).toThrow(
      /WORKER_DEAD_AFTER_MS must be at least 3 x WORKER_HEARTBEAT_MS/,
    );
  });

  it('sizes search admission for a server when DATABASE_URL is set', () => {
    const c = parseConfig({ DATABASE_URL: 'postgres://u@db:5432/frontline' });
    expect(c.searchLimits).toEqual({ maxInFlight: 8, maxQueued: 256, maxWaitMs: 1000 });
    // The scan thread: on with the database elsewhere, where this machine has the second core it needs.
    expect(c.searchScanThreadRows).toBe(availableParallelism() > 1 ? 20_000 : 0);
  });

  it('reads a read replica beside the primary, with its own pool', () => {
    expect(parseConfig({ DATABASE_URL: 'postgres://u@db/f' })).toMatchObject({
      databaseReadUrl: undefined,
      databaseReadPoolSize: 10,
    });
    const c = parseConfig({
      DATABASE_URL: 'postgres://u@db/f',
      DATABASE_READ_URL: 'postgresql://u@replica/f?options=-c%20default_transaction_read_only%3Don',
      DATABASE_READ_POOL_SIZE: '25',
    });
    expect(c.databaseReadUrl).toBe(
      'postgresql://u@replica/f?options=-c%20default_transaction_read_only%3Don',
    );
    expect(c.databaseReadPoolSize).toBe(25);
  });

  it('refuses a read replica without a primary, of another scheme, or that is never polled', () => {
    const problems = (env: Record<string, string>): string[] => {
      try {
        parseConfig(env);
      } catch (err) {
        if (err instanceof ConfigError) return err.problems;
        throw err;
      }
      return [];
    };
    expect(problems({ DATABASE_READ_URL: 'postgres://u@replica/f' })).toEqual([
      'DATABASE_READ_URL requires DATABASE_URL: it names a read replica of that PostgreSQL server',
    ]);
    expect(problems({ DATABASE_URL: 'postgres://u@db/f', DATABASE_READ_URL: 'mysql://u@replica/f' })).toEqual(
      ['DATABASE_READ_URL must be a postgres: or postgresql: URL'],
    );
    expect(
      problems({
        DATABASE_URL: 'postgres://u@db/f',
        DATABASE_READ_URL: 'postgres://u@replica/f',
        DATABASE_READ_POOL_SIZE: '0',
        CACHE_COHERENCE_MS: '0',
      }),
    ).toEqual([
      'DATABASE_READ_POOL_SIZE must be an integer from 1 to 500 (got "0")',
      "CACHE_COHERENCE_MS must be above 0 with DATABASE_READ_URL: the replica's changes are seen only by polling",
    ]);
  });

  it('reads the operator settings it is given', () => {
    const c = parseConfig({
      PORT: '8080',
      WORKER_CONCURRENCY: '16',
      QUEUE_POLL_MS: '1000',
      EMBEDDED_CACHE_MB: '64',
      SEARCH_MAX_IN_FLIGHT: '3',
      SEARCH_MAX_QUEUED: '0',
      SEARCH_MAX_WAIT_MS: '250',
      SEARCH_SCAN_THREAD_ROWS: '5000',
      HEAP_GROWING_PERCENT: '0',
    });
    expect(c.heapGrowingPercent).toBe(0);
    expect(c.searchScanThreadRows).toBe(5000);
    expect(c.port).toBe(8080);
    expect(c.workerConcurrency).toBe(16);
    expect(c.queuePollMs).toBe(1000);
    expect(c.embeddedCacheMb).toBe(64);
    expect(c.searchLimits).toEqual({ maxInFlight: 3, maxQueued: 0, maxWaitMs: 250 });
  });

  it('refuses every bad value at once, naming each key', () => {
    let error: unknown;
    try {
      parseConfig({
        PORT: 'eighty',
        WORKER_CONCURRENCY: '0',
        QUEUE_POLL_MS: '5',
        FRONTLINE_ROLE: 'boss',
        DATABASE_URL: 'mysql://db/x',
        LOG_PRETTY: 'maybe',
        HEAP_GROWING_PERCENT: '-5',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const key of [
      'PORT',
      'WORKER_CONCURRENCY',
      'QUEUE_POLL_MS',
      'FRONTLINE_ROLE',
      'DATABASE_URL',
      'LOG_PRETTY',
      'HEAP_GROWING_PERCENT',
    ]) {
      expect(problems).toContain(key);
    }
    expect(problems).toContain('WORKER_CONCURRENCY must be an integer from 1 to 256 (got "0")');
  });
});
