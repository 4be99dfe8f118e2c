import type { RunOutcome, StepOutcome, WorkflowObserver } from './types.js';

/**
 * Wraps a workflow's body and its step bodies so that the observer hears how each execution and each step
 * attempt ended. Only the bodies are wrapped: DBOS calls a step body only when it really runs the step (a replay
 * returns the checkpoint without calling it), so a recovered run does not report its finished steps twice.
 */
export function observed(
  workflow: string,
  observer: WorkflowObserver | undefined,
  /** Whether an error is the engine's "this run was cancelled" (DBOSWorkflowCancelledError). */
  isCancellation: (err: unknown) => boolean,
) {
  return {
    async run<T>(body: () => Promise<T>): Promise<T> {
      if (!observer) return body();
      observer.runStarted(workflow);
      let outcome: RunOutcome = 'failed';
      try {
        const result = await body();
        outcome = 'succeeded';
        return result;
      } catch (err) {
        // DBOS interrupts a run that was cancelled or outlived its timeout at its next step.
        if (isCancellation(err)) outcome = 'cancelled';
        throw err;
      } finally {
        observer.runEnded(workflow, outcome);
      }
    },

    step<T>(name: string, body: () => Promise<T>): () => Promise<T> {
      if (!observer) return body;
      const family = stepFamily(name);
      return async () => {
        const started = performance.now();
        let outcome: StepOutcome = 'failed';
        try {
          const result = await body();
          outcome = isSkipped(result) ? 'skipped' : 'succeeded';
          return result;
        } finally {
          observer.stepAttempted(workflow, family, outcome, (performance.now() - started) / 1000);
        }
      };
    },
  };
}

/** `scrape:greenhouse/acme` → `scrape`: one label value per kind of step, never one per board or domain. */
export function stepFamily(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(0, colon);
}

/** Steps whose completion marker was already set return `{skipped: true}` (see workflows/steps/company.ts). */
function isSkipped(result: unknown): boolean {
  return result !== null && typeof result === 'object' && (result as { skipped?: unknown }).skipped === true;
}
