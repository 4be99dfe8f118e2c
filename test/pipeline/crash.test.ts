import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverUrl } from '../support/db.js';
import {
  type Child,
  type CrashHarness,
  companySite,
  generatePostings,
  type RunView,
  startCrashHarness,
} from './support.js';

/**
 * kill -9 of the process running an onboarding, then a restart under the same worker id (DBOS recovers the
 * runs of its own executor id): the run resumes where it was interrupted, earlier steps are not re-run, and it
 * completes with no duplicate rows. On the embedded database (a PGlite data directory) and, with
 * TEST_DATABASE_URL, on PostgreSQL. Two ways to die:
 *  - in the middle of an outbound request of the scrape step (a gate holds the vendor's answer);
 *  - in every step in turn, right after the step's body committed its writes and before the engine recorded
 *    the step as done (test/support/crash-at-step.mjs): recovery must run that step again, so this is where a
 *    step that is not idempotent would duplicate rows.
 * Each restart boots a real `frontline serve` from the TypeScript sources; the file takes about a minute on two
 * cores, so it runs with the default suite like the other crash tests.
 */

/** The onboarding's steps in order (src/pipeline/workflows/onboard.ts), for a company with two boards. */
const plan = (token: string) => [
  'company',
  'enrich',
  'discover-boards',
  'load-boards',
  `scrape:greenhouse/${token}`,
  `scrape:lever/${token}`,
  'finalize',
];
const EACH_STEP = plan('').map((_, i) => ({ i, token: `step${i}` }));

const ended = (v: RunView) => v.status !== 'running' && v.status !== 'enqueued';

async function onboard(h: CrashHarness, child: Child, name: string, domain: string): Promise<string> {
  const accepted = await h.call(child, 'POST', '/api/v1/onboard', { name, domain });
  expect(accepted.status).toBe(202);
  return (accepted.json.data as unknown as { workflowId: string }).workflowId;
}

/** Completed steps of a run (name -> completion stamp, ms) as the database holds them. */
async function checkpoints(h: CrashHarness, id: string): Promise<Map<string, number>> {
  const rows = await h.withDb((db) =>
    db.query<{ name: string; completed: string | null }>(
      `SELECT function_name AS name, completed_at_epoch_ms::text AS completed FROM dbos.operation_outputs
       WHERE workflow_uuid = $1 AND completed_at_epoch_ms IS NOT NULL ORDER BY function_id`,
      [id],
    ),
  );
  return new Map(rows.map((r) => [r.name, Number(r.completed)]));
}

async function activeJobs(h: CrashHarness, child: Child, slug: string): Promise<number> {
  const jobs = await h.call(child, 'GET', `/api/v1/jobs?company=${slug}&limit=50`);
  return (jobs.json.meta as { total: number }).total;
}

/** Acme with a Greenhouse and a Lever board; Lever's API goes through the harness's gate. */
const startAcmeHarness = (name: string, greenhouse: number, lever: number) =>
  startCrashHarness({
    name,
    fixture: {
      greenhouse: { acme: generatePostings(greenhouse, 'g') },
      lever: { acme: generatePostings(lever, 'l') },
      sites: {
        'acme.com': companySite('Acme', ['https://boards.greenhouse.io/acme', 'https://jobs.lever.co/acme']),
      },
    },
    gate: { upstream: 'ats', hosts: ['api.lever.co'] },
  });

/**
 * Discovery validates the Lever board through the open gate; once it has, Lever requests are held, so the worker
 * freezes inside scrape:lever/acme, after scrape:greenhouse/acme committed.
 */
async function freezeInLeverScrape(h: CrashHarness, child: Child, id: string): Promise<void> {
  await h.until(child, id, (v) =>
    v.steps.some((s) => s.name === 'discover-boards' && s.status === 'succeeded'),
  );
  h.gate.arm();
  await h.gate.waitHeld();
}

const greenhouseScrapes = (h: CrashHarness) =>
  h.fx.ats.requests.filter(
    (r) => r.host.startsWith('boards-api.greenhouse.io') && r.path.includes('/acme/jobs'),
  ).length;

describe('mid-request kill', () => {
  const GREENHOUSE = 500;
  const LEVER = 20;
  let h: CrashHarness;
  beforeAll(async () => {
    h = await startAcmeHarness('crash-mid-request', GREENHOUSE, LEVER);
  });
  afterAll(async () => h?.close());

  const homepageFetches = () =>
    h.fx.sites.requests.filter((r) => r.host.startsWith('acme.com') && r.path === '/').length;

  it('resumes a killed onboarding at the interrupted scrape step without duplicating anything', async () => {
    const first = await h.start();
    const id = await onboard(h, first, 'Acme', 'acme.com');

    await freezeInLeverScrape(h, first, id);
    const before = await h.view(first, id);
    expect(before.status).toBe('running');
    expect(before.steps.find((s) => s.name === 'scrape:greenhouse/acme')?.status).toBe('succeeded');
    const scrapesBefore = greenhouseScrapes(h);
    const homepageBefore = homepageFetches();

    await first.kill9();
    h.gate.release();

    const second = await h.start();
    // The restart resumes the run by itself: only catalog reads until the Lever jobs are in. A pipeline request
    // (a status read, say) would launch an idle engine on its own (src/pipeline/workflows/pipeline.ts, startOnDemand).
    // Bounded only by the test's timeout: a worker that does not resume on its own never gets there.
    while ((await activeJobs(h, second, 'acme')) < GREENHOUSE + LEVER) {
      await new Promise((ok) => setTimeout(ok, 250));
    }
    const after = await h.until(second, id, ended);
    expect(after.status, JSON.stringify(after)).toBe('succeeded');
    expect(after.steps.map((s) => s.name)).toEqual(plan('acme'));
    // Completed steps were not re-run after the restart.
    expect(greenhouseScrapes(h)).toBe(scrapesBefore);
    expect(homepageFetches()).toBe(homepageBefore);
    expect(await activeJobs(h, second, 'acme')).toBe(GREENHOUSE + LEVER);

    const rows = await h.withDb((db) =>
      db.query<{ n: number; distinct_ids: number; companies: number }>(
        `SELECT count(*)::int AS n, count(DISTINCT (source, external_id))::int AS distinct_ids,
                (SELECT count(*)::int FROM companies WHERE domain = 'acme.com') AS companies
         FROM jobs WHERE active`,
      ),
    );
    expect(rows[0]).toEqual({ n: GREENHOUSE + LEVER, distinct_ids: GREENHOUSE + LEVER, companies: 1 });
  }, 1_800_000);
});

describe('a kill in each step', () => {
  const GREENHOUSE = 6;
  const LEVER = 3;
  let h: CrashHarness;
  beforeAll(async () => {
    const greenhouse: Record<string, ReturnType<typeof generatePostings>> = {};
    const lever: Record<string, ReturnType<typeof generatePostings>> = {};
    const sites: Record<string, Record<string, string>> = {};
    for (const { token } of EACH_STEP) {
      greenhouse[token] = generatePostings(GREENHOUSE, `${token}-g`);
      lever[token] = generatePostings(LEVER, `${token}-l`);
      sites[`${token}.com`] = companySite(token, [
        `https://boards.greenhouse.io/${token}`,
        `https://jobs.lever.co/${token}`,
      ]);
    }
    h = await startCrashHarness({ name: 'crash-each-step', fixture: { greenhouse, lever, sites } });
  });
  afterAll(async () => h?.close());

  // One company per step. The child started after each crash recovers that company's run, and the next crash
  // is armed only once that run has finished, so each run dies exactly once, in its own step.
  it(`kills the worker in each of the ${EACH_STEP.length} onboarding steps; every run resumes there and completes once`, async () => {
    let child = await h.start();
    for (const { i, token } of EACH_STEP) {
      const name = plan(token)[i] as string;
      h.armCrash(name);
      const id = await onboard(h, child, token, `${token}.com`);
      expect(await child.exited, `${name}: the worker should have died\n${child.output().slice(-2000)}`).toBe(
        'SIGKILL',
      );
      expect(h.crashFired(), name).toBe(true);
      // The checkpoints the dead process left, read from the database before anything can recover the run.
      const atDeath = await checkpoints(h, id);
      // The new child recovers the run while it starts, before it answers /readyz.
      child = await h.start();
      const after = await h.until(child, id, ended);
      expect(after.status, `${name}: ${JSON.stringify(after)}`).toBe('succeeded');
      expect(after.steps.map((s) => s.name)).toEqual(plan(token));
      // The steps before the one that died kept the checkpoints of the first process (the same completion
      // stamps, so they did not run again); the interrupted step had none and was run again by the second one.
      // Stamps are compared with stamps from the same database, never with this process's clock.
      expect([...atDeath.keys()], name).toEqual(plan(token).slice(0, i));
      after.steps.forEach((s, at) => {
        if (at < i)
          expect(Date.parse(s.finishedAt ?? ''), `${name}: ${s.name} re-ran`).toBe(atDeath.get(s.name));
        else expect(s.finishedAt, `${name}: ${s.name}`).not.toBeNull();
      });
      expect(await activeJobs(h, child, token), name).toBe(GREENHOUSE + LEVER);
      const company = await h.call(child, 'GET', `/api/v1/companies/${token}`);
      expect(company.json.data, name).toMatchObject({
        domain: `${token}.com`,
        activeJobCount: GREENHOUSE + LEVER,
      });
    }

    const counts = await h.withDb((db) =>
      db.query<Record<string, number>>(
        `SELECT (SELECT count(*)::int FROM companies) AS companies,
                (SELECT count(DISTINCT domain)::int FROM companies) AS domains,
                (SELECT count(*)::int FROM boards) AS boards,
                (SELECT count(DISTINCT (company_id, provider, lower(token)))::int FROM boards) AS distinct_boards,
                (SELECT count(*)::int FROM jobs) AS jobs,
                (SELECT count(DISTINCT (source, external_id))::int FROM jobs) AS distinct_jobs,
                (SELECT count(*)::int FROM jobs WHERE NOT active) AS inactive_jobs,
                (SELECT count(*)::int FROM company_pipeline WHERE scraped_at IS NULL) AS unscraped`,
      ),
    );
    const n = EACH_STEP.length;
    expect(counts[0]).toEqual({
      companies: n,
      domains: n,
      boards: 2 * n,
      distinct_boards: 2 * n,
      jobs: n * (GREENHOUSE + LEVER),
      distinct_jobs: n * (GREENHOUSE + LEVER),
      inactive_jobs: 0,
      unscraped: 0,
    });
  }, 1_800_000);
});

/**
 * Graceful stop on a server (scale-down, rolling deploy): the stopping worker hands its unfinished run back to
 * the queue, and a worker with another DBOS__VMID finishes it from its last completed step. Without the hand-back
 * DBOS would leave the run to a process restarted with the stopped worker's own id. PostgreSQL only: the
 * embedded database belongs to one process.
 */
describe.skipIf(!serverUrl())('a worker stopped mid-run', () => {
  const GREENHOUSE = 30;
  const LEVER = 10;
  let h: CrashHarness;
  beforeAll(async () => {
    h = await startAcmeHarness('hand-back', GREENHOUSE, LEVER);
  });
  afterAll(async () => h?.close());

  it('hands its unfinished run back to the queue, and another worker completes it once', async () => {
    const first = await h.start({ DBOS__VMID: 'worker-a' });
    const id = await onboard(h, first, 'Acme', 'acme.com');
    // Frozen inside scrape:lever/acme, then stopped gracefully (SIGTERM), not killed.
    await freezeInLeverScrape(h, first, id);
    await first.stop();
    h.gate.release();

    const second = await h.start({ DBOS__VMID: 'worker-b' });
    const after = await h.until(second, id, ended);
    expect(after.status, JSON.stringify(after)).toBe('succeeded');
    expect(after.steps.map((s) => s.name)).toEqual(plan('acme'));
    expect(await activeJobs(h, second, 'acme')).toBe(GREENHOUSE + LEVER);
    const rows = await h.withDb((db) =>
      db.query<{ executor_id: string; n: number; distinct_ids: number }>(
        `SELECT (SELECT executor_id FROM dbos.workflow_status WHERE workflow_uuid = $1) AS executor_id,
                count(*)::int AS n, count(DISTINCT (source, external_id))::int AS distinct_ids
           FROM jobs WHERE active`,
        [id],
      ),
    );
    expect(rows[0]).toEqual({
      executor_id: 'worker-b',
      n: GREENHOUSE + LEVER,
      distinct_ids: GREENHOUSE + LEVER,
    });
  }, 1_800_000);
});

/**
 * A worker that dies and never comes back (a node lost for good, a scale-down by kill): its heartbeat goes stale,
 * and a worker with another DBOS__VMID hands the dead one's run back to the queue and finishes it from its last
 * completed step (src/pipeline/engine/takeover.ts). Heartbeats are fast here (200 ms, dead after 2 s).
 */
describe.skipIf(!serverUrl())('a worker killed for good', () => {
  const GREENHOUSE = 30;
  const LEVER = 10;
  const fast = { WORKER_HEARTBEAT_MS: '200', WORKER_DEAD_AFTER_MS: '2000' };
  let h: CrashHarness;
  beforeAll(async () => {
    h = await startAcmeHarness('takeover', GREENHOUSE, LEVER);
  });
  afterAll(async () => h?.close());

  it('has its run taken over by a live worker once its heartbeat is stale, joined by a new call, completed once', async () => {
    const first = await h.start({ ...fast, DBOS__VMID: 'worker-dead' });
    const id = await onboard(h, first, 'Acme', 'acme.com');
    await freezeInLeverScrape(h, first, id);
    const scrapesBefore = greenhouseScrapes(h);
    await first.kill9();
    const heldBefore = h.gate.held;

    const second = await h.start({ ...fast, DBOS__VMID: 'worker-live' });
    // Taken over, and frozen again at the gate in the same step: the run is under way in the live worker.
    while (h.gate.held === heldBefore) await new Promise((r) => setTimeout(r, 20));
    // The hand-back kept the run's deduplication id: a second onboarding of the domain joins it.
    expect(await onboard(h, second, 'Acme', 'acme.com')).toBe(id);
    h.gate.release();
    const after = await h.until(second, id, ended);
    expect(after.status, JSON.stringify(after)).toBe('succeeded');
    expect(after.steps.map((s) => s.name)).toEqual(plan('acme'));
    // The completed Greenhouse scrape kept its checkpoint: only the interrupted step and those after it ran again.
    expect(greenhouseScrapes(h)).toBe(scrapesBefore);
    expect(await activeJobs(h, second, 'acme')).toBe(GREENHOUSE + LEVER);
    const rows = await h.withDb((db) =>
      db.query<{ executor_id: string; beats: string[]; n: number; distinct_ids: number }>(
        `SELECT (SELECT executor_id FROM dbos.workflow_status WHERE workflow_uuid = $1) AS executor_id,
                (SELECT array_agg(executor_id ORDER BY executor_id) FROM worker_heartbeats) AS beats,
                count(*)::int AS n, count(DISTINCT (source, external_id))::int AS distinct_ids
           FROM jobs WHERE active`,
        [id],
      ),
    );
    expect(rows[0]).toEqual({
      executor_id: 'worker-live',
      beats: ['worker-live'],
      n: GREENHOUSE + LEVER,
      distinct_ids: GREENHOUSE + LEVER,
    });
  }, 1_800_000);
});
