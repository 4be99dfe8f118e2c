import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

/** The /docs page loads over plain HTTP on any address, carries our name, and runs under a policy with no inline style. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());

describe('GET /docs', () => {
  it('serves a page whose CSP does not upgrade its scripts to https, titled with our name', async () => {
    let res = await t.app.inject({ method: 'GET', url: '/docs', headers: { host: '192.168.1.20:3000' } });
    if (res.statusCode === 302) res = await t.get(String(res.headers.location));
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<title>Frontline API</title>');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self';");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('upgrade-insecure-requests');
  });
});

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
describe.runIf(existsSync(CHROMIUM) || process.env.CI === 'true')('GET /docs in Chromium', () => {
  let browser: Browser;
  let base: string;
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM });
  });
  afterAll(async () => browser?.close());

  it('renders the reference collapsed, opens an operation, and logs no policy violation', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${base}/docs/`);
    // No deadline of its own: the suite's timeout catches a page that never renders.
    await page.waitForSelector('.swagger-ui .information-container', { timeout: 0 });
    await page.waitForSelector('.opblock-tag', { timeout: 0 });
    // Operations are drawn when their tag is opened, not all at once on load.
    expect(await page.locator('.opblock').count()).toBe(0);
    await page.locator('.opblock-tag').first().click();
    await page.waitForSelector('.opblock .opblock-summary', { timeout: 0 });
    await page.locator('.opblock .opblock-summary').first().click();
    await page.waitForSelector('.opblock.is-open .opblock-body', { timeout: 0 });
    expect(problems).toEqual([]);
    await page.close();
  });
});
