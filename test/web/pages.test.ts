import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobNarrowingParams } from '../../src/catalog/filters.js';
import { ROLE_CATEGORIES } from '../../src/catalog/vocabulary.js';
import { startTestApp, type TestApp, TestClock } from '../support/app.js';

/** The web pages over plain HTTP: statuses, headers, caching, weights and what they say, against the API. */

const BROWSER = {
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'accept-encoding': 'gzip, deflate, br',
};
const ORIGIN = 'https://frontline.example';

let t: TestApp;
const page = (url: string, headers: Record<string, string> = {}) =>
  t.request({ method: 'GET', url, headers: { accept: BROWSER.accept, ...headers } });
const api = async (url: string) => (await t.get(`/api/v1${url}`)).json();
const jobIds = (html: string) => [...html.matchAll(/href="\/jobs\/([0-9a-f-]{36})"/g)].map((m) => m[1]);
const attr = (html: string, re: RegExp) => re.exec(html)?.[1]?.replaceAll('&amp;', '&');

beforeAll(async () => {
  t = await startTestApp({
    clock: new TestClock(),
    env: { SAMPLE_DATA: '1', PUBLIC_BASE_URL: `${ORIGIN}/` },
  });
});
afterAll(async () => t?.close());

describe('pages', () => {
  it('answer HTML with a canonical URL on the public origin, Open Graph tags, the Atom feed and the stylesheet', async () => {
    const { data } = await api('/jobs?limit=1');
    const job = data[0];
    for (const url of [
      '/',
      '/jobs?role_category=fde',
      `/jobs/${job.id}`,
      '/companies',
      `/companies/${job.company.slug}`,
    ]) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      const canonical = attr(res.body, /<link rel="canonical" href="([^"]+)"/);
      expect(canonical, url).toBe(`${ORIGIN}${url}`);
      expect(attr(res.body, /<meta property="og:url" content="([^"]+)"/)).toBe(canonical);
      for (const p of ['og:title', 'og:description', 'og:type'])
        expect(res.body).toContain(`property="${p}"`);
      const feed = attr(
        res.body,
        /<link rel="alternate" type="application\/atom\+xml" title="[^"]*" href="([^"]+)"/,
      );
      expect(feed, url).toMatch(new RegExp(`^${ORIGIN}/api/v1/jobs/feed\\.atom`));
      const feedRes = await t.get(feed!.slice(ORIGIN.length));
      expect(feedRes.statusCode).toBe(200);
      expect(res.body).toMatch(/<a class="skip" href="#main">/);
    }
    // The listing's feed follows the listing's filters.
    const fde = await page('/jobs?role_category=fde&remote_only=true');
    expect(fde.body).toContain(`${ORIGIN}/api/v1/jobs/feed.atom?role_category=fde&amp;remote_only=true`);
  });

  it('serve the stylesheet from a hashed path with a year-long cache, and pages with ETags and 304s', async () => {
    const home = await page('/');
    const css = attr(home.body, /<link rel="stylesheet" href="([^"]+)"/)!;
    expect(css).toMatch(/^\/assets\/site\.[0-9a-f]{12}\.css$/);
    const sheet = await t.get(css);
    expect(sheet.statusCode).toBe(200);
    expect(sheet.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(sheet.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const first = await page('/jobs');
    expect(first.headers.etag).toBeTruthy();
    const again = await page('/jobs');
    expect(again.headers['x-cache']).toBe('hit');
    expect(again.headers['content-type']).toBe('text/html; charset=utf-8');
    const revalidated = await page('/jobs', { 'if-none-match': String(first.headers.etag) });
    expect(revalidated.statusCode).toBe(304);
  });

  it('keep their ETag while the catalog stays the same, whatever the clock says', async () => {
    const { data } = await api('/jobs?limit=1');
    // Posted minutes ago: a page that said "5 minutes ago" would say "12 minutes ago" at the second fetch.
    await t.deps.db.query('UPDATE jobs SET posted_at = $1 WHERE id = $2', [
      new Date(t.clock.now() - 5 * 60_000),
      data[0].id,
    ]);
    for (const url of ['/', '/jobs', `/jobs/${data[0].id}`, `/companies/${data[0].company.slug}`]) {
      const first = await page(url);
      expect(first.statusCode, url).toBe(200);
      expect(first.body, url).toContain(
        `<time datetime="${new Date(t.clock.now() - 5 * 60_000).toISOString()}"`,
      );
      t.clock.advance(7 * 60_000);
      // A write that changes nothing still lets the cached page go, so the second fetch renders it again.
      await t.deps.db.query('UPDATE jobs SET title = title WHERE false');
      const later = await page(url);
      expect(later.headers['x-cache'], url).not.toBe('hit');
      expect(later.headers.etag, url).toBe(first.headers.etag);
      t.clock.advance(-7 * 60_000);
    }
  });

  it('weigh under 60 KB on the wire (gzip), the listings included', async () => {
    const { data } = await api('/jobs?limit=1');
    for (const url of [
      '/',
      '/jobs',
      '/jobs?client_facing=true',
      '/companies',
      `/jobs/${data[0].id}`,
      `/companies/${data[0].company.slug}`,
      '/trends',
    ]) {
      const res = await page(url, { 'accept-encoding': 'gzip' });
      expect(res.headers['content-encoding'], url).toBe('gzip');
      expect(res.rawPayload.byteLength, url).toBeLessThan(60 * 1024);
    }
  });

  it('derive a labelled control for every filter the API declares', async () => {
    const res = await page('/jobs');
    for (const name of [...Object.keys(jobNarrowingParams()), 'search']) {
      expect(res.body, name).toContain(`name="${name}"`);
      expect(res.body, name).toMatch(new RegExp(`<label[^>]*for="f-${name}"`));
    }
  });

  it('names the regions in their select as people do, the chosen one selected', async () => {
    const res = await page('/jobs?region=uk_ireland');
    expect(res.body).toMatch(/<option value="uk_ireland" selected[^>]*>UK and Ireland<\/option>/);
    expect(res.body).toMatch(/<option value="north_america"[^>]*>North America<\/option>/);
  });

  it('has no page among the API operations of the OpenAPI document', async () => {
    const doc = await t.get('/api/v1/openapi.json');
    const paths = Object.keys(doc.json().paths);
    for (const p of ['/jobs', '/jobs/{id}', '/companies', '/companies/{slug}', '/sitemap.xml', '/robots.txt'])
      expect(paths).not.toContain(p);
    expect(paths).toContain('/');
  });
});

describe('listings', () => {
  it('list the jobs GET /api/v1/jobs lists for the same filters, in the same order', async () => {
    for (const q of [
      '',
      'role_category=csm',
      'client_facing=true&remote_only=true',
      'location=london',
      'region=europe',
      'country=germany,FR',
      'remote_scope=emea',
    ]) {
      const res = await page(`/jobs?${q}`);
      expect(res.statusCode, q).toBe(200);
      const { data, meta } = await api(`/jobs?${q}`);
      expect(jobIds(res.body), q).toEqual(data.map((j: { id: string }) => j.id));
      expect(res.body).toContain(
        meta.total === 0 ? 'No jobs match' : `${meta.total.toLocaleString('en')} job`,
      );
    }
  });

  it('show next to each role category how many jobs it would list with the other filters kept', async () => {
    const res = await page('/jobs?role_category=csm&remote_only=true');
    const options = [...res.body.matchAll(/<option value="([a-z_]+)"[^>]*>[^<]*\((\d+)\)<\/option>/g)];
    expect(options.map((o) => o[1])).toEqual([...ROLE_CATEGORIES]);
    expect(options.some((o) => Number(o[2]) > 0)).toBe(true);
    for (const [, value, count] of options) {
      const { meta } = await api(`/jobs?role_category=${value}&remote_only=true`);
      expect(Number(count), value).toBe(meta.total);
    }
  });

  it('rank a search as the API does and say the count is of a shortlist', async () => {
    const res = await page('/jobs?search=engineer');
    const { data, meta } = await api('/jobs?search=engineer');
    expect(jobIds(res.body)).toEqual(data.map((j: { id: string }) => j.id));
    const said = meta.total >= 100 ? `Top ${meta.total} matches` : `${meta.total} match`;
    expect(res.body).toContain(said);
  });

  it('page within the anonymous result window, with the page in the URL', async () => {
    const { meta } = await api('/jobs');
    const second = await page('/jobs?page=2');
    expect(second.statusCode).toBe(200);
    const { data } = await api('/jobs?page=2');
    expect(jobIds(second.body)).toEqual(data.map((j: { id: string }) => j.id));
    expect(meta.total).toBeGreaterThan(20);
    expect(second.body).toContain('rel="prev" href="/jobs"');
    expect(second.body).toContain('rel="next" href="/jobs?page=3"');
    const past = await page('/jobs?page=6');
    expect(past.statusCode).toBe(400);
    expect(past.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(past.body).toContain('result window');
  });

  it('filter companies by tag facets (OR within a dimension, AND across) and category, as the API does', async () => {
    const tags = (await api('/tags')).data;
    const [a, b] = tags.industry;
    const res = await page(`/companies?industry=${a.slug}&industry=${b.slug}`);
    expect(res.statusCode).toBe(200);
    const { data } = await api(`/companies?industry=${a.slug},${b.slug}`);
    const slugs = [...res.body.matchAll(/<a class="title" href="\/companies\/([a-z0-9-]+)"/g)].map(
      (m) => m[1],
    );
    expect(slugs).toEqual(data.map((c: { slug: string }) => c.slug));
    expect(res.body).toMatch(new RegExp(`value="${a.slug}" checked`));
  });
});

describe('errors for people', () => {
  it('answer unknown ids, slugs and paths with a 404 page, and the API path with the envelope', async () => {
    for (const url of [
      '/jobs/00000000-0000-4000-8000-000000000000',
      '/jobs/nope',
      '/companies/no-such-co',
      '/nowhere',
    ]) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(res.body).toContain('Page not found');
      expect(res.body).toContain('name="robots" content="noindex"');
    }
    const apiMiss = await page('/api/v1/nowhere');
    expect(apiMiss.headers['content-type']).toMatch(/^application\/json/);
  });

  it('answer bad query values with a 400 page naming the parameter, never a 500', async () => {
    const cases: [string, string][] = [
      ['/jobs?role_category=wizard', 'role_category'],
      ['/jobs?posted_since=yesterday', 'posted_since'],
      ['/jobs?salary_min=lots', 'salary_min'],
      ['/jobs?page=0', 'page'],
      ['/jobs?colour=red', 'colour'],
      ['/companies?industry=Not%20A%20Slug', 'industry'],
      ['/companies?category=huge', 'category'],
    ];
    for (const [url, name] of cases) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(res.body, url).toContain(name);
    }
  });
});

describe('a job page', () => {
  type Ld = Record<string, unknown> & { hiringOrganization: Record<string, unknown> };
  const ldOf = (html: string): Ld => {
    const m = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html);
    expect(m).not.toBeNull();
    return JSON.parse(m![1]!) as Ld;
  };

  it('carries JobPosting structured data with what GET /api/v1/jobs/:id knows, and nothing it does not', async () => {
    const { data: list } = await api('/jobs?limit=20');
    for (const item of list) {
      const job = (await api(`/jobs/${item.id}`)).data;
      const company = (await api(`/companies/${job.company.slug}`)).data;
      const ld = ldOf((await page(`/jobs/${job.id}`)).body);
      expect(ld['@type']).toBe('JobPosting');
      expect(ld.title).toBe(job.title);
      expect(ld.datePosted).toBe(job.postedAt);
      expect(ld.directApply).toBe(false);
      expect(ld.identifier).toEqual({ '@type': 'PropertyValue', name: 'Frontline', value: job.id });
      expect(ld.hiringOrganization.name).toBe(job.company.name);
      expect(ld.hiringOrganization.sameAs).toBe(job.company.website ?? undefined);
      expect(ld.hiringOrganization.logo).toBe(company.logoUrl ?? undefined);
      expect(ld.jobLocationType).toBe(job.remote ? 'TELECOMMUTE' : undefined);
      if (job.salary) {
        expect(ld.baseSalary).toMatchObject({
          currency: job.salary.currency,
          value: { minValue: job.salary.min, maxValue: job.salary.max },
        });
      } else expect(ld.baseSalary).toBeUndefined();
      expect(ld.validThrough).toBeUndefined();
      expect(ld.employmentType).toBeUndefined();
    }
  });

  it('escapes markup in the description, in the page and inside the JSON-LD', async () => {
    const { data } = await api('/jobs?limit=1');
    const hostile =
      'Intro </script><script>alert(1)</script> <img src=x onerror=alert(2)> [x](javascript:alert(3))';
    await t.deps.db.query('UPDATE jobs SET description = $1 WHERE id = $2', [hostile, data[0].id]);
    const res = await page(`/jobs/${data[0].id}`);
    expect(res.body).not.toContain('<script>alert');
    expect(res.body).not.toContain('<img');
    expect(res.body).not.toContain('javascript:');
    expect(ldOf(res.body).description).toContain('&#60;/script&#62;');
  });

  it('says when the job is closed, and shows the posted date (made relative by the script) with the exact one on hover', async () => {
    const { data } = await api('/jobs?limit=1');
    const res = await page(`/jobs/${data[0].id}`);
    expect(res.body).toMatch(
      /<time datetime="[^"]+" title="[A-Z][a-z]+ \d+, \d{4} at [^"]+ UTC" data-relative>[A-Z][a-z]{2} \d+, \d{4}<\/time>/,
    );
    await t.deps.db.query('UPDATE jobs SET active = false WHERE id = $1', [data[0].id]);
    const closed = await page(`/jobs/${data[0].id}`);
    expect(closed.statusCode).toBe(200);
    expect(closed.body).toContain('This job is closed');
  });
});

describe('crawlers', () => {
  it('get a sitemap of the pages, companies and jobs on the public origin, and robots.txt pointing at it', async () => {
    const sitemap = await page('/sitemap.xml');
    expect(sitemap.headers['content-type']).toBe('application/xml; charset=utf-8');
    const { data } = await api('/jobs?limit=1');
    expect(sitemap.body).toContain(`<loc>${ORIGIN}/jobs/${data[0].id}</loc>`);
    expect(sitemap.body).toContain(`<loc>${ORIGIN}/companies/${data[0].company.slug}</loc>`);
    const robots = await page('/robots.txt');
    expect(robots.body).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
  });
});

describe('the page budget', () => {
  it('is its own, per IP: pages go on after the API budget is spent, and past it a 429 page names it', async () => {
    const limited = await startTestApp({
      defaultRateLimits: true,
      env: { RATE_LIMIT_ANONYMOUS: '2', RATE_LIMIT_PAGES: '5' },
    });
    try {
      for (let i = 0; i < 2; i++) expect((await limited.get('/api/v1/stats')).statusCode).toBe(200);
      expect((await limited.get('/api/v1/stats')).statusCode).toBe(429);
      for (let i = 0; i < 5; i++) {
        const res = await limited.request({
          method: 'GET',
          url: '/jobs',
          headers: { accept: BROWSER.accept },
        });
        expect(res.statusCode).toBe(200);
        expect(res.headers['ratelimit-policy']).toBe('"pages";q=5;w=60');
      }
      const over = await limited.request({
        method: 'GET',
        url: '/companies',
        headers: { accept: BROWSER.accept },
      });
      expect(over.statusCode).toBe(429);
      expect(over.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(over.body).toContain('page limit of 5 pages per minute per IP');
      expect(over.headers['retry-after']).toBeTruthy();
    } finally {
      await limited.close();
    }
  });
});
