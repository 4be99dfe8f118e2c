import type { FastifyInstance } from 'fastify';
import type { CounterCell, HistogramCell } from '../metric-cells.js';
import type { Metrics } from '../metrics.js';
import { routeConfig } from './route-config.js';

type Label = 'route' | 'method' | 'status';

/** The cells of one route, method and status. */
export interface Series {
  requests: CounterCell<Label>;
  duration: HistogramCell<Label>;
}

/** The series of a route pattern, method and status: made on first use, then found without building a key. */
export type SeriesOf = (route: string, method: string, status: number) => Series;

/**
 * Counts and times every response by route pattern (never the raw URL, which would explode label cardinality).
 * Returns the series lookup, which caching/early-hits.ts shares for the hits it answers before routing.
 */
export function registerRequestMetrics(app: FastifyInstance, metrics: Metrics): SeriesOf {
  // route -> method -> status: the series are found without building a key or a label object per request.
  const series = new Map<string, Map<string, Map<number, Series>>>();
  const seriesOf: SeriesOf = (route, method, status) => {
    let byMethod = series.get(route);
    if (!byMethod) {
      byMethod = new Map();
      series.set(route, byMethod);
    }
    let byStatus = byMethod.get(method);
    if (!byStatus) {
      byStatus = new Map();
      byMethod.set(method, byStatus);
    }
    let found = byStatus.get(status);
    if (!found) {
      const labels = { route, method, status: String(status) };
      found = { requests: metrics.httpRequests.cell(labels), duration: metrics.httpDuration.cell(labels) };
      byStatus.set(status, found);
    }
    return found;
  };

  app.addHook('onResponse', (request, reply, done) => {
    const s = seriesOf(routeConfig(request).url ?? 'unmatched', request.method, reply.statusCode);
    s.requests.inc();
    s.duration.observe(reply.elapsedTime / 1000);
    done();
  });
  return seriesOf;
}
