import type { Deps } from '../../../deps.js';
import type { App } from '../../types.js';

/**
 * GET /metrics in Prometheus text format. With METRICS_TOKEN set it needs `Authorization: Bearer <METRICS_TOKEN>`
 * (a separate secret from API tokens, so a scraper cannot call the API); without it only loopback clients may
 * scrape, which suits a sidecar or node-local agent. Outside rate limits: scrapes must never eat a quota.
 */
export function metricsRoute(app: App, deps: Deps): void {
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
    // Who may scrape is decided by the guard (http/metrics-access.ts) before this runs.
    async (_request, reply) => {
      const body = await deps.metrics.registry.metrics();
      return reply.type(deps.metrics.registry.contentType).send(body);
    },
  );
}
