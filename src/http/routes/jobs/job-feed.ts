import { Type } from 'typebox';
import type { CatalogService } from '../../../catalog/service.js';
import { jobFeed } from '../../feeds/atom.js';
import { feedTitle } from '../../feeds/feed-title.js';
import { pageRequest } from '../../limits/pagination.js';
import { optionalText } from '../../schemas/catalog.js';
import { errorResponses } from '../../schemas/common.js';
import type { App } from '../../types.js';
import { JobsQuery, jobFilters } from './list-jobs.js';

const FEED_TYPE = 'application/atom+xml; charset=utf-8';

/**
 * GET /jobs/feed.atom: the listing GET /jobs would answer for the same query, as an Atom feed, newest first (a
 * search's shortlist too). Feed readers poll it; ETag / If-None-Match and the response cache make a poll that
 * finds nothing new cheap.
 */
export function jobFeedRoute(app: App, catalog: CatalogService, now: () => number): void {
  app.get(
    '/jobs/feed.atom',
    {
      config: { access: 'public', resource: 'jobs', cache: true },
      schema: {
        tags: ['catalog'],
        operationId: 'getJobFeed',
        summary: 'Atom feed of a job listing',
        description:
          'Takes exactly the query of GET /jobs (filters, search, page, limit) and answers the same jobs as an Atom ' +
          '1.0 feed, newest first. Entry ids are urn:uuid:<job id>, stable across polls.',
        querystring: JobsQuery,
        response: {
          200: {
            description: 'The feed',
            content: { 'application/atom+xml': { schema: Type.String() } },
          },
          ...errorResponses(400, 403),
        },
      },
    },
    async (request, reply) => {
      const page = pageRequest(request.caller.policy, 'jobs', request.query, 20);
      const result = await catalog.listJobs(
        jobFilters(request.query, now()),
        optionalText(request.query.search),
        page,
      );
      const origin = `${request.protocol}://${request.host}`;
      const qs = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      const prefix = request.url.slice(0, request.url.indexOf('/jobs/feed.atom'));
      const day = new Date(now());
      day.setUTCHours(0, 0, 0, 0);
      const body = jobFeed({
        selfUrl: `${origin}${prefix}/jobs/feed.atom${qs}`,
        listingUrl: `${origin}${prefix}/jobs${qs}`,
        apiBase: `${origin}${prefix}`,
        title: feedTitle(request.query, 'Frontline'),
        jobs: result.items,
        emptyUpdated: day,
      });
      return reply
        .type(FEED_TYPE)
        .serializer((payload: unknown) => payload as string)
        .send(body);
    },
  );
}
