import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { companyFilterParams, parseCompanyFilters } from '../../../catalog/filters.js';
import { notFound } from '../../../errors.js';
import { parseRange } from '../../../signals/periods.js';
import type { SignalsService } from '../../../signals/service.js';
import { type ChartPoint, renderSeriesSvg } from '../../../signals/svg.js';
import { errorResponses } from '../../schemas/common.js';
import type { App } from '../../types.js';
import {
  CompanyHiringSchema,
  categoriesOrAll,
  jsonOrSvg,
  SeriesParams,
  ShareParam,
  TrendsSchema,
} from './schemas.js';

const SVG_TYPE = 'image/svg+xml; charset=utf-8';

const CompanyParams = Type.Object({
  id: Type.String({ description: 'Company id (UUID) or slug (case-insensitive)', examples: ['anthropic'] }),
});
const CompanyQuery = Type.Object({ ...SeriesParams }, { additionalProperties: false });
const TrendsQuery = Type.Object(
  { ...SeriesParams, ...ShareParam, ...companyFilterParams() },
  { additionalProperties: false },
);

/** What a chart's title says of the categories counted. */
const scopeLabel = (q: Readonly<Record<string, unknown>>): string => {
  if (typeof q.role_category === 'string')
    return ` (${q.role_category}${q.client_facing === true ? ', client-facing' : ''})`;
  return q.client_facing === true ? ' (client-facing roles)' : '';
};

const svgDescription =
  'Jobs opened and closed per period as bars, active jobs at the end of each period as a line.';

/** The answer as JSON, or with format=svg as a chart of its total series. */
function respond(
  reply: FastifyReply,
  query: Readonly<Record<string, unknown>>,
  answer: { from: string; to: string; series: ChartPoint[] },
  title: string,
) {
  if (query.format !== 'svg') return reply.send({ data: answer });
  const svg = renderSeriesSvg({
    title: `${title}${scopeLabel(query)}`,
    description: `${svgDescription} Frontline catalog, ${answer.from} to ${answer.to}.`,
    points: answer.series,
  });
  return reply
    .type(SVG_TYPE)
    .serializer((p: unknown) => p as string)
    .send(svg);
}

/** GET /companies/:id/hiring: one company's hiring series, in total and per role category. */
export function companyHiringRoute(app: App, signals: SignalsService, now: () => number): void {
  app.get(
    '/companies/:id/hiring',
    {
      config: { access: 'public', resource: 'companies', cache: true },
      schema: {
        operationId: 'getCompanyHiring',
        tags: ['signals'],
        summary: "A company's hiring series: opened, closed and active jobs per period",
        description:
          'Built from job events: jobs found when the company or a board was first scraped are coverage, not openings. ' +
          'Periods before the company was tracked are absent. Per-category series follow the category a job had ' +
          'when each event happened; a reclassified job moves its active count to the new category. ' +
          'The total series by default; by=role_category adds the series of each category. ' +
          'With format=svg, the total series as a chart.',
        params: CompanyParams,
        querystring: CompanyQuery,
        response: {
          200: jsonOrSvg(CompanyHiringSchema, "The company's series"),
          ...errorResponses(400, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const range = parseRange(request.query, now());
      const categories = categoriesOrAll(request.query);
      const byCategory = request.query.by === 'role_category' && request.query.format !== 'svg';
      const answer = await signals.hiringOf(request.params.id, range, categories, byCategory);
      if (!answer) throw notFound(`No company with id or slug '${request.params.id}'`);
      return respond(reply, request.query, answer, `${answer.company.name}: hiring by ${range.interval}`);
    },
  );
}

/** GET /trends: the catalog's hiring series and role mix, optionally over companies matching tag filters. */
export function trendsRoute(app: App, signals: SignalsService, now: () => number): void {
  app.get(
    '/trends',
    {
      config: { access: 'public', resource: 'jobs', cache: true },
      schema: {
        operationId: 'getHiringTrends',
        tags: ['signals'],
        summary: 'Catalog-wide hiring series and the share of client-facing roles among openings',
        description:
          'Every company by default; the company filters of GET /companies (tags, category) narrow it to listed ' +
          'companies that match. Coverage (companies and boards added) never counts as opening. ' +
          'The total series by default; share=client_facing adds the role mix (clientFacingShare, over every ' +
          'category, whatever role_category says), by=role_category the series of each category. ' +
          'With format=svg, a chart of the total.',
        querystring: TrendsQuery,
        response: { 200: jsonOrSvg(TrendsSchema, 'The catalog series'), ...errorResponses(400, 403) },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const range = parseRange(q, now());
      const categories = categoriesOrAll(q);
      const filters = parseCompanyFilters(q);
      const svg = q.format === 'svg';
      const [trends, split] = await Promise.all([
        q.share === 'client_facing'
          ? signals.trends(range, categories, filters)
          : signals.trendTotals(range, categories, filters),
        q.by === 'role_category' && !svg ? signals.trendsByCategory(range, categories, filters) : undefined,
      ]);
      const answer = split ? { ...trends, byRoleCategory: split.byRoleCategory } : trends;
      return respond(reply, q, answer, `Hiring across the catalog by ${range.interval}`);
    },
  );
}
