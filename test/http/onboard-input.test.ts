import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

/** What POST /onboard refuses at the door: wrong types, control characters, special-use names. */
describe('POST /onboard input', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  const onboard = (payload: unknown) =>
    t.request({ method: 'POST', url: '/api/v1/onboard', payload: payload as object, token: t.token });

  const expectRefused = async (payload: unknown, field: string) => {
    const res = await onboard(payload);
    expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    expect(res.json().error.code).toBe('BAD_REQUEST');
    expect(res.json().error.message, JSON.stringify(payload)).toContain(`'${field}'`);
  };

  it('takes name only as a string and force only as a boolean', async () => {
    await expectRefused({ name: 123, domain: 'acme.com' }, 'name');
    await expectRefused({ name: true, domain: 'acme.com' }, 'name');
    await expectRefused({ name: 'Acme', domain: 'acme.com', force: 'true' }, 'force');
    await expectRefused({ name: 'Acme', domain: 'acme.com', force: 1 }, 'force');
    await expectRefused({ name: 'Acme', domain: 42 }, 'domain');
  });

  it('refuses NUL and control characters in the name, naming the field', async () => {
    for (const name of [
      'Acme\u0000',
      'Acme\u0007 bell',
      'Acme\u001b[31m red',
      'Acme\u202e reversed',
      'Acme\u202a',
      'Acme\u2066 isolate',
      'Acme\u2069',
      'Acme\u007f',
      'Acme\u0085',
      'Acme\nInc',
    ]) {
      await expectRefused({ name, domain: 'acme.com' }, 'name');
    }
  });

  it('refuses special-use names at the door and creates no company', async () => {
    for (const domain of [
      'home.arpa',
      'printer.home.arpa',
      'foo.arpa',
      '1.0.0.127.in-addr.arpa',
      'printer.local',
      'db.internal',
      'acme.test',
      'acme.invalid',
      'acme.example',
      'localhost',
      'app.localhost',
      'https://shop.home.arpa/jobs',
    ]) {
      await expectRefused({ name: 'Acme', domain }, 'domain');
    }
    const companies = await t.get('/api/v1/companies', t.token);
    expect(companies.statusCode).toBe(200);
    expect(companies.json().meta.total).toBe(0);
  });
});
