import type { DBOS, WorkflowStatus } from '@dbos-inc/dbos-sdk';
import type { RunState, StepView, WorkflowDefinition, WorkflowState, WorkflowView } from './types.js';

/** Renders DBOS's status row and step checkpoints as the public workflow representation. */

// StepInfo is not exported from the SDK's entry point.
export type StepInfo = NonNullable<Awaited<ReturnType<typeof DBOS.listWorkflowSteps>>>[number];

const iso = (ms: number | undefined): string | null => (ms === undefined ? null : new Date(ms).toISOString());

export function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (err && typeof err === 'object' && typeof (err as { message?: unknown }).message === 'string') {
    return (err as { message: string }).message;
  }
  return String(err);
}

export function stateOf(status: WorkflowStatus): WorkflowState {
  switch (status.status) {
    case 'ENQUEUED':
    case 'DELAYED':
      return 'enqueued';
    case 'PENDING':
      return 'running';
    case 'SUCCESS':
      return 'succeeded';
    case 'ERROR':
    case 'MAX_RECOVERY_ATTEMPTS_EXCEEDED':
      return 'failed';
    case 'CANCELLED':
      // DBOS cancels a run that outlives its timeout; to a caller that is a failure, not a cancellation.
      return timedOut(status) ? 'failed' : 'cancelled';
    default:
      return 'running';
  }
}

const timedOut = (s: WorkflowStatus): boolean =>
  s.deadlineEpochMS !== undefined && (s.updatedAt ?? Date.now()) >= s.deadlineEpochMS;

function errorOf(status: WorkflowStatus): string | undefined {
  if (status.status === 'CANCELLED') {
    return timedOut(status) ? `timed out after ${Math.round((status.timeoutMS ?? 0) / 1000)} s` : 'cancelled';
  }
  if (status.status === 'MAX_RECOVERY_ATTEMPTS_EXCEEDED') {
    return 'gave up after crashing repeatedly during recovery';
  }
  return status.error === undefined || status.error === null ? undefined : messageOf(status.error);
}

function stepOf(info: StepInfo): StepView {
  const skipped =
    info.output !== null &&
    typeof info.output === 'object' &&
    (info.output as { skipped?: unknown }).skipped === true;
  const view: StepView = {
    name: info.name,
    status: info.error ? 'failed' : skipped ? 'skipped' : 'succeeded',
    startedAt: iso(info.startedAtEpochMs),
    finishedAt: iso(info.completedAtEpochMs),
  };
  if (info.error) view.error = messageOf(info.error);
  return view;
}

/**
 * Checkpointed steps first, then (while the run is live) the rest of the plan: the first unrun step is
 * `running` when the run is, the others `pending`. A plan entry ending in ':' matches a family of steps.
 */
export function toView(
  status: WorkflowStatus,
  steps: readonly StepInfo[],
  definition: WorkflowDefinition | undefined,
): WorkflowView {
  const state = stateOf(status);
  const views = steps.map(stepOf);
  const live = state === 'enqueued' || state === 'running';
  if (live && definition) {
    const ran = (planned: string) =>
      views.some((v) => (planned.endsWith(':') ? v.name.startsWith(planned) : v.name === planned));
    let first = state === 'running';
    for (const planned of definition.steps) {
      if (ran(planned)) continue;
      views.push({
        name: planned.endsWith(':') ? planned.slice(0, -1) : planned,
        status: first ? 'running' : 'pending',
        startedAt: null,
        finishedAt: null,
      });
      first = false;
    }
  }
  const view: WorkflowView = {
    workflowId: status.workflowID,
    name: status.workflowName,
    status: state,
    createdAt: new Date(status.createdAt).toISOString(),
    updatedAt: new Date(status.updatedAt ?? status.createdAt).toISOString(),
    steps: views,
  };
  if (state === 'succeeded' && status.output !== undefined) view.result = status.output;
  const error = state === 'failed' || state === 'cancelled' ? errorOf(status) : undefined;
  if (error) view.error = error;
  return view;
}

/** A run's state, and its result or error once finished, without its steps. */
export function runStateOf(status: WorkflowStatus): RunState {
  const { workflowId, status: state, result, error } = toView(status, [], undefined);
  return { workflowId, status: state, result, error };
}
