import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import type { FakeAts, FakePosting } from '../support/fake-ats.js';
import { startVendorWorld, type VendorWorld } from '../support/vendor-world.js';

/**
 * A posting's lifecycle through the real onboarding and scrape workflows, on a fake Greenhouse board that closes
 * postings and posts them again under new ids: the board's own dates are kept, a repost is linked to its closed
 * earlier self (same requisition id; or same title and location within 30 days of its last sighting) and keeps
 * its first dates and counts in the hiring signals as the earlier opening back ('reopened'), not as a new one;
 * another location, another requisition or a longer gap is a new opening.
 */

const DAY = 86_400_000;
let world: VendorWorld;
let t: TestApp;
let ats: FakeAts;
let companyId: string;

const posting = (id: string, title: string, location: string, extra: Partial<FakePosting> = {}) => ({
  id,
  title,
  location,
  remote: false,
  department: 'Customer',
  descriptionHtml: `<p>${title} at Repco.</p>`,
  postedAt: '2026-10-01T09:00:00Z',
  ...extra,
});

const FDE = posting('101', 'Forward Deployed Engineer', 'New York, NY', { requisitionId: 'REQ-7' });
const SA = posting('102', 'Solutions Architect', 'London, UK', {
  requisitionId: null,
  postedAt: '2026-10-05T09:00:00Z',
  updatedAt: '2026-11-02T10:00:00Z',
});
const CSM = posting('103', 'Customer Success Manager', 'Berlin, Germany', { requisitionId: null });
const TAM = posting('104', 'Technical Account Manager', 'Paris, France', { requisitionId: null });
const AE = posting('105', 'Account Executive', 'Austin, TX', { requisitionId: 'REQ-9' });
/** SA posted again under a new id, with a later date of its own. */
const SA_AGAIN = posting('202', 'Solutions Architect', 'London, UK', {
  requisitionId: null,
  postedAt: '2026-11-20T09:00:00Z',
});

async function run(name: 'onboard' | 'scrape', payload: object, advanceMs = 60_000) {
  t.clock.advance(advanceMs);
  const { workflowId } = await t.deps.pipeline.engine.enqueue(name, payload);
  const view = await t.deps.pipeline.engine.waitFor(workflowId);
  expect(view.status, JSON.stringify(view)).toBe('succeeded');
}

const rescrape = (advanceMs?: number) => run('scrape', { companyId, domain: 'repco.com' }, advanceMs);

/** Job ids by external id (closed ones too). */
async function ids(): Promise<Record<string, string>> {
  const rows = await t.deps.db.query<{ id: string; external_id: string }>(
    'SELECT id, external_id FROM jobs WHERE company_id = $1',
    [companyId],
  );
  return Object.fromEntries(rows.map((r) => [r.external_id, r.id]));
}

async function detail(externalId: string) {
  const id = (await ids())[externalId];
  const res = await t.get(`/api/v1/jobs/${id}`, t.token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Record<string, unknown>;
}

beforeAll(async () => {
  world = await startVendorWorld(
    { greenhouse: { repco: [FDE, SA, CSM, TAM, AE] } },
    {
      'repco.com': ['Repco', ['https://boards.greenhouse.io/repco']],
    },
  );
  ({ t, ats } = world);
  await run('onboard', { domain: 'repco.com', name: 'Repco', force: false });
  const rows = await t.deps.db.query<{ id: string }>("SELECT id FROM companies WHERE domain = 'repco.com'");
  companyId = rows[0]?.id as string;
});
afterAll(async () => world?.close());

describe('posting lifecycle', () => {
  it("keeps the board's own posted and updated dates beside the catalog's sightings", async () => {
    const firstSeen = new Date(t.clock.now()).toISOString();
    const sa = await detail('102');
    expect(sa).toMatchObject({
      postedAt: '2026-10-05T09:00:00.000Z',
      boardPostedAt: '2026-10-05T09:00:00.000Z',
      // The fake writes updated_at with a -05:00 offset.
      boardUpdatedAt: '2026-11-02T15:00:00.000Z',
      firstSeenAt: firstSeen,
      lastSeenAt: firstSeen,
      // 2026-10-05T09:00 to 2026-11-22T12:01: 48 whole days.
      openDays: 48,
      reposts: 0,
      repostOf: null,
    });
  });

  it("keeps the board's posted date as first read and follows its updated date, without moving the feed", async () => {
    const seq = async () =>
      (
        await t.deps.db.query<{ search_seq: string }>(
          "SELECT search_seq::text FROM jobs WHERE external_id = '102' AND company_id = $1",
          [companyId],
        )
      )[0]?.search_seq;
    const before = await seq();
    const edited = { ...SA, postedAt: '2026-10-09T09:00:00Z', updatedAt: '2026-11-22T08:00:00Z' };
    ats.setBoard('greenhouse', 'repco', [FDE, edited, CSM, TAM, AE]);
    await rescrape();
    expect(await detail('102')).toMatchObject({
      postedAt: '2026-10-05T09:00:00.000Z',
      boardPostedAt: '2026-10-05T09:00:00.000Z',
      boardUpdatedAt: '2026-11-22T13:00:00.000Z',
    });
    // The replica holds neither date: an edit at the vendor alone does not make it re-read the job.
    expect(await seq()).toBe(before);
  });

  it('links a repost under a new id to its closed earlier self: same requisition, or same title and place', async () => {
    const before = await ids();
    const fde = await detail('101');
    // 201 repeats REQ-7 under another title; 202 repeats SA (no requisition) at the same place; 203 is a CSM
    // opening elsewhere; 205 names another requisition than AE with AE's title and place.
    ats.setBoard('greenhouse', 'repco', [
      posting('201', 'Forward Deployed Engineer II', 'Remote - US', {
        requisitionId: 'req-7',
        postedAt: '2026-11-20T09:00:00Z',
      }),
      SA_AGAIN,
      posting('203', 'Customer Success Manager', 'Munich, Germany', { requisitionId: null }),
      posting('205', 'Account Executive', 'Austin, TX', { requisitionId: 'REQ-10' }),
    ]);
    await rescrape(10 * DAY);

    const reposted = await detail('201');
    expect(reposted).toMatchObject({
      active: true,
      repostOf: before['101'],
      reposts: 1,
      // The first posting's dates; the board's own date of this one is kept apart.
      postedAt: fde.postedAt,
      firstSeenAt: fde.firstSeenAt,
      boardPostedAt: '2026-11-20T09:00:00.000Z',
      // 2026-10-01T09:00 to 2026-12-02T12:02.
      openDays: 62,
    });
    // The job page states the same facts.
    const html = await t.request({
      method: 'GET',
      url: `/jobs/${reposted.id}`,
      headers: { accept: 'text/html' },
    });
    expect(html.statusCode).toBe(200);
    expect(html.body).toContain('<dt>Listed for</dt><dd>62 days</dd>');
    expect(html.body).toContain('1 time under a new id');
    expect(await detail('202')).toMatchObject({
      repostOf: before['102'],
      reposts: 1,
      postedAt: '2026-10-05T09:00:00.000Z',
    });
    const elsewhere = await detail('203');
    expect(elsewhere).toMatchObject({ repostOf: null, reposts: 0, postedAt: '2026-10-01T09:00:00.000Z' });
    expect(elsewhere.firstSeenAt).toBe(new Date(t.clock.now()).toISOString());
    expect(await detail('205')).toMatchObject({ repostOf: null, reposts: 0 });
    expect(await detail('101')).toMatchObject({ active: false, repostOf: null });
  });

  it("counts a repost as the earlier opening back, not as a new opening in the company's hiring", async () => {
    const day = new Date(t.clock.now()).toISOString().slice(0, 10);
    const res = await t.get(`/api/v1/companies/repco/hiring?interval=day&from=${day}&to=${day}`);
    expect(res.statusCode, res.body).toBe(200);
    // That scrape closed 101 to 105 and listed 201 (repost of 101), 202 (of 102), 203 and 205 (new openings).
    expect(res.json().data.series).toEqual([
      expect.objectContaining({ period: day, opened: 2, reopened: 2, closed: 5, active: 4 }),
    ]);
  });

  it('counts a chain of reposts and keeps the first date through it', async () => {
    const first = await detail('101');
    const second = (await ids())['201'];
    ats.setBoard('greenhouse', 'repco', [
      posting('301', 'Forward Deployed Engineer', 'New York, NY', { requisitionId: 'REQ-7' }),
      SA_AGAIN,
    ]);
    await rescrape();
    expect(await detail('301')).toMatchObject({
      repostOf: second,
      reposts: 2,
      postedAt: first.postedAt,
      firstSeenAt: first.firstSeenAt,
    });
  });

  it('does not link a posting closed more than 30 days before, nor one closed at another place', async () => {
    // TAM (104) and CSM (103), last seen 2026-11-22, come back 41 days later at the same places; CSM's other
    // opening (203, Munich) was last seen 31 days ago.
    ats.setBoard('greenhouse', 'repco', [
      SA_AGAIN,
      posting('401', 'Technical Account Manager', 'Paris, France', { requisitionId: null }),
      posting('402', 'Customer Success Manager', 'Berlin, Germany', { requisitionId: null }),
      posting('403', 'Customer Success Manager', 'Munich, Germany', { requisitionId: null }),
    ]);
    await rescrape(31 * DAY);
    expect(await detail('401')).toMatchObject({ repostOf: null, reposts: 0 });
    expect((await detail('401')).firstSeenAt).toBe(new Date(t.clock.now()).toISOString());
    expect(await detail('402')).toMatchObject({ repostOf: null, reposts: 0 });
    expect(await detail('403')).toMatchObject({ repostOf: null, reposts: 0 });
  });

  it('lists by max_age_days from the first date, so a repost of an old opening is not recent', async () => {
    expect(new Date(t.clock.now()).toISOString().slice(0, 10)).toBe('2027-01-02');
    const list = async (q: string) => {
      const res = await t.get(`/api/v1/jobs?company=repco&${q}`, t.token);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { data: { url: string }[]; meta: { total: number } };
      return [body.data.map((j) => j.url.split('/').pop()).sort(), body.meta.total];
    };
    // Active: 202 (first date 2026-10-05, its own 2026-11-20), 401 to 403 (posted on the board 2026-10-01).
    expect(await list('max_age_days=0')).toEqual([[], 0]);
    expect(await list('max_age_days=36500')).toEqual([['202', '401', '402', '403'], 4]);
    // 2026-11-20 is 43 days before 2027-01-02, 2026-10-05 89 and 2026-10-01 93.
    expect(await list('max_age_days=43')).toEqual([[], 0]);
    expect(await list('max_age_days=89')).toEqual([['202'], 1]);
    expect(await list('max_age_days=88')).toEqual([[], 0]);
    expect(await list('max_age_days=93')).toEqual([['202', '401', '402', '403'], 4]);
  });
});
