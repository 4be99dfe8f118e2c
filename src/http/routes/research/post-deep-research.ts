import { Type } from 'typebox';
import type { ResearchService } from '../../../research/service.js';
import { dataOf, errorResponses } from '../../schemas/common.js';
import type { App } from '../../types.js';
import {
  CompanyRefSchema,
  DossierSchema,
  ModeSchema,
  ProcessorSchema,
  ResearchRunSchema,
  researchDomain,
} from './schemas.js';

const Body = Type.Object(
  {
    domain: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'Domain of a tracked company (URLs are normalized like /onboard)',
      examples: ['acme.com'],
    }),
    mode: Type.Optional(ModeSchema),
    processor: Type.Optional(ProcessorSchema),
  },
  { additionalProperties: false },
);

const Ready = dataOf(
  Type.Object({
    company: CompanyRefSchema,
    mode: ModeSchema,
    processor: ProcessorSchema,
    research: DossierSchema,
    run: ResearchRunSchema,
  }),
  'The dossier, stored and applied to the company',
);

const Pending = dataOf(
  Type.Object({
    workflowId: Type.String({
      description:
        'Poll GET /api/v1/workflows/{workflowId}; the dossier then appears at GET /deep-research/{domain}',
    }),
    status: Type.Union([Type.Literal('enqueued'), Type.Literal('running')], {
      description: 'enqueued while waiting for a worker, running once started',
    }),
  }),
  'The run outlasted DEEP_RESEARCH_WAIT_S; it continues and stores the dossier when done',
);

/**
 * POST /deep-research: synchronous for the caller, durable underneath. Waits up to
 * DEEP_RESEARCH_WAIT_S for the workflow; a client that disconnects loses nothing, the run completes and stores
 * the dossier. Concurrent calls for the same (domain, mode, processor) share one run.
 */
export function postDeepResearchRoute(app: App, research: ResearchService): void {
  app.post(
    '/deep-research',
    {
      config: { access: 'token' },
      schema: {
        operationId: 'startDeepResearch',
        tags: ['research'],
        summary: 'Research a tracked company and store the dossier (synchronous, 30–120 s)',
        description:
          'Returns the dossier when ready. If the run outlasts DEEP_RESEARCH_WAIT_S (default 150 s) the answer is 202 ' +
          'with a workflow handle instead; the run completes and its dossier is served by GET /deep-research/{domain}. ' +
          'Concurrent calls with the same domain, mode and processor join one run. The dossier feeds the company: ' +
          'researchSummary, foundedYear, employeeCount, headquarters and funding on GET /companies/{id}, and its ' +
          'search text and embedding. Provider failures answer 502.',
        security: [{ bearer: [] }],
        body: Body,
        response: { 200: Ready, 202: Pending, ...errorResponses(400, 401, 403, 404, 502) },
      },
    },
    async (request, reply) => {
      const domain = researchDomain(request.body.domain, 'field');
      const mode = request.body.mode ?? 'full';
      const processor = request.body.processor ?? 'base';
      const outcome = await research.research(domain, mode, processor);
      if (outcome.kind === 'pending') {
        return reply.status(202).send({
          data: { workflowId: outcome.workflowId, status: outcome.status as 'enqueued' | 'running' },
        });
      }
      return reply.status(200).send({
        data: {
          company: outcome.company,
          mode: outcome.mode,
          processor: outcome.processor,
          research: outcome.stored.dossier,
          run: outcome.stored.run,
        },
      });
    },
  );
}
