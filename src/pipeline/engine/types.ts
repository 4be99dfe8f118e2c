import type { TSchema } from 'typebox';

/**
 * The durable-workflow port the HTTP layer and the scheduler use. One implementation (dbos-engine.ts) runs on
 * DBOS Transact; routes only enqueue and read status, so they never see DBOS types.
 */

export type WorkflowState = 'enqueued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
export type StepState = 'pending' | 'running' | 'succeeded' | 'skipped' | 'failed';

export interface StepView {
  name: string;
  status: StepState;
  startedAt: string | null;
  finishedAt: string | null;
  error?: string;
}

export interface WorkflowView {
  workflowId: string;
  name: string;
  status: WorkflowState;
  createdAt: string;
  updatedAt: string;
  steps: StepView[];
  result?: unknown;
  error?: string;
}

/** Retry policy of a step: attempts include the first try; delays grow by backoffRate. */
export interface RetryPolicy {
  /** Total attempts, first try included (1 = no retry). */
  attempts: number;
  /** Seconds before the first retry. */
  intervalSeconds: number;
  /** Multiplier applied to the delay after each retry. */
  backoffRate: number;
}

/** Runs one checkpointed step: on replay after a crash a completed step returns its stored result unrun. */
export type StepRunner = <T>(name: string, fn: () => Promise<T>, retry?: Partial<RetryPolicy>) => Promise<T>;

/** Durable waits inside a workflow: a run that crashes while waiting resumes at the same deadline. */
export interface WorkflowTools {
  sleep(ms: number): Promise<void>;
}

/**
 * A workflow catalog entry: the name DBOS stores, the payload schema (validated on enqueue and again when a
 * worker starts the run, since a payload may sit in the queue across a deploy), the step plan shown by the
 * status endpoint, the default retry policy of its steps, and the run's timeout.
 */
export interface WorkflowDefinition<P = unknown, R = unknown> {
  name: string;
  description: string;
  payload: TSchema;
  /** Step names in order; a name ending in ':' stands for a family of steps (one per board). */
  steps: readonly string[];
  retry: RetryPolicy;
  /** Whole-run budget from dequeue, ms; past it DBOS cancels the run. */
  timeoutMs: number;
  /** Collapsing key: enqueues with the same key share one run while it is enqueued or running. */
  dedupKey(payload: P): string;
  run(payload: P, step: StepRunner, tools: WorkflowTools): Promise<R>;
}

/** How one execution of a workflow, or one attempt of a step, ended. */
export type RunOutcome = 'succeeded' | 'failed' | 'cancelled';
export type StepOutcome = 'succeeded' | 'skipped' | 'failed';

/**
 * Told about the work this process executes (metrics). The engine calls it from the one wrapper through which
 * every workflow and step is registered, so workflows never report anything themselves. Replays are not
 * reported: a step whose checkpoint a recovered run reads back did not run again.
 */
export interface WorkflowObserver {
  /** An execution began: a dequeued run, or a crashed run recovered by this process. */
  runStarted(workflow: string): void;
  runEnded(workflow: string, outcome: RunOutcome): void;
  /**
   * One attempt of a step ran for `seconds` (retries are further attempts). `step` is the step's family: the
   * name up to its first ':' (`scrape:greenhouse/acme` is `scrape`), so labels stay low-cardinality.
   */
  stepAttempted(workflow: string, step: string, outcome: StepOutcome, seconds: number): void;
}

export interface EnqueueResult {
  workflowId: string;
  /** true when the call joined a run already enqueued or running under the same dedup key. */
  merged: boolean;
  /** The payload of the run the call started or joined (a joined run keeps its own). */
  payload: unknown;
}

export interface EnqueueOptions {
  /**
   * The run's id, chosen by the caller so that enqueuing again is idempotent: an id already known returns that
   * run (enqueued, running or finished) instead of starting another. Default: a fresh UUID.
   */
  workflowId?: string;
}

/** What a caller waiting on many runs reads of each: its state, and its result or error once finished. */
export type RunState = Pick<WorkflowView, 'workflowId' | 'status' | 'result' | 'error'>;

export interface WorkflowEngine {
  /** Launches the runtime (the embedded worker when this process runs workflows). Idempotent. */
  start(): Promise<void>;
  /** Enqueues a run of a catalog workflow, or returns the run already enqueued/running under its dedup key. */
  enqueue(name: string, payload: unknown, opts?: EnqueueOptions): Promise<EnqueueResult>;
  /** The states of many runs in one read (unknown ids are left out). */
  states(workflowIds: readonly string[]): Promise<Map<string, RunState>>;
  /** null when the id is unknown. */
  get(workflowId: string): Promise<WorkflowView | null>;
  /** Waits for a run to finish (tests, demo, CLI); without `timeoutMs`, for as long as it takes. */
  waitFor(workflowId: string, timeoutMs?: number): Promise<WorkflowView>;
  stop(): Promise<void>;
}
