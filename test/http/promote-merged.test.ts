import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, hostMapEnv, startFixture } from '../pipeline/support.js';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * A second trigger while a promote run is under way joins it and says so. The first run validates a company site
 * that never answers until the test releases it, so it is still running when the second trigger arrives.
 */
describe('POST /promote_and_onboard merged into a run under way', () => {
  let t: TestApp;
  let fx: Fixture;
  const stalled: Array<() => void> = [];
  let reached: () => void;
  const siteReached = new Promise<void>((resolve) => {
    reached = resolve;
  });

  beforeAll(async () => {
    fx = await startFixture({ greenhouse: {}, sites: {} });
    fx.sites.setRoute('stall.ai', '/', {
      handler: (_req, res) => {
        stalled.push(() => res.destroy());
        reached();
      },
    });
    const hostMap = { 'stall.ai': fx.sites.origin, 'www.stall.ai': fx.sites.origin };
    t = await startTestApp({ env: { OUTBOUND_HOST_MAP: hostMapEnv(hostMap) } });
    await t.deps.pipeline.start();
  });
  afterAll(async () => {
    for (const release of stalled) release();
    await t?.close();
    await fx?.close();
  });

  const promote = (body: object) =>
    t.request({ method: 'POST', url: '/api/v1/promote_and_onboard', token: t.token, payload: body });

  it('reports merged: true and the arguments of the run it joined', async () => {
    const submitted = await t.request({
      method: 'POST',
      url: '/api/v1/discover',
      token: t.token,
      payload: { source: 'hn', key: { domain: 'stall.ai' } },
    });
    expect(submitted.statusCode).toBe(200);
    const first = await promote({ limit: 50, maxValidations: 5 });
    expect(first.statusCode).toBe(202);
    expect(first.json().data).toMatchObject({ args: { limit: 50, maxValidations: 5 }, merged: false });
    await siteReached;
    const second = await promote({ limit: 10, maxValidations: 9 });
    expect(second.statusCode).toBe(202);
    expect(second.json().data).toEqual({
      workflowId: first.json().data.workflowId,
      args: { limit: 50, maxValidations: 5 },
      merged: true,
      status: 'enqueued',
    });
  });
});
