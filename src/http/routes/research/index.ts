import type { ResearchService } from '../../../research/service.js';
import type { App } from '../../types.js';
import { getDeepResearchRoute } from './get-deep-research.js';
import { listResearchRunsRoute } from './list-research-runs.js';
import { postDeepResearchRoute } from './post-deep-research.js';

/** Deep research and the run history. */
export async function researchRoutes(app: App, research: ResearchService, prefix: string): Promise<void> {
  await app.register(
    async (api) => {
      postDeepResearchRoute(api, research);
      getDeepResearchRoute(api, research);
      listResearchRunsRoute(api, research);
    },
    { prefix },
  );
}
