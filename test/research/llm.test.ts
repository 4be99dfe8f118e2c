import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DossierSchema } from '../../src/research/dossier.js';
import { addCompany, addJobs } from '../catalog/fixtures.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { completion, type FakeLlm, startFakeLlm } from '../support/fake-llm.js';
import { type FakeSites, startFakeSites } from '../support/fake-site.js';
import { QUIETCO, TEAMCO, TEAMCO_DOSSIER } from './fixtures.js';

/**
 * Deep research with LLM_BASE_URL set (and no Parallel key): the service gathers evidence from the fixture sites
 * and asks a fake OpenAI-compatible server for the dossier with a JSON schema.
 */

let sites: FakeSites;
let llm: FakeLlm;
let t: TestApp;
let teamco: { id: string; slug: string };
/** What the model answers next (an object is sent as JSON content), and how many calls fail first with 503. */
let answer: () => unknown = () => TEAMCO_DOSSIER;
let failures = 0;

interface ChatBody {
  model: string;
  temperature: number;
  messages: { role: string; content: string }[];
  response_format: unknown;
}

const post = (body: object) =>
  t.request({ method: 'POST', url: '/api/v1/deep-research', payload: body, token: t.token });
const lastBody = () => llm.requests.at(-1)?.body as unknown as ChatBody;
const lastPrompt = () => lastBody().messages.find((m) => m.role === 'user')?.content ?? '';

beforeAll(async () => {
  sites = await startFakeSites({ 'teamco.com': TEAMCO, 'quietco.com': QUIETCO });
  llm = await startFakeLlm(() => {
    if (failures > 0) {
      failures -= 1;
      return { status: 503, body: { error: { message: 'overloaded' } } };
    }
    const out = answer();
    return { body: completion(typeof out === 'string' ? out : JSON.stringify(out)) };
  });
  const map = { ...sites.hostMap, 'llm.example.com': new URL(llm.baseUrl).origin };
  t = await startTestApp({
    env: {
      LLM_BASE_URL: 'https://llm.example.com/v1',
      LLM_MODEL: 'test-model',
      LLM_API_KEY: 'sk-test',
      OUTBOUND_HOST_MAP: Object.entries(map)
        .map(([h, o]) => `${h}=${o}`)
        .join(','),
      DEEP_RESEARCH_WAIT_S: '60',
    },
  });
  await t.deps.pipeline.start();
  const now = t.clock.now();
  teamco = await addCompany(t.deps.db, { name: 'TeamCo', domain: 'teamco.com' }, now);
  await addCompany(t.deps.db, { name: 'QuietCo', domain: 'quietco.com' }, now);
  await addJobs(
    t.deps.db,
    [
      {
        companyId: teamco.id,
        companyName: 'TeamCo',
        title: 'Forward Deployed Engineer',
        roleCategory: 'fde',
        postedAt: new Date(now),
      },
    ],
    now,
  );
  await t.deps.searchParts.indexer.embedIds('company', [teamco.id]);
});

afterAll(async () => {
  await t?.close();
  await llm?.close();
  await sites?.close();
});

describe('LLM provider', () => {
  it('sends the gathered evidence with a strict JSON schema and stores the validated answer', async () => {
    answer = () => ({
      ...TEAMCO_DOSSIER,
      // Not on any page: a model that invents people or years must not get them into the dossier.
      founders: [
        ...TEAMCO_DOSSIER.founders,
        { name: 'Imaginary Person', role: 'Co-founder', background: null, links: [] },
      ],
      leadership: [
        { name: 'Grace Hopper', title: 'VP Engineering' },
        { name: 'Made Up', title: 'CFO' },
      ],
    });
    const res = await post({ domain: 'teamco.com' });
    expect(res.statusCode).toBe(200);
    const d = res.json().data.research;
    expect(Value.Check(DossierSchema, d)).toBe(true);
    expect(d.provider).toBe('llm');
    expect(d.founders.map((f: { name: string }) => f.name)).toEqual(['Ada Lovelace', 'Charles Babbage']);
    expect(d.leadership).toEqual([{ name: 'Grace Hopper', title: 'VP Engineering' }]);
    expect(d.foundedYear).toBe(2019);
    expect(d.marketAnalysis.market).toBe('Warehouse automation');
    expect(d.hiring.activeJobs).toBe(1);
    expect(d.sources.map((s: { url: string }) => s.url)).toContain('https://teamco.com/team');
    expect(res.json().data.run).toMatchObject({ provider: 'llm', costUsd: null });

    expect(llm.requests.at(-1)?.headers.authorization).toBe('Bearer sk-test');
    const body = lastBody();
    expect(body.model).toBe('test-model');
    expect(body.temperature).toBe(0);
    expect(body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'company_dossier', strict: true },
    });
    const prompt = lastPrompt();
    expect(prompt).toMatch(/Ada Lovelace/);
    expect(prompt).toMatch(/Recent job titles: Forward Deployed Engineer/);
    expect((prompt.match(/^--- https:\/\//gm) ?? []).length).toBe(5);
  });

  it('reads fewer pages in fast mode', async () => {
    answer = () => TEAMCO_DOSSIER;
    const res = await post({ domain: 'teamco.com', mode: 'fast' });
    expect(res.statusCode).toBe(200);
    expect((lastPrompt().match(/^--- https:\/\//gm) ?? []).length).toBe(3);
  });

  it('retries a failing model endpoint, then succeeds', async () => {
    failures = 1;
    const before = llm.requests.length;
    const res = await post({ domain: 'quietco.com' });
    expect(res.statusCode).toBe(200);
    expect(llm.requests.length).toBe(before + 2);
    expect(failures).toBe(0);
  });

  it('answers 502 when the model does not return JSON, and 400 for processors beyond base', async () => {
    answer = () => 'Sorry, I cannot help with that.';
    const bad = await post({ domain: 'quietco.com', mode: 'fast' });
    expect(bad.statusCode).toBe(502);
    expect(bad.json().error.message).toMatch(/did not return valid JSON/);
    const core = await post({ domain: 'quietco.com', processor: 'core' });
    expect(core.statusCode).toBe(400);
    expect(core.json().error.message).toMatch(/'llm'/);
  });
});
