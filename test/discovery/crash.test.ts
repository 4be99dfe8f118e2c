import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
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
} from '../pipeline/support.js';
import { freshDatabase, type TestDatabase } from '../support/db.js';

/**
 * kill -9 of the process running a promote run while one validation is in flight (its site's requests are held
 * at a gate), then a restart under the same worker id: the run resumes, finished validations are not repeated,
 * the interrupted one is, and the run completes with the right companies onboarded. On the embedded database
 * (a PGlite data directory) and, with TEST_DATABASE_URL, on PostgreSQL.
 */

const TOKEN = 'fl_discovery_crash_token_0123456789abcdef';

let fx: Fixture;
let gate: Gate;
let database: TestDatabase | undefined;
let dataDir: string | undefined;
const children: Child[] = [];

beforeAll(async () => {
  fx = await startFixture({
    greenhouse: { alpha: generatePostings(2, 'a'), beta: generatePostings(2, 'b') },
    sites: {
      'alpha.com': companySite('Alpha', ['https://boards.greenhouse.io/alpha']),
      'beta.com': companySite('Beta', ['https://boards.greenhouse.io/beta']),
      'gamma.com': { '/': '<html><head><title>Gamma</title></head><body>No jobs here.</body></html>' },
    },
  });
  gate = await startGate(fx.sites.origin);
  if (process.env.TEST_DATABASE_URL) database = await freshDatabase();
  else dataDir = mkdtempSync(join(tmpdir(), 'frontline-discovery-crash-'));
});

afterAll(async () => {
  for (const c of children) await c.kill9().catch(() => {});
  gate?.release();
  await gate?.close();
  await fx?.close();
  await database?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function env(): Record<string, string> {
  return {
    ...(database?.url ? { DATABASE_URL: database.url } : { DATA_DIR: dataDir as string }),
    API_TOKENS: TOKEN,
    DBOS__VMID: 'discovery-crash-worker',
    // beta.com goes through the gate, so its validation can be frozen mid-request.
    OUTBOUND_HOST_MAP: hostMapEnv(fx.hostMap, { 'beta.com': gate.origin, 'www.beta.com': gate.origin }),
  };
}

type View = { status: string; steps: { name: string; status: string }[]; result?: Record<string, unknown> };

async function until(child: Child, id: string, done: (v: View) => boolean, timeoutMs: number): Promise<View> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(child.url, 'GET', `/api/v1/workflows/${id}`, TOKEN);
    const v = res.json.data as unknown as View;
    if (res.status === 200 && done(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting; last view ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const hits = (host: string) => fx.sites.requests.filter((r) => r.host === host).length;
const succeeded = (v: View, name: string) => v.steps.some((s) => s.name === name && s.status === 'succeeded');

// The timeout is generous: two child processes boot from TypeScript sources, slow on a loaded machine.
it('resumes a killed promote run in the middle of validation without repeating finished validations', async () => {
  const first = await startChild(env());
  children.push(first);
  const sent = await call(first.url, 'POST', '/api/v1/discover', TOKEN, {
    items: ['alpha.com', 'beta.com', 'gamma.com'].map((domain) => ({ source: 'crash', key: { domain } })),
  });
  expect(sent.status).toBe(200);
  gate.arm();
  const accepted = await call(first.url, 'POST', '/api/v1/promote_and_onboard', TOKEN, { maxValidations: 5 });
  expect(accepted.status).toBe(202);
  const id = (accepted.json.data as unknown as { workflowId: string }).workflowId;

  await gate.waitHeld(120_000);
  const before = await until(
    first,
    id,
    (v) => succeeded(v, 'validate:alpha.com') && succeeded(v, 'validate:gamma.com'),
    120_000,
  );
  expect(before.status).toBe('running');
  expect(succeeded(before, 'validate:beta.com')).toBe(false);
  const gammaBefore = hits('gamma.com');
  await first.kill9();
  gate.release();

  const second = await startChild(env());
  children.push(second);
  const after = await until(second, id, (v) => v.status !== 'running' && v.status !== 'enqueued', 240_000);
  expect(after.status, JSON.stringify(after)).toBe('succeeded');
  expect(after.result).toMatchObject({
    validation: { selected: 3, qualified: 2, rejected: 1, reasons: { no_careers_page: 1 } },
    onboarding: { handedOff: 2, onboarded: 2, failed: 0 },
  });
  // gamma.com's finished validation was not run again after the restart.
  expect(hits('gamma.com')).toBe(gammaBefore);

  const list = await call(second.url, 'GET', '/api/v1/candidates', TOKEN);
  const byDomain = Object.fromEntries(
    (list.json.data as unknown as { domain: string; status: string; validationAttempts: number }[]).map(
      (c) => [c.domain, c],
    ),
  );
  expect(byDomain['alpha.com']).toMatchObject({ status: 'onboarded', validationAttempts: 1 });
  expect(byDomain['beta.com']).toMatchObject({ status: 'onboarded', validationAttempts: 1 });
  expect(byDomain['gamma.com']).toMatchObject({ status: 'rejected', validationAttempts: 1 });
  const jobs = await call(second.url, 'GET', '/api/v1/jobs?company=beta&limit=50', TOKEN);
  expect((jobs.json.meta as { total: number }).total).toBe(2);
  await second.stop();
}, 600_000);
