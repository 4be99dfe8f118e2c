import { Type } from 'typebox';
import { SAMPLE_JOB_EXAMPLE_ID } from '../../../catalog/sample.js';
import type { CatalogService } from '../../../catalog/service.js';
import { notFound } from '../../../errors.js';
import { JobDetailSchema } from '../../schemas/catalog.js';
import { dataOf, errorResponses } from '../../schemas/common.js';
import type { App } from '../../types.js';

const Params = Type.Object({
  id: Type.String({
    description: 'Job id (UUID). Anything that is not a known job id, malformed ones included, is 404.',
    // A sample posting: answers on any catalog that loaded the sample.
    examples: [SAMPLE_JOB_EXAMPLE_ID],
  }),
});

/** GET /jobs/:id: one job, closed ones included (active: false). */
export function getJobRoute(app: App, catalog: CatalogService): void {
  app.get(
    '/jobs/:id',
    {
      config: { access: 'public', resource: 'jobs', cache: true },
      schema: {
        operationId: 'getJob',
        tags: ['catalog'],
        summary: 'One job with its description and company details',
        description: 'Also answers for closed postings, marked active: false. Unknown or malformed id: 404.',
        params: Params,
        response: { 200: dataOf(JobDetailSchema), ...errorResponses(403, 404) },
      },
    },
    async (request) => {
      const job = await catalog.getJob(request.params.id);
      if (!job) throw notFound(`No job with id '${request.params.id}'`);
      return { data: job };
    },
  );
}
