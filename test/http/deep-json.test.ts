import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

/** Deeply nested JSON is refused item by item, never a 500, however deep. */
describe('POST /discover with deeply nested JSON', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  const nested = (depth: number, open: string, close: string) =>
    `${open.repeat(depth)}1${close.repeat(depth)}`;

  const discover = (body: string) =>
    t.request({
      method: 'POST',
      url: '/api/v1/discover',
      token: t.token,
      headers: { 'content-type': 'application/json' },
      payload: body,
    });

  it.each([5_000, 50_000, 500_000])('rejects an item whose key or payload nests %i levels', async (depth) => {
    const deepObject = nested(depth, '{"a":', '}');
    const deepArray = nested(depth, '[', ']');
    const body =
      `{"items":[{"source":"s","key":{"domain":"acme.com","x":${deepObject}}},` +
      `{"source":"s","key":{"domain":"acme.com"},"payload":{"p":${deepArray}}},` +
      `{"source":"s","key":{"domain":"globex.com"},"payload":{"q":[${nested(depth, '{"b":[', ']}')}]}},` +
      '{"source":"s","key":{"domain":"initech.com"}}]}';
    const res = await discover(body);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const data = res.json().data;
    expect(data.rejectedItems.map((r: { index: number; reason: string }) => [r.index, r.reason])).toEqual([
      [0, 'key_invalid'],
      [1, 'payload_invalid'],
      [2, 'payload_invalid'],
    ]);
    expect(data.rejectedItems[0].message).toContain('deeper than');
    expect(data).toMatchObject({ received: 4, invalid: 3 });
  });
});
