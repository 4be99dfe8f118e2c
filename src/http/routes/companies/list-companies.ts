import { Type } from 'typebox';
import { companyFilterParams, parseCompanyFilters } from '../../../catalog/filters.js';
import type { CatalogService } from '../../../catalog/service.js';
import { companyFacetNames, parseCompanyFacets } from '../../../catalog/sql/facets.js';
import type { CompanyListItem } from '../../../catalog/types.js';
import { ListBody, sendJson } from '../../documents/list-body.js';
import { pageMeta, pageRequest } from '../../limits/pagination.js';
import { CompanyListItemSchema, FacetsParam, optionalText, SearchParam } from '../../schemas/catalog.js';
import { errorResponses, listOf, PageQuery } from '../../schemas/common.js';
import type { App } from '../../types.js';

const Query = Type.Object(
  {
    search: SearchParam('company name, one-liner, description and research summary', 'AI safety'),
    ...companyFilterParams(),
    facets: FacetsParam(companyFacetNames(), 'industry,category'),
    ...PageQuery(50, 100),
  },
  { additionalProperties: false },
);

/** Validated query -> filters, as the filter declarations parse it (catalog/fields/company-filters.ts). */
export const companyFilters = parseCompanyFilters;

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
      const facets = parseCompanyFacets(request.query.facets);
      const result = await catalog.listCompanies(filters, optionalText(request.query.search), page, facets);
      return sendJson(reply, body.render(result.items, pageMeta(page, result.total, result.facets)));
    },
  );
}
