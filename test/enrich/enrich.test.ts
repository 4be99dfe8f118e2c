import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { createOutboundClient, type OutboundClient } from '../../src/net/client.js';
import { statedFundingUsd } from '../../src/pipeline/enrich/derive.js';
import {
  createEnricher,
  fetchCompanyPages,
  HeuristicEnricher,
  LlmEnricher,
} from '../../src/pipeline/enrich/index.js';
import { validateAnswer, vocabulary } from '../../src/pipeline/enrich/llm.js';
import { completion, type FakeLlm, startFakeLlm } from '../support/fake-llm.js';
import { type FakeSites, startFakeSites } from '../support/fake-site.js';

const page = (name: string) =>
  readFileSync(new URL(`../fixtures/sites/${name}.html`, import.meta.url), 'utf8');

let sites: FakeSites;
let llm: FakeLlm;
let client: OutboundClient;

beforeAll(async () => {
  sites = await startFakeSites({
    'lexcorp.ai': { '/': page('lexcorp-home'), '/about': page('lexcorp-about') },
    'bigsoft.com': { '/': page('bigsoft-home') },
    'thin.io': { '/': '<html><head><title>Thin</title></head><body>Coming soon</body></html>' },
    'down.io': { '/': { status: 503 } },
  });
  llm = await startFakeLlm(() => ({ body: completion('{}') }));
  client = createOutboundClient({
    userAgentContact: 'https://frontline.test/bot',
    hostMap: { ...sites.hostMap, 'llm.test': new URL(llm.baseUrl).origin },
    perHostDelayMs: 0,
    apiHostDelayMs: 0,
    sleep: async () => undefined,
    resolver: async (h) => {
      throw Object.assign(new Error(`ENOTFOUND ${h}`), { code: 'ENOTFOUND' });
    },
  });
});

afterAll(async () => {
  await client.close();
  await Promise.all([sites.close(), llm.close()]);
});

describe('company pages', () => {
  it('fetches the homepage and the linked about page', async () => {
    const pages = await fetchCompanyPages('lexcorp.ai', client);
    expect(pages.map((p) => p.url)).toEqual(['https://lexcorp.ai/', 'https://lexcorp.ai/about']);
  });

  it('an unavailable homepage is a retryable error, not empty facts', async () => {
    const err = await fetchCompanyPages('down.io', client).catch((e: unknown) => e);
    expect(err).toMatchObject({ reason: 'http_status', status: 503, retryable: true });
  });
});

describe('heuristic enricher', () => {
  it('extracts name, one-liner, description, social links, category and tags', async () => {
    const facts = await new HeuristicEnricher().enrich(
      'lexcorp.ai',
      await fetchCompanyPages('lexcorp.ai', client),
    );
    expect(facts).toMatchObject({
      domain: 'lexcorp.ai',
      name: 'LexCorp',
      oneLiner:
        'LexCorp builds AI agents that help law firms and in-house legal teams review contracts, run diligence and draft faster.',
      social: {
        linkedin: 'https://www.linkedin.com/company/lexcorp-ai',
        twitter: 'https://x.com/lexcorp',
        github: 'https://github.com/lexcorp',
        youtube: 'https://www.youtube.com/@lexcorp',
        crunchbase: null,
      },
      category: 'enterprise_ai',
      source: 'heuristic',
    });
    expect(facts.description).toMatch(/^LexCorp was founded in 2023 by former litigators/);
    const tags = Object.fromEntries(
      ['industry', 'stage', 'business_model', 'ai_role', 'funding_tier'].map((d) => [
        d,
        facts.tags.filter((t) => t.dimension === d).map((t) => t.value),
      ]),
    );
    expect(tags.industry?.[0]).toBe('Legal');
    expect(tags.stage).toEqual(['Series C']);
    expect(tags.business_model).toContain('B2B SaaS');
    expect(tags.ai_role).toEqual(['AI Applications']);
    expect(tags.funding_tier).toEqual(['$100M to $1B']);
    expect(facts.tags.find((t) => t.value === '$100M to $1B')?.slug).toBe('100m-to-1b');
  });

  it('recognises a public software company', async () => {
    const facts = await new HeuristicEnricher().enrich(
      'bigsoft.com',
      await fetchCompanyPages('bigsoft.com', client),
    );
    expect(facts.name).toBe('BigSoft');
    expect(facts.oneLiner).toBe('BigSoft (NYSE: BGS) is the cloud platform for finance and HR.');
    expect(facts.category).toBe('public_saas');
    expect(facts.tags).toEqual(
      expect.arrayContaining([
        { dimension: 'stage', value: 'Public', slug: 'public' },
        { dimension: 'funding_tier', value: 'Public Company', slug: 'public-company' },
      ]),
    );
  });

  it('leaves unknown values null on a thin page', async () => {
    const facts = await new HeuristicEnricher().enrich('thin.io', await fetchCompanyPages('thin.io', client));
    expect(facts).toMatchObject({
      name: 'Thin',
      oneLiner: null,
      description: null,
      category: null,
      tags: [],
    });
  });

  it('reads funding amounts only in funding context', () => {
    expect(statedFundingUsd('We raised $45M in our Series B.')).toBe(45e6);
    expect(statedFundingUsd('Backed by $1.5 billion in funding')).toBe(1.5e9);
    expect(statedFundingUsd('Customers saved $10 million last year.')).toBeNull();
    expect(statedFundingUsd('Raised at a valuation of $5 billion')).toBeNull();
  });
});

describe('LLM enricher', () => {
  const good = {
    name: 'LexCorp',
    one_liner: 'Legal AI agents for law firms.',
    description: 'LexCorp builds AI agents for legal work.',
    category: 'ai_native',
    tags: {
      industry: ['Legal'],
      stage: ['Series C'],
      business_model: ['B2B SaaS'],
      ai_role: ['AI Applications'],
      funding_tier: ['$100M to $1B'],
    },
  };
  const enricher = (fallbacks: string[] = []) =>
    new LlmEnricher(
      client,
      { baseUrl: 'http://llm.test/v1', model: 'fake-model', apiKey: 'sk-test' },
      (_d, reason) => fallbacks.push(reason),
    );

  it('sends a strict json_schema request and uses the validated answer', async () => {
    llm.setReply(() => ({ body: completion(JSON.stringify(good)) }));
    const before = llm.requests.length;
    const facts = await enricher().enrich('lexcorp.ai', await fetchCompanyPages('lexcorp.ai', client));
    expect(facts).toMatchObject({
      name: 'LexCorp',
      oneLiner: 'Legal AI agents for law firms.',
      category: 'ai_native',
      source: 'llm',
    });
    expect(facts.social.linkedin).toBe('https://www.linkedin.com/company/lexcorp-ai');
    expect(facts.tags).toContainEqual({ dimension: 'industry', value: 'Legal', slug: 'legal' });
    const req = llm.requests[before];
    expect(req?.headers.authorization).toBe('Bearer sk-test');
    expect(req?.body).toMatchObject({
      model: 'fake-model',
      temperature: 0,
      response_format: { type: 'json_schema', json_schema: { name: 'company_facts', strict: true } },
    });
    const schema = (
      (req?.body.response_format ?? {}) as {
        json_schema: { schema: { required: string[]; additionalProperties: boolean } };
      }
    ).json_schema.schema;
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(['name', 'one_liner', 'description', 'category', 'tags']);
    expect(JSON.stringify(req?.body.messages)).toContain('LexCorp is a generative AI platform');
  });

  it('never trusts the answer blindly: unknown enums dropped, strings clipped and cleaned', () => {
    const out = validateAnswer(
      JSON.stringify({
        ...good,
        name: `Evil\u0000Corp ${'x'.repeat(200)}`,
        category: 'world_domination',
        tags: {
          industry: ['Legal', 'Made Up', 'Legal'],
          stage: ['Series Z'],
          funding_tier: ['Over $1B'],
          extra: ['x'],
        },
      }),
      vocabulary(),
    );
    if (out instanceof Error) throw out;
    expect(out.category).toBeNull();
    expect(out.name?.length).toBeLessThanOrEqual(81);
    expect(out.name).not.toContain('\u0000');
    expect(out.tags.map((t) => `${t.dimension}:${t.value}`)).toEqual([
      'industry:Legal',
      'funding_tier:Over $1B',
    ]);
  });

  it.each([
    ['a non-JSON answer', () => ({ body: completion('Sure! Here are the facts: ...') }), 'not JSON'],
    ['a truncated answer', () => ({ body: completion('{"name":"Lex', 'length') }), 'truncated'],
    ['a wrong shape', () => ({ body: completion('{"name":42}') }), 'does not match'],
    ['a server error', () => ({ status: 500, body: { error: { message: 'boom' } } }), '500'],
    ['not a completion', () => ({ body: { hello: 'world' } }), 'not a chat completion'],
  ])('falls back to heuristics on %s', async (_name, reply, reason) => {
    llm.setReply(reply);
    const fallbacks: string[] = [];
    const facts = await enricher(fallbacks).enrich(
      'lexcorp.ai',
      await fetchCompanyPages('lexcorp.ai', client),
    );
    expect(facts.source).toBe('heuristic');
    expect(facts.name).toBe('LexCorp');
    expect(fallbacks).toHaveLength(1);
    expect(fallbacks[0]).toContain(reason);
  });

  it('createEnricher picks the LLM only when LLM_BASE_URL and LLM_MODEL are set, reaching a loopback model server', async () => {
    expect(createEnricher(parseConfig({}), client)).toBeInstanceOf(HeuristicEnricher);
    expect(createEnricher(parseConfig({ LLM_BASE_URL: llm.baseUrl }), client)).toBeInstanceOf(
      HeuristicEnricher,
    );
    llm.setReply(() => ({ body: completion(JSON.stringify(good)) }));
    const e = createEnricher(parseConfig({ LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'm' }), client);
    expect(e).toBeInstanceOf(LlmEnricher);
    const facts = await e.enrich('lexcorp.ai', await fetchCompanyPages('lexcorp.ai', client));
    expect(facts.source).toBe('llm');
  });
});
