import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_WATCHES_PER_TOKEN } from '../../src/watches/service.js';
import { startTestApp, type TestApp } from '../support/app.js';

/** A token holds at most MAX_WATCHES_PER_TOKEN watches, and GET /watches pages them like the other listings. */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const create = (n: number) =>
  t.request({
    method: 'POST',
    url: '/api/v1/watches',
    payload: { url: 'https://hooks.example.com/in', description: `watch ${n}` },
    token: t.token,
  });

describe('watches per token', () => {
  it('refuses the watch past the cap with 409 until one is deleted', async () => {
    for (let i = 0; i < MAX_WATCHES_PER_TOKEN; i++) expect((await create(i)).statusCode).toBe(201);
    const over = await create(MAX_WATCHES_PER_TOKEN);
    expect(over.statusCode).toBe(409);
    expect(over.json().error).toEqual({
      code: 'CONFLICT',
      message: `This token holds ${MAX_WATCHES_PER_TOKEN} watches, the most one token may hold; delete one first`,
    });
    const first = (await t.get('/api/v1/watches?limit=1', t.token)).json().data[0] as { id: string };
    expect(
      (await t.request({ method: 'DELETE', url: `/api/v1/watches/${first.id}`, token: t.token })).statusCode,
    ).toBe(200);
    expect((await create(MAX_WATCHES_PER_TOKEN)).statusCode).toBe(201);
  });

  it('pages GET /watches with page and limit, every watch once, with the total', async () => {
    const seen = new Set<string>();
    for (let page = 1; page <= 4; page++) {
      const res = await t.get(`/api/v1/watches?limit=30&page=${page}`, t.token);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.meta).toEqual({ page, limit: 30, total: MAX_WATCHES_PER_TOKEN, totalPages: 4 });
      expect(body.data).toHaveLength(page < 4 ? 30 : MAX_WATCHES_PER_TOKEN - 90);
      for (const w of body.data as { id: string }[]) seen.add(w.id);
    }
    expect(seen.size).toBe(MAX_WATCHES_PER_TOKEN);
    const defaults = (await t.get('/api/v1/watches', t.token)).json();
    expect(defaults.meta).toMatchObject({ page: 1, limit: 50, total: MAX_WATCHES_PER_TOKEN });
    expect((await t.get('/api/v1/watches?limit=0', t.token)).statusCode).toBe(400);
    expect((await t.get('/api/v1/watches?cursor=x', t.token)).statusCode).toBe(400);
  });
});
