import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundClient, type OutboundClient } from '../../src/net/client.js';
import { ADAPTERS } from '../../src/sources/index.js';
import { type FakeAts, startFakeAts } from '../support/fake-ats.js';

/**
 * SmartRecruiters from recorded fixtures in the vendor's format (a Posting API list page and the detail of each
 * posting; structure from real responses, text our own), served by the fake ATS: the adapter reads the list,
 * makes one detail call per posting, and normalises both. Also the vendor's rate-limit answer: a 429 with its
 * X-RateLimit-* headers and Retry-After, retried by the client.
 */

const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/sources/${name}`, import.meta.url), 'utf8');

let ats: FakeAts;
let client: OutboundClient;
const sleeps: number[] = [];

beforeAll(async () => {
  ats = await startFakeAts();
  ats.setRaw('smartrecruiters', 'AcmeRobotics1', fixture('smartrecruiters-postings.json'));
  const details = JSON.parse(fixture('smartrecruiters-posting-details.json')) as { id: string }[];
  for (const d of details) ats.setRawDetail('smartrecruiters', 'AcmeRobotics1', d.id, JSON.stringify(d));
  client = createOutboundClient({
    userAgentContact: 'https://frontline.test/bot',
    hostMap: ats.hostMap,
    perHostDelayMs: 0,
    apiHostDelayMs: 0,
    resolver: async (h) => {
      throw new Error(`unexpected DNS lookup of ${h}`);
    },
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
});

afterAll(async () => {
  await client.close();
  await ats.close();
});

const fetchBoard = () =>
  ADAPTERS.smartrecruiters.fetchPostings(
    {
      provider: 'smartrecruiters',
      token: 'AcmeRobotics1',
      url: ADAPTERS.smartrecruiters.boardUrl('AcmeRobotics1'),
    },
    client,
  );

describe('smartrecruiters recorded fixtures', () => {
  it('reads the list page and one detail per posting: human URL, description sections, location flags', async () => {
    const before = ats.requests.length;
    const postings = await fetchBoard();
    expect(postings).toHaveLength(2);
    const [se, tam] = postings;
    expect(se).toMatchObject({
      externalId: '744000012345678',
      title: 'Solutions Engineer, Enterprise',
      location: 'Austin, TX, United States',
      remote: false,
      department: 'Customer Engineering',
      url: 'https://jobs.smartrecruiters.com/AcmeRobotics1/744000012345678-solutions-engineer-enterprise',
    });
    expect(se?.postedAt?.toISOString()).toBe('2026-10-02T14:05:11.000Z');
    expect(se?.descriptionText).toContain(
      'Lead technical evaluations with enterprise customers & their engineers.',
    );
    expect(se?.descriptionText).toContain('Five years in a customer-facing engineering role');
    expect(tam).toMatchObject({
      externalId: '744000012345999',
      remote: true,
      department: 'Customer Service',
    });
    expect(tam?.descriptionText).toBe('Own the technical relationship with our largest accounts.');
    const paths = ats.requests.slice(before).map((r) => r.path);
    expect(paths).toEqual([
      '/v1/companies/AcmeRobotics1/postings?limit=100&offset=0',
      '/v1/companies/AcmeRobotics1/postings/744000012345678',
      '/v1/companies/AcmeRobotics1/postings/744000012345999',
    ]);
  });

  it("retries the vendor's 429 (X-RateLimit-* headers, Retry-After) and then reads the board", async () => {
    ats.failNext('smartrecruiters', { status: 429, retryAfter: '2' });
    const sleepsBefore = sleeps.length;
    expect(await fetchBoard()).toHaveLength(2);
    expect(sleeps.slice(sleepsBefore)).toContain(2000);
  });
});
