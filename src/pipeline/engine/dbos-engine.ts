import { randomUUID } from 'node:crypto';
import type { DBOSClient } from '@dbos-inc/dbos-sdk';
import { Value } from 'typebox/value';
import type { Config } from '../../config.js';
import { PgliteDb } from '../../db/pglite.js';
import type { Db } from '../../db/port.js';
import type { PostgresDb } from '../../db/postgres.js';
import { isDatabaseUnavailable } from '../../db/unavailable.js';
import { unavailable } from '../../errors.js';
import { dbosLogger, type EngineLogger } from './logger.js';
import { observed } from './observe.js';
import { PglitePool } from './pglite-pool.js';
/** DBOS scopes workflows, queues and schedules by application name in its tables (schema `dbos`). */
import { loadSdk, type Sdk } from './sdk.js';
import { migrateSystemDatabase, whileDatabaseAnswers, withoutDbosRetries } from './system-database.js';
import { WorkerTakeover } from './takeover.js';
import type {
  EnqueueOptions,
  EnqueueResult,
  RetryPolicy,
  RunState,
  StepRunner,
  WorkflowDefinition,
  WorkflowEngine,
  WorkflowObserver,
  WorkflowView,
} from './types.js';
import { runStateOf, toView } from './view.js';
export const APP_NAME = 'frontline';
export const QUEUE_NAME = 'pipeline';
const SCHEMA = 'dbos';

export interface DbosEngineOptions {
  config: Pick<Config, 'role' | 'workerId' | 'databaseUrl' | 'workerHeartbeatMs' | 'workerDeadAfterMs'>;
  db: Db;
  definitions: readonly WorkflowDefinition[];
  /**
   * Stamped on every run. Only executors of the same version dequeue or recover a run, so it is explicit:
   * DBOS's default is a hash of the registered functions' source, which differs between tsx and the compiled
   * build and would strand every pending run on a deploy that changed no workflow. Bump it (workflows/catalog.ts)
   * when a workflow's step sequence changes.
   */
  applicationVersion: string;
  /** Runs this process executes at once (default 4). */
  workerConcurrency?: number;
  /** How often the worker polls the queue, ms (DBOS's default is 1000; 200 keeps /onboard responsive). */
  queuePollingMs?: number;
  logger: EngineLogger;
  /** Told about every run execution and step attempt of this process (metrics); default: nobody. */
  observer?: WorkflowObserver;
  /**
   * While a request waits for the engine's launch, how often the database is asked whether it still answers, ms
   * (default 1000): a request finding it gone is answered 503 within about this long.
   */
  probeEveryMs?: number;
}

/** DBOS is a process-wide singleton: one launched engine per process. */
let launchedInProcess = false;

/** Errors carrying `retryable` (SourceError, OutboundError) decide; anything else is a bug or bad data: no retry. */
function isRetryable(err: unknown): boolean {
  return (err as { retryable?: unknown })?.retryable === true;
}

export class DbosEngine implements WorkflowEngine {
  private readonly definitions = new Map<string, WorkflowDefinition>();
  /** The names of the workflows it registers: those of the workflow catalog (workflows/catalog.ts). */
  readonly workflowNames: readonly string[];
  private client: DBOSClient | undefined;
  private launched = false;
  private takeover: WorkerTakeover | undefined;
  private starting: Promise<void> | undefined;

  constructor(private readonly opts: DbosEngineOptions) {
    for (const d of opts.definitions) this.definitions.set(d.name, d);
    this.workflowNames = [...this.definitions.keys()];
  }

  /** Whether this process executes workflows (embedded worker or `frontline worker`), not just enqueues them. */
  get runsWorkflows(): boolean {
    return this.opts.config.role !== 'api';
  }

  /**
   * Whether the launch can wait for the first enqueue or status read (both start the engine): in a process that
   * runs workflows on the embedded database, where no other process can put a run on the queue. On a server,
   * other processes enqueue onto the queue this one must poll, and take over dead workers' runs, from the start.
   */
  get launchesOnDemand(): boolean {
    return this.runsWorkflows && this.opts.db instanceof PgliteDb;
  }

  /** Whether the engine has launched (or is launching) in this process. */
  get started(): boolean {
    return this.starting !== undefined;
  }

  /**
   * Whether DBOS's tables hold a run an earlier process left to resume or dequeue (DBOS's active statuses). Read
   * before DBOS is loaded: no tables yet (it has never launched here) means none.
   */
  async hasActiveRuns(): Promise<boolean> {
    const [table] = await this.opts.db.query<{ present: boolean }>(
      `SELECT to_regclass('${SCHEMA}.workflow_status') IS NOT NULL AS present`,
    );
    if (!table?.present) return false;
    const [runs] = await this.opts.db.query<{ active: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM ${SCHEMA}.workflow_status
                       WHERE status IN ('PENDING', 'ENQUEUED', 'DELAYED')) AS active`,
    );
    return runs?.active === true;
  }

  start(): Promise<void> {
    if (this.starting) return this.starting;
    const t0 = performance.now();
    this.starting = this.launch().then(
      () => this.opts.logger.info({ ms: Math.round(performance.now() - t0) }, 'workflow engine launched'),
      (err: unknown) => {
        this.starting = undefined;
        // A lost database is a retry (logged by whoever retries), not a launch that cannot work.
        if (!isDatabaseUnavailable(err)) this.opts.logger.error({ err }, 'workflow engine could not launch');
        throw err;
      },
    );
    return this.starting;
  }

  private systemDatabase(): {
    systemDatabaseUrl: string;
    systemDatabasePool?: ReturnType<PglitePool['asPool']>;
  } {
    const { db } = this.opts;
    if (db instanceof PgliteDb) {
      if (!this.runsWorkflows) {
        throw new Error(
          'FRONTLINE_ROLE=api needs a PostgreSQL server (DATABASE_URL): with the embedded database no other process ' +
            'can run the workflows this one enqueues',
        );
      }
      // DBOS validates the URL's shape even when it is handed a pool; this one is never dialled.
      return {
        systemDatabaseUrl: 'postgresql://frontline@localhost:5432/frontline',
        systemDatabasePool: new PglitePool(db.pg).asPool(),
      };
    }
    if (db.kind === 'postgres') {
      // The catalog's pool, shared: DBOS's tables live in the same database (schema dbos), no second pool to size.
      return {
        systemDatabaseUrl: this.opts.config.databaseUrl ?? 'postgresql://frontline@localhost:5432/frontline',
        systemDatabasePool: (db as PostgresDb).pool,
      };
    }
    throw new Error(`no workflow engine for database kind ${db.kind}`);
  }

  private async launch(): Promise<void> {
    const sys = this.systemDatabase();
    const sdk = await loadSdk();
    const { DBOS, DBOSClient } = sdk;
    const logger = dbosLogger(this.opts.logger);
    const { db, config } = this.opts;
    if (db.kind === 'postgres' && config.databaseUrl) {
      await migrateSystemDatabase(db as PostgresDb, config.databaseUrl, (url) =>
        DBOS.migrate(url, { schemaName: SCHEMA }),
      );
    }
    if (this.runsWorkflows) {
      if (launchedInProcess) throw new Error('a workflow engine is already running in this process');
      for (const def of this.definitions.values()) this.register(def, sdk);
      DBOS.setConfig({
        name: APP_NAME,
        ...sys,
        systemDatabaseSchemaName: SCHEMA,
        systemDatabasePoolSize: 1,
        // Polling instead of LISTEN/NOTIFY: PGlite has no second session to listen on, and nothing here waits on
        // DBOS notifications (status is read on request).
        useListenNotify: false,
        applicationVersion: this.opts.applicationVersion,
        // Recovery of a crashed process's runs happens only in a process with the same executor id, so each
        // worker keeps a stable one (DBOS__VMID / WORKER_ID) across restarts.
        executorID: this.opts.config.workerId,
        logger,
      });
      launchedInProcess = true;
      try {
        await DBOS.launch();
        await DBOS.registerQueue(QUEUE_NAME, {
          workerConcurrency: this.opts.workerConcurrency ?? 4,
          minPollingIntervalMs: this.opts.queuePollingMs ?? 200,
          onConflict: 'always_update',
        });
      } catch (err) {
        launchedInProcess = false;
        await DBOS.shutdown({ deregister: true }).catch(() => {});
        throw err;
      }
      this.launched = true;
    }
    this.client = await DBOSClient.create({
      ...sys,
      systemDatabaseSchemaName: SCHEMA,
      applicationName: APP_NAME,
      logger,
    });
    if (this.launched && this.opts.db.kind === 'postgres' && this.opts.config.databaseUrl) {
      const client = this.client;
      this.takeover = new WorkerTakeover({
        db: this.opts.db,
        queue: { handBackRunsOf: (executorId) => this.handBackRunsOf(client, executorId) },
        executorId: this.opts.config.workerId,
        heartbeatMs: this.opts.config.workerHeartbeatMs,
        deadAfterMs: this.opts.config.workerDeadAfterMs,
        logger: this.opts.logger,
      });
      try {
        await this.takeover.start();
      } catch (err) {
        // Launched but not beating: stopped again, so the start's next attempt launches afresh.
        await this.halt();
        throw err;
      }
    }
  }

  /** The one place workflows and their steps meet DBOS: retry policy, payload re-validation and observation. */
  private register(def: WorkflowDefinition, { DBOS, Error: DbosErrors }: Sdk): void {
    const cancelled = (err: unknown) => err instanceof DbosErrors.DBOSWorkflowCancelledError;
    const observe = observed(def.name, this.opts.observer, cancelled);
    const step = (name: string, fn: () => Promise<unknown>, retry?: Partial<RetryPolicy>) => {
      const policy = { ...def.retry, ...retry };
      return DBOS.runStep(observe.step(name, fn), {
        name,
        retriesAllowed: policy.attempts > 1,
        maxAttempts: policy.attempts,
        intervalSeconds: policy.intervalSeconds,
        backoffRate: policy.backoffRate,
        shouldRetry: isRetryable,
      });
    };
    DBOS.registerWorkflow(
      (payload: unknown) =>
        observe.run(async () => {
          // Re-validated at run time: a payload may have waited in the queue across a deploy.
          if (!Value.Check(def.payload, payload)) throw new Error(`invalid payload for workflow ${def.name}`);
          return def.run(payload, step as StepRunner, { sleep: (ms) => DBOS.sleep(ms) });
        }),
      { name: def.name, maxRecoveryAttempts: 5 },
    );
  }

  private requireClient(): DBOSClient {
    if (!this.client) throw new Error('the workflow engine is not started');
    return this.client;
  }

  async enqueue(name: string, payload: unknown, opts: EnqueueOptions = {}): Promise<EnqueueResult> {
    const def = this.definitions.get(name);
    if (!def) throw new Error(`unknown workflow ${name}`);
    if (!Value.Check(def.payload, payload)) throw new Error(`invalid payload for workflow ${name}`);
    return this.whileReachable(async (client) => {
      // An id of our own: a different id back means the dedup key matched a run already under way.
      const ours = opts.workflowId ?? randomUUID();
      const handle = await client.enqueue(
        {
          workflowID: ours,
          queueName: QUEUE_NAME,
          workflowName: def.name,
          appVersion: this.opts.applicationVersion,
          applicationName: APP_NAME,
          deduplicationID: def.dedupKey(payload),
          duplicationPolicy: 'return-existing',
          workflowTimeoutMS: def.timeoutMs,
        },
        payload,
      );
      if (handle.workflowID === ours) return { workflowId: ours, merged: false, payload };
      const joined = await client.getWorkflow(handle.workflowID);
      return { workflowId: handle.workflowID, merged: true, payload: joined?.input?.[0] ?? payload };
    });
  }

  get(workflowId: string): Promise<WorkflowView | null> {
    return this.whileReachable(async (client) => {
      const status = await client.getWorkflow(workflowId);
      if (!status || (status.applicationName && status.applicationName !== APP_NAME)) return null;
      const steps = (await client.listWorkflowSteps(workflowId)) ?? [];
      return toView(status, steps, this.definitions.get(status.workflowName));
    });
  }

  /**
   * Runs a client call (enqueue, status) for a caller that is waiting, such as a request: a lost database is an
   * UnavailableError (503 with Retry-After) within a bounded time, never a wait until it comes back. The launch is
   * waited for while the database answers (whileDatabaseAnswers); the call itself fails at its first lost
   * connection instead of entering DBOS's retry, which waits for the database as long as it takes (the runs
   * themselves keep that retry: they must outlast an outage).
   */
  private async whileReachable<T>(call: (client: DBOSClient) => Promise<T>): Promise<T> {
    try {
      const probe = () => this.opts.db.query('SELECT 1');
      await whileDatabaseAnswers(this.start(), probe, this.opts.probeEveryMs ?? 1_000);
      return await withoutDbosRetries(() => call(this.requireClient()));
    } catch (err) {
      if (isDatabaseUnavailable(err))
        throw unavailable('The workflow engine cannot reach the database; try again shortly');
      throw err;
    }
  }

  async states(workflowIds: readonly string[]): Promise<Map<string, RunState>> {
    if (workflowIds.length === 0) return new Map();
    const rows = await this.whileReachable((c) =>
      c.listWorkflows({ workflowIDs: [...workflowIds], loadInput: false }),
    );
    return new Map(rows.map((row) => [row.workflowID, runStateOf(row)]));
  }

  async waitFor(workflowId: string, timeoutMs = Number.POSITIVE_INFINITY): Promise<WorkflowView> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const view = await this.get(workflowId);
      if (!view) throw new Error(`unknown workflow ${workflowId}`);
      if (view.status !== 'enqueued' && view.status !== 'running') return view;
      if (Date.now() > deadline)
        throw new Error(`workflow ${workflowId} still ${view.status} after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  async stop(): Promise<void> {
    const starting = this.starting;
    this.starting = undefined;
    if (!starting) return;
    await starting.catch(() => {});
    await this.halt();
  }

  /** Stops what a launch started: DBOS's execution, the unfinished runs handed back, the heartbeat, the client. */
  private async halt(): Promise<void> {
    const takeover = this.takeover;
    this.takeover = undefined;
    if (this.launched) {
      this.launched = false;
      // deregister: a later engine in this process (tests) registers fresh functions bound to its own deps.
      await (await loadSdk()).DBOS.shutdown({ deregister: true, workflowCompletionTimeoutMS: 0 });
      launchedInProcess = false;
      await this.handBack().catch((err: unknown) =>
        this.opts.logger.warn({ err }, 'could not hand unfinished runs back to the queue'),
      );
    }
    // After the hand-back: the row goes once nothing of this worker is left to take over.
    await takeover
      ?.stop()
      .catch((err: unknown) => this.opts.logger.warn({ err }, 'could not remove the worker heartbeat'));
    await this.client?.destroy().catch(() => {});
    this.client = undefined;
  }

  /**
   * A worker stopping on a server hands its unfinished runs back: they return to the queue, where any worker
   * resumes them from their last completed step (steps are idempotent). Without this, DBOS leaves them to a
   * process restarted with the same DBOS__VMID, or to the takeover minutes later (takeover.ts). Runs only after
   * DBOS has stopped executing here, so a run is never live in two processes.
   */
  private async handBack(): Promise<void> {
    if (!this.runsWorkflows || !this.opts.config.databaseUrl || !this.client) return;
    const runs = await this.handBackRunsOf(this.client, this.opts.config.workerId);
    if (runs > 0) this.opts.logger.info({ runs }, 'handed unfinished runs back to the queue');
  }

  /**
   * Puts an executor's PENDING runs back on the queue (this worker's own at a graceful stop, a dead worker's on
   * takeover). DBOS's resume clears a run's deduplication id, which is what collapses a second POST /onboard of
   * the same domain into the run under way; it is restored, unless another run took that id in between (then that
   * one collapses the calls).
   */
  private async handBackRunsOf(client: DBOSClient, executorId: string): Promise<number> {
    const pending = await client.listWorkflows({ status: 'PENDING', executorId });
    if (pending.length === 0) return 0;
    await client.resumeWorkflows(
      pending.map((w) => w.workflowID),
      { queueName: QUEUE_NAME },
    );
    for (const w of pending) {
      if (!w.deduplicationID) continue;
      await this.opts.db
        .query(
          `UPDATE ${SCHEMA}.workflow_status SET deduplication_id = $2
            WHERE workflow_uuid = $1 AND deduplication_id IS NULL AND status IN ('ENQUEUED', 'PENDING')`,
          [w.workflowID, w.deduplicationID],
        )
        .catch((err: unknown) => {
          if ((err as { code?: string }).code !== '23505') throw err;
        });
    }
    return pending.length;
  }
}
