import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { backoffMs, retryAfterMs } from '../../src/watches/delivery.js';
import {
  companySite,
  type Fixture,
  hostMapEnv,
  rescrapeAcme,
  startFixture,
  titled,
} from '../pipeline/support.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { type Receiver, startReceiver } from './receiver.js';

/**
 * Watches end to end: a real onboarding scrapes a fake Greenhouse board, new postings appear on it, a forced
 * re-scrape opens them, the matcher turns them into deliveries, and the delivery workflow POSTs them, signed, to a
 * local receiver that fails, throttles and succeeds as told.
 */

const HOOK = 'https://hooks.example.com';
const BASE = ['Forward Deployed Engineer', 'Backend Engineer', 'Recruiter'];

let t: TestApp;
let fx: Fixture;
let rx: Receiver;
let board = titled(BASE, 'g');

interface DeliveryView {
  id: string;
  status: string;
  attempts: number;
  jobIds: string[];
  lastStatus: number | null;
}

async function rescrape(extra: string[]): Promise<void> {
  board = [...board, ...titled(extra, `n${board.length}-`)];
  await rescrapeAcme(t, fx, board);
}

async function createWatch(body: Record<string, unknown>) {
  const res = await t.request({ method: 'POST', url: '/api/v1/watches', payload: body, token: t.token });
  expect(res.statusCode).toBe(201);
  return res.json().data as { id: string; secret: string; status: string };
}

async function deliveries(watchId: string): Promise<DeliveryView[]> {
  const res = await t.get(`/api/v1/watches/${watchId}/deliveries`, t.token);
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

/** Polls until the watch's newest delivery has left 'pending' (no time budget beyond the test's own). */
async function settled(watchId: string): Promise<DeliveryView> {
  for (;;) {
    const [newest] = await deliveries(watchId);
    if (newest && newest.status !== 'pending') return newest;
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  rx = await startReceiver();
  fx = await startFixture({
    greenhouse: { acme: board },
    sites: { 'acme.com': companySite('Acme', ['https://boards.greenhouse.io/acme']) },
  });
  t = await startTestApp({
    env: {
      OUTBOUND_HOST_MAP: hostMapEnv(fx.hostMap, { 'hooks.example.com': rx.origin }),
      QUEUE_POLL_MS: '50',
      WATCH_RETRY_BASE_MS: '20',
      WATCH_RETRY_FOR_MS: '1000',
    },
  });
  await t.deps.pipeline.start();
  const res = await t.request({
    method: 'POST',
    url: '/api/v1/onboard',
    payload: { name: 'Acme', domain: 'acme.com' },
    token: t.token,
  });
  await t.deps.pipeline.engine.waitFor(res.json().data.workflowId);
});

afterAll(async () => {
  await t?.close();
  await fx?.close();
  await rx?.close();
});

describe('watches', () => {
  afterEach(async () => {
    // Each test's watch goes, so a later test's new jobs reach only its own.
    for (const w of (await t.get('/api/v1/watches', t.token)).json().data as { id: string }[]) {
      await t.request({ method: 'DELETE', url: `/api/v1/watches/${w.id}`, token: t.token });
    }
  });

  it('delivers a newly opened matching job once, signed per Standard Webhooks; the first scrape is not news', async () => {
    const watch = await createWatch({
      filters: { client_facing: true },
      url: `${HOOK}/fde`,
      description: 'FDE',
    });
    expect(watch.secret).toMatch(/^whsec_/);
    expect(await t.deps.watchMatcher.runOnce()).toEqual([]);

    await rescrape(['Solutions Engineer', 'Data Analyst']);
    const created = await t.deps.watchMatcher.runOnce();
    expect(created).toHaveLength(1);
    const delivered = await settled(watch.id);
    expect(delivered).toMatchObject({ status: 'delivered', attempts: 1, lastStatus: 204 });

    const request = rx.received.find((r) => r.path === '/fde');
    if (!request) throw new Error('the receiver got the delivery');
    const payload = new Webhook(watch.secret).verify(
      request.body,
      request.headers as Record<string, string>,
    ) as {
      type: string;
      data: { jobs: { title: string; roleCategory: string }[] };
    };
    expect(payload.type).toBe('jobs.matched');
    expect(payload.data.jobs.map((j) => j.title)).toEqual(['Solutions Engineer']);
    expect(request.headers['webhook-id']).toBe(delivered.id);

    expect(await t.deps.watchMatcher.runOnce()).toEqual([]);
    expect(rx.received.filter((r) => r.path === '/fde')).toHaveLength(1);
  });

  it('retries failures with the same webhook-id, honouring Retry-After, until accepted', async () => {
    const watch = await createWatch({ search: 'implementation consultant', url: `${HOOK}/retry` });
    rx.answerNext({ status: 500 }, { status: 429, headers: { 'retry-after': '0' } });
    await rescrape(['Implementation Consultant', 'Office Manager']);
    expect(await t.deps.watchMatcher.runOnce()).toHaveLength(1);
    const delivered = await settled(watch.id);
    expect(delivered).toMatchObject({ status: 'delivered', attempts: 3 });
    const attempts = rx.received.filter((r) => r.path === '/retry');
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((a) => a.headers['webhook-id']))).toEqual(new Set([delivered.id]));
  });

  it('disables a watch whose receiver keeps failing past the retry window, with the reason', async () => {
    const watch = await createWatch({ filters: { role_category: 'tam' }, url: `${HOOK}/down` });
    rx.answerNext(...Array.from({ length: 40 }, () => ({ status: 503 })));
    await rescrape(['Technical Account Manager']);
    expect(await t.deps.watchMatcher.runOnce()).toHaveLength(1);
    const failed = await settled(watch.id);
    expect(failed.status).toBe('failed');
    expect(failed.attempts).toBeGreaterThan(1);
    const view = (await t.get(`/api/v1/watches/${watch.id}`, t.token)).json().data;
    expect(view.status).toBe('disabled');
    expect(view.disabledReason).toContain(failed.id);
    rx.answerNext(); // the script is consumed from the front; drop what is left
    rx.received.length = 0;
  });

  it("sends a signed watch.test on request, lists and deletes the caller's own watches only", async () => {
    const watch = await createWatch({ url: `${HOOK}/test` });
    const res = await t.request({ method: 'POST', url: `/api/v1/watches/${watch.id}/test`, token: t.token });
    expect(res.statusCode).toBe(202);
    await settled(watch.id);
    const ping = rx.received.find((r) => r.path === '/test');
    if (!ping) throw new Error('the test message arrived');
    expect(
      (
        new Webhook(watch.secret).verify(ping.body, ping.headers as Record<string, string>) as {
          type: string;
        }
      ).type,
    ).toBe('watch.test');
    const other = await t.deps.tokens.create('other');
    expect((await t.get(`/api/v1/watches/${watch.id}`, other.secret)).statusCode).toBe(404);
    expect((await t.get('/api/v1/watches', other.secret)).json().data).toEqual([]);
    expect((await t.get('/api/v1/watches', null)).statusCode).toBe(401);
    const listed = (await t.get('/api/v1/watches', t.token)).json().data as { id: string; secret?: string }[];
    expect(listed.map((w) => w.id)).toContain(watch.id);
    expect(listed.every((w) => w.secret === undefined)).toBe(true);
    expect(
      (await t.request({ method: 'DELETE', url: `/api/v1/watches/${watch.id}`, token: t.token })).statusCode,
    ).toBe(200);
    expect((await t.get(`/api/v1/watches/${watch.id}`, t.token)).statusCode).toBe(404);
  });

  it('accepts the place filters of GET /jobs and keeps them', async () => {
    const filters = { region: 'europe', country: 'Germany,FR', remote_scope: 'emea' };
    const watch = await createWatch({ url: `${HOOK}/places`, filters });
    const read = await t.get(`/api/v1/watches/${watch.id}`, t.token);
    expect(read.json().data.filters).toEqual(filters);
  });

  it('refuses bad watches with a 400 naming the field', async () => {
    const post = (payload: Record<string, unknown>) =>
      t.request({ method: 'POST', url: '/api/v1/watches', payload, token: t.token });
    for (const [payload, field] of [
      [{ url: 'http://127.0.0.1:9/x' }, 'url'],
      [{ url: 'ftp://hooks.example.com/x' }, 'url'],
      [{ url: `${HOOK}/x`, filters: { role_category: 'astronaut' } }, 'role_category'],
      [{ url: `${HOOK}/x`, filters: { company: 'Not A Slug!' } }, 'company'],
      [{ url: `${HOOK}/x`, filters: { remoteOnly: true } }, 'remoteOnly'],
      [{ url: `${HOOK}/x`, filters: { region: 'atlantis' } }, 'region'],
      [{ url: `${HOOK}/x`, filters: { country: 'Atlantis' } }, 'country'],
      [{}, 'url'],
    ] as const) {
      const res = await post(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.message).toContain(field);
    }
  });
});

describe('retry schedule', () => {
  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.UTC(2026, 10, 26, 12, 0, 0);
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs(new Date(now + 30_000).toUTCString(), now)).toBe(30_000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });

  it('backs off exponentially with jitter, capped at an hour', () => {
    expect(backoffMs(1, 5_000, () => 0)).toBe(2_500);
    expect(backoffMs(1, 5_000, () => 1 - Number.EPSILON)).toBe(5_000);
    expect(backoffMs(4, 5_000, () => 1 - Number.EPSILON)).toBe(40_000);
    expect(backoffMs(40, 5_000, () => 1 - Number.EPSILON)).toBe(3_600_000);
  });
});
