import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrations, splitStatements } from '../../src/db/migrate.js';
import { call, httpClient } from '../mcp/support.js';
import { companySite, type Fixture, hostMapEnv, startFixture } from '../pipeline/support.js';
import { startTestApp, type TestApp } from '../support/app.js';
import type { FakePosting } from '../support/fake-ats-render.js';

/**
 * A job board that attacks its readers: posting URLs in every spelling of a scheme that runs script or leaves the
 * web (`javascript:` in mixed case, with whitespace and control characters, as HTML entities, `data:`,
 * `vbscript:`, protocol-relative and relative references) and markup in every text field. Served by a fake
 * Greenhouse board and taken through the real onboarding and scrape; then the API, the MCP tools, the pages, the
 * Atom feed and the JSON-LD are read, and the pages are opened in Chromium with script on.
 */

const BOARD_PAGE = 'https://boards.greenhouse.io/evilcorp';
const GOOD_URL = 'https://job-boards.greenhouse.io/evilcorp/jobs/1';

/** Each hostile URL, by the id of the posting that carries it. */
const HOSTILE_URLS: Record<string, string> = {
  '2': 'javascript:alert(document.domain)',
  '3': 'JaVaScRiPt:alert(1)',
  '4': ' javascript:alert(1)',
  '5': '\tjava\nscript:alert(1)',
  '6': '\u0001javascript:alert(1)',
  '7': 'java\u0000script:alert(1)',
  '8': '&#106;avascript:alert(1)',
  '9': '&#x6A;avascript&colon;alert(1)',
  '10': 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  '11': 'vbscript:msgbox(1)',
  '12': '//evil.example/phish',
  '13': '/relative/apply',
  '14': 'https:evil.example',
  '15': 'http://',
  '16': 'javascript://https://ok.example/%0aalert(1)',
  '17': ' https://leading-space.example/x',
};

const MARKUP = '<script>alert(1)</script><img src=x onerror=alert(1)>';

const postings: FakePosting[] = [
  { id: '1', title: 'Solutions Engineer', url: GOOD_URL, location: 'New York, NY', department: 'Customer' },
  ...Object.entries(HOSTILE_URLS).map(([id, url]) => ({
    id,
    title: `Forward Deployed Engineer ${id} ${MARKUP}`,
    department: `Field "><svg onload=alert(1)>`,
    location: `Remote, US ${MARKUP}`,
    descriptionHtml:
      `<p>Apply <a href="${url.trim()}">here</a> or <a href="javascript:alert(2)">there</a>.</p>` +
      `<p>[click](javascript:alert(3)) ![x](javascript:alert(4)) ${MARKUP.replace(/</g, '&lt;')}</p>`,
    postedAt: `2026-11-${String(Number(id) + 1).padStart(2, '0')}T09:00:00Z`,
    url,
  })),
];
const HOSTILE_COUNT = Object.keys(HOSTILE_URLS).length;

let t: TestApp;
let fx: Fixture;
let base: string;
let jobs: { id: string; title: string; url: string }[];
let onboardRun: string;

const isWeb = (u: string) => /^https?:\/\/[^/\\?#\s]/.test(u);
/** Every href, src and action of a document, entities decoded as a browser would. */
const links = (html: string) =>
  [...html.matchAll(/\s(?:href|src|action|xlink:href)\s*=\s*"([^"]*)"/gi)].map((m) =>
    (m[1] ?? '')
      .replace(/&#(\d+);/g, (_, d: string) => String.fromCharCode(Number(d)))
      .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
      .replace(/&amp;/g, '&')
      .replace(/&colon;/g, ':'),
  );
/** A link a reader may follow: this site's own path, a fragment, or an absolute http(s) URL. */
const safeLink = (u: string) => u.startsWith('#') || /^\/(?!\/)/.test(u) || isWeb(u);

beforeAll(async () => {
  fx = await startFixture({
    greenhouse: { evilcorp: postings },
    sites: { 'evilcorp.com': companySite('EvilCorp', [BOARD_PAGE]) },
  });
  t = await startTestApp({ env: { OUTBOUND_HOST_MAP: hostMapEnv(fx.hostMap) } });
  await t.deps.pipeline.start();
  const run = await t.request({
    method: 'POST',
    url: '/api/v1/onboard',
    payload: { name: 'EvilCorp', domain: 'evilcorp.com' },
    token: t.token,
  });
  expect(run.statusCode).toBe(202);
  onboardRun = run.json().data.workflowId;
  const view = await t.deps.pipeline.engine.waitFor(onboardRun);
  expect(view.status).toBe('succeeded');
  const res = await t.get('/api/v1/jobs?company=evilcorp&limit=50');
  expect(res.statusCode).toBe(200);
  jobs = res.json().data;
  base = await (async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  })();
});
afterAll(async () => {
  await t?.close();
  await fx?.close();
});

describe('ingestion keeps absolute http(s) posting URLs only', () => {
  it('stores every posting, the hostile URLs replaced by the board page and counted', async () => {
    expect(jobs).toHaveLength(postings.length);
    const byTitle = new Map(jobs.map((j) => [j.title.split(' <')[0], j.url]));
    expect(byTitle.get('Solutions Engineer')).toBe(GOOD_URL);
    for (const id of Object.keys(HOSTILE_URLS))
      expect(byTitle.get(`Forward Deployed Engineer ${id}`)).toBe(BOARD_PAGE);
    const [row] = await t.deps.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM jobs WHERE url !~ '^https?://'",
    );
    expect(row?.n).toBe(0);
    const metrics = await t.get('/metrics');
    expect(metrics.body).toContain(
      `frontline_posting_urls_refused_total{vendor="greenhouse",action="replaced"} ${HOSTILE_COUNT}`,
    );
  });

  it('says so in the scrape result', async () => {
    const view = await t.get(`/api/v1/workflows/${onboardRun}`, t.token);
    expect(JSON.stringify(view.json().data.result)).toContain(
      `"refusedUrls":{"replaced":${HOSTILE_COUNT},"dropped":0}`,
    );
  });
});

describe('every reader sees http(s) URLs only', () => {
  it('the API list and detail', async () => {
    for (const j of jobs) {
      expect(isWeb(j.url)).toBe(true);
      const detail = (await t.get(`/api/v1/jobs/${j.id}`)).json().data;
      expect(isWeb(detail.url)).toBe(true);
      // Text stays text: the API returns it as sent, the pages escape it.
      if (detail.url === BOARD_PAGE) expect(detail.title).toContain(MARKUP);
    }
  });

  it('a URL stored around the ingestion check is refused again on the way out', async () => {
    const victim = jobs.find((j) => j.url === GOOD_URL)!;
    await t.deps.db.query('UPDATE jobs SET url = $2 WHERE id = $1', [victim.id, ' JaVaScRiPt:alert(1)']);
    const detail = (await t.get(`/api/v1/jobs/${victim.id}`)).json().data;
    expect(detail.url).toBe('https://evilcorp.com/');
    const list = (await t.get('/api/v1/jobs?company=evilcorp&limit=50')).json().data as typeof jobs;
    expect(list.find((j) => j.id === victim.id)?.url).toBe('https://evilcorp.com/');
    const page = (await t.get(`/jobs/${victim.id}`)).body;
    expect(page).not.toMatch(/javascript/i);
    expect(page).toContain('class="button" href="https://evilcorp.com/"');
    const feed = (await t.get('/api/v1/jobs/feed.atom?company=evilcorp')).body;
    expect(links(feed).every(isWeb)).toBe(true);
    await t.deps.db.query('UPDATE jobs SET url = $2 WHERE id = $1', [victim.id, GOOD_URL]);
  });

  it('migration 0160 rewrites values stored before the check as the readers refuse them', async () => {
    const victim = jobs.find((j) => j.url === GOOD_URL)!;
    await t.deps.db.query('UPDATE jobs SET url = $2 WHERE id = $1', [victim.id, 'vbscript:msgbox(1)']);
    await t.deps.db.query(
      `UPDATE companies SET website = 'javascript:alert(1)', logo_url = '//evil.example/logo.png',
         social_links = '{"linkedin": "https://www.linkedin.com/company/evilcorp", "x": "data:text/html,x"}'
       WHERE slug = 'evilcorp'`,
    );
    const company = (await t.get('/api/v1/companies/evilcorp')).json().data;
    expect(company.website).toBeNull();
    expect(company.logoUrl).toBeNull();
    expect(company.socialLinks).toEqual({ linkedin: 'https://www.linkedin.com/company/evilcorp' });
    const migration = loadMigrations().find((m) => m.name.startsWith('0160_'))!;
    await t.deps.db.transaction(async (tx) => {
      for (const statement of splitStatements(migration.sql)) await tx.query(statement);
    });
    const [row] = await t.deps.db.query<{
      url: string;
      website: string | null;
      logo: string | null;
      social: object;
    }>(
      `SELECT j.url, c.website, c.logo_url AS logo, c.social_links AS social
       FROM jobs j JOIN companies c ON c.id = j.company_id WHERE j.id = $1`,
      [victim.id],
    );
    expect(row).toEqual({
      url: BOARD_PAGE,
      website: null,
      logo: null,
      social: { linkedin: 'https://www.linkedin.com/company/evilcorp' },
    });
    await t.deps.db.query('UPDATE jobs SET url = $2 WHERE id = $1', [victim.id, GOOD_URL]);
    await t.deps.db.query("UPDATE companies SET website = 'https://evilcorp.com' WHERE slug = 'evilcorp'");
  });

  it('the MCP tools', async () => {
    const client: Client = await httpClient(base);
    try {
      const found = await call(client, 'search_jobs', { company: 'evilcorp', limit: 50 });
      const items = (found.structuredContent?.jobs ?? []) as { url: string }[];
      expect(items).toHaveLength(postings.length);
      expect(items.every((j) => isWeb(j.url))).toBe(true);
      const fetched = await call(client, 'fetch', { id: `job:${jobs[1]!.id}` });
      expect(isWeb(String(fetched.structuredContent?.url))).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('the job pages: apply links, JSON-LD and escaped text', async () => {
    for (const j of jobs) {
      const res = await t.get(`/jobs/${j.id}`);
      expect(res.statusCode).toBe(200);
      const html = res.body;
      expect(links(html).filter((u) => !safeLink(u))).toEqual([]);
      expect(html).toMatch(new RegExp(`class="button" href="${j.url.replace(/[.?]/g, '\\$&')}"`));
      expect(html).not.toMatch(/<script>alert|<img |<svg /i);
      expect(html.match(/<script/g)).toHaveLength(2);
      const ld = JSON.parse(
        /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)?.[1] ?? 'null',
      );
      expect(isWeb(ld.url)).toBe(true);
      expect(JSON.stringify(ld)).not.toMatch(/href=\\"(?!https?:)/);
    }
  });

  it('the listing, company page, sitemap and Atom feed', async () => {
    for (const path of ['/jobs?company=evilcorp', '/companies/evilcorp', '/sitemap.xml']) {
      const res = await t.get(path);
      expect(res.statusCode).toBe(200);
      expect(links(res.body).filter((u) => !safeLink(u))).toEqual([]);
      expect(res.body).not.toMatch(/<script>alert|<img src=x|<svg onload/i);
    }
    const feed = await t.get('/api/v1/jobs/feed.atom?company=evilcorp');
    expect(feed.statusCode).toBe(200);
    const hrefs = links(feed.body);
    expect(hrefs.length).toBeGreaterThan(postings.length);
    expect(hrefs.filter((u) => !isWeb(u))).toEqual([]);
    expect(hrefs.filter((u) => u === BOARD_PAGE)).toHaveLength(HOSTILE_COUNT);
  });

  it('pages carry a strict policy and the containment headers', async () => {
    for (const path of ['/', '/jobs', `/jobs/${jobs[0]!.id}`, '/api/v1/jobs', '/no-such-page']) {
      const res = await t.get(path);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    }
    const docs = await t.get('/docs/');
    expect(String(docs.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    // An answer from the response cache written before routing (src/http/caching/early-hits.ts) carries them too.
    await fetch(`${base}/api/v1/stats`);
    const hit = await fetch(`${base}/api/v1/stats`);
    expect(hit.headers.get('x-cache')).toBe('hit');
    expect(hit.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(hit.headers.get('x-frame-options')).toBe('DENY');
  });
});

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe.runIf(existsSync(CHROMIUM) || process.env.CI === 'true')('in Chromium, with script on', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('no hostile posting runs script, and the pages and /docs log no policy violation', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const dialogs: string[] = [];
    const problems: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`${page.url()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`${page.url()}: ${e.message}`));
    // Every request stays on this origin: a link to the board is not followed.
    await page.route(/.*/, (route) =>
      route.request().url().startsWith(base) ? route.continue() : route.abort(),
    );
    for (const j of jobs) {
      await page.goto(`${base}/jobs/${j.id}`);
      expect(await page.getAttribute('a.button', 'href')).toBe(j.url);
      await page.click('a.button', { modifiers: [], noWaitAfter: true, trial: true });
    }
    await page.goto(`${base}/jobs?company=evilcorp`);
    await page.goto(`${base}/docs/`);
    // No deadline of its own: the suite's timeout catches a page that never renders.
    await page.waitForSelector('.swagger-ui .information-container', { timeout: 0 });
    expect(dialogs).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
