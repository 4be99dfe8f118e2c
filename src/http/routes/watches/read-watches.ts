import { Type } from 'typebox';
import { MAX_WATCHES_PER_TOKEN, type WatchService } from '../../../watches/service.js';
import { pageMeta } from '../../limits/pagination.js';
import { dataOf, errorResponses, listOf, PageQuery } from '../../schemas/common.js';
import type { App } from '../../types.js';
import { DeliverySchema, WatchIdParams, WatchSchema } from './schemas.js';

const owner = (request: { caller: { tokenId: string | null } }) => request.caller.tokenId ?? '';

/** GET /watches, GET /watches/:id, GET /watches/:id/deliveries: the calling token's watches. */
export function readWatchRoutes(app: App, watches: WatchService): void {
  const common = { tags: ['watches'], security: [{ bearer: [] }] };
  app.get(
    '/watches',
    {
      config: { access: 'token' },
      schema: {
        ...common,
        operationId: 'listWatches',
        summary: "The calling token's watches, newest first, paged",
        description: `A token holds at most ${MAX_WATCHES_PER_TOKEN} watches; pages of up to ${MAX_WATCHES_PER_TOKEN}.`,
        querystring: Type.Object(PageQuery(50, MAX_WATCHES_PER_TOKEN), { additionalProperties: false }),
        response: { 200: listOf(WatchSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const query = request.query as { page?: number; limit?: number };
      const page = query.page ?? 1;
      const limit = Math.min(query.limit ?? 50, MAX_WATCHES_PER_TOKEN);
      const slice = { page, limit, offset: (page - 1) * limit };
      const { items, total } = await watches.list(owner(request), slice);
      return { data: items, meta: pageMeta(slice, total) };
    },
  );
  app.get(
    '/watches/:id',
    {
      config: { access: 'token' },
      schema: {
        ...common,
        operationId: 'getWatch',
        summary: 'A watch',
        params: WatchIdParams,
        response: { 200: dataOf(WatchSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({ data: await watches.get(owner(request), (request.params as { id: string }).id) }),
  );
  app.get(
    '/watches/:id/deliveries',
    {
      config: { access: 'token' },
      schema: {
        ...common,
        operationId: 'listWatchDeliveries',
        summary: "A watch's recent deliveries, newest first (at most 100)",
        params: WatchIdParams,
        response: { 200: dataOf(Type.Array(DeliverySchema)), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({
      data: await watches.deliveries(owner(request), (request.params as { id: string }).id, 100),
    }),
  );
}
