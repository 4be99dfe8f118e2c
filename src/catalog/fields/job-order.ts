import { Type } from 'typebox';
import { badRequest } from '../../errors.js';
import type { Query } from './define.js';
import { ANNUAL_PAY_SQL } from './job-record.js';
import { optionalText } from './params.js';

/**
 * The order of GET /jobs, declared once beside its filters: the `sort` query parameter, its parsing and its SQL.
 * It changes the order of what the filters select, never what they select, so it is no filter: the totals, facets
 * and search candidates ignore it. The in-memory replica keeps the /jobs order (newest) only; a listing in another
 * order is answered by SQL.
 */

export const JOB_SORTS = ['newest', 'relevance', 'pay'] as const;
export type JobSort = (typeof JOB_SORTS)[number];

/** The order of a listing: `pay` compares amounts in one currency (see JOB_ORDER_PARAMS). */
export type JobOrder = { by: 'newest' } | { by: 'relevance' } | { by: 'pay'; currency: string };

export const JOB_ORDER_PARAMS = {
  sort: Type.Optional(
    Type.Enum(JOB_SORTS, {
      description:
        'Order of the results. newest: most recently posted first (the default without search). relevance: the ' +
        "search's ranking (the default with search; needs search). pay: the highest stated pay first, by the top " +
        'of the range per year (hourly × 2,080, daily × 260, weekly × 52, monthly × 12) in salary_currency (default ' +
        'USD), then pay stated in other currencies (amounts are never converted), then jobs stating no pay; ' +
        'newest first within equal pay',
    }),
  ),
};

/** The order a validated query asks for: `sort`, else newest, or relevance with a search. */
export function parseJobOrder(q: Query, search: string | undefined): JobOrder {
  const sort = q.sort as JobSort | undefined;
  if (sort === 'relevance' && search === undefined) {
    throw badRequest(
      "Invalid query parameter 'sort': 'relevance' ranks the matches of a search; give 'search' too, or sort by " +
        "'newest' or 'pay'",
    );
  }
  if (sort === 'pay') return { by: 'pay', currency: optionalText(q.salary_currency)?.toUpperCase() ?? 'USD' };
  return { by: sort ?? (search === undefined ? 'newest' : 'relevance') };
}

/** The ORDER BY list of an order other than relevance, over `jobs j`; `param` adds a value, gives its placeholder. */
export function jobOrderSql(order: JobOrder, param: (value: unknown) => string): string {
  const newest = 'j.posted_at DESC, j.id DESC';
  if (order.by !== 'pay') return newest;
  return `(j.salary_currency = ${param(order.currency)}) IS NOT TRUE, ${ANNUAL_PAY_SQL} DESC NULLS LAST, ${newest}`;
}
