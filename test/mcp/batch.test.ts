import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { listen } from './support.js';

/**
 * A JSON-RPC batch on POST /mcp counts as many requests as it has messages, against the REST budget, with its
 * headers; a batch the window cannot hold is refused whole before any message runs. Sent anonymously over HTTP.
 */

const batch = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    jsonrpc: '2.0',
    id: i + 1,
    method: 'tools/call',
    params: { name: 'search_jobs', arguments: { search: `engineer ${i}` } },
  }));

const post = (base: string, body: unknown) =>
  fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-03-26',
    },
    body: JSON.stringify(body),
  });

/**
 * search_jobs calls that ran, whatever their outcome, by /metrics (a hundred searches at once meet the search
 * admission's queue, which may answer some of them 503: they ran all the same).
 */
async function searchesRun(t: TestApp): Promise<number> {
  const body = (await t.get('/metrics')).body;
  const counts = [
    ...body.matchAll(/frontline_mcp_tool_calls_total\{tool="search_jobs",outcome="\w+"\} (\d+)/g),
  ];
  return counts.reduce((sum, m) => sum + Number(m[1]), 0);
}

describe('at the default anonymous limit (20 a minute)', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await startTestApp({ defaultRateLimits: true, env: { SAMPLE_DATA: '1' } });
    base = await listen(t);
  });
  afterAll(async () => t?.close());

  it('refuses a 100-call batch whole with 429, running none of it', async () => {
    const res = await post(base, batch(100));
    expect(res.status).toBe(429);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(res.headers.get('x-api-tier')).toBe('anonymous');
    expect(res.headers.get('x-ratelimit-limit')).toBe('20');
    // Only the POST itself was counted.
    expect(res.headers.get('x-ratelimit-remaining')).toBe('19');
    expect(await searchesRun(t)).toBe(0);
  });

  it('counts a batch that fits message by message, then refuses the one past the limit', async () => {
    const res = await post(base, batch(5));
    expect(res.status).toBe(200);
    const answers = (await res.json()) as { id: number; result?: { isError?: boolean } }[];
    expect(answers.map((a) => a.id).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
    expect(answers.every((a) => a.result && !a.result.isError)).toBe(true);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('14');
    const rest = await fetch(`${base}/api/v1/stats`);
    expect(rest.headers.get('x-ratelimit-remaining')).toBe('13');
    expect((await post(base, batch(14))).status).toBe(429);
    expect(await searchesRun(t)).toBe(5);
  });
});

describe('with room for it (150 a minute)', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await startTestApp({
      defaultRateLimits: true,
      env: { SAMPLE_DATA: '1', RATE_LIMIT_ANONYMOUS: '150' },
    });
    base = await listen(t);
  });
  afterAll(async () => t?.close());

  it('runs a 100-call batch as 100 requests of the same budget as REST', async () => {
    const res = await post(base, batch(100));
    expect(res.status).toBe(200);
    expect((await res.json()) as unknown[]).toHaveLength(100);
    expect(res.headers.get('x-ratelimit-limit')).toBe('150');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('50');
    expect(await searchesRun(t)).toBe(100);
    const rest = await fetch(`${base}/api/v1/stats`);
    expect(rest.headers.get('x-ratelimit-remaining')).toBe('49');
    const again = await post(base, batch(100));
    expect(again.status).toBe(429);
    expect(again.headers.get('x-ratelimit-remaining')).toBe('48');
    expect(await searchesRun(t)).toBe(100);
  });
});
