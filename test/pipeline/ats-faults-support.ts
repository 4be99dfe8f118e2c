import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { type AtsFault, type FaultyAts, startFaultyAts } from '../support/fake-ats-faults.js';
import { companySite, type Fixture, generatePostings, hostMapEnv, startFixture } from './support.js';

/**
 * Hostile job boards (test/pipeline/ats-faults*.test.ts). A company's Greenhouse board is broken by a fault; only
 * the full listing of that one board is broken (discovery's cheap listing works, so the run reaches its scrape
 * step). `scenario` onboards the company and checks what every fault must keep true, through HTTP:
 *  - the run ends `failed` with an error naming the board (GET /workflows/:id);
 *  - no half-written rows: the company's healthy Lever board is stored whole, the broken board stores nothing
 *    and the scrape marker stays unset;
 *  - nothing else stops: while the bad board is being scraped, catalog reads answer and a healthy company
 *    onboarded in the same worker, on the same vendor host, succeeds;
 *  - the client let go of every broken connection.
 */

export const LEVER_POSTINGS = 4;
/** The onboarding step retry policy (docs/pipeline.md): 3 attempts, 2 s then 4 s between them. */
export const STEP_ATTEMPTS = 3;
/** The outbound client's own attempts for 429/5xx on GET (docs/sources.md). */
export const CLIENT_ATTEMPTS = 3;

export const listing = (token: string) => `/v1/boards/${token}/jobs?content=true`;

export interface StepView {
  name: string;
  status: string;
  error?: string;
}
export interface RunView {
  status: string;
  steps: StepView[];
  error?: string;
}

export interface Outcome {
  view: RunView;
  step: StepView;
}

export interface HostileBoards {
  t: TestApp;
  ats: FaultyAts;
  /** A loopback server a redirect points at: it must never be reached. */
  trap: { origin: string; hits: number };
  /** Onboards `<token>.com` with its Greenhouse board broken by `fault` (see the file comment). */
  scenario(token: string, fault: AtsFault): Promise<Outcome>;
  close(): Promise<void>;
}

/** Reads until `ok` holds. No time budget of its own: the test's timeout bounds the wait. */
async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const ended = (v: RunView) => v.status !== 'enqueued' && v.status !== 'running';

async function startTrap(): Promise<HostileBoards['trap'] & { close(): Promise<void> }> {
  let hits = 0;
  const server = createServer((_req, res) => {
    hits++;
    res.end('{"jobs":[]}');
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get hits() {
      return hits;
    },
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

/** Boards for each of `bad` (broken Greenhouse, healthy Lever) and `fine<bad>` (healthy Greenhouse); the app. */
export async function startHostileBoards(bad: string[], env: Record<string, string>): Promise<HostileBoards> {
  const sites: Record<string, Record<string, string>> = {};
  const greenhouse: Record<string, ReturnType<typeof generatePostings>> = {};
  const lever: Record<string, ReturnType<typeof generatePostings>> = {};
  for (const b of bad) {
    sites[`${b}.com`] = companySite(b, [`https://boards.greenhouse.io/${b}`, `https://jobs.lever.co/${b}`]);
    greenhouse[b] = generatePostings(5, `${b}-g`);
    lever[b] = generatePostings(LEVER_POSTINGS, `${b}-l`);
    sites[`fine${b}.com`] = companySite(`fine${b}`, [`https://boards.greenhouse.io/fine${b}`]);
    greenhouse[`fine${b}`] = generatePostings(3, `fine${b}-g`);
  }
  const fx: Fixture = await startFixture({ greenhouse, lever, sites });
  const ats = await startFaultyAts(fx.ats.origin);
  const trap = await startTrap();
  const t = await startTestApp({
    env: { OUTBOUND_HOST_MAP: hostMapEnv(fx.hostMap, { 'boards-api.greenhouse.io': ats.origin }), ...env },
  });
  // The word vectors load synchronously on first use; do it now, not in the middle of a scrape.
  await t.deps.searchParts.embedder.embed(['warm up']);
  await t.deps.pipeline.start();
  return {
    t,
    ats,
    trap,
    scenario: (token, fault) => scenario(t, ats, token, fault),
    close: async () => {
      await t.close();
      await ats.close();
      await trap.close();
      await fx.close();
    },
  };
}

async function onboard(t: TestApp, domain: string): Promise<string> {
  const res = await t.request({
    method: 'POST',
    url: '/api/v1/onboard',
    payload: { name: domain.split('.')[0], domain },
    token: t.token,
  });
  expect(res.statusCode).toBe(202);
  return res.json().data.workflowId;
}

async function view(t: TestApp, id: string): Promise<RunView> {
  const res = await t.get(`/api/v1/workflows/${id}`, t.token);
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

/** Catalog reads: each must answer 200. */
async function reads(t: TestApp): Promise<void> {
  for (const url of [
    '/healthz',
    '/api/v1/jobs?limit=20',
    '/api/v1/jobs?search=solutions%20engineer&limit=5',
    '/api/v1/companies?limit=10',
  ]) {
    const res = await t.get(url);
    expect(res.statusCode, url).toBe(200);
  }
}

/** Nothing half-written: the healthy board whole, nothing from the broken one, the scrape marker unset. */
async function expectNothingHalfWritten(t: TestApp, token: string): Promise<void> {
  const rows = await t.deps.db.query<{ source: string; n: number; distinct_ids: number }>(
    `SELECT j.source, count(*)::int AS n, count(DISTINCT j.external_id)::int AS distinct_ids
     FROM jobs j JOIN companies c ON c.id = j.company_id WHERE c.domain = $1 GROUP BY j.source`,
    [`${token}.com`],
  );
  expect(rows).toEqual([{ source: 'lever', n: LEVER_POSTINGS, distinct_ids: LEVER_POSTINGS }]);
  const company = await t.get(`/api/v1/companies/${token}`, t.token);
  expect(company.json().data.activeJobCount).toBe(LEVER_POSTINGS);
  const marker = await t.deps.db.query<{ scraped_at: Date | null }>(
    `SELECT p.scraped_at FROM company_pipeline p JOIN companies c ON c.id = p.company_id WHERE c.domain = $1`,
    [`${token}.com`],
  );
  expect(marker).toEqual([{ scraped_at: null }]);
}

async function scenario(t: TestApp, ats: FaultyAts, token: string, fault: AtsFault): Promise<Outcome> {
  ats.fault(listing(token), fault);
  const id = await onboard(t, `${token}.com`);
  await ats.waitHits(listing(token), 1);

  const healthyId = await onboard(t, `fine${token}.com`);
  // Catalog reads answer while the run goes on, every round until it ends (at least one). How many rounds fit in
  // the run depends on the machine's speed against the call budget, so no count of them is asserted.
  let bad: RunView;
  do {
    await reads(t);
    bad = await view(t, id);
    // Paced, not timed: the test clock stands still, so every read of the run counts in one rate-limit window, and
    // an unpaced loop on a fast machine would spend the raised test budget within the run.
    await new Promise((r) => setTimeout(r, 25));
  } while (!ended(bad));
  const healthy = await eventually(() => view(t, healthyId), ended);
  expect(healthy.status, JSON.stringify(healthy)).toBe('succeeded');
  const fineJobs = async () =>
    (await t.get(`/api/v1/companies/fine${token}`, t.token)).json().data.activeJobCount as number;
  expect(await eventually(fineJobs, (n) => n === 3)).toBe(3);

  // The run fails, naming the board; the failed step says why.
  expect(bad.status, JSON.stringify(bad)).toBe('failed');
  expect(bad.error).toContain(`greenhouse/${token}`);
  const step = bad.steps.find((s) => s.name === `scrape:greenhouse/${token}`);
  expect(step?.status, JSON.stringify(bad.steps)).toBe('failed');
  expect(bad.steps.find((s) => s.name === `scrape:lever/${token}`)?.status).toBe('succeeded');
  expect(bad.steps.find((s) => s.name === 'finalize')?.status).toBe('succeeded');

  await expectNothingHalfWritten(t, token);
  expect(
    await eventually(
      async () => ats.openFaulted(),
      (n) => n === 0,
    ),
  ).toBe(0);
  return { view: bad, step: step as StepView };
}
