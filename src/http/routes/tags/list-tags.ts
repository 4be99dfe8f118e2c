import type { CatalogService } from '../../../catalog/service.js';
import { TagListingSchema } from '../../schemas/catalog.js';
import { dataOf, errorResponses } from '../../schemas/common.js';
import type { App } from '../../types.js';

/** GET /tags: the filter values of /companies, grouped by dimension. */
export function listTagsRoute(app: App, catalog: CatalogService): void {
  app.get(
    '/tags',
    {
      config: { access: 'public', resource: 'companies', cache: true },
      schema: {
        operationId: 'listTags',
        tags: ['catalog'],
        summary: 'Tags grouped by dimension',
        description:
          'All five dimensions are always present (possibly empty). Lists the tags at least one active company ' +
          'carries, each dimension sorted by value.',
        response: { 200: dataOf(TagListingSchema), ...errorResponses(403) },
      },
    },
    async () => ({ data: await catalog.listTags() }),
  );
}
