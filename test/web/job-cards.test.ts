import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, rescrapeAcme, startAcmeApp, titled } from '../pipeline/support.js';
import { type TestApp, TestClock } from '../support/app.js';
import type { FakePosting } from '../support/fake-ats.js';

/**
 * A job's card on the listing pages is rendered once and remembered (src/web/components/job-list.tsx): a job the
 * pipeline changes must show as it is now on every page that lists it, never as it was.
 */

const BROWSER = {
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'accept-encoding': 'gzip, deflate, br',
};
const URLS = ['/jobs', '/jobs?company=acme', '/jobs?company=acme&remote_only=true', '/companies/acme'];

let app: TestApp;
let fx: Fixture;
const clock = new TestClock(Date.UTC(2026, 10, 20, 10));
const [posting] = titled(['Solutions Engineer'], 'c') as [FakePosting];
const remote = { ...posting, location: 'Remote, US', remote: true };

/** A page as a browser asks for it (compressed), and its markup. */
async function page(url: string): Promise<{ statusCode: number; body: string }> {
  const res = await app.request({ method: 'GET', url, headers: BROWSER });
  expect(res.headers['content-encoding'], url).toBe('gzip');
  return { statusCode: res.statusCode, body: gunzipSync(res.rawPayload).toString('utf8') };
}
const cardsOf = (html: string) =>
  [...html.matchAll(/<a class="title" href="\/jobs\/([0-9a-f-]{36})">([^<]*)<\/a>/g)].map((m) => ({
    id: m[1],
    title: m[2],
  }));

beforeAll(async () => {
  ({ app, fx } = await startAcmeApp(clock, [remote]));
  await rescrapeAcme(app, fx, [remote]);
}, 300_000);
afterAll(async () => {
  await app?.close();
  await fx?.close();
});

describe("a listed job's card", () => {
  it('shows the job as the pipeline last wrote it on every page, after those pages were rendered', async () => {
    const before = [];
    for (const url of URLS) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(200);
      before.push(...cardsOf(res.body).filter((c) => c.title === 'Solutions Engineer'));
    }
    expect(before).toHaveLength(URLS.length);
    const id = before[0]?.id;

    // The same posting, renamed and no longer remote: the same job, changed.
    clock.advance(86_400_000);
    await rescrapeAcme(app, fx, [
      { ...posting, title: 'Senior Solutions Engineer', location: 'New York, NY', remote: false },
    ]);

    for (const url of URLS) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(200);
      const cards = cardsOf(res.body);
      const found = cards.find((c) => c.id === id);
      if (url.includes('remote_only')) {
        expect(found, url).toBeUndefined();
        continue;
      }
      expect(found?.title, url).toBe('Senior Solutions Engineer');
      expect(res.body, url).not.toContain('>Solutions Engineer<');
    }
    // The card's place changed with it: the job no longer says it is remote.
    const listing = await page('/jobs?company=acme');
    const card =
      /<li><a class="title" href="\/jobs\/[^"]+">Senior Solutions Engineer<\/a>[\s\S]*?<\/li>/.exec(
        listing.body,
      )?.[0];
    expect(card).toContain('New York, NY');
    expect(card).not.toContain('<span>Remote</span>');
  });
});
