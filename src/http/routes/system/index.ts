import type { Deps } from '../../../deps.js';
import type { App } from '../../types.js';
import { healthRoutes } from './health.js';
import { meRoute } from './me.js';
import { metricsRoute } from './metrics.js';

export async function systemRoutes(app: App, deps: Deps, prefix: string): Promise<void> {
  healthRoutes(app, deps);
  metricsRoute(app, deps);
  await app.register(
    async (api) => {
      meRoute(api);
      api.get(
        '/openapi.json',
        {
          config: { access: 'public' },
          schema: { tags: ['system'], summary: 'This OpenAPI 3.1 document', hide: false },
        },
        async () => app.swagger(),
      );
    },
    { prefix },
  );
}
