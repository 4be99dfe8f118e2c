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
    const deadline = Date.now() + 300_000;
    for (const id of ids) {
      for (;;) {
        const res = await call(api.url, 'GET', `/api/v1/workflows/${id}`, TOKEN);
        expect(res.status, JSON.stringify(res.json)).toBe(200);
        const status = (res.json.data as unknown as { status: string }).status;
        if (status === 'succeeded') break;
        expect(['enqueued', 'running']).toContain(status);
        if (Date.now() > deadline) throw new Error(`workflow ${id} still ${status}`);
        await new Promise((r) => setTimeout(r, 100));
      }
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
      // The workers wrote these jobs: the API process sees them within CACHE_COHERENCE_MS (2 s), the documented
      // bound on another process's write staying invisible, not necessarily at once.
      let total = -1;
      for (const until = Date.now() + 2_000 + 3_000; total !== 40 && Date.now() < until; ) {
        if (total >= 0) await new Promise((r) => setTimeout(r, 100));
        const jobs = await call(api.url, 'GET', `/api/v1/jobs?company=${c}&limit=50`, TOKEN);
        total = (jobs.json.meta as { total: number }).total;
      }
      expect(total).toBe(40);
    }
    const dup = await db?.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM (SELECT source, external_id FROM jobs GROUP BY 1, 2 HAVING count(*) > 1) d',
    );
    expect(dup?.[0]?.n).toBe(0);
  },
  600_000,
);
