import { Type } from 'typebox';
import { JOB_ORDER_PARAMS, parseJobOrder } from '../../../catalog/fields/job-order.js';
import { jobFilterParams, parseJobFilters } from '../../../catalog/filters.js';
import type { CatalogService } from '../../../catalog/service.js';
import { jobFacetNames, parseJobFacets } from '../../../catalog/sql/facets.js';
import { badRequest } from '../../../errors.js';
import { pageMeta, pageRequest } from '../../limits/pagination.js';
import { FacetsParam, JobListItemSchema, optionalText, SearchParam } from '../../schemas/catalog.js';
import { errorResponses, listOf, PageQuery } from '../../schemas/common.js';
import type { App } from '../../types.js';

/** GET /jobs's query: its filters, search and paging (the job feed takes the same). */
export const JobsQuery = Type.Object(
  {
    ...jobFilterParams(),
    search: SearchParam('job title and company name', 'forward deployed'),
    ...PageQuery(20, 50),
  },
  { additionalProperties: false },
);

const ListJobsQuery = Type.Object(
  {
    ...JobsQuery.properties,
    ...JOB_ORDER_PARAMS,
    facets: FacetsParam(jobFacetNames(), 'role_category,remote'),
    explain: Type.Optional(
      Type.Boolean({
        description:
          "With search, token callers only (true or false): each job's score and what each ranked list contributed",
      }),
    ),
  },
  { additionalProperties: false },
);

/** Validated query -> filters, as the filter declarations parse it (catalog/fields/job-filters.ts). */
export const jobFilters = parseJobFilters;

/** GET /jobs: active jobs, newest first, or a ranked search shortlist. */
export function listJobsRoute(app: App, catalog: CatalogService): void {
  app.get(
    '/jobs',
    {
      config: { access: 'public', resource: 'jobs', cache: true },
      schema: {
        operationId: 'listJobs',
        tags: ['catalog'],
        summary: 'List active jobs',
        description:
          'Most recently posted first (ties by id, descending). With search: ranked by relevance, a shortlist of at ' +
          'most 100. sort=pay lists the best paid first; sort=newest orders a search shortlist by date. Page size defaults to 20 and is clamped to 20 anonymous, 50 with a token; offsets past the ' +
          "tier's result window (100 rows anonymous, 1,000 with a token) are RESULT_WINDOW_EXCEEDED.",
        querystring: ListJobsQuery,
        response: { 200: listOf(JobListItemSchema, 'Jobs and pagination meta'), ...errorResponses(400, 403) },
      },
    },
    async (request) => {
      const page = pageRequest(request.caller.policy, 'jobs', request.query, 20);
      const filters = jobFilters(request.query, catalog.now());
      const facets = parseJobFacets(request.query.facets);
      const explain = request.query.explain === true;
      if (explain && !request.caller.policy.explain) {
        throw badRequest(
          'explain: scores are explained to token callers only; send an Authorization bearer token',
        );
      }
      const search = optionalText(request.query.search);
      const order = parseJobOrder(request.query, search);
      const result = await catalog.listJobs(filters, search, page, {
        explain,
        order,
        ...(facets && { facets }),
      });
      return { data: result.items, meta: pageMeta(page, result.total, result.facets) };
    },
  );
}
