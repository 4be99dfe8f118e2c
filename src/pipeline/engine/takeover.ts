import type { Db } from '../../db/port.js';
import type { EngineLogger } from './logger.js';

/**
 * Takeover of a dead worker's runs, on a PostgreSQL server. DBOS recovers a crashed process's runs only in a
 * process started later with the same executor id, so a worker that dies and is never started again (a node
 * lost for good, an autoscaler's scale-down) would leave its runs PENDING forever. Every process running
 * workflows beats into `worker_heartbeats`; on each beat it also looks for workers whose last beat is older than
 * `deadAfterMs` and hands their PENDING runs back to the queue, where any worker resumes them from their last
 * completed step (steps are idempotent), as a worker stopping gracefully does with its own.
 *
 * The dead worker's heartbeat row is locked (SKIP LOCKED) while its runs are handed back and deleted in the same
 * transaction, so two live workers never hand back the same runs; one that dies half-way leaves the row for the
 * next sweep. A worker whose beats stop while it still runs (a pause longer than `deadAfterMs`) would run a step
 * twice, which DBOS's step records catch: hence a default of minutes, not seconds. Runs of an executor that never
 * beat (an older version in a rolling deploy) are left to DBOS's own recovery.
 */

/** What the takeover needs of the engine. */
export interface RunQueue {
  /** Puts the executor's PENDING runs back on the queue; returns how many. */
  handBackRunsOf(executorId: string): Promise<number>;
}

export interface TakeoverOptions {
  db: Db;
  queue: RunQueue;
  executorId: string;
  heartbeatMs: number;
  deadAfterMs: number;
  logger: EngineLogger;
}

export class WorkerTakeover {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(private readonly opts: TakeoverOptions) {}

  /** Beats once (so this worker is alive before anyone sweeps), then on every interval. */
  async start(): Promise<void> {
    await this.beat();
    this.timer = setInterval(() => {
      this.running = this.running.then(async () => {
        await this.tick().catch((err: unknown) => this.opts.logger.warn({ err }, 'worker heartbeat failed'));
      });
    }, this.opts.heartbeatMs);
    this.timer.unref();
  }

  /** Stops beating and removes this worker's row: a graceful stop hands its runs back itself. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
    await this.opts.db.query('DELETE FROM worker_heartbeats WHERE executor_id = $1', [this.opts.executorId]);
  }

  /** One beat and one sweep; returns the executor ids taken over (tests call it directly). */
  async tick(): Promise<string[]> {
    await this.beat();
    return this.sweep();
  }

  private beat(): Promise<unknown> {
    return this.opts.db.query(
      `INSERT INTO worker_heartbeats (executor_id) VALUES ($1)
       ON CONFLICT (executor_id) DO UPDATE SET beat_at = now()`,
      [this.opts.executorId],
    );
  }

  private sweep(): Promise<string[]> {
    const { db, queue, executorId, deadAfterMs, logger } = this.opts;
    return db.transaction(async (tx) => {
      const dead = await tx.query<{ executor_id: string; beat_at: Date }>(
        `SELECT executor_id, beat_at FROM worker_heartbeats
          WHERE executor_id <> $1 AND beat_at < now() - $2 * interval '1 millisecond'
          FOR UPDATE SKIP LOCKED`,
        [executorId, deadAfterMs],
      );
      for (const d of dead) {
        const runs = await queue.handBackRunsOf(d.executor_id);
        logger.warn(
          { executor: d.executor_id, lastBeat: d.beat_at, runs },
          'worker presumed dead (no heartbeat); its unfinished runs are back on the queue',
        );
      }
      if (dead.length > 0) {
        await tx.query('DELETE FROM worker_heartbeats WHERE executor_id = ANY($1::text[])', [
          dead.map((d) => d.executor_id),
        ]);
      }
      return dead.map((d) => d.executor_id);
    });
  }
}
