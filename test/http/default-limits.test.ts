import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * The limits a deployment has when nothing is configured, read through HTTP, against the spec (section 8: 20
 * requests a minute anonymous, 100 with a token; pages of 20 anonymous, 50 on /jobs and 100 elsewhere with a
 * token; default page 20 on /jobs and 50 on /companies; result windows of 100 and 1,000 rows) and against the
 * defaults docs/operations.md states.
 */

const SPEC = {
  anonymousPerMinute: 20,
  tokenPerMinute: 100,
  jobsDefault: 20,
  companiesDefault: 50,
  anonymousMaxPage: 20,
  tokenMaxPageJobs: 50,
  tokenMaxPage: 100,
  anonymousWindow: 100,
};

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ defaultRateLimits: true, env: { SAMPLE_DATA: '1' } });
});
afterAll(async () => t?.close());

describe('default limits', () => {
  it('docs/operations.md states the rate limits the spec sets', () => {
    const doc = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
    const row = doc
      .split('\n')
      .find((line) =>
        line.startsWith('| `RATE_LIMIT_ANONYMOUS`, `RATE_LIMIT_TOKEN`, `RATE_LIMIT_WINDOW_MS`'),
      );
    expect(row?.split('|')[2]?.trim()).toBe(
      `\`${SPEC.anonymousPerMinute}\`, \`${SPEC.tokenPerMinute}\`, \`60000\``,
    );
  });

  it('rate-limit each tier per minute as the spec does', async () => {
    const anonymous = await t.get('/api/v1/stats');
    expect(anonymous.headers['x-ratelimit-limit']).toBe(String(SPEC.anonymousPerMinute));
    expect(anonymous.headers['x-api-tier']).toBe('anonymous');
    const token = await t.get('/api/v1/stats', t.token);
    expect(token.headers['x-ratelimit-limit']).toBe(String(SPEC.tokenPerMinute));
    expect(token.headers['x-api-tier']).toBe('token');
  });

  it('page each resource by default and at most as the spec does', async () => {
    const meta = async (url: string, token?: string) => (await t.get(url, token)).json().meta;
    expect((await meta('/api/v1/jobs', t.token)).limit).toBe(SPEC.jobsDefault);
    expect((await meta('/api/v1/companies', t.token)).limit).toBe(SPEC.companiesDefault);
    expect((await meta('/api/v1/jobs?limit=100', t.token)).limit).toBe(SPEC.tokenMaxPageJobs);
    expect((await meta('/api/v1/companies?limit=500', t.token)).limit).toBe(SPEC.tokenMaxPage);
    expect((await meta('/api/v1/jobs')).limit).toBe(SPEC.jobsDefault);
    expect((await meta('/api/v1/companies')).limit).toBe(SPEC.anonymousMaxPage);
    expect((await meta('/api/v1/jobs?limit=50')).limit).toBe(SPEC.anonymousMaxPage);
    const past = await t.get(`/api/v1/jobs?limit=20&page=${SPEC.anonymousWindow / 20 + 1}`);
    expect(past.statusCode).toBe(400);
    expect(past.json().error.code).toBe('RESULT_WINDOW_EXCEEDED');
  });
});
