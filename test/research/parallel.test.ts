import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DossierSchema } from '../../src/research/dossier.js';
import { addCompany } from '../catalog/fixtures.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { FakeParallel } from '../support/fake-parallel.js';
import { TEAMCO_DOSSIER } from './fixtures.js';

/**
 * Deep research with PARALLEL_API_KEY set, against a fake Parallel Task API speaking its wire format: run
 * creation (202), queued -> running -> completed with 408 holds, failed runs, 429/402/503, and the 202 answer
 * when a run outlasts DEEP_RESEARCH_WAIT_S. The wait is the longest allowed (an hour), so no run is cut short
 * on a loaded machine; the 202 case pauses the fake and moves the injected wall clock past the wait instead of
 * waiting for it.
 */

const KEY = 'par_test_key_123';
let parallel: FakeParallel;
let t: TestApp;
let acme: { id: string; slug: string };
/** Added to Date.now for the service's wait: moving it forward ends a request's wait at once. */
let skewMs = 0;
const WAIT_S = 3_600;

const post = (body: object) =>
  t.request({ method: 'POST', url: '/api/v1/deep-research', payload: body, token: t.token });

beforeAll(async () => {
  parallel = await new FakeParallel({
    apiKey: KEY,
    output: () => ({
      content: { ...TEAMCO_DOSSIER, foundedYear: '2019', employeeCount: 'unknown', headquarters: 'N/A' },
      basis: [
        {
          field: 'founders',
          reasoning: 'Team page',
          citations: [
            { url: 'https://acme.com/team', title: 'Team', excerpts: ['Ada Lovelace, CEO'] },
            { url: 'https://news.example.org/acme-series-a', title: null, excerpts: null },
          ],
          confidence: 'high',
        },
        {
          field: 'foundedYear',
          reasoning: 'About',
          citations: [{ url: 'https://acme.com/team', title: 'Team' }],
        },
      ],
    }),
  }).start();
  t = await startTestApp({
    env: {
      PARALLEL_API_KEY: KEY,
      OUTBOUND_HOST_MAP: `api.parallel.ai=${parallel.url}`,
      DEEP_RESEARCH_WAIT_S: String(WAIT_S),
    },
    wallClock: () => Date.now() + skewMs,
  });
  await t.deps.pipeline.start();
  acme = await addCompany(t.deps.db, { name: 'Acme', domain: 'acme.com' }, t.clock.now());
  // Loads the embedding model once, so the first run's reindex step fits the short wait like the others.
  await t.deps.searchParts.indexer.embedIds('company', [acme.id]);
});

afterAll(async () => {
  await t?.close();
  await parallel?.stop();
});

describe('Parallel provider', () => {
  it('creates a run, waits through 408 holds and stores the structured dossier with citations and cost', async () => {
    const res = await post({ domain: 'acme.com', processor: 'core' });
    expect(res.statusCode).toBe(200);
    const { research, run, processor, mode } = res.json().data;
    expect({ processor, mode }).toEqual({ processor: 'core', mode: 'full' });
    expect(Value.Check(DossierSchema, research)).toBe(true);
    expect(research.provider).toBe('parallel');
    expect(research.founders.map((f: { name: string }) => f.name)).toEqual([
      'Ada Lovelace',
      'Charles Babbage',
    ]);
    expect(research.foundedYear).toBe(2019);
    // Vendor placeholders for unknown facts become null, never a value.
    expect(research.employeeCount).toBeNull();
    expect(research.headquarters).toBeNull();
    expect(research.competitors).toEqual([
      { name: 'PickBot', domain: 'pickbot.com', note: 'Targets large warehouses' },
    ]);
    expect(research.markdownReport).toMatch(/^# TeamCo/);
    expect(research.sources).toEqual([
      { url: 'https://acme.com/team', title: 'Team' },
      { url: 'https://news.example.org/acme-series-a', title: null },
    ]);
    expect(run).toMatchObject({ provider: 'parallel', providerProcessor: 'core', costUsd: 0.025 });

    const [created] = [...parallel.runs.values()];
    expect(created?.processor).toBe('core');
    // The fake moved the run through the vendor's states, one per result call.
    expect(created?.history).toEqual(['queued', 'running', 'completed']);
    expect(created?.input).toMatchObject({ company_name: 'Acme', domain: 'acme.com' });
    const spec = created?.taskSpec as {
      output_schema: { type: string; json_schema: Record<string, unknown> };
    };
    const schema = spec.output_schema;
    expect(schema.type).toBe('json');
    expect(schema.json_schema.additionalProperties).toBe(false);
    expect(schema.json_schema.required).toEqual(
      expect.arrayContaining(['founders', 'fundingRounds', 'markdownReport']),
    );
    // Every call carried the key; the result endpoint was held (408) before it answered.
    expect(parallel.requests.every((r) => r.apiKey === KEY)).toBe(true);
    expect(parallel.requests.filter((r) => r.path.endsWith('/result')).length).toBeGreaterThanOrEqual(2);

    const company = (await t.get(`/api/v1/companies/${acme.id}`)).json().data;
    expect(company.funding).toEqual({ summary: 'Series A (2024-03), $20M total', totalUsd: 20_000_000 });
    expect(company.foundedYear).toBe(2019);
  });

  it('uses the -fast processor variants in fast mode', async () => {
    const res = await post({ domain: 'acme.com', mode: 'fast', processor: 'pro' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.run).toMatchObject({ providerProcessor: 'pro-fast', costUsd: 0.1, mode: 'fast' });
  });

  it('retries 429 and 503 on creation and 503 on the result endpoint', async () => {
    parallel.failNext(429, 1, /^\/v1\/tasks\/runs$/);
    parallel.failNext(503, 1, /^\/v1\/tasks\/runs$/);
    parallel.failNext(503, 1, /\/result$/);
    const res = await post({ domain: 'acme.com', processor: 'lite' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.run.providerProcessor).toBe('lite');
  });

  it('reports insufficient credit (402) as a provider failure, storing nothing', async () => {
    const before = (await t.get('/api/v1/deep-research/acme.com/runs', t.token)).json().data.runs.length;
    parallel.failNext(402, 1, /^\/v1\/tasks\/runs$/);
    const res = await post({ domain: 'acme.com', processor: 'ultra' });
    expect(res.statusCode).toBe(502);
    expect(res.json().error).toEqual({
      code: 'SERVER_ERROR',
      message: expect.stringMatching(/Parallel: creating a ultra run failed \(402\): insufficient credit/),
    });
    const after = (await t.get('/api/v1/deep-research/acme.com/runs', t.token)).json().data.runs.length;
    expect(after).toBe(before);
  });

  it('reads the error of a failed run (404 on the result endpoint)', async () => {
    parallel.failNextRun = true;
    const res = await post({ domain: 'acme.com', processor: 'core2x' });
    expect(res.statusCode).toBe(502);
    expect(res.json().error.message).toMatch(
      /run trun_\w+ failed: failed: Task execution failed: source unavailable/,
    );
  });

  it('answers 202 with a workflow handle when the run outlasts the wait, and stores the dossier later', async () => {
    const runsBefore = (await t.get('/api/v1/deep-research/acme.com/runs', t.token)).json().data.runs.length;
    // The run cannot finish while the fake is paused. Once the run's result endpoint has been called, the wall
    // clock moves past the wait, so the request answers 202 at its next status check.
    parallel.paused = true;
    const resultCalls = () => parallel.requests.filter((r) => r.path.endsWith('/result')).length;
    const callsBefore = resultCalls();
    const pending = post({ domain: 'acme.com', processor: 'base' });
    await expect.poll(resultCalls, { interval: 20 }).toBeGreaterThan(callsBefore);
    skewMs += (WAIT_S + 1) * 1000;
    const res = await pending;
    expect(res.statusCode).toBe(202);
    const { workflowId, status } = res.json().data;
    expect(typeof workflowId).toBe('string');
    expect(['enqueued', 'running']).toContain(status);
    // A second caller joins the same run (no second Parallel run) and, the run ending within its wait, gets it.
    const createsBefore = parallel.requests.filter((r) => r.method === 'POST').length;
    parallel.paused = false;
    const again = await post({ domain: 'acme.com', processor: 'base' });
    expect(again.statusCode).toBe(200);
    expect(parallel.requests.filter((r) => r.method === 'POST').length).toBe(createsBefore);
    const view = async () => {
      const v = (await t.get(`/api/v1/workflows/${workflowId}`, t.token)).json().data;
      return v.status === 'enqueued' || v.status === 'running' ? 'active' : v;
    };
    await expect.poll(view, { interval: 50 }).toMatchObject({ name: 'deep-research', status: 'succeeded' });
    const latest = await t.get('/api/v1/deep-research/acme.com', t.token);
    expect(latest.json().data.run).toMatchObject({ processor: 'base', providerProcessor: 'base' });
    expect(latest.json().data.run.id).toBe(again.json().data.run.id);
    const runsAfter = (await t.get('/api/v1/deep-research/acme.com/runs', t.token)).json().data.runs.length;
    expect(runsAfter).toBe(runsBefore + 1);
  });
});
