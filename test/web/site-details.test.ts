import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIMENSION_LABELS } from '../../src/web/format.js';
import { startTestApp, type TestApp } from '../support/app.js';

/** Smaller parts of the site: tags named by dimension, the icon, and form URLs without blank fields. */

let t: TestApp;
const page = (url: string, headers: Record<string, string> = {}) =>
  t.request({ method: 'GET', url, headers: { accept: 'text/html', ...headers } });

beforeAll(async () => {
  t = await startTestApp({ env: { SAMPLE_DATA: '1' } });
});
afterAll(async () => t?.close());

describe('tags', () => {
  it('name their dimension, so a value in two dimensions reads as two different tags', async () => {
    // Databricks' industry and its role of AI are both "AI Infrastructure" in the sample catalog.
    const company = (await t.get('/api/v1/companies/databricks')).json().data as {
      tags: { dimension: keyof typeof DIMENSION_LABELS; value: string; slug: string }[];
    };
    const same = company.tags.filter((tag) => tag.value === 'AI Infrastructure');
    expect(same.map((tag) => tag.dimension).sort()).toEqual(['ai_role', 'industry']);
    const html = (await page('/companies/databricks')).body;
    for (const tag of company.tags) {
      expect(html).toContain(
        `<a class="tag" href="/companies?${tag.dimension}=${tag.slug}"><span class="dim">` +
          `${DIMENSION_LABELS[tag.dimension]}:</span> ${tag.value.replaceAll('&', '&amp;')}</a>`,
      );
    }
  });
});

describe('/favicon.ico', () => {
  it('is a 16×16 icon, cached for a week and revalidated by its ETag', async () => {
    const res = await page('/favicon.ico', { accept: 'image/avif,image/webp,image/*,*/*;q=0.8' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/x-icon');
    expect(res.headers['cache-control']).toBe('public, max-age=604800');
    const ico = res.rawPayload;
    // ICONDIR (reserved 0, type 1, one image), then the entry: 16×16, 32 bits, its bytes at offset 22.
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, 1]);
    expect([ico[6], ico[7], ico.readUInt16LE(12)]).toEqual([16, 16, 32]);
    expect(ico.readUInt32LE(18) + ico.readUInt32LE(14)).toBe(ico.length);
    const again = await page('/favicon.ico', { 'if-none-match': String(res.headers.etag) });
    expect(again.statusCode).toBe(304);
  });
});

describe('a form submitted without script', () => {
  it('is redirected to the same URL without its blank fields, parameters in their order', async () => {
    const cases: [string, string][] = [
      ['/jobs?search=&role_category=fde&company=&location=&department=', '/jobs?role_category=fde'],
      [
        '/jobs?search=solutions+engineer&remote_only=true&page=',
        '/jobs?search=solutions+engineer&remote_only=true',
      ],
      ['/jobs?search=&company=', '/jobs'],
      [
        '/companies?search=&industry=ai-infrastructure&industry=&category=',
        '/companies?industry=ai-infrastructure',
      ],
      ['/trends?role_category=&client_facing=true', '/trends?client_facing=true'],
    ];
    for (const [url, clean] of cases) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(301);
      expect(res.headers.location, url).toBe(clean);
      expect((await page(clean)).statusCode, clean).toBe(200);
    }
    // A URL with nothing blank is answered as it is.
    expect((await page('/jobs?role_category=fde')).statusCode).toBe(200);
  });
});
