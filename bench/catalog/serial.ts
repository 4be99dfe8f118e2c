import { BENCH_TOKEN } from './scenarios.js';

/** Timing URLs one request at a time (bench:scale, bench:facets): no queueing, so the figures are latencies. */

export interface Row {
  label: string;
  p50: number;
  p99: number;
  max: number;
  n: number;
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** One request at a time; a non-2xx answer fails the run (every URL is valid). */
export async function timeUrls(origin: string, label: string, urls: string[]): Promise<Row> {
  const ms: number[] = [];
  for (const url of urls) {
    const t0 = performance.now();
    const res = await fetch(origin + url, { headers: { authorization: `Bearer ${BENCH_TOKEN}` } });
    await res.arrayBuffer();
    ms.push(performance.now() - t0);
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  }
  ms.sort((a, b) => a - b);
  return { label, p50: percentile(ms, 50), p99: percentile(ms, 99), max: ms.at(-1) ?? 0, n: ms.length };
}
