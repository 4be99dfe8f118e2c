import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PgliteDb } from '../../src/db/pglite.js';
import type { Db } from '../../src/db/port.js';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import {
  type Child,
  call,
  companySite,
  type Fixture,
  type Gate,
  generatePostings,
  hostMapEnv,
  startChild,
  startFixture,
  startGate,
} from './support.js';

/**
 * kill -9 of the process running an onboarding, in the middle of a scrape step, then a restart under the same
 * worker id: the run resumes at the interrupted step (earlier steps are not re-run: no second homepage fetch, no
 * second Greenhouse scrape) and completes with no duplicate jobs. Runs on the embedded database (a PGlite data
 * directory) and, with TEST_DATABASE_URL, on PostgreSQL.
 */

const TOKEN = 'fl_crash_test_token_0123456789abcdef';
const GREENHOUSE = 500;
const LEVER = 20;

let fx: Fixture;
let gate: Gate;
let database: TestDatabase | undefined;
let dataDir: string | undefined;
const children: Child[] = [];

beforeAll(async () => {
  fx = await startFixture({
    greenhouse: { acme: generatePostings(GREENHOUSE, 'g') },
    lever: { acme: generatePostings(LEVER, 'l') },
    sites: {
      'acme.com': companySite('Acme', ['https://boards.greenhouse.io/acme', 'https://jobs.lever.co/acme']),
    },
  });
  gate = await startGate(fx.ats.origin);
  if (process.env.TEST_DATABASE_URL) {
    database = await freshDatabase();
  } else {
    dataDir = mkdtempSync(join(tmpdir(), 'frontline-crash-'));
  }
});

afterAll(async () => {
  for (const c of children) await c.kill9().catch(() => {});
  await gate?.close();
  await fx?.close();
  await database?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function env(): Record<string, string> {
  return {
    ...(database?.url ? { DATABASE_URL: database.url } : { DATA_DIR: dataDir as string }),
    API_TOKENS: TOKEN,
    DBOS__VMID: 'crash-worker-1',
    OUTBOUND_HOST_MAP: hostMapEnv(fx.hostMap, { 'api.lever.co': gate.origin }),
  };
}

type View = { status: string; steps: Array<{ name: string; status: string }> };

async function view(child: Child, id: string): Promise<View> {
  const res = await call(child.url, 'GET', `/api/v1/workflows/${id}`, TOKEN);
  expect(res.status).toBe(200);
  return res.json.data as unknown as View;
}

async function until(child: Child, id: string, done: (v: View) => boolean, timeoutMs: number): Promise<View> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await view(child, id);
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting; last view ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const greenhouseScrapes = () =>
  fx.ats.requests.filter(
    (r) => r.host.startsWith('boards-api.greenhouse.io') && r.path.includes('/acme/jobs'),
  ).length;
const homepageFetches = () =>
  fx.sites.requests.filter((r) => r.host.startsWith('acme.com') && r.path === '/').length;

it('resumes a killed onboarding at the interrupted scrape step without duplicating anything', async () => {
  const first = await startChild(env());
  children.push(first);
  const accepted = await call(first.url, 'POST', '/api/v1/onboard', TOKEN, {
    name: 'Acme',
    domain: 'acme.com',
  });
  expect(accepted.status).toBe(202);
  const id = (accepted.json.data as unknown as { workflowId: string }).workflowId;

  // Discovery validated the Lever board through the open gate; from now on Lever requests are held, so the
  // worker freezes inside the scrape:lever/acme step after scrape:greenhouse/acme (500 postings) committed.
  await until(
    first,
    id,
    (v) => v.steps.some((s) => s.name === 'discover-boards' && s.status === 'succeeded'),
    180_000,
  );
  gate.arm();
  await gate.waitHeld(180_000);
  const before = await view(first, id);
  expect(before.status).toBe('running');
  expect(before.steps.find((s) => s.name === 'scrape:greenhouse/acme')?.status).toBe('succeeded');
  const scrapesBefore = greenhouseScrapes();
  const homepageBefore = homepageFetches();

  await first.kill9();
  gate.release();

  const second = await startChild(env());
  children.push(second);
  const after = await until(second, id, (v) => v.status !== 'running' && v.status !== 'enqueued', 240_000);
  expect(after.status, JSON.stringify(after)).toBe('succeeded');
  expect(after.steps.map((s) => s.name)).toEqual([
    'company',
    'enrich',
    'discover-boards',
    'load-boards',
    'scrape:greenhouse/acme',
    'scrape:lever/acme',
    'finalize',
  ]);
  // Completed steps were not re-run after the restart.
  expect(greenhouseScrapes()).toBe(scrapesBefore);
  expect(homepageFetches()).toBe(homepageBefore);

  const jobs = await call(second.url, 'GET', '/api/v1/jobs?company=acme&limit=50', TOKEN);
  expect((jobs.json.meta as { total: number }).total).toBe(GREENHOUSE + LEVER);
  await second.stop();

  const db: Db = database ? database.db : await PgliteDb.open(dataDir);
  try {
    const rows = await db.query<{ n: number; distinct_ids: number; companies: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT (source, external_id))::int AS distinct_ids,
              (SELECT count(*)::int FROM companies WHERE domain = 'acme.com') AS companies
       FROM jobs WHERE active`,
    );
    expect(rows[0]).toEqual({ n: GREENHOUSE + LEVER, distinct_ids: GREENHOUSE + LEVER, companies: 1 });
  } finally {
    if (!database) await db.close();
  }
}, 600_000);
