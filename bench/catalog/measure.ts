import autocannon, { type Request } from 'autocannon';
import { Rng } from './prng.js';

/** One autocannon measurement: a warm-up run (discarded), then the measured run with the same settings. */

export interface Load {
  origin: string;
  /** One URL repeated (hot), or a list drawn from uniformly at random per request (mixed). */
  paths: readonly string[];
  connections: number;
  durationS: number;
  warmupS: number;
  headers?: Record<string, string>;
  /** Seeds the random draw, so two runs send the same sequence per connection start. */
  seed: number;
}

export interface Measurement {
  requests: number;
  reqPerSec: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  /** Response status -> count, for the report's notes when something is not 2xx. */
  statuses: Record<string, number>;
  /** Distinct URLs actually sent during the measured run. */
  distinctSent: number;
}

async function once(load: Load, durationS: number): Promise<Measurement> {
  const rng = new Rng(load.seed, 77);
  const sent = new Set<string>();
  const single = load.paths.length === 1;
  // A hot run sends a fixed request buffer; a mixed run rebuilds the request per call (client cost is the same
  // for the bare route's mixed-client row, which shows what it costs).
  const requests: Request[] = single
    ? [{ method: 'GET', path: load.paths[0] as string }]
    : [
        {
          method: 'GET',
          setupRequest: (req) => {
            const path = load.paths[rng.int(load.paths.length)] as string;
            sent.add(path);
            return { ...req, path };
          },
        },
      ];
  const result = await autocannon({
    url: load.origin,
    connections: load.connections,
    duration: durationS,
    timeout: 10,
    headers: load.headers,
    requests,
  });
  const statuses: Record<string, number> = {};
  for (const [code, s] of Object.entries(result.statusCodeStats)) statuses[code] = s.count;
  return {
    requests: result.requests.total,
    reqPerSec: result.requests.total / result.duration,
    p50Ms: result.latency.p50,
    p90Ms: result.latency.p90,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statuses,
    distinctSent: single ? 1 : sent.size,
  };
}

/** `beforeMeasured` runs between the warm-up and the measured run (e.g. to snapshot server counters). */
export async function measure(load: Load, beforeMeasured?: () => Promise<void>): Promise<Measurement> {
  if (load.warmupS > 0) await once(load, load.warmupS);
  await beforeMeasured?.();
  return once(load, load.durationS);
}
