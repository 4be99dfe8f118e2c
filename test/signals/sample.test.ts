import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSampleCatalog } from '../../src/catalog/sample.js';
import { migrate } from '../../src/db/migrate.js';
import { loadSampleHistory } from '../../src/signals/sample-history.js';
import { startTestApp, type TestApp, TestClock } from '../support/app.js';
import { freshDatabase } from '../support/db.js';

/** The sample catalog's generated year of hiring history, as the signal endpoints show it on a fresh start. */

let t: TestApp;
const clock = new TestClock(Date.UTC(2026, 10, 22, 9, 30, 0));

beforeAll(async () => {
  t = await startTestApp({ env: { SAMPLE_DATA: '1' }, clock });
});
afterAll(async () => t?.close());

const json = async (url: string) => {
  const res = await t.get(url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};

describe('sample hiring history', () => {
  it('gives the catalog a year of monthly trends with a rising client-facing share', async () => {
    const data = await json('/api/v1/trends?interval=month&from=2025-11-22&share=client_facing');
    expect(data.trackedSince).toBe('2025-11-22');
    expect(data.series).toHaveLength(13);
    const opened = data.series.map((p: { opened: number }) => p.opened);
    expect(opened.every((n: number) => n > 0)).toBe(true);
    const share = (ps: { clientFacingOpened: number; opened: number }[]) =>
      ps.reduce((a, p) => a + p.clientFacingOpened, 0) / ps.reduce((a, p) => a + p.opened, 0);
    expect(share(data.series.slice(-4))).toBeGreaterThan(share(data.series.slice(0, 4)));
    // Active at the end equals the catalog's active jobs.
    const stats = (await t.get('/api/v1/stats')).json().data;
    expect(data.series.at(-1).active).toBe(stats.totalJobs);
  });

  it('marks every history job as a closed sample', async () => {
    const rows = await t.deps.db.query<{ n: number; bad: number }>(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE NOT is_sample OR source <> 'sample' OR active
         OR description NOT LIKE 'Sample posting (generated history)%')::int AS bad
       FROM jobs WHERE external_id LIKE 'sample-%-h%'`,
    );
    expect(rows[0]?.n).toBeGreaterThan(500);
    expect(rows[0]?.bad).toBe(0);
  });

  it('tracks some companies for less than a year: their earlier periods are absent', async () => {
    const companies = (await t.get('/api/v1/companies?limit=20')).json().data as { slug: string }[];
    const since = await Promise.all(
      companies.map(
        async (c) =>
          (await json(`/api/v1/companies/${c.slug}/hiring?interval=month&from=2025-11-22`)).trackedSince,
      ),
    );
    expect(since).toContain('2025-11-22');
    expect(since.some((d: string) => d > '2025-11-22')).toBe(true);
  });

  it('is the same history for the same day, whichever database loads it', async () => {
    const other = await freshDatabase();
    try {
      await migrate(other.db);
      await loadSampleCatalog(other.db, clock.now(), loadSampleHistory);
      const sql =
        'SELECT day::text, role_category, initial, opened, reopened, closed, net FROM hiring_daily_all ORDER BY 1, 2';
      expect(await other.db.query(sql)).toEqual(await t.deps.db.query(sql));
    } finally {
      await other.drop();
    }
  });
});
