import type { Deps } from '../../../deps.js';
import type { App } from '../../types.js';
import { discoverRoute } from './discover.js';
import { listCandidatesRoute } from './list-candidates.js';
import { promoteRoute } from './promote.js';

/** Discovery: the sightings log, discovery processing, and candidates (ours). */
export async function discoveryRoutes(app: App, deps: Deps, prefix: string): Promise<void> {
  await app.register(
    async (api) => {
      discoverRoute(api, deps);
      listCandidatesRoute(api, deps);
      await promoteRoute(api, () => deps.pipeline.engine);
    },
    { prefix },
  );
}
