import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePostings } from '../support/fake-ats.js';
import { startVendorWorld, type VendorWorld } from '../support/vendor-world.js';

/**
 * Onboarding time of a real-size board (800 postings) through the real onboarding workflow, against fake
 * vendors: Workday (40 listing pages and 800 detail requests, spaced by the client's per-host politeness) and
 * Greenhouse (one request). A measurement, printed and not asserted (docs/sources.md records it); only what was
 * stored is checked. Opt-in, because it runs for minutes: MEASURE_ONBOARDING=1 npx vitest run <this file>.
 */

const POSTINGS = 800;
let world: VendorWorld;

beforeAll(async () => {
  world = await startVendorWorld(
    {
      workday: { 'bigwd.wd5/External': generatePostings(POSTINGS) },
      greenhouse: { biggh: generatePostings(POSTINGS) },
    },
    {
      'bigwd.com': ['Bigwd', ['https://bigwd.wd5.myworkdayjobs.com/en-US/External']],
      'biggh.com': ['Biggh', ['https://boards.greenhouse.io/biggh']],
    },
  );
});
afterAll(async () => {
  await world?.close();
});

describe.skipIf(!process.env.MEASURE_ONBOARDING)(`onboarding a board of ${POSTINGS} postings`, () => {
  it.each([
    ['workday', 'bigwd.com', 'Bigwd'],
    ['greenhouse', 'biggh.com', 'Biggh'],
  ])(
    '%s',
    async (vendor, domain, name) => {
      const { t, ats } = world;
      const before = ats.requests.length;
      const started = performance.now();
      const { workflowId } = await t.deps.pipeline.engine.enqueue('onboard', { domain, name, force: false });
      const view = await t.deps.pipeline.engine.waitFor(workflowId);
      const seconds = (performance.now() - started) / 1000;
      expect(view.status, JSON.stringify(view)).toBe('succeeded');
      const rows = await t.deps.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM jobs j JOIN companies c ON c.id = j.company_id WHERE c.domain = $1 AND j.active',
        [domain],
      );
      expect(rows[0]?.n).toBe(POSTINGS);
      const requests = ats.requests.length - before;
      console.log(
        `onboarding ${vendor} ${POSTINGS} postings: ${seconds.toFixed(1)} s, ${requests} vendor requests`,
      );
    },
    900_000,
  );
});
