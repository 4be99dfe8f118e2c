import type { WorkflowDefinition } from '../engine/types.js';
import type { PipelineContext } from './context.js';
import { enrichWorkflow } from './enrich.js';
import { onboardWorkflow } from './onboard.js';
import { scrapeWorkflow } from './scrape.js';

/**
 * The workflow catalog: every durable workflow of the service by name, with its payload schema, step plan,
 * retry policy and timeout (see each definition).
 *
 * WORKFLOWS_VERSION is the DBOS application version stamped on each run. Only a worker of the same version
 * dequeues or recovers a run, so bump it whenever a workflow's sequence of steps changes (a replay must meet the
 * same steps in the same order); leave it alone for changes inside a step.
 */
export const WORKFLOWS_VERSION = 'frontline-workflows-1';

export const WORKFLOW_NAMES = ['onboard', 'enrich', 'scrape'] as const;
export type WorkflowName = (typeof WORKFLOW_NAMES)[number];

export function workflowCatalog(ctx: PipelineContext): WorkflowDefinition[] {
  return [onboardWorkflow(ctx), enrichWorkflow(ctx), scrapeWorkflow(ctx)] as unknown as WorkflowDefinition[];
}
