import type { Db } from '../../db/port.js';
import type { HttpClient } from '../../net/types.js';
import { discoverBoards } from '../boards/discover.js';
import type { WorkflowDefinition, WorkflowEngine } from '../engine/types.js';
import type { OnboardState } from './stages.js';
import { validateDomain } from './validate.js';
import { type PromoteContext, type PromoteResult, promoteWorkflow } from './workflow.js';

export interface DiscoveryWorkflowOptions {
  db: Db;
  now: () => number;
  /** The guarded outbound client (homepage check, careers pages). */
  http: HttpClient;
  /**
   * The engine that runs this workflow, read when a run needs it: the definition is built before the engine
   * that registers it, and enqueues each qualified domain's onboarding run through it.
   */
  engine: () => WorkflowEngine;
  /** Homepage budget per candidate, ms (default 15000). */
  fetchTimeoutMs?: number;
  /** Whole validation budget per candidate, ms (default 60000). */
  validationTimeoutMs?: number;
  validationConcurrency?: number;
  onboardWaitMs?: number;
  pollMs?: number;
}

/** The onboarding workflow's view of a run as an outcome for discovery. */
export async function onboardStateOf(
  engine: WorkflowEngine,
  workflowId: string,
): Promise<{ state: OnboardState; error: string | null }> {
  const view = await engine.get(workflowId);
  if (!view) return { state: 'failed', error: `onboarding run ${workflowId} is unknown` };
  switch (view.status) {
    case 'succeeded':
      return { state: 'onboarded', error: null };
    case 'failed':
    case 'cancelled':
      return { state: 'failed', error: view.error ?? view.status };
    default:
      return { state: 'running', error: null };
  }
}

/** Binds the promote workflow to the pipeline's parts: the one thing the workflow catalog needs to add. */
export function discoveryWorkflow(o: DiscoveryWorkflowOptions): WorkflowDefinition<unknown, PromoteResult> {
  const ctx: PromoteContext = {
    db: o.db,
    now: o.now,
    validate: (domain) =>
      validateDomain(domain, {
        http: o.http,
        // Careers-page and job-board detection, the same the onboarding's boards step runs.
        discoverBoards: (d, homepage) => discoverBoards(d, o.http, { homepage }),
        ...(o.fetchTimeoutMs !== undefined ? { fetchTimeoutMs: o.fetchTimeoutMs } : {}),
        ...(o.validationTimeoutMs !== undefined ? { totalTimeoutMs: o.validationTimeoutMs } : {}),
      }),
    startOnboard: async (domain, name) =>
      (await o.engine().enqueue('onboard', { domain, name, force: false })).workflowId,
    onboardState: (workflowId) => onboardStateOf(o.engine(), workflowId),
    ...(o.validationConcurrency !== undefined ? { validationConcurrency: o.validationConcurrency } : {}),
    ...(o.onboardWaitMs !== undefined ? { onboardWaitMs: o.onboardWaitMs } : {}),
    ...(o.pollMs !== undefined ? { pollMs: o.pollMs } : {}),
  };
  return promoteWorkflow(ctx) as unknown as WorkflowDefinition<unknown, PromoteResult>;
}
