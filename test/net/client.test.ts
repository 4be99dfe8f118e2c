import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { type ClientOptions, clientOptionsFromConfig, createOutboundClient } from '../../src/net/client.js';
import { OutboundError, type Resolver } from '../../src/net/types.js';
import { type FakeSites, startFakeSites } from '../support/fake-site.js';

let sites: FakeSites;
const clients: Array<{ close(): Promise<void> }> = [];

/** Test DNS: names under .test.example resolve as listed; anything else must never be looked up. */
const dnsAnswers: Record<string, string[]> = {
  'private.test.example': ['10.0.0.7'],
  'mixed.test.example': ['93.184.216.34', '192.168.0.10'],
  'metadata.test.example': ['169.254.169.254'],
  'mapped6.test.example': ['::ffff:127.0.0.1'],
  'loopback.test.example': ['127.0.0.1'],
};
const lookups: string[] = [];
const resolver: Resolver = async (host) => {
  lookups.push(host);
  const answers = dnsAnswers[host];
  if (!answers) throw Object.assign(new Error(`queryA ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

function client(extra: Partial<ClientOptions> = {}) {
  const sleeps: number[] = [];
  const c = createOutboundClient({
    userAgentContact: 'https://frontline.test/bot',
    hostMap: sites.hostMap,
    resolver,
    perHostDelayMs: 0,
    apiHostDelayMs: 0,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...extra,
  });
  clients.push(c);
  return Object.assign(c, { sleeps });
}

async function failure(p: Promise<unknown>): Promise<OutboundError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OutboundError);
  return err as OutboundError;
}

beforeAll(async () => {
  sites = await startFakeSites({ 'acme.test': { '/': '<html>home</html>' }, 'other.test': {} });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await sites.close();
});

describe('host map routing', () => {
  it('sends a mapped host to its origin with path, query, Host and our User-Agent', async () => {
    sites.setRoute('acme.test', '/echo', {
      handler: (req, res) =>
        res.end(JSON.stringify({ url: req.url, host: req.headers.host, ua: req.headers['user-agent'] })),
    });
    const res = await client().request('https://acme.test/echo?a=1&b=two', { kind: 'api' });
    expect(res.status).toBe(200);
    expect(res.url).toBe('https://acme.test/echo?a=1&b=two');
    expect(JSON.parse(res.body)).toEqual({
      url: '/echo?a=1&b=two',
      host: 'acme.test',
      ua: 'FrontlineBot/0.1 (+https://frontline.test/bot)',
    });
  });

  it("names the deployment's contact in the User-Agent: USER_AGENT_CONTACT, else PUBLIC_BASE_URL, else none", async () => {
    sites.setRoute('acme.test', '/ua', { handler: (req, res) => res.end(String(req.headers['user-agent'])) });
    const cases: [Record<string, string>, string][] = [
      [
        { USER_AGENT_CONTACT: 'mailto:crawler@jobs.example.org' },
        'FrontlineBot/0.1 (+mailto:crawler@jobs.example.org)',
      ],
      [
        { USER_AGENT_CONTACT: 'https://jobs.example.org/bot', PUBLIC_BASE_URL: 'https://jobs.example.org' },
        'FrontlineBot/0.1 (+https://jobs.example.org/bot)',
      ],
      [{ PUBLIC_BASE_URL: 'https://jobs.example.org/' }, 'FrontlineBot/0.1 (+https://jobs.example.org)'],
      [{}, 'FrontlineBot/0.1'],
    ];
    for (const [env, ua] of cases) {
      const options = clientOptionsFromConfig(parseConfig(env));
      const c = client({ userAgentContact: options.userAgentContact });
      expect((await c.request('https://acme.test/ua', { kind: 'api' })).body, JSON.stringify(env)).toBe(ua);
    }
    expect(() => parseConfig({ USER_AGENT_CONTACT: 'crawler at example' })).toThrow(/USER_AGENT_CONTACT/);
  });

  it('follows redirects between mapped hosts and reports the logical final URL', async () => {
    sites.setRoute('acme.test', '/jobs', { status: 301, location: 'https://other.test/careers?src=acme' });
    sites.setRoute('other.test', '/careers', 'careers page');
    const res = await client().request('https://acme.test/jobs', { kind: 'api' });
    expect(res).toMatchObject({
      status: 200,
      url: 'https://other.test/careers?src=acme',
      body: 'careers page',
      redirects: 1,
    });
  });

  it('a 303 after POST continues as GET', async () => {
    sites.setRoute('acme.test', '/form', { status: 303, location: '/done' });
    sites.setRoute('acme.test', '/done', { handler: (req, res) => res.end(req.method) });
    const res = await client().request('https://acme.test/form', {
      kind: 'api',
      method: 'POST',
      body: 'x=1',
    });
    expect(res.body).toBe('GET');
  });
});

describe('SSRF refusals', () => {
  it.each([
    ['http://private.test.example/', '10.0.0.7'],
    ['http://mixed.test.example/', '192.168.0.10'],
    ['http://metadata.test.example/latest/meta-data/', '169.254.169.254'],
    ['http://mapped6.test.example/', '::ffff:127.0.0.1'],
  ])('%s is refused at connect time, without saying what it resolves to (%s)', async (url, address) => {
    const err = await failure(client().request(url, { kind: 'api' }));
    expect(err.reason).toBe('blocked_address');
    expect(err.message).toBe(`${new URL(url).hostname} does not resolve to a public address`);
    expect(err.message).not.toContain(address);
    expect(err.retryable).toBe(false);
  });

  it('page fetches refuse a private host before even asking for robots.txt', async () => {
    const before = sites.requests.length;
    const err = await failure(client().request('http://loopback.test.example/'));
    expect(err.reason).toBe('blocked_address');
    expect(sites.requests.length).toBe(before);
  });

  it.each([
    ['a loopback literal', () => `http://127.0.0.1:${new URL(sites.origin).port}/`, 'blocked_address'],
    ['localhost', () => 'http://localhost/', 'blocked_address'],
    ['a decimal IP', () => 'http://2130706433/', 'blocked_address'],
    ['an IPv6-mapped loopback', () => 'http://[::ffff:127.0.0.1]/', 'blocked_address'],
    ['the metadata address', () => 'http://169.254.169.254/latest/meta-data/', 'blocked_address'],
    ['a name resolving to 10/8', () => 'http://private.test.example/', 'blocked_address'],
    ['a file: URL', () => 'file:///etc/passwd', 'blocked_scheme'],
  ])('a redirect from a mapped host to %s is refused', async (_name, target, reason) => {
    const path = `/redirect-${Math.random().toString(36).slice(2)}`;
    sites.setRoute('acme.test', path, { status: 302, location: target() });
    const before = sites.requests.length;
    const err = await failure(client().request(`https://acme.test${path}`, { kind: 'api' }));
    expect(err.reason).toBe(reason);
    // Only the redirecting request reached the server: the loopback target was never connected to.
    expect(sites.requests.length).toBe(before + 1);
  });

  it.each([
    ['an unterminated IPv6 host', 'http://[::1'],
    ['a host with a space', 'http://ex ample.test/'],
    [
      'a raw UTF-8 host, read as Latin-1 bytes',
      Buffer.from('http://bücher.test/', 'utf8').toString('latin1'),
    ],
  ])('a redirect to %s fails that request as an invalid URL, not an exception', async (_name, location) => {
    const path = `/redirect-${Math.random().toString(36).slice(2)}`;
    sites.setRoute('acme.test', path, { status: 302, location });
    const err = await failure(client().request(`https://acme.test${path}`, { kind: 'api' }));
    expect(err).toBeInstanceOf(OutboundError);
    expect(['invalid_url', 'blocked_address', 'dns']).toContain(err.reason);
    expect(err.retryable).toBe(false);
  });

  it('stops after 5 redirects', async () => {
    for (let i = 0; i < 7; i += 1)
      sites.setRoute('acme.test', `/hop${i}`, { status: 302, location: `/hop${i + 1}` });
    sites.setRoute('acme.test', '/hop7', 'end');
    const err = await failure(client().request('https://acme.test/hop0', { kind: 'api' }));
    expect(err.reason).toBe('too_many_redirects');
    const ok = await client().request('https://acme.test/hop2', { kind: 'api' });
    expect(ok.redirects).toBe(5);
  });

  it('unknown names fail as dns errors without retries', async () => {
    const c = client();
    const err = await failure(c.request('https://nowhere.test.example/', { kind: 'api' }));
    expect(err.reason).toBe('dns');
    expect(err.retryable).toBe(false);
    expect(c.sleeps).toEqual([]);
  });
});

describe('timeouts and size caps', () => {
  it('times out when headers never come', async () => {
    sites.setRoute('acme.test', '/hang', { handler: () => undefined });
    const err = await failure(
      client({ headersTimeoutMs: 100, maxAttempts: 1 }).request('https://acme.test/hang', { kind: 'api' }),
    );
    expect(err.reason).toBe('timeout');
    expect(err.retryable).toBe(true);
  });

  it('a slow-loris body is cut off by the total budget', async () => {
    sites.setRoute('acme.test', '/drip', {
      handler: (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const timer = setInterval(() => res.write('x'), 20);
        res.on('close', () => clearInterval(timer));
      },
    });
    const err = await failure(
      client({ maxAttempts: 1 }).request('https://acme.test/drip', { kind: 'api', timeoutMs: 250 }),
    );
    expect(err.reason).toBe('timeout');
  });

  it('refuses a body over the cap, declared or streamed, and a gzip bomb', async () => {
    const big = 'a'.repeat(20_000);
    sites.setRoute('acme.test', '/big', big);
    sites.setRoute('acme.test', '/big-chunked', {
      handler: (_req, res) => {
        res.write(big);
        res.end(big);
      },
    });
    sites.setRoute('acme.test', '/bomb', {
      headers: { 'content-encoding': 'gzip' },
      body: gzipSync(Buffer.alloc(5_000_000)),
    });
    const c = client({ maxBytes: 10_000 });
    for (const path of ['/big', '/big-chunked', '/bomb']) {
      const err = await failure(c.request(`https://acme.test${path}`, { kind: 'api' }));
      expect(err.reason).toBe('too_large');
      expect(err.message).toContain('10000 bytes');
    }
    const ok = await c.request('https://acme.test/big', { kind: 'api', maxBytes: 30_000 });
    expect(ok.body).toHaveLength(20_000);
  });

  it('decompresses gzip bodies', async () => {
    sites.setRoute('acme.test', '/gz', {
      headers: { 'content-encoding': 'gzip' },
      body: gzipSync('hello gzip'),
    });
    expect((await client().request('https://acme.test/gz', { kind: 'api' })).body).toBe('hello gzip');
  });
});

describe('robots.txt', () => {
  beforeAll(() => {
    sites.setRoute(
      'acme.test',
      '/robots.txt',
      'User-agent: *\nDisallow: /private\n\nUser-agent: FrontlineBot\nDisallow: /nobots\nAllow: /\n',
    );
    sites.setRoute('acme.test', '/nobots/page', 'secret');
    sites.setRoute('acme.test', '/private/page', 'for us');
  });

  it('obeys the group for our agent (which does not inherit *), caches the file per origin', async () => {
    const c = client();
    const before = sites.requests.filter((r) => r.path === '/robots.txt').length;
    const err = await failure(c.request('https://acme.test/nobots/page'));
    expect(err.reason).toBe('robots_disallowed');
    expect((await c.request('https://acme.test/private/page')).body).toBe('for us');
    expect(sites.requests.filter((r) => r.path === '/robots.txt').length).toBe(before + 1);
  });

  it('api requests skip robots.txt', async () => {
    const res = await client().request('https://acme.test/nobots/page', { kind: 'api' });
    expect(res.body).toBe('secret');
  });

  it('re-reads robots.txt after the TTL', async () => {
    let now = 1_000_000;
    const c = client({ now: () => now, robotsTtlMs: 60_000 });
    const count = () => sites.requests.filter((r) => r.path === '/robots.txt').length;
    const before = count();
    await c.request('https://acme.test/private/page');
    await c.request('https://acme.test/private/page');
    now += 61_000;
    await c.request('https://acme.test/private/page');
    expect(count()).toBe(before + 2);
  });

  it('a missing robots.txt allows everything; an erroring one disallows everything', async () => {
    sites.setRoute('other.test', '/page', 'ok');
    expect((await client().request('https://other.test/page')).body).toBe('ok');
    sites.setRoute('other.test', '/robots.txt', { status: 503 });
    const err = await failure(client().request('https://other.test/page'));
    expect(err.reason).toBe('robots_disallowed');
    sites.setRoute('other.test', '/robots.txt', { status: 404 });
  });

  it('checks robots.txt of every origin a redirect visits', async () => {
    sites.setRoute('other.test', '/to-acme', { status: 302, location: 'https://acme.test/nobots/page' });
    const err = await failure(client().request('https://other.test/to-acme'));
    expect(err.reason).toBe('robots_disallowed');
  });
});

describe('retries and politeness', () => {
  it('retries a 429 after its Retry-After, then succeeds', async () => {
    let calls = 0;
    sites.setRoute('acme.test', '/limited', {
      handler: (_req, res) => {
        calls += 1;
        if (calls < 3) {
          res.writeHead(calls === 1 ? 429 : 503, { 'retry-after': String(calls) });
          res.end();
        } else res.end('finally');
      },
    });
    const c = client();
    const res = await c.request('https://acme.test/limited', { kind: 'api' });
    expect(res.body).toBe('finally');
    expect(c.sleeps).toEqual([1000, 2000]);
  });

  it('returns the last 503 when attempts run out, with exponential backoff between', async () => {
    sites.setRoute('acme.test', '/down', { status: 503 });
    const c = client({ random: () => 1, backoffBaseMs: 100 });
    const res = await c.request('https://acme.test/down', { kind: 'api' });
    expect(res.status).toBe(503);
    expect(c.sleeps).toEqual([100, 200]);
    const err = await failure(c.getJson('https://acme.test/down', { kind: 'api' }));
    expect(err).toMatchObject({ reason: 'http_status', status: 503, retryable: true });
  });

  it('does not wait for a Retry-After beyond the bound, and never retries POST', async () => {
    sites.setRoute('acme.test', '/later', { status: 429, headers: { 'retry-after': '3600' } });
    const c = client();
    expect((await c.request('https://acme.test/later', { kind: 'api' })).status).toBe(429);
    sites.setRoute('acme.test', '/post-down', { status: 503 });
    expect(
      (await c.request('https://acme.test/post-down', { kind: 'api', method: 'POST', body: '{}' })).status,
    ).toBe(503);
    expect(c.sleeps).toEqual([]);
  });

  it('retries connection failures of GETs, then reports them as retryable', async () => {
    const c = client({ hostMap: { 'closed.test': 'http://127.0.0.1:1' } });
    const err = await failure(c.request('https://closed.test/', { kind: 'api' }));
    expect(err.reason).toBe('connect');
    expect(err.retryable).toBe(true);
    expect(c.sleeps).toHaveLength(2);
  });

  it('keeps at most 2 requests in flight per host and spaces their starts', async () => {
    // The fake holds every response until the test lets it go, so "in flight" does not depend on timing.
    const held: Array<{ end(body: string): void }> = [];
    let releasing = false;
    sites.setRoute('acme.test', '/slow', {
      handler: (_req, res) => {
        if (releasing) res.end('ok');
        else held.push(res);
      },
    });
    let now = 0;
    const c = client({ apiHostDelayMs: 500, now: () => now });
    const sleepsBefore = c.sleeps.length;
    const all = Promise.all(
      Array.from({ length: 5 }, () => c.request('https://acme.test/slow', { kind: 'api' })),
    );
    await expect.poll(() => held.length, { interval: 10 }).toBe(2);
    // Two requests are held at the server; the other three wait for a slot (a slot taken is a start spaced by a
    // sleep after the first), so only one spacing sleep has been asked for.
    expect(c.sleeps.slice(sleepsBefore)).toEqual([500]);
    held.shift()?.end('ok');
    await expect.poll(() => held.length, { interval: 10 }).toBe(2);
    expect(c.sleeps.slice(sleepsBefore)).toEqual([500, 1000]);
    releasing = true;
    for (const res of held.splice(0)) res.end('ok');
    expect((await all).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    // The clock never moves, so each later start waits for its reserved slot: 500, 1000, ... ms.
    expect(c.sleeps.slice(sleepsBefore)).toEqual([500, 1000, 1500, 2000]);
    now = 0;
  });

  it('getJson parses JSON and refuses non-JSON bodies clearly', async () => {
    sites.setRoute('acme.test', '/data.json', {
      headers: { 'content-type': 'application/json' },
      body: '{"ok":true}',
    });
    sites.setRoute('acme.test', '/not-json', '<html>');
    const c = client();
    expect((await c.getJson('https://acme.test/data.json', { kind: 'api' })).data).toEqual({ ok: true });
    const err = await failure(c.getJson('https://acme.test/not-json', { kind: 'api' }));
    expect(err.reason).toBe('invalid_json');
  });
});
