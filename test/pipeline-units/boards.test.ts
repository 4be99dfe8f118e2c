import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundClient, type OutboundClient } from '../../src/net/client.js';
import { careersLinks } from '../../src/pipeline/boards/careers.js';
import { detectBoards } from '../../src/pipeline/boards/detect.js';
import { discoverBoards } from '../../src/pipeline/boards/discover.js';
import { SourceError } from '../../src/sources/types.js';
import { type FakeAts, generatePostings, startFakeAts } from '../support/fake-ats.js';
import { type FakeSites, startFakeSites } from '../support/fake-site.js';

const html = (name: string) =>
  readFileSync(new URL(`../fixtures/careers/${name}.html`, import.meta.url), 'utf8');
const found = (name: string, url = 'https://example.com/careers') =>
  detectBoards(html(name), url).map((c) => `${c.provider}:${c.token}:${c.evidence}`);

describe('ATS detection on careers-page fixtures', () => {
  it.each([
    ['greenhouse-embed', ['greenhouse:vaulttec:script']],
    ['greenhouse-eu-links', ['greenhouse:eurocorp:link']],
    ['lever-links', ['lever:palantir:link']],
    ['ashby-embed', ['ashby:Hippocratic AI:script']],
    ['workable-embed', ['workable:149632:inline']],
    ['workable-links', ['workable:acme-robotics:link']],
    ['smartrecruiters-links', ['smartrecruiters:AcmeCorp1:link']],
    ['recruitee-iframe', ['recruitee:dutchai:iframe']],
    ['inline-api', ['greenhouse:inlineco:inline', 'lever:leverco:inline']],
    ['none', []],
    ['multiple', ['greenhouse:multico:link', 'lever:multico-eu:link']],
  ])('%s', (name, expected) => {
    expect(found(name)).toEqual(expected);
  });

  it('the final URL after redirects is evidence too', () => {
    expect(detectBoards('<html></html>', 'https://jobs.ashbyhq.com/acme')).toMatchObject([
      { provider: 'ashby', token: 'acme', evidence: 'final_url' },
    ]);
  });

  it('scores careers links: keyword in path beats keyword in text, other sites are ignored', () => {
    const page = `<a href="/about">About</a><a href="/company/careers">Work here</a><a href="/blog/post">Join us</a>
      <a href="https://twitter.com/jobs">Jobs</a><a href="https://jobs.lever.co/acme">Open roles</a><a href="mailto:jobs@acme.com">Jobs</a>`;
    expect(careersLinks(page, 'https://acme.com/').map((l) => l.url)).toEqual([
      'https://jobs.lever.co/acme',
      'https://acme.com/company/careers',
      'https://acme.com/blog/post',
    ]);
  });
});

describe('discoverBoards against fake sites and fake ATS APIs', () => {
  let sites: FakeSites;
  let ats: FakeAts;
  let client: OutboundClient;
  const home = (body: string, title = 'Home') =>
    `<html><head><title>${title}</title></head><body>${body}</body></html>`;

  beforeAll(async () => {
    ats = await startFakeAts({
      greenhouse: { acme: generatePostings(3), multico: generatePostings(2) },
      lever: { betaco: generatePostings(4), 'multico-eu': generatePostings(1) },
      ashby: { 'Gamma Labs': generatePostings(5) },
      workable: { '149632': generatePostings(2) },
    });
    sites = await startFakeSites({
      'acme.ai': {
        '/': home('<footer><a href="/company/careers">Careers</a></footer>'),
        '/company/careers': html('greenhouse-embed').replace('for=vaulttec', 'for=acme'),
      },
      'beta.ai': {
        '/': home('<p>No links here.</p>'),
        '/jobs': html('lever-links').replaceAll('palantir', 'betaco'),
      },
      'gamma.ai': {
        '/': home('<p>Nothing.</p>'),
        '/sitemap.xml':
          '<?xml version="1.0"?><urlset><url><loc>https://gamma.ai/en/blog/x</loc></url><url><loc>https://gamma.ai/en/careers/</loc></url></urlset>',
        '/en/careers/': html('ashby-embed').replace('Hippocratic%20AI', 'Gamma%20Labs'),
      },
      'delta.ai': {
        '/': home('<a href="/careers">Careers</a>'),
        '/careers': html('greenhouse-embed').replace('for=vaulttec', 'for=gone'),
      },
      'epsilon.ai': { '/': home('<a href="https://jobs.lever.co/betaco">We are hiring</a>') },
      'multi.ai': { '/': home('<a href="/careers">Jobs</a>'), '/careers': html('multiple') },
      'zeta.ai': { '/': home('<a href="/about">About</a>') },
      'careers.zeta.ai': { '/': html('workable-embed') },
      'quiet.co': { '/': home('<a href="/careers">Careers</a>'), '/careers': html('none') },
      'redirect.ai': {
        '/': home('<a href="/careers">Careers</a>'),
        '/careers': { status: 301, location: '/careers/open-roles' },
        '/careers/open-roles': '<a href="/careers/open-roles/all">View all open positions</a>',
        '/careers/open-roles/all': html('greenhouse-embed').replace('for=vaulttec', 'for=acme'),
      },
    });
    client = createOutboundClient({
      userAgentContact: 'https://frontline.test/bot',
      hostMap: { ...sites.hostMap, ...ats.hostMap },
      perHostDelayMs: 0,
      apiHostDelayMs: 0,
      resolver: async (h) => {
        throw Object.assign(new Error(`ENOTFOUND ${h}`), { code: 'ENOTFOUND' });
      },
    });
  });

  afterAll(async () => {
    await client.close();
    await Promise.all([sites.close(), ats.close()]);
  });

  it('follows a homepage footer link to the careers page and validates the embed', async () => {
    const r = await discoverBoards('acme.ai', client);
    expect(r.careersUrl).toBe('https://acme.ai/company/careers');
    expect(r.boards).toEqual([
      {
        provider: 'greenhouse',
        token: 'acme',
        url: 'https://boards.greenhouse.io/acme',
        evidence: 'script',
        foundOn: 'https://acme.ai/company/careers',
        postingCount: 3,
      },
    ]);
  });

  it('probes common paths when the homepage links nowhere', async () => {
    const r = await discoverBoards('beta.ai', client);
    expect(r.careersUrl).toBe('https://beta.ai/jobs');
    expect(r.boards.map((b) => [b.provider, b.token, b.postingCount])).toEqual([['lever', 'betaco', 4]]);
  });

  it('falls back to the sitemap, and decodes board names with spaces', async () => {
    const r = await discoverBoards('gamma.ai', client);
    expect(r.careersUrl).toBe('https://gamma.ai/en/careers/');
    expect(r.boards.map((b) => [b.provider, b.token, b.url])).toEqual([
      ['ashby', 'Gamma Labs', 'https://jobs.ashbyhq.com/Gamma%20Labs'],
    ]);
  });

  it('rejects a candidate the vendor does not know', async () => {
    const r = await discoverBoards('delta.ai', client);
    expect(r.boards).toEqual([]);
    expect(r.rejected).toEqual([
      { provider: 'greenhouse', token: 'gone', reason: expect.stringContaining('404') },
    ]);
  });

  it('takes a board linked from the homepage itself without fetching the ATS page', async () => {
    const before = sites.requests.length;
    const r = await discoverBoards('epsilon.ai', client);
    expect(r.boards).toMatchObject([
      { provider: 'lever', token: 'betaco', evidence: 'link', foundOn: 'https://epsilon.ai/' },
    ]);
    expect(sites.requests.slice(before).every((q) => q.host === 'epsilon.ai')).toBe(true);
  });

  it('finds several boards on one page, keeping EU hosts', async () => {
    const r = await discoverBoards('multi.ai', client);
    expect(r.boards.map((b) => `${b.provider}:${b.token}:${b.url}`)).toEqual([
      'greenhouse:multico:https://boards.greenhouse.io/multico',
      'lever:multico-eu:https://jobs.eu.lever.co/multico-eu',
    ]);
  });

  it('finds a careers. subdomain with a numeric Workable embed', async () => {
    const r = await discoverBoards('zeta.ai', client);
    expect(r.careersUrl).toBe('https://careers.zeta.ai/');
    expect(r.boards.map((b) => `${b.provider}:${b.token}:${b.postingCount}`)).toEqual(['workable:149632:2']);
  });

  it('a careers page without an ATS gives no boards and no rejects', async () => {
    const r = await discoverBoards('quiet.co', client);
    expect(r).toEqual({ careersUrl: 'https://quiet.co/careers', boards: [], rejected: [] });
  });

  it('follows redirects and one "view all positions" link deeper', async () => {
    const r = await discoverBoards('redirect.ai', client);
    expect(r.careersUrl).toBe('https://redirect.ai/careers/open-roles');
    expect(r.boards.map((b) => `${b.provider}:${b.token}:${b.foundOn}`)).toEqual([
      'greenhouse:acme:https://redirect.ai/careers/open-roles/all',
    ]);
  });

  it('an unreachable site gives an empty result', async () => {
    expect(await discoverBoards('unknown-site.ai', client)).toEqual({
      careersUrl: null,
      boards: [],
      rejected: [],
    });
  });

  it('a vendor outage during validation propagates as a retryable SourceError', async () => {
    ats.failNext('greenhouse', { status: 503 }, { status: 503 }, { status: 503 });
    const fast = createOutboundClient({
      userAgentContact: 'x',
      hostMap: { ...sites.hostMap, ...ats.hostMap },
      perHostDelayMs: 0,
      apiHostDelayMs: 0,
      sleep: async () => undefined,
    });
    const err = await discoverBoards('acme.ai', fast).catch((e: unknown) => e);
    await fast.close();
    expect(err).toBeInstanceOf(SourceError);
    expect((err as SourceError).retryable).toBe(true);
  });
});
