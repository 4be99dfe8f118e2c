import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboundClient } from '../../src/net/client.js';
import { detectBoards } from '../../src/pipeline/boards/detect.js';
import { ADAPTERS } from '../../src/sources/index.js';
import type { Provider } from '../../src/sources/types.js';
import { SourceError } from '../../src/sources/types.js';
import { type FakeAts, startFakeAts } from '../support/fake-ats.js';
import { offlineClient } from '../support/fake-vendors.js';

/**
 * Gem and Rippling on fixtures in each vendor's wire format (structure from the sources docs/sources.md names,
 * text our own). The cases every adapter shares (whole boards, 404s, 429s, 503s) run over them in adapters.test.ts.
 */

const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/vendors/${name}`, import.meta.url), 'utf8');

let ats: FakeAts;
let client: OutboundClient;

beforeAll(async () => {
  ats = await startFakeAts();
  ats.setRaw('gem', 'northwind', fixture('gem-job-posts.json'));
  ats.setRaw('rippling', 'northwind', fixture('rippling-jobs.json'));
  ats.setRaw(
    'rippling',
    'northwind/0c8a7d6e-5f4b-4a3c-9d2e-1f0a9b8c7d6e',
    fixture('rippling-record-0c8a.json'),
  );
  ats.setRaw(
    'rippling',
    'northwind/7e6d5c4b-3a29-4180-b7c6-d5e4f3a2b1c0',
    fixture('rippling-record-7e6d.json'),
  );
  client = offlineClient(ats.hostMap);
});

afterAll(async () => {
  await client.close();
  await ats.close();
});

const fetchAll = (provider: Provider, token: string) =>
  ADAPTERS[provider].fetchPostings({ provider, token, url: ADAPTERS[provider].boardUrl(token) }, client);

describe('recorded formats normalise to the posting shape', () => {
  it('gem: one call; HTML content, offices as locations, location_type, first_published_at, requisition id', async () => {
    const before = ats.requests.length;
    const [fde, csm] = await fetchAll('gem', 'northwind');
    expect(fde).toEqual({
      externalId: 'am9icG9zdDqF1nB2xYz0',
      title: 'Forward Deployed Engineer',
      location: 'San Francisco, CA; New York, NY',
      remote: false,
      workplace: 'hybrid',
      department: 'Engineering',
      postedAt: new Date('2026-11-02T15:00:00Z'),
      url: 'https://jobs.gem.com/northwind/am9icG9zdDqF1nB2xYz0',
      descriptionText:
        "## About the role\n\nPut Northwind's agents into production & own outcomes.\n\n- Ship\n- Deploy",
      requisitionId: 'ENG-42',
    });
    expect(csm).toMatchObject({
      location: 'Remote - US',
      remote: true,
      department: null,
      postedAt: new Date('2026-11-10T12:00:00Z'),
      descriptionText: 'Help customers succeed.\n\nRenewals and adoption.',
      requisitionId: null,
    });
    expect(ats.requests.slice(before).map((r) => r.path)).toEqual(['/job_board/v0/northwind/job_posts/']);
  });

  it('rippling: list then one record per posting; a posting listed per location is one posting', async () => {
    const before = ats.requests.length;
    const [se, tam, ...rest] = await fetchAll('rippling', 'northwind');
    expect(rest).toEqual([]);
    expect(se).toEqual({
      externalId: '0c8a7d6e-5f4b-4a3c-9d2e-1f0a9b8c7d6e',
      title: 'Solutions Engineer',
      location: 'New York, NY; Austin, TX',
      remote: false,
      workplace: 'hybrid',
      department: 'Sales',
      postedAt: new Date('2026-11-12T16:30:00Z'),
      url: 'https://ats.rippling.com/northwind/jobs/0c8a7d6e-5f4b-4a3c-9d2e-1f0a9b8c7d6e',
      descriptionText:
        'Northwind builds agents for logistics.\n\nRun technical evaluations & pilots.\n\n- Demos\n- Proofs of concept',
    });
    expect(tam).toMatchObject({
      location: 'Remote (United States)',
      remote: true,
      department: null,
      postedAt: null,
      descriptionText: 'Own the relationship.',
    });
    const paths = ats.requests.slice(before).map((r) => r.path);
    expect(paths[0]).toBe('/platform/api/ats/v2/board/northwind/jobs?page=0&pageSize=100');
    expect(paths).toHaveLength(3);
  });
});

describe('malformed payloads fail clearly', () => {
  it.each([
    ['gem', 'broken', '{"jobs":[]}', '/'],
    ['gem', 'broken2', '[{"id":"x","title":"T"}]', '/0'],
    ['rippling', 'broken', '{"items":[{"id":"x"}]}', '/items/0'],
  ] as const)('%s (%s)', async (provider, token, body, where) => {
    ats.setRaw(provider, token, body);
    const err = await fetchAll(provider, token).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceError);
    expect((err as SourceError).code).toBe('malformed_payload');
    expect((err as SourceError).message).toContain(where);
  });
});

describe('detection from careers pages', () => {
  const found = (html: string) =>
    detectBoards(html, 'https://northwind.ai/careers').map((c) => `${c.provider}:${c.token}`);

  it.each([
    ['<a href="https://jobs.gem.com/NorthWind">Jobs</a>', 'gem:NorthWind'],
    ['<a href="https://jobs.gem.com/northwind/am9icG9zdDqF1nB2xYz0">FDE</a>', 'gem:northwind'],
    ['<script>fetch("https://api.gem.com/job_board/v0/northwind/job_posts/")</script>', 'gem:northwind'],
    ['<a href="https://ats.rippling.com/northwind/jobs">Open roles</a>', 'rippling:northwind'],
    ['<a href="https://ats.rippling.com/en-US/north-wind/jobs/0c8a7d6e">SE</a>', 'rippling:north-wind'],
    [
      '<script>fetch("https://api.rippling.com/platform/api/ats/v2/board/northwind/jobs?page=0")</script>',
      'rippling:northwind',
    ],
  ])('%s', (html, expected) => {
    expect(found(html)).toEqual([expected]);
  });

  it('ignores the vendors own sites', () => {
    expect(
      found('<a href="https://www.gem.com/careers">x</a><a href="https://www.rippling.com/">x</a>'),
    ).toEqual([]);
  });
});
