import { Type } from 'typebox';
import type { ResearchService } from '../../../research/service.js';
import { dataOf, errorResponses } from '../../schemas/common.js';
import type { App } from '../../types.js';
import { CompanyRefSchema, DossierSchema, ResearchRunSchema, researchDomain } from './schemas.js';

const Params = Type.Object({
  domain: Type.String({
    minLength: 1,
    maxLength: 253,
    description: 'Domain of a tracked company',
    examples: ['acme.com'],
  }),
});

/** GET /deep-research/:domain: the latest stored dossier; 404 when the company has none. */
export function getDeepResearchRoute(app: App, research: ResearchService): void {
  app.get(
    '/deep-research/:domain',
    {
      config: { access: 'token' },
      schema: {
        operationId: 'getDeepResearch',
        tags: ['research'],
        summary: 'The latest research dossier of a tracked company',
        description: 'Earlier dossiers stay stored; GET /deep-research/{domain}/runs lists them.',
        security: [{ bearer: [] }],
        params: Params,
        response: {
          200: dataOf(
            Type.Object({ company: CompanyRefSchema, research: DossierSchema, run: ResearchRunSchema }),
          ),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => {
      const { company, stored } = await research.latest(
        researchDomain(request.params.domain, 'path parameter'),
      );
      return { data: { company, research: stored.dossier, run: stored.run } };
    },
  );
}
