import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { type AtsFault, type FaultyAts, startFaultyAts } from '../support/fake-ats-faults.js';
import { companySite, type Fixture, generatePostings, hostMapEnv, startFixture } from './support.js';

/**
 * Hostile job boards. A company's Greenhouse board hangs, trickles its body (slow loris), answers 500s, sends
 * 10 MB or more, or redirects to a private address; only the full listing of that one board is broken
 * (discovery's cheap listing works, so the run reaches its scrape step). For each, through HTTP:
 *  - the board's scrape step fails after the retries the policy gives that failure, or at once when it is not
 *    retryable, and the run ends `failed` with an error naming the board (GET /workflows/:id);
 *  - no half-written rows: the company's healthy Lever board is stored whole, the broken board stores nothing
 *    and the scrape marker stays unset;
 *  - nothing else stops: while the bad board is being scraped, catalog reads answer and a healthy company
 *    onboarded in the same worker, on the same vendor host, succeeds.
 * Nothing here is timed: each attempt is seen ending at the fake (the client closed its connection before the
 * next attempt arrived), and the step's retries are counted in requests.
 *
 * The outbound client runs with small budgets so that a hanging board costs seconds, not minutes:
 * OUTBOUND_HEADERS_TIMEOUT_MS (time to headers, and longest stall between body chunks) and OUTBOUND_TIMEOUT_CAP_MS
 * (ceiling on a whole call, retries included). A loaded machine only makes them fire later.
 */

vi.setConfig({ testTimeout: 600_000 });

const HEADERS_TIMEOUT_MS = 1_500;
/** Long enough to read a 24 MB body over loopback on a loaded machine (the cap is the oversize case's only clock). */
const CALL_CAP_MS = 10_000;
const LEVER_POSTINGS = 4;
/** The onboarding step retry policy (docs/pipeline.md): 3 attempts, 2 s then 4 s between them. */
const STEP_ATTEMPTS = 3;
/** The outbound client's own attempts for 429/5xx on GET (docs/sources.md). */
const CLIENT_ATTEMPTS = 3;

let t: TestApp;
let fx: Fixture;
let ats: FaultyAts;
let trap: { origin: string; hits: number; close(): Promise<void> };

const BAD = ['hang', 'loris', 'fivehundred', 'huge', 'oversize', 'trap', 'metadata', 'private', 'local'];
const HEALTHY = BAD.map((b) => `fine${b}`);
const listing = (token: string) => `/v1/boards/${token}/jobs?content=true`;

beforeAll(async () => {
  const sites: Record<string, Record<string, string>> = {};
  const greenhouse: Record<string, ReturnType<typeof generatePostings>> = {};
  const lever: Record<string, ReturnType<typeof generatePostings>> = {};
  for (const b of BAD) {
    sites[`${b}.com`] = companySite(b, [`https://boards.greenhouse.io/${b}`, `https://jobs.lever.co/${b}`]);
    greenhouse[b] = generatePostings(5, `${b}-g`);
    lever[b] = generatePostings(LEVER_POSTINGS, `${b}-l`);
  }
  for (const h of HEALTHY) {
    sites[`${h}.com`] = companySite(h, [`https://boards.greenhouse.io/${h}`]);
    greenhouse[h] = generatePostings(3, `${h}-g`);
  }
  fx = await startFixture({ greenhouse, lever, sites });
  ats = await startFaultyAts(fx.ats.origin);
  // A loopback server a redirect points at: it must never be reached.
  let trapHits = 0;
  const trapServer = createServer((_req, res) => {
    trapHits++;
    res.end('{"jobs":[]}');
  });
  await new Promise<void>((ok) => trapServer.listen(0, '127.0.0.1', ok));
  trap = {
    origin: `http://127.0.0.1:${(trapServer.address() as AddressInfo).port}`,
    get hits() {
      return trapHits;
    },
    close: () => new Promise<void>((ok) => trapServer.close(() => ok())),
  };
  t = await startTestApp({
    env: {
      OUTBOUND_HOST_MAP: hostMapEnv(fx.hostMap, { 'boards-api.greenhouse.io': ats.origin }),
      OUTBOUND_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      OUTBOUND_TIMEOUT_CAP_MS: String(CALL_CAP_MS),
    },
  });
  // The word vectors load synchronously on first use; do it now, not in the middle of a timed read.
  await t.deps.searchParts.embedder.embed(['warm up']);
  await t.deps.pipeline.start();
});

afterAll(async () => {
  await t?.close();
  await ats?.close();
  await trap?.close();
  await fx?.close();
});

interface StepView {
  name: string;
  status: string;
  error?: string;
}
interface RunView {
  status: string;
  steps: StepView[];
  error?: string;
  result?: Record<string, unknown>;
}

async function onboard(domain: string): Promise<string> {
  const res = await t.request({
    method: 'POST',
    url: '/api/v1/onboard',
    payload: { name: domain.split('.')[0], domain },
    token: t.token,
  });
  expect(res.statusCode).toBe(202);
  return res.json().data.workflowId;
}

async function view(id: string): Promise<RunView> {
  const res = await t.get(`/api/v1/workflows/${id}`, t.token);
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

/**
 * Reads until `ok` holds. No time budget of its own: the test's timeout (raised for this file, since a loaded
 * machine stretches every retry pause) bounds the wait, and a condition that never holds fails the test.
 */
async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const ended = (v: RunView) => v.status !== 'enqueued' && v.status !== 'running';

/** Catalog reads: each must answer 200. */
async function reads(): Promise<void> {
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

interface Outcome {
  view: RunView;
  step: StepView;
  /** Rounds of catalog reads that all answered while the bad run was still running. */
  readRoundsDuringRun: number;
}

/**
 * Onboards `<token>.com` (Greenhouse board broken by `fault`, Lever board healthy) and, while its scrape is
 * under way, keeps reading the catalog and onboards `fine<token>.com`. Checks what every fault must keep true.
 */
async function scenario(token: string, fault: AtsFault): Promise<Outcome> {
  ats.fault(listing(token), fault);
  const id = await onboard(`${token}.com`);
  await ats.waitHits(listing(token), 1, 60_000);

  const healthyId = await onboard(`fine${token}.com`);
  let readRoundsDuringRun = 0;
  let bad = await view(id);
  while (!ended(bad)) {
    await reads();
    bad = await view(id);
    if (!ended(bad)) readRoundsDuringRun++;
    await new Promise((r) => setImmediate(r));
  }
  await t.deps.pipeline.engine.waitFor(healthyId, 240_000);
  const healthy = await view(healthyId);
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

  // Nothing half-written: the healthy board whole, nothing from the broken one, the scrape marker unset.
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
  // The client let go of every broken connection.
  expect(
    await eventually(
      async () => ats.openFaulted(),
      (n) => n === 0,
    ),
  ).toBe(0);
  return { view: bad, step: step as StepView, readRoundsDuringRun };
}

describe('a job board that never answers', () => {
  it('times out per attempt, is retried per the step policy, then fails the run; others carry on', async () => {
    const out = await scenario('hang', { kind: 'hang' });
    expect(out.step.error).toMatch(/time budget|No response headers|timed out|aborted/i);
    // Each step attempt is one call capped at CALL_CAP_MS; the client retries a timeout inside that budget.
    const hits = ats.hits(listing('hang'));
    expect(hits).toBeGreaterThanOrEqual(STEP_ATTEMPTS);
    expect(hits).toBeLessThanOrEqual(STEP_ATTEMPTS * CLIENT_ATTEMPTS);
    // The client gave up on every attempt (closed its connection) before it made the next one.
    expect(ats.openAtArrival(listing('hang'))).toEqual(Array(hits).fill(0));
    expect(out.readRoundsDuringRun).toBeGreaterThan(0);
  });

  it('gives up on a slow-loris body at the call budget, though bytes keep arriving', async () => {
    const out = await scenario('loris', { kind: 'trickle', everyMs: 200 });
    expect(out.step.error).toMatch(/time budget|timed out|aborted/i);
    // The body never stalls for a whole header timeout, so only the call cap ends each attempt: one request per
    // step attempt (a spent budget leaves no room for a client retry), each abandoned before the next.
    expect(ats.hits(listing('loris'))).toBe(STEP_ATTEMPTS);
    expect(ats.openAtArrival(listing('loris'))).toEqual(Array(STEP_ATTEMPTS).fill(0));
    expect(out.readRoundsDuringRun).toBeGreaterThan(0);
  });
});

describe('a job board that answers 500', () => {
  it('is retried by the client and by the step, then fails the run', async () => {
    const out = await scenario('fivehundred', { kind: 'status', status: 500 });
    expect(out.step.error).toContain('answered 500 after retries');
    expect(ats.hits(listing('fivehundred'))).toBe(STEP_ATTEMPTS * CLIENT_ATTEMPTS);
    expect(out.readRoundsDuringRun).toBeGreaterThan(0);
  });
});

// Faults that fail at once are independent of each other: their cases run side by side.
describe.concurrent('a job board that answers a huge body', () => {
  it('reads 10 MB (under the 20 MB vendor cap), rejects it as malformed at once, without retrying', async () => {
    const out = await scenario('huge', { kind: 'huge', bytes: 10 * 1024 * 1024 });
    expect(out.step.error).toContain('malformed');
    expect(ats.hits(listing('huge'))).toBe(1);
  });

  it('stops reading a body past the vendor cap and fails at once, without retrying', async () => {
    const out = await scenario('oversize', { kind: 'huge', bytes: 24 * 1024 * 1024 });
    expect(out.step.error).toContain('exceeds 20971520 bytes');
    expect(ats.hits(listing('oversize'))).toBe(1);
  });
});

describe.concurrent('a job board that redirects to a private address', () => {
  it.each([
    ['trap', () => `${trap.origin}/steal`, 'not a public address'],
    ['metadata', () => 'http://169.254.169.254/latest/meta-data/', 'not a public address'],
    ['private', () => 'http://10.0.0.1/v1/boards/private/jobs', 'not a public address'],
    ['local', () => `http://localhost:${new URL(trap.origin).port}/steal`, 'not a public host name'],
  ])('refuses the hop to %s before connecting, without retrying', async (token, location, message) => {
    const out = await scenario(token, { kind: 'redirect', location: location() });
    expect(out.step.error).toContain(message);
    expect(ats.hits(listing(token))).toBe(1);
    expect(trap.hits).toBe(0);
  });
});
