import { createHash, timingSafeEqual } from 'node:crypto';
import type { Deps } from '../../../deps.js';
import { AppError } from '../../../errors.js';
import type { App } from '../../types.js';

const digest = (s: string) => createHash('sha256').update(s).digest();
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * GET /metrics in Prometheus text format. With METRICS_TOKEN set it needs `Authorization: Bearer <METRICS_TOKEN>`
 * (a separate secret from API tokens, so a scraper cannot call the API); without it only loopback clients may
 * scrape, which suits a sidecar or node-local agent. Outside rate limits: scrapes must never eat a quota.
 */
export function metricsRoute(app: App, deps: Deps): void {
  const expected = deps.config.metricsToken ? digest(deps.config.metricsToken) : undefined;
  app.get(
    '/metrics',
    {
      config: { access: 'metrics', rateLimited: false },
      schema: {
        operationId: 'getMetrics',
        tags: ['system'],
        summary: 'Prometheus metrics (METRICS_TOKEN bearer, or loopback only when unset)',
        description:
          'Prometheus text exposition format. With METRICS_TOKEN set, send it as a bearer token (401 without it, 403 ' +
          'when wrong); without it, loopback clients only (403 for any other address). Outside rate limits.',
        response: {
          200: {
            description: 'Prometheus text exposition format 0.0.4',
            content: { 'text/plain': { schema: { type: 'string' } } },
          },
        },
      },
    },
    async (request, reply) => {
      if (expected) {
        const presented = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
        if (!presented) throw new AppError('UNAUTHORIZED', 'Metrics need the METRICS_TOKEN bearer token');
        if (!timingSafeEqual(digest(presented), expected))
          throw new AppError('FORBIDDEN', 'Invalid metrics token');
      } else if (!LOOPBACK.has(request.socket.remoteAddress ?? '')) {
        throw new AppError(
          'FORBIDDEN',
          'Metrics are served to loopback clients only unless METRICS_TOKEN is set',
        );
      }
      const body = await deps.metrics.registry.metrics();
      return reply.type(deps.metrics.registry.contentType).send(body);
    },
  );
}
