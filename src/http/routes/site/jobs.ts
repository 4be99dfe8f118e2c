import { Type } from 'typebox';
import { JOB_ORDER_PARAMS, parseJobOrder } from '../../../catalog/fields/job-order.js';
import { jobNarrowingParams, parseJobFilters } from '../../../catalog/filters.js';
import type { CatalogService } from '../../../catalog/service.js';
import { renderPage } from '../../../web/render.js';
import { JobsView } from '../../../web/views/jobs.js';
import { pageRequest } from '../../limits/pagination.js';
import { SEARCH_SHORTLIST } from '../../limits/tiers.js';
import { optionalText, SearchParam } from '../../schemas/catalog.js';
import type { App } from '../../types.js';
import { formValues, listingPaging, pageContext, pageOptions, type Site, sendHtml } from './page.js';

const PARAMS = jobNarrowingParams();
const NAMES = [...Object.keys(PARAMS), 'search', ...Object.keys(JOB_ORDER_PARAMS)];

/** The page's query: GET /api/v1/jobs's filters (delta sync aside), its search, and the page. */
const Query = Type.Object(
  {
    ...PARAMS,
    search: SearchParam('job title and company name', 'forward deployed'),
    ...JOB_ORDER_PARAMS,
    page: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);

const PAGE_SIZE = 20;
/** A job first seen on one of the last NEW_DAYS UTC days (today included) is marked new. */
const NEW_DAYS = 7;
const DAY_MS = 86_400_000;

/** GET /jobs: the listing as a page, through the same catalog service, paging and result window as the API. */
export function jobsPage(app: App, catalog: CatalogService, site: Site): void {
  app.get('/jobs', pageOptions(Query), async (request, reply) => {
    const query = request.query as Record<string, unknown> & { page?: number };
    const policy = request.caller.policy;
    const slice = pageRequest(policy, 'jobs', { page: query.page ?? 1 }, PAGE_SIZE);
    const search = optionalText(query.search);
    // The role category choices show how many jobs each would list with the other filters kept.
    const now = catalog.now();
    const result = await catalog.listJobs(parseJobFilters(query, now), search, slice, {
      facets: ['role_category'],
      order: parseJobOrder(query, search),
    });
    const byId = await catalog.jobCards(result.items.map((j) => j.id));
    const newSince = new Date((Math.floor(now / DAY_MS) - (NEW_DAYS - 1)) * DAY_MS).toISOString();
    const values = formValues(query, NAMES);
    const { canonical, lastPage } = listingPaging('/jobs', values, slice, result.total, policy);
    const data = {
      params: PARAMS,
      values,
      jobs: result.items,
      roleCounts: Object.fromEntries((result.facets?.role_category ?? []).map((c) => [c.value, c.count])),
      total: result.total,
      search,
      shortlist: SEARCH_SHORTLIST,
      page: slice.page,
      lastPage,
      offset: slice.offset,
      sortParam: JOB_ORDER_PARAMS,
      cards: { byId, newSince },
      newDays: NEW_DAYS,
    };
    return sendHtml(reply, renderPage(JobsView({ ctx: pageContext(site, request, canonical), data })));
  });
}
