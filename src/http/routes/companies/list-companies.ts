import { Type } from 'typebox';
import type { CatalogService } from '../../../catalog/service.js';
import {
  type CompanyCategory,
  type CompanyFilters,
  type CompanyListItem,
  TAG_DIMENSIONS,
  type TagDimension,
} from '../../../catalog/types.js';
import { ListBody, sendJson } from '../../list-body.js';
import { pageMeta, pageRequest } from '../../pagination.js';
import {
  CompanyCategorySchema,
  CompanyListItemSchema,
  optionalText,
  SearchParam,
  slugListParam,
  TagSlugsParam,
} from '../../schemas/catalog.js';
import { errorResponses, listOf, PageQuery } from '../../schemas/common.js';
import type { App } from '../../types.js';

const Query = Type.Object(
  {
    search: SearchParam('company name, one-liner, description and research summary'),
    industry: TagSlugsParam('industry'),
    stage: TagSlugsParam('stage'),
    ai_role: TagSlugsParam('ai_role'),
    business_model: TagSlugsParam('business_model'),
    funding_tier: TagSlugsParam('funding_tier'),
    category: Type.Optional(CompanyCategorySchema),
    ...PageQuery(50, 100),
  },
  { additionalProperties: false },
);

/** Validated query -> filters: each tag dimension given is a set of slugs (OR), dimensions AND together. */
export function companyFilters(q: Partial<Record<TagDimension, string>> & { category?: CompanyCategory }) {
  const filters: CompanyFilters = {};
  for (const dimension of TAG_DIMENSIONS) {
    const slugs = slugListParam(dimension, q[dimension]);
    if (slugs) filters.tags = { ...filters.tags, [dimension]: slugs };
  }
  if (q.category) filters.category = q.category;
  return filters;
}

/** GET /companies: active companies with tags, most active jobs first, or a ranked search shortlist. */
export function listCompaniesRoute(app: App, catalog: CatalogService): void {
  // The schema below still documents the body and types the route; the body itself is written by ListBody.
  const body = new ListBody<CompanyListItem>(CompanyListItemSchema);
  app.get(
    '/companies',
    {
      config: { access: 'public', resource: 'companies', cache: true },
      schema: {
        operationId: 'listCompanies',
        tags: ['catalog'],
        summary: 'List active companies with their tags',
        description:
          'Ordered by active job count (descending), then name (case-insensitive), then id. Tag filters: values ' +
          'within a dimension OR together, dimensions AND together; unknown slugs simply match nothing. Page size ' +
          'defaults to 50 and is clamped to 20 anonymous, 100 with a token.',
        querystring: Query,
        response: {
          200: listOf(CompanyListItemSchema, 'Companies and pagination meta'),
          ...errorResponses(400, 403),
        },
      },
    },
    async (request, reply) => {
      const page = pageRequest(request.caller.policy, 'companies', request.query, 50);
      const filters = companyFilters(request.query);
      const result = await catalog.listCompanies(filters, optionalText(request.query.search), page);
      return sendJson(reply, body.render(result.items, pageMeta(page, result.total)));
    },
  );
}
