import type { Static } from 'typebox';
import { MAX_WATCHES_PER_TOKEN, type WatchService } from '../../../watches/service.js';
import type { WatchFilters } from '../../../watches/store.js';
import { dataOf, errorResponses } from '../../schemas/common.js';
import type { App } from '../../types.js';
import { jobFilters } from '../jobs/list-jobs.js';
import { CreatedWatchSchema, CreateWatchBody } from './schemas.js';

/** POST /watches: a saved search whose newly matching jobs are delivered to a webhook. */
export function createWatchRoute(app: App, watches: WatchService): void {
  app.post(
    '/watches',
    {
      config: { access: 'token' },
      schema: {
        tags: ['watches'],
        operationId: 'createWatch',
        summary: 'Create a watch',
        description:
          'Each job that newly matches the filters and search (first seen, or reopened) is delivered once, in ' +
          'batches, to `url`, signed per Standard Webhooks with the secret in this answer (shown once). A token ' +
          `holds at most ${MAX_WATCHES_PER_TOKEN} watches: past that, 409 CONFLICT until one is deleted.`,
        security: [{ bearer: [] }],
        body: CreateWatchBody,
        response: { 201: dataOf(CreatedWatchSchema), ...errorResponses(400, 401, 403, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const body = request.body as Static<typeof CreateWatchBody>;
      const filters = (body.filters ?? {}) as WatchFilters;
      // Validated as the listing validates them, so a watch never stores a filter GET /jobs would refuse (the
      // instant only places max_age_days, which is resolved again at each match).
      jobFilters(filters, 0);
      const watch = await watches.create(request.caller.tokenId ?? '', {
        filters,
        search: body.search?.trim() || null,
        url: body.url,
        description: body.description ?? null,
      });
      return reply.code(201).send({ data: watch });
    },
  );
}
