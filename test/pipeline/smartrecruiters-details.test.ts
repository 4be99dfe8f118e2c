import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { companySite, type Fixture, generatePostings, hostMapEnv, startFixture } from './support.js';

/**
 * SmartRecruiters pays one detail request per posting. Re-scrapes read details only for new or changed postings,
 * plus a daily share of the rest so that every posting's description is re-read once a week (SmartRecruiters'
 * advice: "fetch details only for new or changed postings"). End to end: onboarding, then the freshness scheduler.
 */

const DAY = 86_400_000;
const postings = generatePostings(21);
let t: TestApp;
let fx: Fixture;

const detailIds = (from: number) =>
  fx.ats.requests
    .slice(from)
    .filter((r) => r.host.startsWith('api.smartrecruiters.com') && /\/postings\/\d+$/.test(r.path))
    .map((r) => r.path.split('/').pop() as string);

async function succeeded(workflowId: string) {
  const view = await t.deps.pipeline.engine.waitFor(workflowId);
  expect(view.status, JSON.stringify(view)).toBe('succeeded');
}

beforeAll(async () => {
  fx = await startFixture({
    greenhouse: {},
    sites: { 'nimbus.ai': companySite('Nimbus', ['https://careers.smartrecruiters.com/Nimbus']) },
  });
  fx.ats.setBoard('smartrecruiters', 'Nimbus', postings);
  t = await startTestApp({ env: { OUTBOUND_HOST_MAP: hostMapEnv(fx.hostMap) } });
  await t.deps.pipeline.start();
});
afterAll(async () => {
  await t?.close();
  await fx?.close();
});

describe('SmartRecruiters detail requests', () => {
  it('are made for every posting once at onboarding, then for each posting once over a week of re-scrapes', async () => {
    let from = fx.ats.requests.length;
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/onboard',
      payload: { name: 'Nimbus', domain: 'nimbus.ai' },
      token: t.token,
    });
    expect(res.statusCode).toBe(202);
    await succeeded(res.json().data.workflowId);
    expect(detailIds(from).sort()).toEqual(postings.map((p) => p.id).sort());

    const perDay: string[][] = [];
    for (let day = 0; day < 7; day++) {
      t.clock.advance(DAY);
      from = fx.ats.requests.length;
      const ids = await t.deps.pipeline.scheduler.tick();
      expect(ids).toHaveLength(1);
      await succeeded(ids[0] as string);
      perDay.push(detailIds(from));
    }
    // Each day re-reads a share, never the whole board; over seven days every posting exactly once.
    for (const ids of perDay) expect(ids.length).toBeLessThan(postings.length);
    expect(perDay.flat().sort()).toEqual(postings.map((p) => p.id).sort());
    const rows = await t.deps.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM jobs WHERE active AND description LIKE '%help customers adopt AI%'`,
    );
    expect(rows[0]?.n).toBe(postings.length);
  });

  it('are made at once for a posting whose title changed, and its stored description follows', async () => {
    const [first] = postings;
    fx.ats.setBoard('smartrecruiters', 'Nimbus', [
      { ...first!, title: 'Principal Solutions Architect', descriptionHtml: '<p>Rewritten role</p>' },
      ...postings.slice(1),
    ]);
    t.clock.advance(DAY);
    const from = fx.ats.requests.length;
    const [id] = await t.deps.pipeline.scheduler.tick();
    await succeeded(id as string);
    expect(detailIds(from)).toContain(first!.id);
    const rows = await t.deps.db.query<{ title: string; description: string }>(
      'SELECT title, description FROM jobs WHERE external_id = $1',
      [first!.id],
    );
    expect(rows[0]?.title).toBe('Principal Solutions Architect');
    expect(rows[0]?.description).toContain('Rewritten role');
  });
});
