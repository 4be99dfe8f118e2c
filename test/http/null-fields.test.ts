import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * `null` where the OpenAPI document says a body field cannot be null is a 400 naming the field, on every route:
 * those whose bodies are checked by hand (POST /discover, POST /promote_and_onboard) as well as the others.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const post = (url: string, payload: object) =>
  t.request({ method: 'POST', url: `/api/v1${url}`, payload, token: t.token });

describe('null in a body field that is not nullable', () => {
  it.each([
    ['/discover', { items: [{ source: 'hn', key: 'acme.com' }], label: null }, 'label'],
    ['/promote_and_onboard', { limit: null }, 'limit'],
    ['/promote_and_onboard', { maxValidations: null }, 'maxValidations'],
    ['/promote_and_onboard', { maxOnboards: null }, 'maxOnboards'],
    ['/onboard', { name: 'Acme', domain: null }, 'domain'],
  ])('POST %s %j is refused naming %s', async (url, payload, field) => {
    const res = await post(url, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({
      code: 'BAD_REQUEST',
      message: `Invalid field '${field}': must not be null`,
    });
  });

  it('leaves a bad item of POST /discover to its per-item report, and the defaults to an absent field', async () => {
    const res = await post('/discover', { items: [{ source: 'hn', key: 'acme.com', payload: null }] });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.invalid).toBe(1);
    expect((await post('/promote_and_onboard', {})).statusCode).toBe(202);
  });
});
