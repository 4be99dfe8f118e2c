import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PgliteDb } from '../../src/db/pglite.js';
import type { Db } from '../../src/db/port.js';
import { startTestApp, type TestApp, type TestClock } from '../support/app.js';
import { freshDatabase, freshDataDirWithVectors, serverUrl } from '../support/db.js';
import { type FakeAts, type FakePosting, generatePostings, startFakeAts } from '../support/fake-ats.js';
import { type FakeSites, startFakeSites } from '../support/fake-site.js';
import { serviceArgs } from '../support/service-entry.js';

/** Helpers of the pipeline tests: fake company sites + ATS boards, a gate to stall a vendor, child processes. */

export const hostMapEnv = (...maps: Record<string, string>[]): string =>
  maps.flatMap((m) => Object.entries(m).map(([h, o]) => `${h}=${o}`)).join(',');

export function companySite(name: string, boards: string[]): Record<string, string> {
  return {
    '/': `<!doctype html><html><head><title>${name}</title>
      <meta name="description" content="${name} builds AI agents that automate enterprise customer support.">
      <meta property="og:title" content="${name}"></head>
      <body><h1>${name}: AI agents for enterprise support</h1>
      <p>We are an AI-native company helping enterprises deploy large language models.</p>
      <a href="/about">About</a> <a href="/careers">Careers</a>
      <a href="https://www.linkedin.com/company/${name.toLowerCase()}">LinkedIn</a></body></html>`,
    '/about': `<html><body><h1>About ${name}</h1><p>Founded in 2021, ${name} is a Series A startup selling
      AI software to enterprises.</p></body></html>`,
    '/careers': `<html><body><h1>Join ${name}</h1>${boards.map((b) => `<a href="${b}">Open roles</a>`).join(' ')}
      </body></html>`,
    '/robots.txt': 'User-agent: *\nAllow: /\n',
  };
}

export interface Fixture {
  sites: FakeSites;
  ats: FakeAts;
  hostMap: Record<string, string>;
  close(): Promise<void>;
}

/** acme.com with a Greenhouse board (greenhouseCount postings) and a Lever board; more companies on request. */
export async function startFixture(opts: {
  greenhouse: Record<string, FakePosting[]>;
  lever?: Record<string, FakePosting[]>;
  sites: Record<string, Record<string, string>>;
}): Promise<Fixture> {
  const ats = await startFakeAts({ greenhouse: opts.greenhouse, lever: opts.lever ?? {} });
  const sites = await startFakeSites(opts.sites);
  return {
    sites,
    ats,
    hostMap: { ...sites.hostMap, ...ats.hostMap },
    close: async () => {
      await sites.close();
      await ats.close();
    },
  };
}

export const titled = (titles: string[], prefix: string): FakePosting[] =>
  titles.map((title, i) => ({
    id: `${prefix}${i + 1}`,
    title,
    department: 'Customer',
    location: i % 2 ? 'Remote, US' : 'New York, NY',
    remote: i % 2 === 1,
    descriptionHtml: `<p>${title} at a fast-growing AI company.</p>`,
    postedAt: `2026-11-${String(10 + (i % 10)).padStart(2, '0')}T09:00:00Z`,
  }));

export { generatePostings };

/**
 * An app whose pipeline runs, on `clock`, against acme.com and its Greenhouse board holding `postings` (not yet
 * onboarded: rescrapeAcme onboards it).
 */
export async function startAcmeApp(
  clock: TestClock,
  postings: FakePosting[],
): Promise<{ app: TestApp; fx: Fixture }> {
  const fx = await startFixture({
    greenhouse: { acme: postings },
    sites: { 'acme.com': companySite('Acme', ['https://boards.greenhouse.io/acme']) },
  });
  const app = await startTestApp({
    clock,
    env: { OUTBOUND_HOST_MAP: hostMapEnv(fx.hostMap), QUEUE_POLL_MS: '50' },
  });
  await app.deps.pipeline.start();
  return { app, fx };
}

/** Acme's Greenhouse board set to `postings`, then Acme onboarded again through the API; waits for it to succeed. */
export async function rescrapeAcme(app: TestApp, fx: Fixture, postings: FakePosting[]): Promise<void> {
  fx.ats.setBoard('greenhouse', 'acme', postings);
  const res = await app.request({
    method: 'POST',
    url: '/api/v1/onboard',
    payload: { name: 'Acme', domain: 'acme.com', force: true },
    token: app.token,
  });
  if (res.statusCode !== 202) throw new Error(`onboard answered ${res.statusCode}: ${res.body}`);
  const view = await app.deps.pipeline.engine.waitFor(res.json().data.workflowId, 120_000);
  if (view.status !== 'succeeded') throw new Error(`onboard ended ${view.status}`);
}

/**
 * A pass-through proxy in front of one vendor host that can hold requests: `arm()` makes every later request
 * wait (the test sees it in `held`) until `release()`. Used to freeze a worker inside a scrape step.
 */
export interface Gate {
  origin: string;
  held: number;
  arm(): void;
  release(): void;
  /** Resolves once a request is held (the test's timeout bounds the wait). */
  waitHeld(): Promise<void>;
  close(): Promise<void>;
}

export async function startGate(upstream: string): Promise<Gate> {
  let armed = false;
  const waiting: Array<() => void> = [];
  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const target = new URL(req.url ?? '/', upstream);
    const out = httpRequest(target, { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  };
  const gate: Gate = {
    origin: '',
    held: 0,
    arm: () => {
      armed = true;
    },
    release: () => {
      armed = false;
      for (const go of waiting.splice(0)) go();
    },
    waitHeld: async () => {
      while (gate.held === 0) await new Promise((r) => setTimeout(r, 20));
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
  const server = createServer((req, res) => {
    if (!armed) return forward(req, res);
    gate.held++;
    waiting.push(() => forward(req, res));
  });
  // A request parked at the gate must not keep the server from closing at the end of the test.
  server.on('connection', (s) => s.unref());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  gate.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return gate;
}

export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** Preload of crash tests: kills the process right after a named step's body (see crash-at-step.mjs). */
export const CRASH_AT_STEP = fileURLToPath(new URL('../support/crash-at-step.mjs', import.meta.url));

export interface Child {
  url: string;
  proc: ChildProcess;
  output(): string;
  /** Resolves once the process has exited, with its exit code or the signal that ended it. */
  exited: Promise<number | NodeJS.Signals | null>;
  /** SIGKILL: no shutdown hook runs, like a crashed machine. */
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

export interface ChildOptions {
  command?: 'serve' | 'worker' | 'track';
  /** Arguments after the command (track's options). */
  args?: string[];
  /** Modules loaded before the service (`node --import`), e.g. CRASH_AT_STEP. */
  preload?: string[];
}

/** Runs `frontline <command>` (serve by default) in a child process (service-entry.ts: the bundle or the sources). */
export async function startChild(env: Record<string, string>, opts: ChildOptions = {}): Promise<Child> {
  const command = opts.command ?? 'serve';
  const port = Number(env.PORT ?? (await freePort()));
  const proc = spawn(process.execPath, [...serviceArgs(opts.preload), command, ...(opts.args ?? [])], {
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      // The tests poll workflow status quickly; the rate limit is not what they are about.
      RATE_LIMIT_TOKEN: '1000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout?.on('data', (d) => {
    out += String(d);
  });
  proc.stderr?.on('data', (d) => {
    out += String(d);
  });
  const exited = new Promise<number | NodeJS.Signals | null>((r) =>
    proc.once('exit', (code, signal) => r(signal ?? code)),
  );
  const url = `http://127.0.0.1:${port}`;
  const child: Child = {
    url,
    proc,
    output: () => out,
    exited,
    kill9: async () => {
      proc.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGTERM');
      await exited;
    },
  };
  // Ready, or dead: no deadline of its own, the test's timeout bounds a start that hangs.
  if (command === 'serve') {
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`child exited early:\n${out}`);
      const ok = await fetch(`${url}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return child;
}

/** JSON over real HTTP against a child process. */
export async function call(
  url: string,
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
): Promise<{
  status: number;
  json: { data?: never; error?: { code: string; message: string } } & Record<string, unknown>;
}> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as never };
}

export interface RunView {
  status: string;
  steps: Array<{ name: string; status: string; startedAt: string | null; finishedAt: string | null }>;
  result?: Record<string, unknown>;
  error?: string;
}

/**
 * The shared setup of the crash tests: fake sites and ATS, an optional gate in front of some hosts, one database
 * that outlives the processes (a PGlite data directory, or with TEST_DATABASE_URL a fresh PostgreSQL database),
 * and `frontline serve` children that all run under the same worker id, so a restarted child recovers the runs
 * of the one killed before it. Every child preloads the crash point (test/support/crash-at-step.mjs), disarmed
 * until `armCrash` names a step.
 */
export interface CrashHarness {
  fx: Fixture;
  gate: Gate;
  token: string;
  /** Starts a child and remembers it (killed at the end); `env` overrides, e.g. another DBOS__VMID. */
  start(env?: Record<string, string>): Promise<Child>;
  /** The next child to execute a step of this name dies right after its body, before the checkpoint. */
  armCrash(step: string): void;
  /** Whether the armed crash went off (the file is renamed when it does). */
  crashFired(): boolean;
  call: (child: Child, method: string, path: string, body?: unknown) => ReturnType<typeof call>;
  view(child: Child, id: string): Promise<RunView>;
  until(child: Child, id: string, done: (v: RunView) => boolean): Promise<RunView>;
  /** Runs `fn` on the children's database; on PGlite only once no child holds it. */
  withDb<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface CrashHarnessOptions {
  name: string;
  fixture: Parameters<typeof startFixture>[0];
  /** Hosts whose requests go through the gate, and the fake behind it. */
  gate?: { upstream: 'ats' | 'sites'; hosts: string[] };
}

export async function startCrashHarness(opts: CrashHarnessOptions): Promise<CrashHarness> {
  const fx = await startFixture(opts.fixture);
  const gate = await startGate(opts.gate?.upstream === 'sites' ? fx.sites.origin : fx.ats.origin);
  const database = serverUrl() ? await freshDatabase() : undefined;
  const dir = mkdtempSync(join(tmpdir(), `frontline-${opts.name}-`));
  const control = join(dir, 'crash-at-step');
  const token = `fl_${opts.name.replace(/\W/g, '_')}_token_0123456789abcdef`;
  const children: Child[] = [];
  const env: Record<string, string> = {
    // A migrated data directory with the word vectors in place: a child boots without initdb, migrations or
    // the vectors' build, none of which the crash tests are about.
    ...(database?.url ? { DATABASE_URL: database.url } : { DATA_DIR: await freshDataDirWithVectors() }),
    API_TOKENS: token,
    DBOS__VMID: `${opts.name}-worker`,
    CRASH_AT_STEP_FILE: control,
    OUTBOUND_HOST_MAP: hostMapEnv(
      fx.hostMap,
      Object.fromEntries((opts.gate?.hosts ?? []).map((h) => [h, gate.origin])),
    ),
  };
  const harness: CrashHarness = {
    fx,
    gate,
    token,
    start: async (extra = {}) => {
      const child = await startChild({ ...env, ...extra }, { preload: [CRASH_AT_STEP] });
      children.push(child);
      return child;
    },
    armCrash: (step) => {
      rmSync(`${control}.fired`, { force: true });
      writeFileSync(control, step);
    },
    crashFired: () => existsSync(`${control}.fired`) && !existsSync(control),
    call: (child, method, path, body) => call(child.url, method, path, token, body),
    view: async (child, id) => {
      const res = await call(child.url, 'GET', `/api/v1/workflows/${id}`, token);
      if (res.status !== 200)
        throw new Error(`GET /workflows/${id}: ${res.status} ${JSON.stringify(res.json)}`);
      return res.json.data as unknown as RunView;
    },
    until: async (child, id, done) => {
      for (;;) {
        const v = await harness.view(child, id);
        if (done(v)) return v;
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    withDb: async (fn) => {
      if (database) return fn(database.db);
      for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) await c.stop();
      const db = await PgliteDb.open(env.DATA_DIR);
      try {
        return await fn(db);
      } finally {
        await db.close();
      }
    },
    close: async () => {
      for (const c of children) await c.kill9().catch(() => {});
      gate.release();
      await gate.close();
      await fx.close();
      await database?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return harness;
}
