import type { FacetCounts } from '../../catalog/sql/facets.js';
import { AppError } from '../../errors.js';
import type { PagedResource, TierPolicy } from './tiers.js';

export interface PageRequest {
  page: number;
  limit: number;
  offset: number;
}

export interface PageMeta {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
  facets?: FacetCounts;
}

/**
 * Clamps the page size to the tier's maximum and refuses offsets at or past the tier's result window
 * (docs/api.md): deep paging is what filters are for.
 */
export function pageRequest(
  policy: TierPolicy,
  resource: PagedResource,
  query: { page?: number; limit?: number },
  defaultLimit: number,
): PageRequest {
  const page = query.page ?? 1;
  const limit = Math.min(query.limit ?? defaultLimit, policy.maxPageSize[resource]);
  const offset = (page - 1) * limit;
  if (offset >= policy.resultWindow) {
    const hint = policy.tier === 'anonymous' ? ' or use a token' : '';
    throw new AppError(
      'RESULT_WINDOW_EXCEEDED',
      `page ${page} with limit ${limit} starts at row ${offset + 1}, past the ${policy.tier} result window of the ` +
        `first ${policy.resultWindow} rows; narrow the query with filters${hint}`,
    );
  }
  return { page, limit, offset };
}

export function pageMeta(req: PageRequest, total: number, facets?: FacetCounts): PageMeta {
  const meta = { page: req.page, limit: req.limit, total, totalPages: Math.ceil(total / req.limit) };
  return facets ? { ...meta, facets } : meta;
}
