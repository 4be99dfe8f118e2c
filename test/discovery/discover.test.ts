import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());

const discover = (payload: unknown, token: string | null = t.token) =>
  t.request({ method: 'POST', url: '/api/v1/discover', payload: payload as object, token });

const countSightings = async (where = 'true', params: unknown[] = []) =>
  (await t.deps.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM sightings WHERE ${where}`, params))[0]
    ?.n;

describe('POST /discover: happy path and body forms', () => {
  it('accepts {items, label}, stores label, token id and time, and reports counts', async () => {
    const res = await discover({
      label: '  hn-2026-11  ',
      items: [
        { source: 'hn', key: { domain: 'https://www.Alpha-Labs.ai/careers' }, payload: { title: 'FDE' } },
        { source: 'hn', key: { id: 42 } },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: {
        label: 'hn-2026-11',
        received: 2,
        inserted: 2,
        duplicates: 0,
        invalid: 0,
        rejectedItems: [],
        invalidKeys: [],
      },
    });
    const rows = await t.deps.db.query<Record<string, unknown>>(
      `SELECT s.source, s.key, s.domain, s.payload, s.label, s.token_id, s.received_at, b.received, b.inserted
         FROM sightings s JOIN discovery_batches b ON b.id = s.batch_id ORDER BY s.id`,
    );
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      source: 'hn',
      key: { domain: 'alpha-labs.ai' },
      domain: 'alpha-labs.ai',
      payload: { title: 'FDE' },
      label: 'hn-2026-11',
      received: 2,
      inserted: 2,
    });
    expect(rows[1]).toMatchObject({ key: { id: 42 }, domain: null, payload: null });
    const me = await t.deps.tokens.verify(t.token);
    expect(rows[0]?.token_id).toBe(me?.id);
    expect(rows[0]?.received_at).toEqual(new Date(t.clock.ms));
  });

  it('accepts a bare array and a bare item (label null)', async () => {
    const arr = await discover([{ source: 'form', key: { domain: 'beta.io' } }]);
    expect(arr.statusCode).toBe(200);
    expect(arr.json().data).toMatchObject({ label: null, received: 1, inserted: 1 });
    const one = await discover({ source: 'form', key: { domain: 'gamma.io' } });
    expect(one.statusCode).toBe(200);
    expect(one.json().data).toMatchObject({ label: null, received: 1, inserted: 1, duplicates: 0 });
  });

  it('treats keys canonically: object key order and domain forms do not matter', async () => {
    const first = await discover({
      source: 'canon',
      key: { domain: 'delta.co.uk', ref: { b: 1, a: [1, { y: 2, x: 1 }] } },
    });
    expect(first.json().data.inserted).toBe(1);
    const same = await discover({
      items: [
        {
          source: 'canon',
          key: { ref: { a: [1, { x: 1, y: 2 }], b: 1 }, domain: 'https://WWW.delta.co.uk/jobs?x=1' },
        },
        { source: ' canon ', key: { domain: 'http://delta.co.uk.', ref: { b: 1, a: [1, { y: 2, x: 1 }] } } },
        { source: 'canon', key: { domain: 'careers.delta.co.uk', ref: { b: 1, a: [1, { y: 2, x: 1 }] } } },
      ],
    });
    expect(same.json().data).toMatchObject({ received: 3, inserted: 0, duplicates: 3 });
    // Array order is meaningful, and the source is part of the identity.
    const different = await discover([
      { source: 'canon', key: { domain: 'delta.co.uk', ref: { b: 1, a: [{ y: 2, x: 1 }, 1] } } },
      { source: 'Canon', key: { domain: 'delta.co.uk', ref: { b: 1, a: [1, { y: 2, x: 1 }] } } },
    ]);
    expect(different.json().data).toMatchObject({ inserted: 2, duplicates: 0 });
  });

  it('counts repeats inside one request once as inserted, then as duplicates; resubmission is all duplicates', async () => {
    const items = [
      { source: 'dup', key: { domain: 'epsilon.dev' } },
      { source: 'dup', key: { domain: 'www.epsilon.dev' } },
      { source: 'dup', key: { domain: 'zeta.dev' } },
      { source: 'dup', key: { domain: 'epsilon.dev' } },
    ];
    const res = await discover({ items });
    expect(res.json().data).toMatchObject({ received: 4, inserted: 2, duplicates: 2, invalid: 0 });
    const again = await discover({ items });
    expect(again.json().data).toMatchObject({ received: 4, inserted: 0, duplicates: 4 });
    expect(await countSightings("source = 'dup'")).toBe(2);
  });

  it('stores each batch with the counts it reported: received, inserted, duplicates, invalid', async () => {
    const before = [{ source: 'batch', key: { domain: 'kappa.dev' } }];
    expect((await discover({ label: 'batch-seed', items: before })).statusCode).toBe(200);
    const items = [
      { source: 'batch', key: { domain: 'kappa.dev' } }, // already in the log: a duplicate
      { source: 'batch', key: { domain: 'lambda.dev' } }, // new
      { source: 'batch', key: { domain: 'mu.dev' } }, // new
      { source: 'batch', key: { domain: 'mu.dev' } }, // repeated in the request: a duplicate
      { source: 'batch' }, // no key: invalid
      { source: 'batch', key: { domain: 'localhost' } }, // an unacceptable domain: invalid
    ];
    const res = await discover({ label: 'batch-counts', items });
    expect(res.statusCode).toBe(200);
    const reported = { received: 6, inserted: 2, duplicates: 2, invalid: 2 };
    expect(res.json().data).toMatchObject(reported);
    const stored = await t.deps.db.query<Record<string, unknown>>(
      `SELECT b.received, b.inserted, b.duplicates, b.invalid, b.token_id, b.received_at,
              (SELECT count(*)::int FROM sightings s WHERE s.batch_id = b.id) AS rows
         FROM discovery_batches b WHERE b.label = 'batch-counts'`,
    );
    const me = await t.deps.tokens.verify(t.token);
    expect(stored).toEqual([
      { ...reported, token_id: me?.id, received_at: new Date(t.clock.ms), rows: reported.inserted },
    ]);
  });

  it('inserts each item once when identical requests race', async () => {
    const items = Array.from({ length: 50 }, (_, i) => ({
      source: 'race',
      key: { domain: `race${i}.com`, n: i },
    }));
    const results = await Promise.all([discover({ items }), discover({ items }), discover(items)]);
    const data = results.map((r) => r.json().data);
    expect(data.reduce((s, d) => s + d.inserted, 0)).toBe(50);
    expect(data.reduce((s, d) => s + d.duplicates, 0)).toBe(100);
    expect(await countSightings("source = 'race'")).toBe(50);
  });

  it('keeps request order as arrival order', async () => {
    await discover([
      { source: 'order', key: { n: 3 } },
      { source: 'order', key: { n: 1 } },
      { source: 'order', key: { n: 2 } },
    ]);
    const rows = await t.deps.db.query<{ key: { n: number } }>(
      "SELECT key FROM sightings WHERE source = 'order' ORDER BY id",
    );
    expect(rows.map((r) => r.key.n)).toEqual([3, 1, 2]);
  });
});

describe('POST /discover: item rules', () => {
  it('reports each structurally invalid item with a reason and stores the valid ones', async () => {
    const big = 'x'.repeat(16_384);
    let deep: Record<string, unknown> = { v: 1 };
    for (let i = 0; i < 40; i++) deep = { d: deep };
    const items: unknown[] = [
      'not an object',
      { source: 's', key: { a: 1 }, extra: true },
      { key: { a: 1 } },
      { source: 7, key: { a: 1 } },
      { source: '   ', key: { a: 1 } },
      { source: 'x'.repeat(101), key: { a: 1 } },
      { source: 's' },
      { source: 's', key: [1] },
      { source: 's', key: {} },
      { source: 's', key: { blob: 'k'.repeat(2100) } },
      { source: 's', key: { a: 1 }, payload: 'text' },
      { source: 's', key: { a: 1 }, payload: { blob: big } },
      { source: 's', key: { a: 'nul\u0000byte' } },
      { source: 's', key: { a: 2 }, payload: deep },
      { source: 's', key: { a: 3 }, payload: { ok: 'y'.repeat(16_000) } },
      { source: 'x'.repeat(100), key: { a: 4 }, payload: null },
      null,
    ];
    const res = await discover({ items });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.rejectedItems.map((r: { index: number; reason: string }) => [r.index, r.reason])).toEqual([
      [0, 'item_not_object'],
      [1, 'unknown_field'],
      [2, 'source_missing'],
      [3, 'source_invalid'],
      [4, 'source_invalid'],
      [5, 'source_too_long'],
      [6, 'key_missing'],
      [7, 'key_not_object'],
      [8, 'key_empty'],
      [9, 'key_too_large'],
      [10, 'payload_not_object'],
      [11, 'payload_too_large'],
      [12, 'key_invalid'],
      [13, 'payload_invalid'],
      [16, 'item_not_object'],
    ]);
    for (const r of data.rejectedItems) expect(r.message).toEqual(expect.any(String));
    expect(data).toMatchObject({ received: 17, inserted: 2, duplicates: 0, invalid: 15, invalidKeys: [] });
  });

  it('reports unacceptable key.domain values in invalidKeys with the key as sent', async () => {
    const keys = [
      { domain: 42 },
      { domain: '  ' },
      { domain: 'ftp://files.example.com' },
      { domain: '10.0.0.1' },
      { domain: 'http://[::1]/x' },
      { domain: 'localhost' },
      { domain: 'intranet.internal' },
      { domain: 'co.uk' },
      { domain: 'bad_label!.com' },
    ];
    const res = await discover(keys.map((key) => ({ source: 'dom', key })));
    const data = res.json().data;
    expect(res.statusCode).toBe(200);
    expect(data.invalidKeys.map((k: { index: number; reason: string }) => [k.index, k.reason])).toEqual([
      [0, 'domain_not_string'],
      [1, 'domain_empty'],
      [2, 'domain_invalid'],
      [3, 'domain_ip_address'],
      [4, 'domain_ip_address'],
      [5, 'domain_not_public'],
      [6, 'domain_not_public'],
      [7, 'domain_public_suffix'],
      [8, 'domain_invalid'],
    ]);
    expect(data.invalidKeys[3].key).toEqual({ domain: '10.0.0.1' });
    expect(data).toMatchObject({ received: 9, inserted: 0, invalid: 9, rejectedItems: [] });
    expect(await countSightings("source = 'dom'")).toBe(0);
  });

  it('answers 200 with everything reported when no item is valid, and records the batch', async () => {
    const res = await discover({ label: 'all-bad', items: [{ source: '' }, 5] });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      label: 'all-bad',
      received: 2,
      inserted: 0,
      duplicates: 0,
      invalid: 2,
    });
    const batch = await t.deps.db.query(
      "SELECT received, invalid FROM discovery_batches WHERE label = 'all-bad'",
    );
    expect(batch).toEqual([{ received: 2, invalid: 2 }]);
  });

  it('rejects strings PostgreSQL cannot store (unpaired surrogates, NUL) per item instead of failing', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/discover',
      payload:
        '[{"source": "s\\ud800", "key": {"a": 1}}, {"source": "s", "key": {"\\u0000": 1}},' +
        ' {"source": "s", "key": {"a": 9}, "payload": {"x": "\\udc00"}}, {"source": "s", "key": {"a": "\\ud83d\\ude00"}}]',
      headers: { 'content-type': 'application/json' },
      token: t.token,
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.rejectedItems.map((r: { reason: string }) => r.reason)).toEqual([
      'source_invalid',
      'key_invalid',
      'payload_invalid',
    ]);
    expect(data.inserted).toBe(1);
  });

  it('accepts an empty items array as a no-op', async () => {
    const res = await discover({ items: [] });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ received: 0, inserted: 0, invalid: 0 });
  });
});

describe('POST /discover: malformed bodies and limits', () => {
  it('refuses more than 200 items with a 400 naming the limit and stores nothing', async () => {
    const before = await countSightings();
    const items = Array.from({ length: 201 }, (_, i) => ({ source: 'cap', key: { n: i } }));
    for (const body of [{ items }, items]) {
      const res = await discover(body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('BAD_REQUEST');
      expect(res.json().error.message).toMatch(/at most 200 .*got 201/);
    }
    expect(await countSightings()).toBe(before);
    const ok = await discover({ items: items.slice(0, 200) });
    expect(ok.json().data).toMatchObject({ received: 200, inserted: 200 });
  });

  it('limits the label to 200 characters and requires a string', async () => {
    const long = await discover({ label: 'é'.repeat(201), items: [{ source: 'l', key: { a: 1 } }] });
    expect(long.statusCode).toBe(400);
    expect(long.json().error.message).toMatch(/'label'.*200/);
    const exact = await discover({ label: 'é'.repeat(200), items: [{ source: 'l', key: { a: 1 } }] });
    expect(exact.statusCode).toBe(200);
    const notString = await discover({ label: 5, items: [] });
    expect(notString.statusCode).toBe(400);
    expect(notString.json().error.message).toMatch(/'label'/);
  });

  it('refuses bodies that are not an item, an array or an envelope', async () => {
    for (const body of ['"text"', '42', 'null', '{"items": {"source": "x"}}', '{"items": [], "extra": 1}']) {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/discover',
        payload: body,
        headers: { 'content-type': 'application/json' },
        token: t.token,
      });
      expect(res.statusCode, body).toBe(400);
      expect(res.json().error.code).toBe('BAD_REQUEST');
    }
    const broken = await t.request({
      method: 'POST',
      url: '/api/v1/discover',
      payload: '{"items": [',
      headers: { 'content-type': 'application/json' },
      token: t.token,
    });
    expect(broken.statusCode).toBe(400);
    const empty = await t.request({ method: 'POST', url: '/api/v1/discover', token: t.token });
    expect(empty.statusCode).toBe(400);
  });

  it('accepts a full-size request above the app-wide 1 MB body limit', async () => {
    const items = Array.from({ length: 200 }, (_, i) => ({
      source: 'big',
      key: { n: i },
      payload: { blob: 'p'.repeat(16_000) },
    }));
    const res = await discover({ items });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.inserted).toBe(200);
    const huge = await t.request({
      method: 'POST',
      url: '/api/v1/discover',
      payload: JSON.stringify({
        items: [{ source: 'h', key: { a: 1 }, payload: { b: 'x'.repeat(9 * 1024 * 1024) } }],
      }),
      headers: { 'content-type': 'application/json' },
      token: t.token,
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('requires a valid token', async () => {
    const anon = await discover({ source: 's', key: { a: 1 } }, null);
    expect(anon.statusCode).toBe(401);
    const bad = await discover({ source: 's', key: { a: 1 } }, 'fl_not-a-real-token-at-all');
    expect(bad.statusCode).toBe(403);
  });

  it('documents the discovery routes in the OpenAPI document', async () => {
    const doc = (await t.get('/api/v1/openapi.json')).json();
    expect(doc.paths['/api/v1/discover'].post.requestBody).toBeDefined();
    expect(doc.paths['/api/v1/promote_and_onboard'].post.responses['202']).toBeDefined();
    expect(doc.paths['/api/v1/candidates'].get.parameters.map((p: { name: string }) => p.name)).toContain(
      'status',
    );
  });

  it('keeps the log append-only', async () => {
    await expect(t.deps.db.query('DELETE FROM sightings')).rejects.toThrow(/append-only/);
    await expect(t.deps.db.query("UPDATE sightings SET source = 'x'")).rejects.toThrow(/append-only/);
    await expect(t.deps.db.query('TRUNCATE sightings CASCADE')).rejects.toThrow(/append-only/);
    // The processing marker is set once, never moved or cleared.
    await t.deps.db.query(
      "UPDATE sightings SET processed_at = now(), processed_by = 'r1' WHERE source = 'order'",
    );
    await expect(
      t.deps.db.query("UPDATE sightings SET processed_by = 'r2' WHERE source = 'order'"),
    ).rejects.toThrow(/append-only/);
    expect(await countSightings("processed_by = 'r1'")).toBe(3);
  });
});
