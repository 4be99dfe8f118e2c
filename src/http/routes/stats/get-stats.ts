import type { CatalogService } from '../../../catalog/service.js';
import { StatsSchema } from '../../schemas/catalog.js';
import { dataOf, errorResponses } from '../../schemas/common.js';
import type { App } from '../../types.js';

/** GET /stats: site-wide counts. */
export function getStatsRoute(app: App, catalog: CatalogService): void {
  app.get(
    '/stats',
    {
      // Cacheable: the cache's validity includes the UTC day, so newToday turns over at midnight without a write.
      config: { access: 'public', resource: 'jobs', cache: true },
      schema: {
        operationId: 'getStats',
        tags: ['catalog'],
        summary: 'Catalog statistics',
        description: 'Active jobs, active companies, and active jobs first seen since 00:00 UTC today.',
        response: { 200: dataOf(StatsSchema), ...errorResponses(403) },
      },
    },
    async () => ({ data: await catalog.stats() }),
  );
}
