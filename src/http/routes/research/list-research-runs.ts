import { Type } from 'typebox';
import type { ResearchService } from '../../../research/service.js';
import { dataOf, errorResponses } from '../../schemas/common.js';
import type { App } from '../../types.js';
import { CompanyRefSchema, ResearchRunSchema, researchDomain } from './schemas.js';

const MAX_RUNS = 100;

/** GET /deep-research/:domain/runs: ours beyond the spec, the history of research runs (newest first). */
export function listResearchRunsRoute(app: App, research: ResearchService): void {
  app.get(
    '/deep-research/:domain/runs',
    {
      config: { access: 'token' },
      schema: {
        operationId: 'listDeepResearchRuns',
        tags: ['research'],
        summary: 'History of research runs of a company, newest first',
        description: `Each run with its mode, processor, provider, cost and duration; at most ${MAX_RUNS}. An empty list when the company was never researched.`,
        security: [{ bearer: [] }],
        params: Type.Object({
          domain: Type.String({ minLength: 1, maxLength: 253, examples: ['acme.com'] }),
        }),
        response: {
          200: dataOf(Type.Object({ company: CompanyRefSchema, runs: Type.Array(ResearchRunSchema) })),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => ({
      data: await research.history(researchDomain(request.params.domain, 'path parameter'), MAX_RUNS),
    }),
  );
}
