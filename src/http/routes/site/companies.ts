import { Type } from 'typebox';
import { companyFilterParams, parseCompanyFilters } from '../../../catalog/filters.js';
import type { CatalogService } from '../../../catalog/service.js';
import { renderPage } from '../../../web/render.js';
import { CompaniesView } from '../../../web/views/companies.js';
import { pageRequest } from '../../limits/pagination.js';
import { optionalText, SearchParam } from '../../schemas/catalog.js';
import type { App } from '../../types.js';
import { formValues, listingPaging, pageContext, pageOptions, type Site, sendHtml } from './page.js';

const PARAMS = companyFilterParams();
const NAMES = [...Object.keys(PARAMS), 'search'];

const Query = Type.Object(
  {
    ...PARAMS,
    search: SearchParam('company name, one-liner, description and research summary', 'AI safety'),
    page: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);

const PAGE_SIZE = 20;

/** GET /companies: the five tag dimensions as facets and the category, as GET /api/v1/companies filters. */
export function companiesPage(app: App, catalog: CatalogService, site: Site): void {
  app.get('/companies', pageOptions(Query), async (request, reply) => {
    const query = request.query as Record<string, unknown> & { page?: number };
    const policy = request.caller.policy;
    const slice = pageRequest(policy, 'companies', { page: query.page ?? 1 }, PAGE_SIZE);
    const filters = parseCompanyFilters(query);
    const [result, tags] = await Promise.all([
      catalog.listCompanies(filters, optionalText(query.search), slice),
      catalog.listTags(),
    ]);
    const values = formValues(query, NAMES);
    const { canonical, lastPage } = listingPaging('/companies', values, slice, result.total, policy);
    const data = {
      params: PARAMS,
      values,
      tags,
      companies: result.items,
      total: result.total,
      page: slice.page,
      lastPage,
    };
    return sendHtml(reply, renderPage(CompaniesView({ ctx: pageContext(site, request, canonical), data })));
  });
}
