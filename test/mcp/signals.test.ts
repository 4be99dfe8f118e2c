import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { call, httpClient, listen, toolError } from './support.js';

/** The hiring-signal tools over /mcp, on the sample catalog and its generated history. */

let t: TestApp;
let client: Client;

beforeAll(async () => {
  t = await startTestApp({ env: { SAMPLE_DATA: '1' } });
  client = await httpClient(await listen(t));
});

afterAll(async () => {
  await client?.close();
  await t?.close();
});

const api = async (url: string) => (await t.get(url)).json().data;

describe('hiring tools', () => {
  it("derive their arguments from the operations' parameters, less the chart format", async () => {
    const tools = (await client.listTools()).tools;
    const trends = tools.find((x) => x.name === 'hiring_trends');
    const props = Object.keys((trends?.inputSchema.properties ?? {}) as object).sort();
    expect(props).toEqual(
      [
        'ai_role',
        'business_model',
        'by',
        'category',
        'client_facing',
        'from',
        'funding_tier',
        'industry',
        'interval',
        'role_category',
        'share',
        'stage',
        'to',
      ].sort(),
    );
    const newly = tools.find((x) => x.name === 'newly_hiring');
    expect(Object.keys((newly?.inputSchema.properties ?? {}) as object).sort()).toEqual(
      ['client_facing', 'days', 'limit', 'role_category'].sort(),
    );
    expect(trends?.outputSchema).toBeDefined();
  });

  it('hiring_trends answers what GET /trends answers', async () => {
    const result = await call(client, 'hiring_trends', {
      interval: 'month',
      client_facing: true,
      stage: 'late-stage',
    });
    expect(result.isError).toBeFalsy();
    const expected = await api('/api/v1/trends?interval=month&client_facing=true&stage=late-stage');
    expect(result.structuredContent).toEqual(expected);
    expect((expected.series as unknown[]).length).toBeGreaterThan(0);
  });

  it('newly_hiring answers what GET /signals/newly-hiring answers', async () => {
    for (const category of ['fde', 'legal', 'tam']) {
      const result = await call(client, 'newly_hiring', { role_category: category, days: 120 });
      expect(result.structuredContent).toEqual(
        await api(`/api/v1/signals/newly-hiring?role_category=${category}&days=120`),
      );
    }
  });

  it('bad arguments are tool errors naming the argument', async () => {
    expect(toolError(await call(client, 'newly_hiring', {})).message).toContain("'role_category'");
    expect(toolError(await call(client, 'hiring_trends', { interval: 'hourly' })).message).toContain(
      'interval',
    );
    expect(toolError(await call(client, 'hiring_trends', { from: '2026-13-01' })).message).toContain(
      "'from'",
    );
  });
});
