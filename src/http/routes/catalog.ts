import type { Deps } from '../../deps.js';
import type { App } from '../types.js';
import { companyRoutes } from './companies/index.js';
import { jobRoutes } from './jobs/index.js';
import { signalsRoutes } from './signals/index.js';
import { statsRoutes } from './stats/index.js';
import { tagRoutes } from './tags/index.js';

/** The public catalog read surface, under the API prefix. */
export async function catalogRoutes(app: App, deps: Deps, prefix: string): Promise<void> {
  await app.register(
    async (api) => {
      jobRoutes(api, deps.catalog, deps.now);
      companyRoutes(api, deps.catalog);
      tagRoutes(api, deps.catalog);
      statsRoutes(api, deps.catalog);
      signalsRoutes(api, deps.signals, deps.now);
    },
    { prefix },
  );
}
