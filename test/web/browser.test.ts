import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * The site in a real browser (the system's Chromium, driven by playwright-core; nothing downloads a browser): a
 * person's path through it, with and without the enhancement script, axe-core on every page, and no request
 * leaving our origin. SCREENSHOTS=1 writes desktop (1,400 px) and phone (390 px) screenshots to docs/screenshots/.
 * Skipped only when Chromium is absent outside CI; in CI its absence fails.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const runnable = existsSync(CHROMIUM) || process.env.CI === 'true';
const SHOTS =
  process.env.SCREENSHOTS === '1' ? new URL('../../docs/screenshots/', import.meta.url) : undefined;
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let t: TestApp;
let base: string;
let browser: Browser;
const foreign: string[] = [];

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: { target: unknown }[];
}

async function open(url: string, opts: { width?: number; javaScript?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: opts.width ?? 1400, height: 900 },
    javaScriptEnabled: opts.javaScript ?? true,
  });
  const page = await context.newPage();
  page.on('request', (r) => {
    if (!r.url().startsWith(base) && !r.url().startsWith('data:')) foreign.push(r.url());
  });
  await page.goto(`${base}${url}`);
  return page;
}

/** axe-core's serious and critical violations on the page as loaded. */
async function axeProblems(page: Page): Promise<string[]> {
  // Evaluated through the browser's debugging protocol: the pages' policy runs no injected <script>.
  await page.evaluate(AXE);
  const violations = (await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run()).violations;
  })) as AxeViolation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${JSON.stringify(v.nodes.map((n) => n.target))}`);
}

/** The layout shift the page accumulated while loading. */
const layoutShift = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let sum = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) sum += (e as unknown as { value: number }).value;
        }).observe({ type: 'layout-shift', buffered: true });
        requestAnimationFrame(() => resolve(sum));
      }),
  );

const ids = (page: Page) =>
  page.$$eval('ol.jobs a.title', (as) => as.map((a) => (a.getAttribute('href') ?? '').replace('/jobs/', '')));
const apiIds = async (query: string) =>
  ((await t.get(`/api/v1/jobs${query}`)).json().data as { id: string }[]).map((j) => j.id);

async function shoot(name: string, url: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  for (const [device, width] of [
    ['desktop', 1400],
    ['phone', 390],
  ] as const) {
    const page = await open(url, { width });
    await page.screenshot({ path: new URL(`${name}-${device}.png`, SHOTS).pathname, fullPage: true });
    await page.context().close();
  }
}

describe.skipIf(!runnable)('the site in Chromium', () => {
  beforeAll(async () => {
    t = await startTestApp({ env: { SAMPLE_DATA: '1' } });
    base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('has no serious or critical accessibility violations and no layout shift on any page, at either width', async () => {
    const job = (await t.get('/api/v1/jobs?limit=1')).json().data[0];
    const pages = [
      '/',
      '/jobs',
      '/jobs?search=engineer',
      `/jobs/${job.id}`,
      '/companies',
      `/companies/${job.company.slug}`,
      '/trends',
      '/trends?client_facing=true&role_category=fde',
      '/jobs/nope',
    ];
    for (const width of [1400, 390]) {
      for (const url of pages) {
        const page = await open(url, { width });
        expect(await axeProblems(page), `${url} at ${width}px`).toEqual([]);
        expect(await layoutShift(page), url).toBeLessThan(0.01);
        // Nothing wider than the screen: no sideways scrolling on a phone.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${url} at ${width}px`).toBeLessThanOrEqual(0);
        await page.context().close();
      }
    }
    expect(foreign).toEqual([]);
  });

  it('lets a person search from the home page, filter by category, go back, and follow links to a job and its company', async () => {
    const page = await open('/');
    // The first Tab reaches the skip link, which moves focus to the content.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');

    await page.getByLabel('Search jobs').fill('engineer');
    await Promise.all([
      page.waitForURL(/\/jobs\?search=engineer$/),
      page.getByRole('button', { name: 'Search' }).click(),
    ]);
    expect(await ids(page)).toEqual(await apiIds('?search=engineer'));

    // Choosing a category submits the form (the script), with the blank fields left out of the URL.
    await Promise.all([
      page.waitForURL(/role_category=csm/),
      page.getByLabel('Role category').selectOption('csm'),
    ]);
    expect(new URL(page.url()).search).toBe('?search=engineer&role_category=csm');
    expect(await ids(page)).toEqual(await apiIds('?role_category=csm&search=engineer'));

    await page.goBack();
    expect(new URL(page.url()).search).toBe('?search=engineer');
    expect(await page.getByLabel('Role category').inputValue()).toBe('');

    const first = page.locator('ol.jobs a.title').first();
    const id = (await first.getAttribute('href'))!.replace('/jobs/', '');
    await Promise.all([page.waitForURL(`**/jobs/${id}`), first.click()]);
    const api = (await t.get(`/api/v1/jobs/${id}`)).json().data;
    expect(await page.locator('h1').textContent()).toBe(api.title);
    const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}');
    expect(ld).toMatchObject({ '@type': 'JobPosting', title: api.title, datePosted: api.postedAt });
    expect(ld.identifier.value).toBe(api.id);
    expect(ld.hiringOrganization.name).toBe(api.company.name);
    expect(await page.locator('time').getAttribute('title')).toMatch(/UTC$/);
    // The server writes the date; the script shows it relative to the reader's clock.
    expect(await page.locator('time').textContent()).toMatch(/ ago$|^yesterday$|^last |^just now$/);

    await Promise.all([
      page.waitForURL(`**/companies/${api.company.slug}`),
      page.locator('dd a').first().click(),
    ]);
    expect(await page.locator('h1').textContent()).toBe(api.company.name);
    await page.context().close();
  });

  it('works without JavaScript: the filter form submits with its button', async () => {
    const page = await open('/jobs', { javaScript: false });
    await page.getByLabel('Remote only').check();
    await page.getByLabel('Role category').selectOption('fde');
    await Promise.all([
      page.waitForURL(/remote_only=true/),
      page.getByRole('button', { name: 'Apply filters' }).click(),
    ]);
    const query = new URL(page.url()).searchParams;
    expect(query.get('role_category')).toBe('fde');
    expect(await ids(page)).toEqual(await apiIds('?role_category=fde&remote_only=true'));
    await page.context().close();
  });

  it('loads the hiring charts as images and filters the trends chart from its form', async () => {
    const job = (await t.get('/api/v1/jobs?limit=1')).json().data[0];
    const loaded = (page: Page) =>
      page.$$eval('img.chart', (imgs) =>
        (imgs as HTMLImageElement[]).map((i) => ({ src: i.getAttribute('src'), width: i.naturalWidth })),
      );
    const { id } = (await t.get(`/api/v1/companies/${job.company.slug}`)).json().data;
    const company = await open(`/companies/${job.company.slug}`);
    const [chart] = await loaded(company);
    expect(chart?.src).toBe(`/api/v1/companies/${id}/hiring?format=svg&interval=week`);
    expect(chart?.width).toBeGreaterThan(0);
    await company.context().close();
    // Without the script, so both fields are set before the button submits them.
    const trends = await open('/trends', { javaScript: false });
    await trends.selectOption('#f-role_category', 'fde');
    await trends.check('#f-client_facing');
    await Promise.all([trends.waitForURL(/\/trends\?/), trends.click('form.filters button[type=submit]')]);
    expect(new URL(trends.url()).search).toBe('?role_category=fde&client_facing=true');
    const [filtered] = await loaded(trends);
    expect(filtered?.src).toBe(
      '/api/v1/trends?role_category=fde&client_facing=true&interval=month&format=svg',
    );
    expect(filtered?.width).toBeGreaterThan(0);
    expect(await trends.locator('table.data tbody tr').count()).toBeGreaterThan(0);
    await trends.context().close();
  });

  it('shows results first on a phone (390×844): filters behind a disclosure, chart labels at full size', async () => {
    for (const url of ['/jobs?search=engineer', '/companies']) {
      const page = await open(url, { width: 390 });
      await page.setViewportSize({ width: 390, height: 844 });
      const first = await page.locator('ol.jobs li, ul.companies li').first().boundingBox();
      // The whole first result is on the first screen.
      expect(first!.y + first!.height, url).toBeLessThan(844);
      expect(await page.locator('details.more').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
      await page.context().close();
    }
    // Opening the disclosure shows the filters (no script needed).
    const jobs = await open('/jobs', { width: 390, javaScript: false });
    expect(await jobs.getByLabel('Role category').isVisible()).toBe(false);
    await jobs.locator('details.more > summary').click();
    expect(await jobs.getByLabel('Role category').isVisible()).toBe(true);
    await jobs.context().close();
    // The chart keeps its size (its 11 px labels stay 11 px) and scrolls in its box, not the page.
    const slug = (await t.get('/api/v1/jobs?limit=1')).json().data[0].company.slug;
    const company = await open(`/companies/${slug}`, { width: 390 });
    await company.locator('img.chart').evaluate((i) => (i as HTMLImageElement).decode());
    expect(await company.locator('img.chart').evaluate((i) => i.getBoundingClientRect().width)).toBe(720);
    expect(await company.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await company.context().close();
  });

  it('filters companies by facets, a dimension’s choices OR together', async () => {
    const page = await open('/companies');
    const tags = (await t.get('/api/v1/tags')).json().data.industry as { slug: string; value: string }[];
    const industry = page.getByRole('group', { name: 'Industry' });
    await Promise.all([
      page.waitForURL(new RegExp(`industry=${tags[0]!.slug}`)),
      industry.getByLabel(tags[0]!.value, { exact: true }).check(),
    ]);
    await Promise.all([
      page.waitForURL(new RegExp(`industry=${tags[1]!.slug}`)),
      industry.getByLabel(tags[1]!.value, { exact: true }).check(),
    ]);
    const shown = await page.$$eval('ul.companies a.title', (as) => as.map((a) => a.textContent));
    const api = (await t.get(`/api/v1/companies?industry=${tags[0]!.slug},${tags[1]!.slug}`)).json().data;
    expect(shown).toEqual(api.map((c: { name: string }) => c.name));
    await page.context().close();
  });

  it('writes the screenshots when asked', async () => {
    const job = (await t.get('/api/v1/jobs?client_facing=true&limit=1')).json().data[0];
    await shoot('home', '/');
    await shoot('jobs', '/jobs?client_facing=true');
    await shoot('job', `/jobs/${job.id}`);
    await shoot('companies', '/companies');
    await shoot('company', `/companies/${job.company.slug}`);
    await shoot('trends', '/trends');
    expect(foreign).toEqual([]);
  });
});
