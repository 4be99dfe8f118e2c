import { Type } from 'typebox';
import type { Deps } from '../../../deps.js';
import { notFound } from '../../../errors.js';
import { findCompanyByDomain } from '../../../pipeline/store/companies.js';
import { dataOf, errorResponses } from '../../schemas/common.js';
import type { App } from '../../types.js';
import { domainOrBadRequest } from './onboard.js';
import { DomainField, Enqueued, WorkflowIdField } from './schemas.js';

const Body = Type.Object({ domain: DomainField }, { additionalProperties: false });

const Accepted = dataOf(
  Type.Object({
    workflowId: WorkflowIdField,
    company: Type.Object({
      id: Type.String({ format: 'uuid' }),
      name: Type.String(),
      domain: Type.String(),
    }),
    status: Enqueued,
  }),
);

/**
 * POST /enrich: forced re-acquisition of a tracked company's facts, re-derived tags, re-computed
 * embedding. 404 for a domain that is not tracked (new companies go through /onboard). Collapses per domain.
 */
export function enrichRoute(app: App, deps: Deps): void {
  app.post(
    '/enrich',
    {
      config: { access: 'token' },
      schema: {
        operationId: 'enrichCompany',
        tags: ['pipeline'],
        summary: 'Re-enrich a tracked company: facts, tags, embedding (durable, 202)',
        description: 'Steps: load-company -> enrich (forced) -> embed. Unknown body fields are refused.',
        security: [{ bearer: [] }],
        body: Body,
        response: { 202: Accepted, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const domain = domainOrBadRequest(request.body.domain);
      const company = await findCompanyByDomain(deps.db, domain);
      if (!company) {
        throw notFound(`No tracked company has the domain ${domain}; add it with POST /api/v1/onboard`);
      }
      const { workflowId } = await deps.pipeline.engine.enqueue('enrich', { companyId: company.id, domain });
      return reply.status(202).send({ data: { workflowId, company, status: 'enqueued' as const } });
    },
  );
}
