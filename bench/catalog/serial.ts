import { BENCH_TOKEN } from './scenarios.js';

/** Timing URLs one request at a time (bench:scale, bench:facets): no queueing, so the figures are latencies. */

export interface Row {
  label: string;
  p50: number;
  p99: number;
  max: number;
  n: number;
  /** The 1-minute load average when the row finished. */
  load?: number;
  /** The row's time budget ran out before every URL was asked. */
  stopped?: boolean;
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

const get = async (url: string): Promise<Response> => {
  const res = await fetch(url, { headers: { authorization: `Bearer ${BENCH_TOKEN}` } });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return res;
};

/**
 * One request at a time; a non-2xx answer fails the run (every URL is valid). After `budgetMs` the row stops, so one
 * pathological URL set cannot hold a run: its `n` then says how far it got. `prime`, when given, names a URL asked
 * untimed right before each timed one (what the timed request may then find already done).
 */
export async function timeUrls(
  origin: string,
  label: string,
  urls: string[],
  budgetMs = Infinity,
  prime?: (url: string) => string,
): Promise<Row> {
  const ms: number[] = [];
  const deadline = performance.now() + budgetMs;
  for (const url of urls) {
    if (performance.now() > deadline) break;
    if (prime) await get(origin + prime(url));
    const t0 = performance.now();
    await get(origin + url);
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return {
    label,
    p50: percentile(ms, 50),
    p99: percentile(ms, 99),
    max: ms.at(-1) ?? 0,
    n: ms.length,
    stopped: ms.length < urls.length,
  };
}
