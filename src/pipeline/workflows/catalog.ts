import { discoveryWorkflow } from '../discovery/index.js';
import type { WorkflowDefinition, WorkflowEngine } from '../engine/types.js';
import type { PipelineContext } from './context.js';
import { enrichWorkflow } from './enrich.js';
import { onboardWorkflow } from './onboard.js';
import { scrapeWorkflow } from './scrape.js';

/**
 * The workflow catalog: every durable workflow of the service, which the engine registers and nothing else, with
 * its payload schema, step plan, retry policy and timeout (see each definition).
 *
 * - `onboard` (onboard.ts): POST /onboard and `frontline track`; `enrich` (enrich.ts): POST /enrich; `scrape`
 *   (scrape.ts): the freshness scheduler's re-scrapes;
 * - `promote` (src/pipeline/discovery/workflow.ts): POST /promote_and_onboard, which hands qualified domains to
 *   `onboard`;
 * - `deep-research` (src/research/workflow.ts) and `deliver-watch` (src/watches/delivery.ts): built by their areas
 *   over their own parts and handed in by the composition root.
 *
 * WORKFLOWS_VERSION is the DBOS application version stamped on each run. Only a worker of the same version
 * dequeues or recovers a run, so bump it whenever a workflow's sequence of steps changes (a replay must meet the
 * same steps in the same order); leave it alone for changes inside a step.
 */
export const WORKFLOWS_VERSION = 'frontline-workflows-1';

export interface CatalogParts {
  ctx: PipelineContext;
  /** The engine the catalog is registered on, read when a run needs it (promote enqueues onboardings). */
  engine: () => WorkflowEngine;
  research: WorkflowDefinition;
  watches: WorkflowDefinition;
}

export function workflowCatalog({ ctx, engine, research, watches }: CatalogParts): WorkflowDefinition[] {
  const promote = discoveryWorkflow({ db: ctx.db, now: ctx.now, http: ctx.http, engine });
  const ours = [onboardWorkflow(ctx), enrichWorkflow(ctx), scrapeWorkflow(ctx), promote];
  return [...(ours as unknown as WorkflowDefinition[]), research, watches];
}
