import { Type } from 'typebox';
import type { Db } from '../../../db/port.js';
import { badRequest } from '../../../errors.js';
import {
  CANDIDATE_STATUSES,
  type CandidateStatus,
  listCandidates,
} from '../../../pipeline/discovery/candidates.js';
import { pageMeta, pageRequest } from '../../limits/pagination.js';
import { errorResponses, listOf, PageQuery } from '../../schemas/common.js';
import type { App } from '../../types.js';
import { CandidateSchema } from './schemas.js';

const Query = Type.Object(
  {
    status: Type.Optional(
      Type.String({
        maxLength: 200,
        description: `Comma-separated statuses (${CANDIDATE_STATUSES.join(', ')}); absent = all`,
        examples: ['rejected,failed'],
      }),
    ),
    ...PageQuery(20, 100),
  },
  { additionalProperties: false },
);

export function statusFilter(value: string | undefined): CandidateStatus[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const statuses = value.split(',').map((s) => s.trim().toLowerCase());
  for (const s of statuses) {
    if (!(CANDIDATE_STATUSES as readonly string[]).includes(s)) {
      throw badRequest(
        `Invalid query parameter 'status': '${s}' is not one of ${CANDIDATE_STATUSES.join(', ')}`,
      );
    }
  }
  return [...new Set(statuses)] as CandidateStatus[];
}

/** GET /candidates: ours beyond the spec, so operators can see what discovery found and why it decided. */
export function listCandidatesRoute(app: App, deps: { db: Db }): void {
  app.get(
    '/candidates',
    {
      config: { access: 'token', resource: 'default' },
      schema: {
        operationId: 'listCandidates',
        tags: ['pipeline'],
        summary: 'Discovery candidates with their evidence and status',
        description:
          'Ordered by last sighting (most recent first), then domain. Page size defaults to 20, at most 100; ' +
          'the result window is the first 1,000 rows (narrow with status).',
        security: [{ bearer: [] }],
        querystring: Query,
        response: { 200: listOf(CandidateSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const statuses = statusFilter(request.query.status);
      const page = pageRequest(request.caller.policy, 'default', request.query, 20);
      const result = await listCandidates(deps.db, statuses, page);
      return { data: result.items, meta: pageMeta(page, result.total) };
    },
  );
}
