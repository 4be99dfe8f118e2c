import { Type } from 'typebox';
import { CLIENT_FACING_CATEGORIES } from '../../../catalog/vocabulary.js';
import { parseRange } from '../../../signals/periods.js';
import type { SignalsService } from '../../../signals/service.js';
import { queryString } from '../../../web/context.js';
import { renderPage } from '../../../web/render.js';
import { TrendsView } from '../../../web/views/trends.js';
import type { App } from '../../types.js';
import { categoriesOrAll, roleParams } from '../signals/schemas.js';
import { formValues, pageContext, pageOptions, type Site, sendHtml } from './page.js';

/** The page's query: the role filters of GET /api/v1/trends (and of GET /jobs), passed on to the chart. */
const PARAMS = roleParams();
const NAMES = Object.keys(PARAMS);
const Query = Type.Object({ ...PARAMS }, { additionalProperties: false });

/** Newly hiring: companies whose first client-facing opening falls in the last NEWLY_DAYS days. */
const NEWLY_DAYS = 30;
const NEWLY_LIMIT = 50;

/**
 * GET /trends: the catalog's monthly chart (the API's SVG), its role mix as a table and the companies newly hiring
 * for client-facing roles, all from the signals service the API answers from.
 */
export function trendsPage(app: App, signals: SignalsService, site: Site): void {
  app.get('/trends', pageOptions(Query), async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const nowMs = site.now();
    // The range the chart's URL gets by default (twelve months to today), so the table and the image agree.
    const trends = await signals.trends(parseRange({ interval: 'month' }, nowMs), categoriesOrAll(query));
    const newly = await signals.newlyHiring(CLIENT_FACING_CATEGORIES, NEWLY_DAYS, nowMs, NEWLY_LIMIT);
    const values = formValues(query, NAMES);
    const ctx = pageContext(site, request, `/trends${queryString(values)}`);
    const data = { params: PARAMS, values, trends, newly, newlyDays: NEWLY_DAYS };
    return sendHtml(reply, renderPage(TrendsView({ ctx, data })));
  });
}
