import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/migrate.js';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import {
  freePort,
  type ServiceProcess,
  spawnFrontline,
  startService,
  trackOutput,
} from '../support/fleet.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

/**
 * A database that refuses or drops connections, between real service processes and PostgreSQL: a TCP proxy
 * carries every connection of the process (its pool, and the workflow engine's, which share the URL), and the
 * test makes it refuse new connections and drop open ones. PostgreSQL only (TEST_DATABASE_URL); skipped on the
 * embedded database, which has no connections to lose.
 */
const serverUrl = process.env.TEST_DATABASE_URL;
const enabled = Boolean(serverUrl);
const TOKEN = `fl_${randomBytes(24).toString('hex')}`;

interface Answer {
  status: number;
  retryAfter: string | null;
  code: string | undefined;
  /** Whether the proxy was still refusing when the answer arrived. */
  duringOutage: boolean;
}

describe.skipIf(!enabled)(
  `database faults through a proxy${enabled ? '' : ' (skipped: set TEST_DATABASE_URL)'}`,
  () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterAll(async () => {
      for (const c of cleanups.reverse()) await c().catch(() => {});
    });

    async function setUp(): Promise<{ database: TestDatabase; proxy: TcpProxy; databaseUrl: string }> {
      const database = await freshDatabase();
      cleanups.push(() => database.drop());
      const upstream = new URL(database.url ?? '');
      const proxy = await startTcpProxy({ host: upstream.hostname, port: Number(upstream.port || 5432) });
      cleanups.push(() => proxy.close());
      return { database, proxy, databaseUrl: proxy.through(database.url ?? '') };
    }

    it('every endpoint family answers 503 with Retry-After while the database refuses, then recovers', async () => {
      const { proxy, databaseUrl } = await setUp();
      const api: ServiceProcess = await startService({
        DATABASE_URL: databaseUrl,
        FRONTLINE_ROLE: 'api',
        API_TOKENS: TOKEN,
        LOG_LEVEL: 'info',
      });
      cleanups.push(() => api.stop());
      await expect.poll(() => api.output()).toContain('workflow engine launched');
      const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
      const call = async (method: string, path: string, body?: unknown): Promise<Answer> => {
        const res = await fetch(`${api.url}${path}`, {
          method,
          headers,
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        const duringOutage = proxy.refusing;
        const json = (await res.json().catch(() => ({}))) as { error?: { code?: string } };
        return {
          status: res.status,
          retryAfter: res.headers.get('retry-after'),
          code: json.error?.code,
          duringOutage,
        };
      };
      const onboard = () => call('POST', '/api/v1/onboard', { name: 'Fault AI', domain: 'fault-proxy.ai' });
      const accepted = await fetch(`${api.url}/api/v1/onboard`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'Fault AI', domain: 'fault-proxy.ai' }),
      });
      expect(accepted.status).toBe(202);
      const { workflowId } = ((await accepted.json()) as { data: { workflowId: string } }).data;
      const watch = { url: 'https://hooks.example.com/frontline', search: 'engineer' };
      const families: Record<string, () => Promise<Answer>> = {
        'catalog: company list': () => call('GET', '/api/v1/companies?limit=5'),
        'catalog: job list': () => call('GET', '/api/v1/jobs?limit=5'),
        'onboarding enqueue': onboard,
        'workflow status': () => call('GET', `/api/v1/workflows/${workflowId}`),
        'watches: list': () => call('GET', '/api/v1/watches'),
        'watches: create': () => call('POST', '/api/v1/watches', watch),
      };
      const before = await families['workflow status']!();
      expect(before.status).toBe(200);

      // Refused from here on: new connections fail, the pool's open ones are cut.
      await proxy.refuse();
      proxy.drop();
      const during: Record<string, Answer> = {};
      for (const [family, ask] of Object.entries(families)) during[family] = await ask();
      const readyz = await fetch(`${api.url}/readyz`);
      console.info(`database refused: ${JSON.stringify(during)}; readyz ${readyz.status}`);
      // The job list is answered from the in-process replica of the catalog (docs/api.md, When a dependency is
      // down): it keeps answering. Everything that needs the database answers 503.
      const { 'catalog: job list': fromReplica, ...needDatabase } = during;
      expect(fromReplica?.status).toBe(200);
      for (const [family, answer] of Object.entries(needDatabase)) {
        // Answered while the proxy still refused: a request waiting for the database to come back never is.
        expect(answer.duringOutage, family).toBe(true);
        expect(answer.status, family).toBe(503);
        expect(answer.code, family).toBe('SERVER_ERROR');
        expect(Number(answer.retryAfter), family).toBeGreaterThanOrEqual(1);
      }
      expect(readyz.status).toBe(503);
      expect(api.child.exitCode).toBeNull();

      await proxy.heal();
      await expect.poll(async () => (await onboard()).status, { interval: 200 }).toBe(202);
      expect((await families['workflow status']!()).status).toBe(200);
      expect((await families['watches: list']!()).status).toBe(200);
      expect((await fetch(`${api.url}/readyz`)).status).toBe(200);
    }, 300_000);

    it('a start that loses the database retries with backoff, logs it, and becomes ready once it is back', async () => {
      const { database, proxy, databaseUrl } = await setUp();
      // The catalog's migrations are in: the drops land on what comes after them, the workflow engine's start.
      await migrate(database.db);
      await proxy.refuse();
      const port = await freePort();
      const child = spawnFrontline(['serve'], {
        PORT: String(port),
        DATABASE_URL: databaseUrl,
        API_TOKENS: TOKEN,
        LOG_LEVEL: 'info',
      });
      const { output, exited } = trackOutput(child);
      cleanups.push(async () => {
        if (child.exitCode === null) child.kill('SIGKILL');
        await exited;
      });
      // Every wait ends early, with the process's last words, if it exits: a start must never die of a lost database.
      const died = exited.then((code) => {
        throw new Error(`frontline serve exited (${code}) during the start:\n${output().slice(-3000)}`);
      });
      died.catch(() => {});
      const alive = <T>(wait: Promise<T>) => Promise.race([wait, died]);
      const status = (path: string) => () =>
        fetch(`http://127.0.0.1:${port}${path}`).then(
          (r) => r.status,
          () => 0,
        );

      // Refused: the start waits for the database, saying so.
      await alive(expect.poll(output).toContain('start: the database is unavailable; retrying'));
      // Then accepted but dropped over and over, every open connection at once each time the clients have sent
      // 4 KB, as a server restarting again and again does: the catalog opens between drops (its statements are
      // small) and the server listens, while the workflow engine's launch (DBOS's migrations of its own tables,
      // whose DDL is larger, under the lock held on a pooled connection) loses its connections until the heal.
      await proxy.dropEvery(4_096);
      await alive(expect.poll(status('/healthz'), { interval: 200 }).toBe(200));
      await alive(
        expect.poll(output).toMatch(/workflow engine launch: the database is unavailable; retrying/),
      );
      const dropsBeforeHeal = proxy.drops;
      // Refused while the engine may still be launching: a request that needs it is answered, not held.
      await proxy.refuse();
      proxy.drop();
      const onboard = await alive(
        fetch(`http://127.0.0.1:${port}/api/v1/onboard`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Fault AI', domain: 'fault-start.ai' }),
        }),
      );
      expect(proxy.refusing).toBe(true);
      expect(onboard.status).toBe(503);
      expect(Number(onboard.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      await proxy.heal();

      await alive(expect.poll(status('/readyz'), { interval: 250 }).toBe(200));
      await alive(expect.poll(output).toContain('workflow engine launched'));
      expect(child.exitCode).toBeNull();
      const log = output();
      const retries = log.split('\n').filter((l) => l.includes('the database is unavailable; retrying'));
      console.info(`start through drops: ${dropsBeforeHeal} drops, ${retries.length} retries logged`);
      expect(log).not.toMatch(/Unhandled 'error' event|unhandledRejection|uncaughtException/);
      // Each retry says what failed and how long it waits.
      expect(retries[0]).toMatch(/"retryInMs":\d+/);
      expect(retries[0]).toMatch(/"attempt":1/);
    }, 600_000);
  },
);
