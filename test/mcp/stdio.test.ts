import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { serviceArgs } from '../support/service-entry.js';
import { call, listen, toolError } from './support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = [...serviceArgs(), 'mcp'];
const env = (): Record<string, string> => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: process.env.HOME ?? '/tmp',
});

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await startTestApp({ env: { SAMPLE_DATA: '1' } });
  base = await listen(t);
});

afterAll(async () => {
  await t?.close();
});

async function stdioClient(args: string[], extraEnv: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'desktop-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [...CLI, ...args],
      cwd: ROOT,
      env: { ...env(), ...extraEnv },
      stderr: 'pipe',
    }),
  );
  return client;
}

describe('frontline mcp (stdio) against a deployment over its public API', () => {
  it('serves the read tools anonymously', async () => {
    const client = await stdioClient(['--url', base]);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('search_jobs');
      expect(names).not.toContain('onboard_company');
      const out = (await call(client, 'search_jobs', { search: 'solutions engineer', limit: 3 }))
        .structuredContent as {
        jobs: { title: string }[];
      };
      expect(out.jobs.length).toBeGreaterThan(0);
      expect(toolError(await call(client, 'search_jobs', { page: 0 })).code).toBe('BAD_REQUEST');
    } finally {
      await client.close();
    }
  });

  it('with a token (from FRONTLINE_TOKEN) adds the pipeline tools', async () => {
    const client = await stdioClient(['--url', base], { FRONTLINE_TOKEN: t.token });
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['get_dossier', 'onboard_company', 'workflow_status']));
      const missing = toolError(await call(client, 'get_dossier', { domain: 'not-tracked.example' }));
      expect(missing.code).toMatch(/NOT_FOUND|BAD_REQUEST/);
    } finally {
      await client.close();
    }
  });

  it('refuses to start with a sentence on stderr when the URL is not a deployment or the token is refused', async () => {
    const run = promisify(execFile);
    const badUrl = run(process.execPath, [...CLI, '--url', `${base}/nothing-here`], {
      cwd: ROOT,
      env: env(),
    });
    await expect(badUrl).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('frontline mcp:'),
    });
    const badToken = run(process.execPath, [...CLI, '--url', base, '--token', 'fl_not_a_token'], {
      cwd: ROOT,
      env: env(),
    });
    await expect(badToken).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('token was refused'),
    });
  });

  it("a rate-limited call's tool error says how long to wait, as the API's Retry-After does", async () => {
    const limited = await startTestApp({ env: { SAMPLE_DATA: '1', RATE_LIMIT_ANONYMOUS: '3' } });
    const url = await listen(limited);
    const client = await stdioClient(['--url', url]);
    try {
      let refused: { code: string; message: string; retryAfterSeconds?: number } | undefined;
      for (let i = 0; i < 5 && !refused; i++) {
        const result = await call(client, 'get_stats');
        if (result.isError) refused = toolError(result);
      }
      if (!refused) throw new Error('the anonymous budget of 3 a minute runs out within 5 calls');
      // The clock stands still, so the API answers the same wait to the next request from this address.
      const direct = await fetch(`${url}/api/v1/stats`);
      expect(direct.status).toBe(429);
      const wait = Number(direct.headers.get('retry-after'));
      expect(wait).toBeGreaterThan(0);
      expect(refused.code).toBe('RATE_LIMITED');
      expect(refused.retryAfterSeconds).toBe(wait);
      expect(refused.message).toMatch(new RegExp(`; retry after ${wait} s$`));
    } finally {
      await client.close();
      await limited.close();
    }
  });
});
