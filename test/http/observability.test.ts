import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { loggerOptions } from '../../src/logger.js';
import {
  companySite,
  type Fixture,
  generatePostings,
  hostMapEnv,
  startFixture,
} from '../pipeline/support.js';
import { startTestApp, type TestApp } from '../support/app.js';

describe('request logs', () => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const options = loggerOptions(parseConfig({ LOG_LEVEL: 'info', LOG_PRETTY: 'false' })) as object;
    t = await startTestApp({ app: { logger: { ...options, transport: undefined, stream } as never } });
  });
  afterAll(async () => t.close());

  it('redact tokens sent in a query string', async () => {
    const secret = 'fl_querysecret0123456789abcdefghij';
    for (const url of [
      `/api/v1/tags?token=${secret}`,
      `/api/v1/jobs?access_token=${secret}&limit=5`,
      `/api/v1/companies?api_key=${secret}`,
      `/api/v1/me?x=1&Authorization=Bearer%20${secret}`,
      `/api/v1/tags?q=${secret}`,
    ]) {
      await t.get(url);
    }
    const log = lines.join('');
    expect(log).toContain('/api/v1/tags?token=[redacted]');
    expect(log).toContain('access_token=[redacted]&limit=5');
    expect(log).not.toContain('querysecret');
  });

  it('log the values of declared query parameters only: any other name is redacted', async () => {
    lines.length = 0;
    for (const url of [
      '/api/v1/jobs?company=acme&client_secret=s3cr3t-one',
      '/api/v1/jobs?sig=s3cr3t-two&limit=3',
      '/api/v1/tags?client%5Fsecret=s3cr3t-three',
      '/api/v1/jobs?%E0%A4%A=s3cr3t-four',
    ]) {
      await t.get(url);
    }
    const log = lines.join('');
    expect(log).toContain('/api/v1/jobs?company=acme&client_secret=[redacted]');
    expect(log).toContain('/api/v1/jobs?sig=[redacted]&limit=3');
    expect(log).toContain('client%5Fsecret=[redacted]');
    expect(log).not.toContain('s3cr3t');
  });
});

describe('outbound request metrics', () => {
  let t: TestApp;
  let fx: Fixture;
  beforeAll(async () => {
    fx = await startFixture({
      greenhouse: { healthy: generatePostings(2, 'h') },
      sites: { 'healthy.com': companySite('Healthy', ['https://boards.greenhouse.io/healthy']) },
    });
    t = await startTestApp({ env: { OUTBOUND_HOST_MAP: hostMapEnv(fx.hostMap) } });
    await t.deps.pipeline.start();
  });
  afterAll(async () => {
    await t?.close();
    await fx?.close();
  });

  it('label hosts by vendor, every other host as "other"', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/onboard',
      payload: { name: 'Healthy', domain: 'healthy.com' },
      token: t.token,
    });
    expect(res.statusCode).toBe(202);
    await t.deps.pipeline.engine.waitFor(res.json().data.workflowId);
    const metrics = (await t.get('/metrics')).body;
    const hosts = new Set(
      [...metrics.matchAll(/^frontline_outbound_requests_total\{host="([^"]*)"/gm)].map((m) => m[1]),
    );
    expect([...hosts].sort()).toEqual(['greenhouse', 'other']);
  });
});
