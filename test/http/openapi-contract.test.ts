import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCompany } from '../catalog/fixtures.js';
import {
  companySite,
  type Fixture,
  generatePostings,
  hostMapEnv,
  startFixture,
} from '../pipeline/support.js';
import { TEAMCO } from '../research/fixtures.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { type FakeSites, startFakeSites } from '../support/fake-site.js';
import {
  type CallOptions,
  OpenApiClient as Client,
  type OpenApiClient,
  type OpenApiDocument,
  type Operation,
} from '../support/openapi-client.js';

/**
 * Every operation of the served document, called over real HTTP by a client generated from that document, on the
 * sample catalog: each answer it provokes (success and error statuses alike) must be a status the operation
 * declares, in a declared media type, with a body matching the declared schema and only declared headers.
 */

async function listen(t: TestApp): Promise<OpenApiClient> {
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const doc = (await (await fetch(`${address}/api/v1/openapi.json`)).json()) as OpenApiDocument;
  return new Client(doc, address);
}

const BAD_TOKEN = 'fl_not-a-real-token-at-all';
const UNKNOWN: Record<string, string> = {
  domain: 'never-tracked-company.com',
  id: '00000000-0000-4000-8000-00000000abcd',
};

let fx: Fixture;
let sites: FakeSites;
let t: TestApp;
let client: OpenApiClient;
/** Valid inputs for each operation, filled by the success calls. */
const valid: Record<string, CallOptions> = {};

beforeAll(async () => {
  fx = await startFixture({
    greenhouse: { contractco: generatePostings(2, 'c') },
    sites: { 'contractco.com': companySite('ContractCo', ['https://boards.greenhouse.io/contractco']) },
  });
  sites = await startFakeSites({ 'teamco.com': TEAMCO });
  t = await startTestApp({
    env: {
      SAMPLE_DATA: '1',
      OUTBOUND_HOST_MAP: hostMapEnv(fx.hostMap, sites.hostMap),
      DEEP_RESEARCH_WAIT_S: '60',
    },
  });
  await t.deps.pipeline.start();
  await addCompany(
    t.deps.db,
    { name: 'TeamCo', domain: 'teamco.com', oneLiner: 'Warehouse robots' },
    t.clock.now(),
  );
  client = await listen(t);
});
afterAll(async () => {
  await t?.close();
  await sites?.close();
  await fx?.close();
});

/** The inputs that succeeded on an operation; a HEAD operation takes those of the GET on its path. */
function inputsOf(op: Operation): CallOptions {
  const get = [...client.operations.values()].find((o) => o.path === op.path && o.method === 'GET');
  return valid[op.id] ?? (get ? valid[get.id] : undefined) ?? {};
}

const data = (body: unknown) => (body as { data: Record<string, unknown> & Record<string, unknown>[] }).data;

describe('the served document, through a client generated from it', () => {
  it('answers every operation with its declared success status and schema', async () => {
    const token = t.token;
    const success = async (id: string, status: number, options: CallOptions = {}) => {
      const res = await client.call(id, options);
      expect(res.status, `${id}: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(status);
      valid[id] = options;
      return res.body;
    };
    await success('getLiveness', 200);
    await success('getReadiness', 200);
    await success('getMetrics', 200);
    await success('getMe', 200, { token });
    await success('getOpenApiDocument', 200);
    const jobs = data(await success('listJobs', 200, { query: { limit: '5', client_facing: 'true' } }));
    await success('listJobs', 200, { query: { search: 'solutions engineer', remote_only: 'true' }, token });
    await success('getJob', 200, { params: { id: String(jobs[0]?.id) } });
    const companies = data(await success('listCompanies', 200, { query: { limit: '3' } }));
    await success('getCompany', 200, { params: { id: String(companies[0]?.slug) } });
    await success('listTags', 200);
    await success('getStats', 200);
    const slug = String(companies[0]?.slug);
    await success('getCompanyHiring', 200, {
      params: { id: slug },
      query: { interval: 'month', format: 'svg' },
    });
    await success('getCompanyHiring', 200, { params: { id: slug }, query: { interval: 'month' } });
    await success('getHiringTrends', 200, { query: { interval: 'week', format: 'svg' } });
    await success('getHiringTrends', 200, { query: { interval: 'month', client_facing: 'true' } });
    await success('listNewlyHiring', 200, { query: { client_facing: 'true', days: '90' } });
    await success('getTimeToClose', 200, { query: { role_category: 'fde' } });
    await success('getHome', 200);
    await success('getJobFeed', 200, { query: { client_facing: 'true' } });
    const rpc = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const listed = (await success('postMcp', 200, { body: rpc })) as { result: { tools: unknown[] } };
    expect(listed.result.tools.length).toBeGreaterThan(0);
    const sighting = { source: 'contract-test', key: { domain: 'contractco.com' } };
    await success('appendSightings', 200, { token, body: { items: [sighting, { source: '' }] } });
    await success('listCandidates', 200, { token });
    const onboarded = data(
      await success('onboardCompany', 202, { token, body: { name: 'ContractCo', domain: 'contractco.com' } }),
    );
    const workflowId = String(onboarded.workflowId);
    await success('getWorkflow', 200, { token, params: { workflowId } });
    await t.deps.pipeline.engine.waitFor(workflowId);
    await success('getWorkflow', 200, { token, params: { workflowId } });
    await success('enrichCompany', 202, { token, body: { domain: 'contractco.com' } });
    const promoted = data(await success('promoteAndOnboard', 202, { token }));
    await success('promoteAndOnboard', 202, { token, body: { limit: 5 } });
    await t.deps.pipeline.engine.waitFor(String(promoted.workflowId));
    await success('startDeepResearch', 200, { token, body: { domain: 'teamco.com' } });
    await success('getDeepResearch', 200, { token, params: { domain: 'teamco.com' } });
    await success('listDeepResearchRuns', 200, { token, params: { domain: 'teamco.com' } });
    // Watches: one deleted after its test message, one kept for the reads below.
    const hook = { url: 'https://hooks.contractco.com/frontline', filters: { client_facing: true } };
    const gone = data(await success('createWatch', 201, { token, body: hook }));
    await success('testWatch', 202, { token, params: { id: String(gone.id) } });
    await success('deleteWatch', 200, { token, params: { id: String(gone.id) } });
    const kept = data(
      await success('createWatch', 201, { token, body: { ...hook, search: 'solutions engineer' } }),
    );
    await success('listWatches', 200, { token });
    await success('getWatch', 200, { token, params: { id: String(kept.id) } });
    await success('listWatchDeliveries', 200, { token, params: { id: String(kept.id) } });
  });

  it('answers 304 to a matching If-None-Match on every read, and HEAD with headers only', async () => {
    for (const op of [...client.operations.values()].filter((o) => o.method === 'GET')) {
      const options = inputsOf(op);
      // Every scrape's counters differ, so /metrics never matches its previous ETag.
      if (op.path !== '/metrics') {
        const first = await client.call(op.id, options);
        const etag = first.headers.get('etag');
        expect(etag, op.id).toBeTruthy();
        const again = await client.call(op.id, { ...options, headers: { 'if-none-match': String(etag) } });
        expect(again.status, op.id).toBe(304);
      }
      const head = [...client.operations.values()].find((o) => o.path === op.path && o.method === 'HEAD');
      expect(head, `HEAD ${op.path}`).toBeDefined();
      if (head) expect((await client.call(head.id, options)).status, head.id).toBe(200);
    }
  });

  it('refuses an undeclared query parameter on every operation, naming it', async () => {
    for (const op of client.operations.values()) {
      const res = await client.call(op.id, { ...inputsOf(op), undeclaredQuery: { bogus_filter: '1' } });
      expect(res.status, op.id).toBe(400);
      if (op.method !== 'HEAD') expect(JSON.stringify(res.body), op.id).toContain("'bogus_filter'");
    }
  });

  it('answers 401 without a token and 403 with an invalid one', async () => {
    for (const op of client.operations.values()) {
      // /metrics answers 401 and 403 only when METRICS_TOKEN is set (or to other addresses): see the app below.
      if (op.path === '/metrics') continue;
      const options = { ...inputsOf(op), token: BAD_TOKEN };
      expect((await client.call(op.id, options)).status, op.id).toBe(403);
      if (!('401' in op.doc.responses)) continue;
      expect((await client.call(op.id, { ...options, token: null })).status, op.id).toBe(401);
    }
  });

  it('answers 404 for an unknown path parameter, 405 for another method on the path', async () => {
    for (const op of client.operations.values()) {
      const options = inputsOf(op);
      for (const name of Object.keys(options.params ?? {})) {
        const params = { ...options.params, [name]: UNKNOWN[name] ?? 'no-such-thing' };
        if (op.method === 'GET' || op.method === 'HEAD') {
          expect((await client.call(op.id, { ...options, params })).status, op.id).toBe(404);
        }
      }
      // A HEAD operation declares no body, so the wrong method is sent on its GET's behalf.
      if (op.method === 'HEAD') continue;
      const res = await client.call(op.id, { ...options, method: 'PUT' });
      expect(res.status, op.id).toBe(405);
      expect(res.headers.get('allow'), op.id).toContain(op.method);
    }
  });

  it('answers 413 for an oversized body and 415 for a body that is not JSON', async () => {
    for (const op of [...client.operations.values()].filter((o) => o.doc.requestBody)) {
      const token = t.token;
      // Over every operation's limit (1 MB; 8 MB on /discover).
      const huge = JSON.stringify({ pad: 'x'.repeat(9 * 1024 * 1024) });
      expect((await client.call(op.id, { token, rawBody: huge })).status, op.id).toBe(413);
      for (const contentType of ['application/xml', 'application/x-www-form-urlencoded']) {
        const res = await client.call(op.id, { token, rawBody: 'a=1', contentType });
        expect(res.status, `${op.id} ${contentType}`).toBe(415);
      }
    }
  });

  it('every operation was called, and every shared status it declares was provoked', () => {
    for (const op of client.operations.values()) {
      const seen = client.seen.get(op.id) ?? new Set<number>();
      const expected = [400].concat(op.doc.requestBody ? [413, 415] : []);
      if (op.path !== '/metrics') expected.push(403);
      if (op.method !== 'HEAD') expected.push(405);
      if (op.method === 'GET' && op.path !== '/metrics') expected.push(304);
      if ('401' in op.doc.responses && op.path !== '/metrics') expected.push(401);
      for (const status of expected) expect(seen.has(status), `${op.id} ${status}`).toBe(true);
      expect(
        [...seen].some((s) => s >= 200 && s < 300),
        `${op.id} success`,
      ).toBe(true);
    }
  });
});

describe('rate limits and the metrics secret, through the same client', () => {
  let limited: TestApp;
  let limitedClient: OpenApiClient;
  beforeAll(async () => {
    limited = await startTestApp({
      env: { RATE_LIMIT_ANONYMOUS: '2', RATE_LIMIT_TOKEN: '2', METRICS_TOKEN: 'metrics-secret-for-tests' },
    });
    limitedClient = await listen(limited);
  });
  afterAll(async () => limited?.close());

  it('answers 429 with Retry-After on every rate-limited operation, 401 on /metrics without its secret', async () => {
    const exempt = new Set(['/healthz', '/readyz', '/metrics']);
    // A fresh window: reading the document to build the client counted too.
    limited.clock.advance(limited.config.rateLimit.windowMs);
    for (const op of limitedClient.operations.values()) {
      if (exempt.has(op.path) || op.method === 'HEAD') continue;
      const token = '401' in op.doc.responses ? limited.token : null;
      // An undeclared parameter: each call is refused (400) once admitted, so none does any work.
      const call = () => limitedClient.call(op.id, { ...inputsOf(op), token, undeclaredQuery: { x: '1' } });
      const statuses = [(await call()).status, (await call()).status];
      const res = await call();
      expect([...statuses, res.status], op.id).toEqual([400, 400, 429]);
      expect(Number(res.headers.get('retry-after')), op.id).toBeGreaterThan(0);
      limited.clock.advance(limited.config.rateLimit.windowMs);
    }
    expect((await limitedClient.call('getMetrics')).status).toBe(401);
    expect((await limitedClient.call('getMetrics', { token: BAD_TOKEN })).status).toBe(403);
    const scrape = await limitedClient.call('getMetrics', { token: 'metrics-secret-for-tests' });
    expect(scrape.status).toBe(200);
    expect(String(scrape.body)).toContain('frontline_');
  });
});
