import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboundClient } from '../../src/net/client.js';
import { detectBoards } from '../../src/pipeline/boards/detect.js';
import { ADAPTERS } from '../../src/sources/index.js';
import type { Provider } from '../../src/sources/types.js';
import { SourceError } from '../../src/sources/types.js';
import { parsePostedOn } from '../../src/sources/vendors/workday.js';
import { type FakeAts, generatePostings, startFakeAts } from '../support/fake-ats.js';
import { offlineClient } from '../support/fake-vendors.js';

/**
 * Workday, Personio, BambooHR, Breezy and Pinpoint on fixtures in each vendor's wire format (structure from real
 * responses, text our own; docs/sources.md says where each came from). The cases every adapter shares (whole
 * boards, 404s, 429s, 503s) run over these vendors too, in adapters.test.ts.
 */

const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/vendors/${name}`, import.meta.url), 'utf8');

let ats: FakeAts;
let client: OutboundClient;

beforeAll(async () => {
  ats = await startFakeAts();
  const wd = 'northwind.wd1/Careers';
  ats.setRaw('workday', wd, fixture('workday-jobs.json'));
  ats.setRaw(
    'workday',
    `${wd}/job/San-Francisco-CA/Forward-Deployed-Engineer_JR101`,
    fixture('workday-detail-JR101.json'),
  );
  ats.setRaw(
    'workday',
    `${wd}/job/Remote-USA/Solutions-Architect--Public-Sector_JR102`,
    fixture('workday-detail-JR102.json'),
  );
  ats.setRaw(
    'workday',
    `${wd}/job/London/Customer-Success-Manager_JR103`,
    fixture('workday-detail-JR103.json'),
  );
  ats.setRaw('personio', 'northwind', fixture('personio-feed.xml'));
  ats.setRaw('bamboohr', 'northwind', fixture('bamboohr-list.json'));
  ats.setRaw('bamboohr', 'northwind/41', fixture('bamboohr-detail-41.json'));
  ats.setRaw('bamboohr', 'northwind/57', fixture('bamboohr-detail-57.json'));
  ats.setRaw('breezy', 'northwind', fixture('breezy-positions.json'));
  ats.setRaw('pinpoint', 'northwind', fixture('pinpoint-postings.json'));
  client = offlineClient(ats.hostMap);
});

afterAll(async () => {
  await client.close();
  await ats.close();
});

const fetchAll = (provider: Provider, token: string) =>
  ADAPTERS[provider].fetchPostings({ provider, token, url: ADAPTERS[provider].boardUrl(token) }, client);

describe('recorded formats normalise to the posting shape', () => {
  it('workday: list + one detail per posting; start date, requisition id, remote type, all locations', async () => {
    const before = ats.requests.length;
    const [fde, sa, csm] = await fetchAll('workday', 'northwind.wd1/Careers');
    expect(fde).toEqual({
      externalId: 'JR101',
      title: 'Forward Deployed Engineer',
      location: 'San Francisco, CA',
      remote: null,
      workplace: null,
      department: null,
      postedAt: new Date('2026-11-20T00:00:00Z'),
      url: 'https://northwind.wd1.myworkdayjobs.com/Careers/job/San-Francisco-CA/Forward-Deployed-Engineer_JR101',
      descriptionText:
        "About the team\n\nOur deployment team puts Northwind's models into production at customer sites.\n\n• Build integrations with customer data systems\n• Ship & operate what you build",
      requisitionId: 'JR101',
    });
    expect(sa).toMatchObject({
      location: 'Remote - USA; Washington, DC',
      remote: true,
      requisitionId: 'JR102',
    });
    expect(csm).toMatchObject({
      remote: false,
      workplace: 'hybrid',
      postedAt: new Date('2026-10-12T00:00:00Z'),
    });
    expect(csm?.descriptionText).toBe('Own renewals for our EMEA accounts.\n\nTravel: 20%');
    const calls = ats.requests.slice(before);
    expect(calls[0]).toMatchObject({ method: 'POST', path: '/wday/cxs/northwind/Careers/jobs' });
    expect(calls.filter((c) => c.method === 'GET')).toHaveLength(3);
  });

  it('personio: XML positions, section headings kept, +0200 offsets, URL built from the id', async () => {
    const [tam, eng] = await fetchAll('personio', 'northwind');
    expect(tam).toEqual({
      externalId: '1520034',
      title: 'Technical Account Manager (m/f/d)',
      location: 'Berlin',
      remote: null,
      department: 'Customer Success',
      postedAt: new Date('2026-10-05T07:30:00Z'),
      url: 'https://northwind.jobs.personio.de/job/1520034',
      descriptionText:
        'Your mission\n\nBe the technical partner of our enterprise customers.\n\n• Run onboarding\n• Guide integrations\n\nYour profile\n\nThree years with SaaS customers & APIs.',
    });
    expect(eng).toMatchObject({ location: 'Remote (Germany)', remote: true });
    expect(eng?.postedAt).toEqual(new Date('2026-11-12T14:00:00Z'));
  });

  it('bamboohr: list without descriptions + details; office and free locations; locationType 1 is remote', async () => {
    const [impl, se] = await fetchAll('bamboohr', 'northwind');
    expect(impl).toEqual({
      externalId: '41',
      title: 'Implementation Specialist',
      location: 'Provo, Utah',
      remote: false,
      workplace: 'onsite',
      department: 'Customer Success',
      postedAt: new Date('2026-11-03T00:00:00Z'),
      url: 'https://northwind.bamboohr.com/careers/41',
      descriptionText: 'Guide new customers from contract to go-live.\n\n• Plan rollouts\n• Train admins',
    });
    expect(se).toMatchObject({
      location: 'Denver, Colorado, United States',
      remote: true,
      department: 'Sales',
    });
  });

  it('breezy: verbose feed with descriptions; is_remote flag; titles trimmed', async () => {
    const [csm, se] = await fetchAll('breezy', 'northwind');
    expect(csm).toEqual({
      externalId: 'a1b2c3d4e5f6',
      title: 'Customer Success Manager',
      location: 'New York, NY',
      remote: false,
      department: 'Customer Success',
      postedAt: new Date('2026-10-28T14:03:11.412Z'),
      url: 'https://northwind.breezy.hr/p/a1b2c3d4e5f6-customer-success-manager',
      descriptionText: 'Keep our customers successful.\n\n• Quarterly reviews',
    });
    expect(se).toMatchObject({
      title: 'Solutions Engineer',
      remote: true,
      department: null,
      descriptionText: '',
    });
  });

  it('pinpoint: advert sections joined under their headers; workplace_type; requisition id; no date', async () => {
    const [impl, designer] = await fetchAll('pinpoint', 'northwind');
    expect(impl).toEqual({
      externalId: '88123',
      title: 'Implementation Consultant',
      location: 'Manchester',
      remote: false,
      workplace: 'hybrid',
      department: 'Professional Services',
      postedAt: null,
      url: 'https://northwind.pinpointhq.com/en/postings/2b7c9d1e-3f4a-4b5c-8d6e-7f8a9b0c1d2e',
      descriptionText:
        "Lead customer implementations end to end.\n\nWhat you'll do\n\n• Scope projects\n• Configure the platform\n\nWhat you'll bring\n\nConsulting experience.\n\nBenefits\n\nPrivate health cover.",
      requisitionId: 'NW-0042',
    });
    expect(designer).toMatchObject({
      location: 'United Kingdom',
      remote: true,
      workplace: 'remote',
      requisitionId: null,
    });
  });
});

describe('workday paging and politeness', () => {
  it('asks 20 postings a page and stops at the total; unchanged postings get no detail request', async () => {
    ats.setBoard('workday', 'pager.wd3/External', generatePostings(45));
    const board = { provider: 'workday' as const, token: 'pager.wd3/External', url: '' };
    let before = ats.requests.length;
    const first = await ADAPTERS.workday.fetchPostings(board, client);
    expect(first).toHaveLength(45);
    const calls = ats.requests.slice(before);
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(3);
    expect(calls.filter((c) => c.method === 'GET')).toHaveLength(45);

    const known = new Map(
      first.map((p) => [
        p.externalId,
        { title: p.title, url: p.url, descriptionText: p.descriptionText, location: p.location },
      ]),
    );
    known.delete('R-100007');
    before = ats.requests.length;
    const again = await ADAPTERS.workday.fetchPostings(board, client, known);
    const details = ats.requests.slice(before).filter((c) => c.method === 'GET');
    expect(details.map((c) => c.path)).toEqual([expect.stringContaining('_R-100007')]);
    expect(again.map((p) => [p.externalId, p.location, p.descriptionText])).toEqual(
      first.map((p) => [p.externalId, p.location, p.descriptionText]),
    );
  });

  it('"Posted N Days Ago" and its kin become the day they name', () => {
    const now = Date.UTC(2026, 10, 22, 15, 30);
    expect(parsePostedOn('Posted Today', now)).toEqual(new Date('2026-11-22T00:00:00Z'));
    expect(parsePostedOn('Posted Yesterday', now)).toEqual(new Date('2026-11-21T00:00:00Z'));
    expect(parsePostedOn('Posted 3 Days Ago', now)).toEqual(new Date('2026-11-19T00:00:00Z'));
    expect(parsePostedOn('Posted 30+ Days Ago', now)).toEqual(new Date('2026-10-23T00:00:00Z'));
    expect(parsePostedOn('Posted 2 Weeks Ago', now)).toEqual(new Date('2026-11-08T00:00:00Z'));
    expect(parsePostedOn('Recently', now)).toBeNull();
    expect(parsePostedOn(null, now)).toBeNull();
  });

  it('rejects tokens that are not tenant.wdN/site', async () => {
    for (const token of ['acme', 'acme.wd5', '../x.wd5/site', 'acme.wd5/si/te']) {
      const err = await ADAPTERS.workday
        .fetchPostings({ provider: 'workday', token, url: '' }, client)
        .catch((e: unknown) => e);
      expect(err, token).toBeInstanceOf(SourceError);
      expect((err as SourceError).code).toBe('http_error');
    }
  });
});

describe('malformed payloads fail clearly', () => {
  it.each([
    ['workday', 'bad.wd1/Careers', '{"jobPostings":[{"title":"x"}]}', '/jobPostings/0'],
    ['personio', 'broken', '<html><body>Maintenance</body></html>', 'no <workzag-jobs> root'],
    ['personio', 'broken2', '<workzag-jobs><position><name>T</name></position></workzag-jobs>', 'position 0'],
    ['bamboohr', 'broken', '{"result":[{"id":"1"}]}', '/result/0'],
    ['breezy', 'broken', '{"positions":[]}', '/'],
    ['pinpoint', 'broken', '{"data":[{"id":1,"title":"T"}]}', '/data/0'],
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
    [
      '<a href="https://northwind.wd1.myworkdayjobs.com/en-US/Careers">Jobs</a>',
      'workday:northwind.wd1/Careers',
    ],
    [
      '<a href="https://northwind.wd5.myworkdayjobs.com/External/job/NYC/SE_R1">SE</a>',
      'workday:northwind.wd5/External',
    ],
    [
      '<script>fetch("https://northwind.wd12.myworkdayjobs.com/wday/cxs/northwind/NW_Careers/jobs")</script>',
      'workday:northwind.wd12/NW_Careers',
    ],
    ['<iframe src="https://northwind.jobs.personio.de/?display=en"></iframe>', 'personio:northwind'],
    ['<a href="https://northwind.jobs.personio.com/job/1520034">TAM</a>', 'personio:northwind'],
    [
      '<script src="https://northwind.bamboohr.com/js/embed.js"></script><a href="https://northwind.bamboohr.com/careers">Jobs</a>',
      'bamboohr:northwind',
    ],
    ['<a href="https://northwind.breezy.hr/p/a1b2-customer-success-manager">CSM</a>', 'breezy:northwind'],
    ['<a href="https://northwind.pinpointhq.com/en/postings/2b7c">Jobs</a>', 'pinpoint:northwind'],
  ])('%s', (html, expected) => {
    expect(found(html)).toEqual([expected]);
  });

  it('ignores the vendors own sites', () => {
    expect(
      found(
        '<a href="https://www.bamboohr.com/careers">x</a><a href="https://www.personio.de/">x</a>' +
          '<a href="https://help.breezy.hr/">x</a><a href="https://www.myworkday.com/">x</a>',
      ),
    ).toEqual([]);
  });
});
