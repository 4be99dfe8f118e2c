import type { Db } from '../../../db/port.js';
import { parseDiscoverBody } from '../../../pipeline/discovery/items.js';
import { appendSightings } from '../../../pipeline/discovery/sightings.js';
import { dataOf, errorResponses } from '../../schemas/common.js';
import type { App } from '../../types.js';
import { DiscoverBodySchema, DiscoverResultSchema } from './schemas.js';

/**
 * 200 items of up to 16 KB payload and 2 KB key, with room for pretty-printed JSON; larger bodies are 413.
 * Only this route gets it: the app-wide limit stays 1 MB.
 */
const DISCOVER_BODY_LIMIT = 8 * 1024 * 1024;

/** POST /discover: appends sightings to the log; item problems are reported per index, not as a failure. */
export function discoverRoute(app: App, deps: { db: Db; now: () => number }): void {
  app.post(
    '/discover',
    {
      config: { access: 'token', perItemBody: true },
      bodyLimit: DISCOVER_BODY_LIMIT,
      // The schema documents the body; validation is parseDiscoverBody's, so that one bad item is reported in
      // rejectedItems instead of failing the whole request, and messages name the exact rule.
      validatorCompiler: () => () => true,
      schema: {
        operationId: 'appendSightings',
        tags: ['pipeline'],
        summary: 'Append company sightings to the discovery log',
        description:
          'Idempotent per (source, canonical key). 200 with per-item results, also when every item is ' +
          'invalid; 400 only for a malformed body (not an item, array or {items}; items not an array; more than ' +
          '200 items; label not a string or over 200 characters), in which case nothing is stored.',
        security: [{ bearer: [] }],
        body: DiscoverBodySchema,
        response: { 200: dataOf(DiscoverResultSchema), ...errorResponses(400, 401, 403, 413, 415) },
      },
    },
    async (request) => {
      const body = parseDiscoverBody(request.body as unknown);
      const result = await appendSightings(deps.db, body, {
        tokenId: request.caller.tokenId ?? 'unknown',
        at: new Date(deps.now()),
      });
      return { data: result };
    },
  );
}
