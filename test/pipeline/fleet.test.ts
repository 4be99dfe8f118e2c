import { afterAll, beforeAll, expect, it } from 'vitest';
import { freshDatabase, serverUrl, type TestDatabase } from '../support/db.js';
import {
  type Child,
  call,
  companySite,
  type Fixture,
  generatePostings,
  hostMapEnv,
  startChild,
  startFixture,
} from './support.js';

/**
 * Scaled out on PostgreSQL: one API-only process and two `frontline worker` processes with their own stable ids.
 * Onboardings enqueued by the API run in the workers only, and no step runs twice (each about page is fetched
 * once, by enrichment; each careers page once, by discovery). PostgreSQL only: the embedded database belongs to
 * one process.
 */

const TOKEN = 'fl_fleet_test_token_0123456789abcdef';
const COMPANIES = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot'];

let fx: Fixture;
let database: TestDatabase | undefined;
const children: Child[] = [];

beforeAll(async () => {
  if (!serverUrl()) return;
  fx = await startFixture({
    greenhouse: Object.fromEntries(COMPANIES.map((c) => [c, generatePostings(40, c)])),
    sites: Object.fromEntries(
      COMPANIES.map((c) => [`${c}.com`, companySite(c, [`https://boards.greenhouse.io/${c}`])]),
    ),
  });
  database = await freshDatabase();
});

afterAll(async () => {
  for (const c of children) await c.kill9().catch(() => {});
  await fx?.close();
  await database?.drop();
});

it.skipIf(!serverUrl())(
  'shares runs between two workers without running a step twice',
  async () => {
    const common = {
      DATABASE_URL: database?.url as string,
      API_TOKENS: TOKEN,
      OUTBOUND_HOST_MAP: hostMapEnv(fx.hostMap),
    };
    const api = await startChild({ ...common, FRONTLINE_ROLE: 'api', DBOS__VMID: 'api-1' });
    children.push(api);
    for (const id of ['worker-1', 'worker-2']) {
      children.push(await startChild({ ...common, DBOS__VMID: id }, { command: 'worker' }));
    }
    const ids: string[] = [];
    for (const c of COMPANIES) {
      const res = await call(api.url, 'POST', '/api/v1/onboard', TOKEN, { name: c, domain: `${c}.com` });
      expect(res.status).toBe(202);
      ids.push((res.json.data as unknown as { workflowId: string }).workflowId);
    }
    for (const id of ids) {
      const status = async () => {
        const res = await call(api.url, 'GET', `/api/v1/workflows/${id}`, TOKEN);
        expect(res.status, JSON.stringify(res.json)).toBe(200);
        const s = (res.json.data as unknown as { status: string }).status;
        if (s !== 'succeeded') expect(['enqueued', 'running']).toContain(s);
        return s;
      };
      await expect.poll(status, { interval: 100 }).toBe('succeeded');
    }
    const db = database?.db;
    const executors = await db?.query<{ executor_id: string; n: number }>(
      `SELECT executor_id, count(*)::int AS n FROM dbos.workflow_status WHERE workflow_uuid = ANY($1)
     GROUP BY executor_id ORDER BY executor_id`,
      [ids],
    );
    // The API process never executes runs; the workers split them (how evenly depends on who polls first).
    for (const e of executors ?? []) expect(['worker-1', 'worker-2']).toContain(e.executor_id);
    expect(executors?.reduce((n, e) => n + e.n, 0)).toBe(COMPANIES.length);
    for (const c of COMPANIES) {
      // /about is fetched only by the enrich step, /careers only by discovery: once each means no step ran twice.
      for (const path of ['/about', '/careers']) {
        expect(fx.sites.requests.filter((r) => r.host === `${c}.com` && r.path === path)).toHaveLength(1);
      }
      // The workers wrote these jobs: the API process sees them once its catalog_version poll
      // (CACHE_COHERENCE_MS) has run, not necessarily at once. Polled on the condition, under the test's timeout.
      const total = async () => {
        const jobs = await call(api.url, 'GET', `/api/v1/jobs?company=${c}&limit=50`, TOKEN);
        return (jobs.json.meta as { total: number }).total;
      };
      await expect.poll(total, { interval: 100 }).toBe(40);
    }
    const dup = await db?.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM (SELECT source, external_id FROM jobs GROUP BY 1, 2 HAVING count(*) > 1) d',
    );
    expect(dup?.[0]?.n).toBe(0);
  },
  600_000,
);
