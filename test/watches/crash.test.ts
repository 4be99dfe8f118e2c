import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Child,
  type CrashHarness,
  companySite,
  hostMapEnv,
  startCrashHarness,
  titled,
} from '../pipeline/support.js';

/**
 * A worker killed (SIGKILL) while a webhook receiver holds its delivery open, then restarted under the same worker
 * id, on the database the children share (a PGlite data directory, or PostgreSQL with TEST_DATABASE_URL): the
 * delivery workflow resumes at the attempt that never checkpointed and sends it again with the same webhook-id,
 * so the receiver sees every delivery, and a duplicate carries the id it dedupes on. Nothing is lost: every
 * newly opened matching job is in a delivered batch, and the matcher carries on after the restart.
 */

const HOOK = 'https://hooks.example.com';
const BASE = ['Forward Deployed Engineer', 'Backend Engineer'];

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver that holds the first request open (never answering) and accepts every later one. */
async function startHoldingReceiver() {
  const received: Received[] = [];
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      if (received.length === 1) held.push(res);
      else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let h: CrashHarness;
let rx: Awaited<ReturnType<typeof startHoldingReceiver>>;
let board = titled(BASE, 'g');
let env: Record<string, string>;

/** Reads until `read` answers; `what` names the wait. No deadline of its own: the test's timeout bounds it. */
async function poll<T>(_what: string, read: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const v = await read();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** New postings on the board, opened by a forced re-onboarding that runs to the end. */
async function openJobs(child: Child, titles: string[]): Promise<void> {
  board = [...board, ...titled(titles, `n${board.length}-`)];
  h.fx.ats.setBoard('greenhouse', 'acme', board);
  const res = await h.call(child, 'POST', '/api/v1/onboard', {
    name: 'Acme',
    domain: 'acme.com',
    force: true,
  });
  expect(res.status).toBe(202);
  const id = (res.json.data as unknown as { workflowId: string }).workflowId;
  const view = await h.until(child, id, (v) => v.status !== 'enqueued' && v.status !== 'running');
  expect(view.status).toBe('succeeded');
}

interface DeliveryView {
  id: string;
  status: string;
  attempts: number;
}

const deliveries = async (child: Child, watchId: string) =>
  (await h.call(child, 'GET', `/api/v1/watches/${watchId}/deliveries`)).json
    .data as unknown as DeliveryView[];

beforeAll(async () => {
  rx = await startHoldingReceiver();
  h = await startCrashHarness({
    name: 'watch-crash',
    fixture: {
      greenhouse: { acme: board },
      sites: { 'acme.com': companySite('Acme', ['https://boards.greenhouse.io/acme']) },
    },
  });
  env = {
    OUTBOUND_HOST_MAP: hostMapEnv(h.fx.hostMap, { 'hooks.example.com': rx.origin }),
    QUEUE_POLL_MS: '50',
    WATCH_POLL_MS: '50',
    WATCH_RETRY_BASE_MS: '50',
  };
}, 300_000);

afterAll(async () => {
  await h?.close();
  await rx?.close();
});

describe('a worker killed during a webhook delivery', () => {
  it('resends the interrupted attempt with the same webhook-id after a restart; nothing is lost', async () => {
    let child = await h.start(env);
    const first = await h.call(child, 'POST', '/api/v1/onboard', { name: 'Acme', domain: 'acme.com' });
    const firstId = (first.json.data as unknown as { workflowId: string }).workflowId;
    expect((await h.until(child, firstId, (v) => v.status === 'succeeded')).status).toBe('succeeded');
    const created = await h.call(child, 'POST', '/api/v1/watches', {
      filters: { client_facing: true },
      url: `${HOOK}/jobs`,
    });
    expect(created.status).toBe(201);
    const watch = created.json.data as unknown as { id: string; secret: string };

    // Two client-facing jobs open; the matcher batches them and the receiver holds the POST open.
    await openJobs(child, ['Solutions Engineer', 'Customer Success Manager', 'Office Manager']);
    await poll('the held delivery', async () => (rx.received.length >= 1 ? true : undefined));
    await child.kill9();

    child = await h.start(env);
    const delivered = await poll('the delivery to succeed', async () => {
      const [d] = await deliveries(child, watch.id);
      return d?.status === 'delivered' ? d : undefined;
    });
    expect(rx.received.length).toBeGreaterThanOrEqual(2);
    // Every request of the interrupted delivery carries its webhook-id: the receiver dedupes on it.
    expect(new Set(rx.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([delivered.id]));

    // The matcher carries on in the restarted worker: the next opening is its own, single delivery.
    await openJobs(child, ['Implementation Consultant']);
    await poll('the second delivery', async () => {
      const list = await deliveries(child, watch.id);
      return list.length === 2 && list.every((d) => d.status === 'delivered') ? list : undefined;
    });

    const hook = new Webhook(watch.secret);
    const byId = new Map<string, string[]>();
    for (const r of rx.received) {
      const payload = hook.verify(r.body, r.headers as Record<string, string>) as {
        data: { jobs: { title: string }[] };
      };
      const titles = payload.data.jobs.map((j) => j.title).sort();
      const id = String(r.headers['webhook-id']);
      // A duplicate is the same message: same id, same jobs.
      expect(byId.get(id) ?? titles).toEqual(titles);
      byId.set(id, titles);
    }
    expect([...byId.values()].flat().sort()).toEqual([
      'Customer Success Manager',
      'Implementation Consultant',
      'Solutions Engineer',
    ]);
    expect(byId.size).toBe(2);
  }, 600_000);
});
