import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, rescrapeAcme, startAcmeApp, titled } from '../pipeline/support.js';
import { startTestApp, type TestApp, TestClock } from '../support/app.js';
import type { FakePosting } from '../support/fake-ats.js';

/**
 * The trends page and the company page's hiring chart over plain HTTP, against the API they draw on: the sample
 * catalog (a year of generated history, four companies newly hiring), and a company onboarded twice through the pipeline
 * (its first scrape finds an engineering role, coverage; the second a client-facing opening: newly hiring).
 */

const ORIGIN = 'https://frontline.example';
const HTML = 'text/html; charset=utf-8';

let t: TestApp;
const page = (url: string) => t.request({ method: 'GET', url, headers: { accept: 'text/html' } });
const api = async (url: string) => (await t.get(`/api/v1${url}`)).json();
const decodeHtml = (s: string) =>
  s.replaceAll('&amp;', '&').replaceAll('&quot;', '"').replaceAll('&#39;', "'");
const imgs = (html: string) =>
  [...html.matchAll(/<img class="chart" src="([^"]+)" alt="([^"]*)" width="(\d+)" height="(\d+)"/g)].map(
    (m) => ({
      src: decodeHtml(m[1] as string),
      alt: decodeHtml(m[2] as string),
      width: Number(m[3]),
      height: Number(m[4]),
    }),
  );
/** The body rows of the role-mix table, cell texts. */
const rows = (html: string) =>
  [
    ...(/<table class="data">[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(html)?.[1] ?? '').matchAll(
      /<tr>([\s\S]*?)<\/tr>/g,
    ),
  ].map((r) =>
    [...(r[1] as string).matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) =>
      (c[1] as string).replace(/<[^>]+>/g, ''),
    ),
  );

async function expectSvg(src: string) {
  const res = await t.get(src);
  expect(res.statusCode, src).toBe(200);
  expect(res.headers['content-type'], src).toBe('image/svg+xml; charset=utf-8');
  expect(res.body, src).toMatch(/^<svg /);
  return res.body;
}

beforeAll(async () => {
  t = await startTestApp({ env: { SAMPLE_DATA: '1', PUBLIC_BASE_URL: `${ORIGIN}/` } });
});
afterAll(async () => t?.close());

describe('the trends page', () => {
  it('shows the monthly chart as an image the API draws, with the figures as alt text and a fixed size', async () => {
    const res = await page('/trends');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(HTML);
    const [chart, ...more] = imgs(res.body);
    expect(more).toEqual([]);
    expect(chart?.src).toBe('/api/v1/trends?interval=month&format=svg');
    expect(chart?.width).toBeGreaterThan(0);
    expect(chart?.height).toBeGreaterThan(0);
    const svg = await expectSvg(chart!.src);
    expect(svg).toContain(`width="${chart!.width}" height="${chart!.height}"`);
    // The alt text states the figures the chart's own description states.
    const desc = /<desc id="d">([^<]*)<\/desc>/.exec(svg)?.[1] ?? '';
    const figures = /\d+ periods from [^:]+: [^;]+;/.exec(decodeHtml(desc))?.[0];
    expect(figures).toBeDefined();
    expect(chart!.alt).toContain(figures);
  });

  it('passes the role filters to the chart, and the form submits them as the URL', async () => {
    const res = await page('/trends?role_category=fde&client_facing=true');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(
      `<link rel="canonical" href="${ORIGIN}/trends?role_category=fde&amp;client_facing=true"`,
    );
    expect(res.body).toMatch(/<form class="filters" method="get" action="\/trends"/);
    expect(res.body).toMatch(/<option value="fde" selected/);
    expect(res.body).toMatch(/name="client_facing" value="true" checked/);
    const [chart] = imgs(res.body);
    expect(chart?.src).toBe('/api/v1/trends?role_category=fde&client_facing=true&interval=month&format=svg');
    expect(await expectSvg(chart!.src)).toContain('(fde, client-facing)');
    // A cleared select is no filter: its blank field is left out of the URL (test/web/site-details.test.ts).
    const blank = await page('/trends?role_category=&client_facing=true');
    expect(blank.headers.location).toBe('/trends?client_facing=true');
  });

  it('has the role mix per month as a table with the numbers the API answers', async () => {
    const { data } = await api('/trends?interval=month&client_facing=true&share=client_facing');
    const res = await page('/trends?client_facing=true');
    const table = rows(res.body);
    expect(table.length).toBeGreaterThan(0);
    expect(table.length).toBe(data.series.length);
    expect(res.body).toMatch(/<th scope="col">Client-facing share<\/th>/);
    expect(res.body).toContain('<caption>');
    for (const [i, p] of data.series.entries()) {
      const [, opened, cfOpened, share] = table[i] as string[];
      expect(opened).toBe(p.opened.toLocaleString('en'));
      expect(cfOpened).toBe(p.clientFacingOpened.toLocaleString('en'));
      expect(share).toBe(p.clientFacingShare === null ? '—' : `${Math.round(p.clientFacingShare * 100)}%`);
    }
    expect(data.series.some((p: { opened: number }) => p.opened > 0)).toBe(true);
  });

  it('lists the companies newly hiring for client-facing roles, as the API answers', async () => {
    const { data } = await api('/signals/newly-hiring?client_facing=true&days=30');
    expect(data.companies.length).toBeGreaterThan(0);
    const body = (await page('/trends')).body;
    expect(body).not.toContain('No company started hiring');
    for (const c of data.companies as { company: { name: string } }[]) {
      expect(decodeHtml(body)).toContain(c.company.name);
    }
  });

  it('is in the navigation and the sitemap', async () => {
    expect((await page('/')).body).toContain('<a href="/trends">Trends</a>');
    expect((await page('/sitemap.xml')).body).toContain(`<loc>${ORIGIN}/trends</loc>`);
  });

  it('answers bad parameters with a 400 page naming them', async () => {
    for (const [url, name] of [
      ['/trends?role_category=wizard', 'role_category'],
      ['/trends?client_facing=perhaps', 'client_facing'],
      ['/trends?interval=year', 'interval'],
    ]) {
      const res = await page(url as string);
      expect(res.statusCode, url).toBe(400);
      expect(res.headers['content-type'], url).toBe(HTML);
      expect(res.body, url).toContain(name);
    }
  });
});

describe('the company page', () => {
  it("shows the company's weekly hiring chart and its time to close, as the API answers them", async () => {
    const { data: closed } = await api('/signals/time-to-close');
    expect(closed.overall.closedJobs).toBeGreaterThan(0);
    const { data: companies } = await api('/companies?limit=100');
    const pages = await Promise.all(
      companies.map(async (c: { id: string; slug: string }) => ({
        c,
        hiring: (await api(`/companies/${c.id}/hiring`)).data,
      })),
    );
    const withClose = pages.find((p) => p.hiring.timeToClose.medianDays !== null);
    expect(withClose).toBeDefined();
    const { c, hiring } = withClose!;
    const res = await page(`/companies/${c.slug}`);
    expect(res.statusCode).toBe(200);
    const [chart] = imgs(res.body);
    expect(chart?.src).toBe(`/api/v1/companies/${c.id}/hiring?format=svg&interval=week`);
    const svg = await expectSvg(chart!.src);
    expect(svg).toContain(`width="${chart!.width}" height="${chart!.height}"`);
    const opened = hiring.series.reduce((a: number, p: { opened: number }) => a + p.opened, 0);
    expect(chart!.alt).toContain(`${opened} opened`);
    const days = hiring.timeToClose.medianDays.toLocaleString('en');
    expect(res.body.replace(/<!-- -->/g, '')).toContain(`median of ${days} day`);
  });
});

describe('newly hiring on the trends page', () => {
  let app: TestApp;
  let fx: Fixture;
  const clock = new TestClock(Date.UTC(2026, 10, 2, 10));
  const [backend, se] = titled(['Backend Engineer', 'Solutions Engineer'], 'w') as [FakePosting, FakePosting];

  async function scrapeOn(day: string, postings: FakePosting[]): Promise<void> {
    clock.ms = Date.parse(`${day}T10:00:00Z`);
    await rescrapeAcme(app, fx, postings);
  }

  beforeAll(async () => {
    ({ app, fx } = await startAcmeApp(clock, [backend]));
    await scrapeOn('2026-11-02', [backend]);
    await scrapeOn('2026-11-05', [backend, se]);
  }, 300_000);
  afterAll(async () => {
    await app?.close();
    await fx?.close();
  });

  it('lists the company with its opening, linked, as the API does', async () => {
    const api = (await app.get('/api/v1/signals/newly-hiring?client_facing=true&days=30')).json().data;
    expect(api.companies.map((c: { company: { slug: string } }) => c.company.slug)).toEqual(['acme']);
    const [opening] = api.companies[0].jobs;
    expect(opening.title).toBe('Solutions Engineer');
    const res = await app.request({ method: 'GET', url: '/trends', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    const section = res.body.slice(res.body.indexOf('id="newly"'));
    expect(section).toContain('<a class="title" href="/companies/acme">Acme</a>');
    expect(section).toContain(`<a href="/jobs/${opening.id}">Solutions Engineer</a>`);
    expect(section).toContain('2026-11-05');
    for (const url of ['/companies/acme', `/jobs/${opening.id}`]) {
      const linked = await app.request({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(linked.statusCode, url).toBe(200);
    }
  });
});
