import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboundClient } from '../../src/net/client.js';
import { ADAPTERS } from '../../src/sources/index.js';
import {
  type BoardRef,
  type KnownPostings,
  type NormalizedPosting,
  PROVIDERS,
  type Provider,
  SourceError,
} from '../../src/sources/types.js';
import { type FakeAts, generatePostings, startFakeAts } from '../support/fake-ats.js';
import { offlineClient, REDIRECTS_UNKNOWN, tokenFor } from '../support/fake-vendors.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/sources/${name}`, import.meta.url), 'utf8');

let ats: FakeAts;
let client: OutboundClient;
const sleeps: number[] = [];

beforeAll(async () => {
  ats = await startFakeAts();
  ats.setRaw('greenhouse', 'vaulttec', fixture('greenhouse-jobs.json'));
  ats.setRaw('lever', 'palantir', fixture('lever-postings.json'));
  ats.setRaw('ashby', 'Hippocratic AI', fixture('ashby-board.json'));
  ats.setRaw('workable', 'acme', fixture('workable-widget.json'));
  ats.setRaw('recruitee', 'acme', fixture('recruitee-offers.json'));
  for (const p of PROVIDERS) ats.setBoard(p, tokenFor(p, 'big'), generatePostings(250));
  ats.setBoard('recruitee', 'bigco', generatePostings(250));
  ats.setBoard('smartrecruiters', 'Acme1', generatePostings(3));
  // Nothing in these tests may reach real DNS: every vendor host is host-mapped.
  client = offlineClient(ats.hostMap, sleeps);
});

afterAll(async () => {
  await client.close();
  await ats.close();
});

const board = (provider: Provider, token: string): BoardRef => ({
  provider,
  token,
  url: ADAPTERS[provider].boardUrl(token),
});
const fetchAll = (provider: Provider, token: string) =>
  ADAPTERS[provider].fetchPostings(board(provider, token), client);

async function sourceError(p: Promise<unknown>): Promise<SourceError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SourceError);
  return err as SourceError;
}

describe('recorded fixtures normalise to the posting shape', () => {
  it('greenhouse: entity-escaped content becomes clean text, first_published is the posted date', async () => {
    const [fde, sa, general] = await fetchAll('greenhouse', 'vaulttec');
    expect(fde).toEqual({
      externalId: '4012345007',
      title: 'Forward Deployed Engineer (Remote, US)',
      location: 'Remote - United States',
      remote: true,
      workplace: null,
      department: 'Deployment',
      postedAt: new Date('2026-09-02T19:01:11Z'),
      updatedAt: new Date('2026-10-14T14:55:28Z'),
      url: 'https://job-boards.greenhouse.io/vaulttec/jobs/4012345007',
      descriptionText:
        "Vault-Tec builds AI for critical infrastructure.\n\n### What you'll do\n\n- Deploy models in customer environments\n- Write production code & own outcomes\n\nSalary: $180,000 – $220,000",
      requisitionId: 'ENG-112',
    });
    expect(general?.requisitionId).toBeNull();
    expect(sa?.department).toBe('Sales; Solutions');
    expect(sa?.remote).toBeNull();
    // No first_published: the board gives no posted date (updated_at moves on every edit).
    expect(sa?.postedAt).toBeNull();
    expect(sa?.updatedAt).toEqual(new Date('2026-11-01T08:00:00Z'));
    expect(sa?.url).toBe('https://vault-tec.com/careers?gh_jid=4012345008');
    expect(general?.location).toBe('New York, NY, United States');
    expect(general?.descriptionText).toBe('');
  });

  it('lever: description, lists and additional joined; epoch-ms createdAt; salary range', async () => {
    const [ds, csm] = await fetchAll('lever', 'palantir');
    expect(ds?.title).toBe('Deployment Strategist');
    expect(ds?.location).toBe('New York, NY; Washington, DC');
    expect(ds?.remote).toBe(false);
    expect(ds?.department).toBe('Business');
    expect(ds?.postedAt).toEqual(new Date(1761926400000));
    expect(ds?.descriptionText).toContain(
      '## Core Responsibilities\n- Scope problems with customers\n- Own delivery',
    );
    expect(ds?.descriptionText).toContain('Salary range: $110k - $200k');
    expect(ds?.salary).toEqual({
      currency: 'USD',
      min: 110000,
      max: 200000,
      interval: 'year',
      text: 'Base salary',
    });
    expect(csm?.remote).toBe(true);
    expect(csm?.descriptionText).toBe('Own adoption & renewals.');
    expect(csm?.salary).toBeUndefined();
  });

  it('ashby: unlisted postings dropped, hidden pay not republished, board names with spaces work', async () => {
    const jobs = await fetchAll('ashby', 'Hippocratic AI');
    expect(jobs.map((j) => j.externalId)).toEqual([
      '3f2e8d6c-1a2b-4c5d-9e8f-7a6b5c4d3e2f',
      'aa11bb22-cc33-dd44-ee55-ff6677889900',
    ]);
    expect(jobs[0]).toMatchObject({
      location: 'San Francisco; New York',
      remote: false,
      department: 'Engineering',
      descriptionText: 'Work with health systems to deploy safe AI.\n\n- Prototype\n- Deploy',
      salary: { currency: 'USD', min: 181000, max: 287000, interval: 'year', text: '$181K - $287K' },
    });
    expect(jobs[1]?.remote).toBe(true);
    expect(jobs[1]?.salary).toBeUndefined();
    expect(ats.requests.some((r) => r.path.startsWith('/posting-api/job-board/Hippocratic%20AI?'))).toBe(
      true,
    );
  });

  it('workable: widget feed with details, date-only published_on, telecommuting flag', async () => {
    const [impl, eng] = await fetchAll('workable', 'acme');
    expect(impl).toMatchObject({
      externalId: '5EA5DDE797',
      location: 'São Paulo, SP, Brazil; Lisbon, Portugal',
      remote: false,
      department: 'Professional Services',
      postedAt: new Date('2026-03-27T00:00:00Z'),
      url: 'https://apply.workable.com/j/5EA5DDE797',
      descriptionText: 'Onboard customers onto our platform.\n\nRequirements\n\n- SQL',
    });
    expect(eng?.remote).toBe(true);
    expect(eng?.location).toBeNull();
  });

  it('recruitee: "YYYY-MM-DD HH:MM:SS UTC" dates, drafts dropped, string salary numbers', async () => {
    const offers = await fetchAll('recruitee', 'acme');
    expect(offers).toHaveLength(1);
    expect(offers[0]).toEqual({
      externalId: '2736919',
      title: 'Technical Account Manager',
      location: 'Amsterdam, Netherlands',
      remote: false,
      workplace: 'hybrid',
      department: 'Customer Success',
      postedAt: new Date('2026-08-10T10:00:00Z'),
      updatedAt: new Date('2026-08-11T09:00:00Z'),
      url: 'https://acme.recruitee.com/o/technical-account-manager',
      descriptionText: 'Be the trusted technical advisor.\n\n- 5 years in SaaS',
      salary: { currency: 'EUR', min: 60000, max: 80000, interval: 'year', text: null },
    });
  });

  it('smartrecruiters: list + detail calls give the human URL and description sections', async () => {
    const [first] = await fetchAll('smartrecruiters', 'Acme1');
    expect(first).toMatchObject({
      externalId: '100000',
      title: 'Forward Deployed Engineer',
      location: 'San Francisco, CA, United States',
      remote: true,
      department: 'Engineering',
      postedAt: new Date('2026-10-01T00:00:00Z'),
      url: 'https://jobs.smartrecruiters.com/Acme1/100000-forward-deployed-engineer',
    });
    expect(first?.descriptionText).toContain('Join us & help customers adopt AI');
    expect(first?.descriptionText).toContain('- Curiosity');
  });
});

describe('smartrecruiters: details only for new or changed postings', () => {
  const details = (from: number) =>
    ats.requests
      .slice(from)
      .filter((r) => /\/postings\/\d+$/.test(r.path))
      .map((r) => r.path.split('/').pop());
  const knownOf = (postings: NormalizedPosting[]): KnownPostings =>
    new Map(
      postings.map((p) => [p.externalId, { title: p.title, url: p.url, descriptionText: p.descriptionText }]),
    );
  const fetchKnown = (token: string, known: KnownPostings) =>
    ADAPTERS.smartrecruiters.fetchPostings(board('smartrecruiters', token), client, known);

  it('reuses the stored URL and description of a posting listed unchanged', async () => {
    ats.setBoard('smartrecruiters', 'Known1', generatePostings(5));
    let before = ats.requests.length;
    const first = await fetchAll('smartrecruiters', 'Known1');
    expect(details(before)).toHaveLength(5);
    before = ats.requests.length;
    const again = await fetchKnown('Known1', knownOf(first));
    expect(details(before)).toEqual([]);
    expect(again).toEqual(first);
  });

  it('fetches details of new, retitled and description-less postings, and only those', async () => {
    const postings = generatePostings(4);
    ats.setBoard('smartrecruiters', 'Known2', postings);
    const known = new Map(knownOf(await fetchAll('smartrecruiters', 'Known2')));
    const [a, b, c, d] = postings.map((p) => p.id);
    known.delete(a as string);
    known.set(c as string, { ...known.get(c as string)!, descriptionText: '' });
    ats.setBoard('smartrecruiters', 'Known2', [
      ...postings
        .slice(0, 3)
        .map((p) => (p.id === b ? { ...p, title: 'Renamed Role', descriptionHtml: '<p>New body</p>' } : p)),
      postings[3]!,
    ]);
    const before = ats.requests.length;
    const out = await fetchKnown('Known2', known);
    expect(details(before).sort()).toEqual([a, b, c].sort());
    expect(out.find((p) => p.externalId === b)).toMatchObject({ title: 'Renamed Role' });
    expect(out.find((p) => p.externalId === b)?.descriptionText).toContain('New body');
    expect(out.find((p) => p.externalId === d)?.descriptionText).toBe(
      known.get(d as string)?.descriptionText,
    );
  });
});

describe('pagination and whole boards', () => {
  it.each(PROVIDERS)('%s returns all 250 postings of a large board, each once', async (provider) => {
    const token = provider === 'recruitee' ? 'bigco' : tokenFor(provider, 'big');
    const before = ats.requests.length;
    const postings = await fetchAll(provider, token);
    expect(postings).toHaveLength(250);
    expect(new Set(postings.map((p) => p.externalId)).size).toBe(250);
    const calls = ats.requests.slice(before);
    if (provider === 'lever')
      expect(calls.map((c) => c.path)).toEqual(
        [0, 100, 200].map((s) => `/v0/postings/big?mode=json&skip=${s}&limit=100`),
      );
    if (provider === 'smartrecruiters')
      expect(calls.filter((c) => !/postings\/\d+$/.test(c.path))).toHaveLength(3);
    if (['greenhouse', 'ashby', 'recruitee', 'workable'].includes(provider)) expect(calls).toHaveLength(1);
  });

  it('workable falls back to the v3 API and follows nextPage tokens when the widget is gone', async () => {
    ats.setBoard('workable', 'v3only', generatePostings(25));
    ats.disableWorkableWidget('v3only');
    const before = ats.requests.length;
    const postings = await fetchAll('workable', 'v3only');
    expect(postings).toHaveLength(25);
    expect(postings[1]?.descriptionText).toContain('help customers adopt AI (posting 1)');
    expect(postings[1]?.url).toBe('https://apply.workable.com/v3only/j/100001/');
    const lists = ats.requests.slice(before).filter((r) => r.method === 'POST');
    expect(lists).toHaveLength(3);
  });
});

describe('vendor errors', () => {
  it.each(PROVIDERS)('%s: an unknown board is board_not_found and not retryable', async (provider) => {
    const err = await sourceError(fetchAll(provider, tokenFor(provider, 'nosuchboard')));
    expect(err.code).toBe(REDIRECTS_UNKNOWN.has(provider) ? 'board_moved' : 'board_not_found');
    expect(err.retryable).toBe(false);
    expect(err.status).toBe(REDIRECTS_UNKNOWN.has(provider) ? 200 : 404);
  });

  it.each(PROVIDERS)('%s: a 429 with Retry-After is waited out and the fetch succeeds', async (provider) => {
    ats.setBoard(provider, tokenFor(provider, 'small'), generatePostings(5));
    sleeps.length = 0;
    ats.failNext(provider, { status: 429, retryAfter: '2' });
    const postings = await fetchAll(provider, tokenFor(provider, 'small'));
    expect(postings).toHaveLength(5);
    expect(sleeps).toEqual([2000]);
  });

  it.each(PROVIDERS)('%s: persistent 503 ends in a retryable unavailable error', async (provider) => {
    ats.setBoard(provider, tokenFor(provider, 'small'), generatePostings(5));
    ats.failNext(provider, { status: 503 }, { status: 503 }, { status: 503 });
    const err = await sourceError(fetchAll(provider, tokenFor(provider, 'small')));
    expect(err.code).toBe('unavailable');
    expect(err.retryable).toBe(true);
  });

  it.each([
    ['greenhouse', '{"jobs":[{"id":1,"title":null,"absolute_url":"x"}]}', '/jobs/0/title'],
    ['lever', '{"postings":[]}', '/'],
    ['ashby', '{"jobs":"none"}', '/jobs'],
    ['workable', '<html>Not found</html>', 'non-JSON'],
    ['smartrecruiters', '{"content":[{"name":"x"}]}', '/content/0'],
    ['recruitee', '{"offers":[{"id":1,"title":"T"}]}', '/offers/0'],
  ] as const)('%s: a malformed payload fails clearly', async (provider, body, where) => {
    ats.setRaw(provider, 'broken', body);
    const err = await sourceError(fetchAll(provider, 'broken'));
    expect(err.code).toBe('malformed_payload');
    expect(err.retryable).toBe(false);
    expect(err.message).toContain(where);
  });

  it('rejects tokens that could escape the URL path', async () => {
    const err = await sourceError(fetchAll('greenhouse', '../admin'));
    expect(err.code).toBe('http_error');
    const err2 = await sourceError(fetchAll('recruitee', 'evil.com/x'));
    expect(err2.message).toContain('Invalid Recruitee subdomain');
  });
});
