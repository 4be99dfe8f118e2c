import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type CrashHarness,
  companySite,
  generatePostings,
  type RunView,
  startCrashHarness,
} from '../pipeline/support.js';

/**
 * kill -9 of the process running a promote run while one validation is in flight (its site's requests are held
 * at a gate), then a restart under the same worker id: the run resumes, finished validations are not repeated,
 * the interrupted one is, and the run completes with the right companies onboarded. On the embedded database
 * (a PGlite data directory) and, with TEST_DATABASE_URL, on PostgreSQL.
 */

let h: CrashHarness;

beforeAll(async () => {
  h = await startCrashHarness({
    name: 'discovery-crash',
    fixture: {
      greenhouse: { alpha: generatePostings(2, 'a'), beta: generatePostings(2, 'b') },
      sites: {
        'alpha.com': companySite('Alpha', ['https://boards.greenhouse.io/alpha']),
        'beta.com': companySite('Beta', ['https://boards.greenhouse.io/beta']),
        'gamma.com': { '/': '<html><head><title>Gamma</title></head><body>No jobs here.</body></html>' },
      },
    },
    // beta.com goes through the gate, so its validation can be frozen mid-request.
    gate: { upstream: 'sites', hosts: ['beta.com', 'www.beta.com'] },
  });
});

afterAll(async () => h?.close());

const hits = (host: string) => h.fx.sites.requests.filter((r) => r.host === host).length;
const succeeded = (v: RunView, name: string) =>
  v.steps.some((s) => s.name === name && s.status === 'succeeded');

// The timeout is generous: two child processes boot from TypeScript sources, slow on a loaded machine.
it('resumes a killed promote run in the middle of validation without repeating finished validations', async () => {
  const first = await h.start();
  const sent = await h.call(first, 'POST', '/api/v1/discover', {
    items: ['alpha.com', 'beta.com', 'gamma.com'].map((domain) => ({ source: 'crash', key: { domain } })),
  });
  expect(sent.status).toBe(200);
  h.gate.arm();
  const accepted = await h.call(first, 'POST', '/api/v1/promote_and_onboard', { maxValidations: 5 });
  expect(accepted.status).toBe(202);
  const id = (accepted.json.data as unknown as { workflowId: string }).workflowId;

  await h.gate.waitHeld();
  const before = await h.until(
    first,
    id,
    (v) => succeeded(v, 'validate:alpha.com') && succeeded(v, 'validate:gamma.com'),
  );
  expect(before.status).toBe('running');
  expect(succeeded(before, 'validate:beta.com')).toBe(false);
  const gammaBefore = hits('gamma.com');
  await first.kill9();
  h.gate.release();

  const second = await h.start();
  const after = await h.until(second, id, (v) => v.status !== 'running' && v.status !== 'enqueued');
  expect(after.status, JSON.stringify(after)).toBe('succeeded');
  expect(after.result).toMatchObject({
    validation: { selected: 3, qualified: 2, rejected: 1, reasons: { no_careers_page: 1 } },
    onboarding: { handedOff: 2, onboarded: 2, failed: 0 },
  });
  // gamma.com's finished validation was not run again after the restart.
  expect(hits('gamma.com')).toBe(gammaBefore);

  const list = await h.call(second, 'GET', '/api/v1/candidates');
  const byDomain = Object.fromEntries(
    (list.json.data as unknown as { domain: string; status: string; validationAttempts: number }[]).map(
      (c) => [c.domain, c],
    ),
  );
  expect(byDomain['alpha.com']).toMatchObject({ status: 'onboarded', validationAttempts: 1 });
  expect(byDomain['beta.com']).toMatchObject({ status: 'onboarded', validationAttempts: 1 });
  expect(byDomain['gamma.com']).toMatchObject({ status: 'rejected', validationAttempts: 1 });
  const jobs = await h.call(second, 'GET', '/api/v1/jobs?company=beta&limit=50');
  expect((jobs.json.meta as { total: number }).total).toBe(2);
  await second.stop();
}, 600_000);
