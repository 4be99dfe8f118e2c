import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, rescrapeAcme, startAcmeApp, titled } from '../pipeline/support.js';
import { type TestApp, TestClock } from '../support/app.js';
import type { FakePosting } from '../support/fake-ats.js';

/**
 * Hiring signals end to end: real onboardings scrape a fake Greenhouse board on successive days (the test clock
 * moves a day at a time), postings come, go and come back, and the series, newly-hiring and time-to-close
 * answers are read through the HTTP surface.
 *
 * Acme's history (UTC days): 11-02 first scrape finds FDE, Backend Engineer, Recruiter (coverage, not openings);
 * 11-03 Solutions Engineer and Data Analyst open, Recruiter closes; 11-06 Recruiter reopens, Backend Engineer is
 * retitled Forward Deployed Engineer (reclassified); 11-09 Data Analyst closes (open six days).
 */

const DAY = 86_400_000;
const START = Date.UTC(2026, 10, 2, 10, 0, 0);
const H = '/api/v1/companies/acme/hiring';

let t: TestApp;
let fx: Fixture;
const clock = new TestClock(START);
const base = titled(['Forward Deployed Engineer', 'Backend Engineer', 'Recruiter'], 'g');
const extra = titled(['Solutions Engineer', 'Data Analyst'], 'n');
const [fde, backend, recruiter] = base as [FakePosting, FakePosting, FakePosting];
const [se, analyst] = extra as [FakePosting, FakePosting];

async function scrapeOn(day: string, postings: FakePosting[]): Promise<void> {
  clock.ms = Date.parse(`${day}T10:00:00Z`);
  await rescrapeAcme(t, fx, postings);
}

async function json(url: string) {
  const res = await t.get(url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

beforeAll(async () => {
  ({ app: t, fx } = await startAcmeApp(clock, base));
  await scrapeOn('2026-11-02', base);
  await scrapeOn('2026-11-03', [fde, backend, se, analyst]);
  await scrapeOn('2026-11-06', [
    fde,
    { ...backend, title: 'Forward Deployed Engineer, Platform' },
    recruiter,
    se,
    analyst,
  ]);
  await scrapeOn('2026-11-09', [
    fde,
    { ...backend, title: 'Forward Deployed Engineer, Platform' },
    recruiter,
    se,
  ]);
  clock.ms = Date.UTC(2026, 10, 12, 12);
}, 300_000);

afterAll(async () => {
  await t?.close();
  await fx?.close();
});

describe('company hiring series', () => {
  it('starts when tracking starts: the first scrape is coverage, later arrivals are openings', async () => {
    const data = await json(`${H}?interval=day&from=2026-10-28&to=2026-11-10`);
    expect(data.company.slug).toBe('acme');
    expect(data.trackedSince).toBe('2026-11-02');
    const days = Object.fromEntries(data.series.map((p: { period: string }) => [p.period, p]));
    // Absent, not zero, before tracking.
    expect(data.series[0].period).toBe('2026-11-02');
    expect(days['2026-10-30']).toBeUndefined();
    expect(days['2026-11-02']).toMatchObject({ opened: 0, closed: 0, active: 3 });
    expect(days['2026-11-03']).toMatchObject({ opened: 2, closed: 1, reopened: 0, active: 4 });
    expect(days['2026-11-04']).toMatchObject({ opened: 0, closed: 0, active: 4 });
    expect(days['2026-11-06']).toMatchObject({ opened: 0, reopened: 1, active: 5 });
    expect(days['2026-11-09']).toMatchObject({ closed: 1, active: 4 });
    expect(data.series.at(-1).period).toBe('2026-11-10');
  });

  it('answers the total by default, and splits by role category only when asked', async () => {
    const total = await json(`${H}?interval=day&from=2026-11-02&to=2026-11-10`);
    expect(total.byRoleCategory).toBeUndefined();
    expect(total.series).toHaveLength(9);
    const split = await json(`${H}?interval=day&from=2026-11-02&to=2026-11-10&by=role_category`);
    expect(split.series).toEqual(total.series);
    // Each category's series sums to the total, period by period.
    for (const [k, p] of total.series.entries()) {
      const sum = (f: string) =>
        split.byRoleCategory.reduce(
          (n: number, c: { series: Record<string, number>[] }) => n + (c.series[k]?.[f] ?? 0),
          0,
        );
      expect([sum('opened'), sum('closed'), sum('active')]).toEqual([p.opened, p.closed, p.active]);
    }
    // One category asked for: the total is its series.
    const fde = await json(`${H}?interval=day&from=2026-11-02&to=2026-11-10&role_category=fde`);
    const fdeSplit = split.byRoleCategory.find((c: { roleCategory: string }) => c.roleCategory === 'fde');
    expect(fde.series).toEqual(fdeSplit.series);
    expect(fde.byRoleCategory).toBeUndefined();
  });

  it('splits by role category and follows a reclassified job to its new category', async () => {
    const data = await json(`${H}?interval=day&from=2026-11-02&to=2026-11-10&by=role_category`);
    const byCat = Object.fromEntries(
      data.byRoleCategory.map((c: { roleCategory: string; series: { active: number }[] }) => [
        c.roleCategory,
        c.series.map((p) => p.active),
      ]),
    );
    // Backend Engineer (engineering) became an FDE role on 11-06.
    expect(byCat.engineering.slice(0, 5)).toEqual([1, 1, 1, 1, 0]);
    expect(byCat.fde.slice(0, 5)).toEqual([1, 1, 1, 1, 2]);
    const cf = await json(`${H}?interval=day&from=2026-11-02&to=2026-11-10&client_facing=true`);
    expect(cf.roleCategories).toHaveLength(7);
    expect(cf.series.map((p: { active: number }) => p.active)).toEqual([1, 2, 2, 2, 3, 3, 3, 3, 3]);
    expect(cf.series.map((p: { opened: number }) => p.opened)).toEqual([0, 1, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('buckets by ISO week and by month, flagging partial periods', async () => {
    const weeks = await json(`${H}?interval=week&from=2026-10-01&to=2026-11-10`);
    // 2026-11-02 is a Monday: tracking began with a whole week; the last week runs past 'to'.
    expect(weeks.series.map((p: { period: string }) => p.period)).toEqual(['2026-11-02', '2026-11-09']);
    expect(weeks.series[0]).toMatchObject({ partial: false, opened: 2, closed: 1, reopened: 1, active: 5 });
    expect(weeks.series[1]).toMatchObject({ partial: true, closed: 1, active: 4 });
    const midWeek = await json(`${H}?interval=week&from=2026-11-04&to=2026-11-10`);
    expect(midWeek.series[0]).toMatchObject({ period: '2026-11-02', opened: 2 });
    const months = await json(`${H}?interval=month&from=2026-01-15`);
    expect(months.series).toHaveLength(1);
    expect(months.series[0]).toMatchObject({
      period: '2026-11-01',
      opened: 2,
      closed: 2,
      reopened: 1,
      active: 4,
    });
    expect(months.to).toBe('2026-11-12');
  });

  it('answers by UUID as by slug, and 404 for an unknown company', async () => {
    const bySlug = await json(`${H}?interval=week`);
    expect(await json(`/api/v1/companies/${bySlug.company.id}/hiring?interval=week`)).toEqual(bySlug);
    const missing = await t.get('/api/v1/companies/nobody/hiring');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('NOT_FOUND');
  });

  it('reports time to close of jobs whose opening was seen', async () => {
    const data = await json(`${H}?interval=month&from=2026-11-01`);
    // Recruiter was found on the first scrape (no known start); Data Analyst was open six days.
    expect(data.timeToClose).toEqual({ medianDays: 6, closedJobs: 1 });
    const report = await json('/api/v1/signals/time-to-close?from=2026-11-01&company=acme');
    expect(report.overall).toEqual({ medianDays: 6, closedJobs: 1 });
    expect(report.byRoleCategory).toEqual([{ roleCategory: 'data', medianDays: 6, closedJobs: 1 }]);
    const none = await json('/api/v1/signals/time-to-close?from=2026-11-01&client_facing=true');
    expect(none.overall).toEqual({ medianDays: null, closedJobs: 0 });
    const unknown = await json('/api/v1/signals/time-to-close?company=nobody');
    expect(unknown.overall.closedJobs).toBe(0);
  });
});

describe('trends and newly hiring', () => {
  it('sums the catalog and gives the client-facing share of openings', async () => {
    const week = '/api/v1/trends?interval=week&from=2026-11-02&to=2026-11-08';
    const total = await json(week);
    expect(total.trackedSince).toBe('2026-11-02');
    expect(total.byRoleCategory).toBeUndefined();
    expect(total.series).toEqual([
      { period: '2026-11-02', opened: 2, reopened: 1, closed: 1, active: 5, partial: false },
    ]);
    const data = await json(`${week}&share=client_facing`);
    expect(data.series).toEqual([{ ...total.series[0], clientFacingOpened: 1, clientFacingShare: 0.5 }]);
    const cf = await json(`${week}&client_facing=true&share=client_facing`);
    expect(cf.series[0]).toMatchObject({ opened: 1, active: 3, clientFacingShare: 0.5 });
    // Per category when asked: the categories with anything on record, whose series sum to the total.
    const split = await json(`${week}&by=role_category`);
    expect(split.series).toEqual(total.series);
    const cats = split.byRoleCategory.map((c: { roleCategory: string }) => c.roleCategory);
    expect(cats).toEqual(['data', 'engineering', 'fde', 'hr', 'solutions_engineer']);
    const opened = split.byRoleCategory.map((c: { series: { opened: number }[] }) => c.series[0]?.opened);
    expect(opened.reduce((a: number, b: number) => a + b, 0)).toBe(2);
    // Company filters narrow to matching listed companies; a tag nobody has matches nothing.
    const none = await json('/api/v1/trends?interval=week&industry=no-such-tag');
    expect(none).toMatchObject({ trackedSince: null, series: [] });
  });

  it('lists a company whose first opening in a category is in the window, not one found hiring at the start', async () => {
    const se = await json('/api/v1/signals/newly-hiring?role_category=solutions_engineer&days=30');
    expect(se.companies).toHaveLength(1);
    expect(se.companies[0]).toMatchObject({ company: { slug: 'acme' }, firstOpenedOn: '2026-11-03' });
    expect(se.companies[0].jobs).toEqual([
      expect.objectContaining({
        title: 'Solutions Engineer',
        roleCategory: 'solutions_engineer',
        active: true,
      }),
    ]);
    const fdes = await json('/api/v1/signals/newly-hiring?role_category=fde&days=30');
    expect(fdes.companies).toEqual([]);
    const narrow = await json('/api/v1/signals/newly-hiring?role_category=solutions_engineer&days=5');
    expect(narrow.since).toBe('2026-11-08');
    expect(narrow.companies).toEqual([]);
  });
});

describe('charts', () => {
  for (const url of [`${H}?interval=day&format=svg`, '/api/v1/trends?format=svg&client_facing=true']) {
    it(`renders ${url.split('?')[0]} as well-formed, accessible SVG`, async () => {
      const res = await t.get(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
      expect(XMLValidator.validate(res.body)).toBe(true);
      const doc = new XMLParser({ ignoreAttributes: false }).parse(res.body);
      expect(doc.svg['@_role']).toBe('img');
      expect(doc.svg.title['#text']).toMatch(/hiring/i);
      expect(doc.svg.desc['#text']).toMatch(/opened/);
      // The cached copy keeps its type.
      const again = await t.get(url);
      expect(again.headers['x-cache']).toBe('hit');
      expect(again.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    });
  }
});

describe('bad input', () => {
  const cases: [string, string][] = [
    [`${H}?from=2026-11-10&to=2026-11-01`, 'from'],
    [`${H}?interval=fortnight`, 'interval'],
    [`${H}?from=2026-02-30`, 'from'],
    [`${H}?to=yesterday`, 'to'],
    [`${H}?interval=day&from=2025-01-01&to=2026-11-01`, 'from'],
    [`${H}?role_category=wizard`, 'role_category'],
    [`${H}?format=png`, 'format'],
    ['/api/v1/trends?client_facing=maybe', 'client_facing'],
    ['/api/v1/trends?stage=Not%20A%20Slug', 'stage'],
    ['/api/v1/trends?bogus=1', 'bogus'],
    ['/api/v1/signals/newly-hiring', 'role_category'],
    ['/api/v1/signals/newly-hiring?client_facing=true&days=0', 'days'],
    ['/api/v1/signals/newly-hiring?client_facing=true&days=400', 'days'],
    ['/api/v1/signals/time-to-close?company=Not%20Slug', 'company'],
    ['/api/v1/signals/time-to-close?from=2020-01-01&to=2026-11-01', 'from'],
  ];
  for (const [url, field] of cases) {
    it(`400 naming '${field}': ${url}`, async () => {
      const res = await t.get(url);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('BAD_REQUEST');
      expect(res.json().error.message).toContain(`'${field}'`);
    });
  }
});

describe('defaults', () => {
  it('ends at today and spans 52 weeks by default', async () => {
    const data = await json(H);
    expect(data).toMatchObject({
      interval: 'week',
      to: '2026-11-12',
      from: new Date(Date.UTC(2026, 10, 12) - 364 * DAY).toISOString().slice(0, 10),
    });
    // Tracked from 11-02: two weeks, the first whole, the last up to today.
    expect(data.series.map((p: { period: string }) => p.period)).toEqual(['2026-11-02', '2026-11-09']);
  });
});
