import { Type } from 'typebox';
import type { CatalogService } from '../../../catalog/service.js';
import { CLIENT_FACING_CATEGORIES, type JobFilters, type RoleCategory } from '../../../catalog/types.js';
import { pageMeta, pageRequest } from '../../pagination.js';
import {
  JobListItemSchema,
  optionalText,
  RoleCategorySchema,
  SearchParam,
  slugParam,
} from '../../schemas/catalog.js';
import { errorResponses, listOf, PageQuery, QueryBoolean } from '../../schemas/common.js';
import type { App } from '../../types.js';

/** GET /jobs's query: its filters, search and paging (the job feed takes the same). */
export const JobsQuery = Type.Object(
  {
    role_category: Type.Optional(RoleCategorySchema),
    client_facing: QueryBoolean(
      'true: only the seven client-facing categories (intersected with role_category when both are given); ' +
        'false or absent: no category restriction',
    ),
    company: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'Company slug (case-insensitive)',
        examples: ['anthropic'],
      }),
    ),
    location: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'Case-insensitive partial match on the location; blank = no filter',
        examples: ['london'],
      }),
    ),
    remote_only: QueryBoolean('true: only remote jobs; false or absent: all'),
    search: SearchParam('job title and company name'),
    ...PageQuery(20, 50),
  },
  { additionalProperties: false },
);

/** Validated query -> filters. client_facing=true narrows to the client-facing categories (an intersection). */
export function jobFilters(q: {
  role_category?: RoleCategory;
  client_facing?: boolean;
  company?: string;
  location?: string;
  remote_only?: boolean;
}): JobFilters {
  const filters: JobFilters = {};
  let categories: RoleCategory[] | undefined = q.role_category ? [q.role_category] : undefined;
  if (q.client_facing === true) {
    categories = (categories ?? [...CLIENT_FACING_CATEGORIES]).filter((c) =>
      (CLIENT_FACING_CATEGORIES as readonly string[]).includes(c),
    );
  }
  if (categories) filters.roleCategories = categories;
  const company = slugParam('company', q.company);
  if (company !== undefined) filters.companySlug = company;
  const location = optionalText(q.location);
  if (location !== undefined) filters.location = location;
  if (q.remote_only === true) filters.remoteOnly = true;
  return filters;
}

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
          'most 100. Page size defaults to 20 and is clamped to 20 anonymous, 50 with a token; offsets past the ' +
          "tier's result window (100 rows anonymous, 1,000 with a token) are RESULT_WINDOW_EXCEEDED.",
        querystring: JobsQuery,
        response: { 200: listOf(JobListItemSchema, 'Jobs and pagination meta'), ...errorResponses(400, 403) },
      },
    },
    async (request) => {
      const page = pageRequest(request.caller.policy, 'jobs', request.query, 20);
      const filters = jobFilters(request.query);
      const result = await catalog.listJobs(filters, optionalText(request.query.search), page);
      return { data: result.items, meta: pageMeta(page, result.total) };
    },
  );
}
