import { parseFeed } from '@rowanmanning/feed-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ env: { SAMPLE_DATA: '1' } });
});

afterAll(async () => {
  await t?.close();
});

const FEED = '/api/v1/jobs/feed.atom';

describe('GET /jobs/feed.atom', () => {
  it('is the listing of GET /jobs with the same filters, as Atom a feed parser reads, newest first', async () => {
    const query = 'client_facing=true&remote_only=true';
    const res = await t.get(`${FEED}?${query}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    const feed = parseFeed(res.body);
    const listing = (await t.get(`/api/v1/jobs?${query}`)).json() as {
      data: {
        id: string;
        title: string;
        url: string;
        postedAt: string;
        company: { name: string };
        roleCategory: string;
      }[];
    };
    expect(listing.data.length).toBeGreaterThan(1);
    expect(feed.items.map((i) => i.id).sort()).toEqual(listing.data.map((j) => `urn:uuid:${j.id}`).sort());
    const dates = feed.items.map((i) => i.updated?.getTime() ?? 0);
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    const first = listing.data.find((j) => `urn:uuid:${j.id}` === feed.items[0]?.id);
    if (!first) throw new Error('the first entry is a listed job');
    expect(feed.items[0]).toMatchObject({
      title: `${first.title} at ${first.company.name}`,
      url: first.url,
    });
    expect(feed.items[0]?.categories.map((c) => c.term)).toEqual([first.roleCategory]);
    expect(feed.items[0]?.authors.map((a) => a.name)).toEqual([first.company.name]);
    expect(feed.items[0]?.description).toContain('Remote');
    expect(feed.title).toBe('Client-facing remote jobs · Frontline');
    expect(feed.updated?.toISOString()).toBe(new Date(Math.max(...dates)).toISOString());
  });

  it('titles say what the feed follows in words, and entries name the role category as people do', async () => {
    const titles: Record<string, string> = {
      '': 'Jobs · Frontline',
      'role_category=fde&company=anthropic': 'Forward deployed engineer jobs at anthropic · Frontline',
      'role_category=hr&remote_only=true': 'Remote people / HR jobs · Frontline',
      'search=agents&location=london&page=2': 'Jobs matching "agents" in london · Frontline',
      'client_facing=false&salary_min=100000&salary_currency=USD':
        'Jobs paying at least 100000 a year paid in USD · Frontline',
      'region=europe': 'Jobs in Europe · Frontline',
      'region=uk_ireland&role_category=fde':
        'Forward deployed engineer jobs in the UK and Ireland · Frontline',
      'country=DE,france': 'Jobs in Germany or France · Frontline',
      'remote_scope=emea': 'Jobs remote within EMEA · Frontline',
      'remote_scope=Worldwide&region=north_america': 'Jobs remote from anywhere in North America · Frontline',
    };
    for (const [query, title] of Object.entries(titles)) {
      expect(parseFeed((await t.get(`${FEED}?${query}`)).body).title, query).toBe(title);
    }
    const fde = parseFeed((await t.get(`${FEED}?role_category=fde`)).body);
    expect(fde.items.length).toBeGreaterThan(0);
    for (const item of fde.items) {
      expect(item.description).toContain('Role: Forward deployed engineer');
      expect(item.description).not.toContain('Role: fde');
      expect(item.categories).toEqual([
        expect.objectContaining({ term: 'fde', label: 'Forward deployed engineer' }),
      ]);
    }
  });

  it('a search feed lists the shortlist newest first, with stable entry ids across polls', async () => {
    const a = parseFeed((await t.get(`${FEED}?search=solutions%20engineer`)).body);
    const b = parseFeed((await t.get(`${FEED}?search=solutions%20engineer`)).body);
    expect(a.items.length).toBeGreaterThan(0);
    expect(b.items.map((i) => i.id)).toEqual(a.items.map((i) => i.id));
  });

  it('answers If-None-Match with 304', async () => {
    const first = await t.get(`${FEED}?role_category=fde`);
    const etag = first.headers.etag;
    expect(etag).toBeTruthy();
    const again = await t.request({
      method: 'GET',
      url: `${FEED}?role_category=fde`,
      headers: { 'if-none-match': String(etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it("bad filters are the listing's 400s in the JSON envelope", async () => {
    const res = await t.get(`${FEED}?role_category=astronaut`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain("'role_category'");
    const unknown = await t.get(`${FEED}?remoteOnly=true`);
    expect(unknown.statusCode).toBe(400);
  });

  it('an empty feed is still valid Atom', async () => {
    const feed = parseFeed((await t.get(`${FEED}?location=nowhere-at-all`)).body);
    expect(feed.items).toEqual([]);
    expect(feed.updated).toBeInstanceOf(Date);
  });

  it('is declared in the OpenAPI document as Atom', async () => {
    const doc = (await t.get('/api/v1/openapi.json')).json();
    expect(Object.keys(doc.paths['/api/v1/jobs/feed.atom'].get.responses['200'].content)).toEqual([
      'application/atom+xml',
    ]);
  });
});
