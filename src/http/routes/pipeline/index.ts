import type { Deps } from '../../../deps.js';
import type { App } from '../../types.js';
import { workflowRoutes } from '../workflows/index.js';
import { enrichRoute } from './enrich.js';
import { onboardRoute } from './onboard.js';

/** Ingestion: onboarding and re-enrichment (202), and the status of every pipeline run. */
export async function pipelineRoutes(app: App, deps: Deps, prefix: string): Promise<void> {
  await app.register(
    async (api) => {
      onboardRoute(api, deps);
      enrichRoute(api, deps);
    },
    { prefix },
  );
  await workflowRoutes(app, deps, prefix);
}
