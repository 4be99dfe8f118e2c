import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type FakeAts, type FakePosting, generatePostings, startFakeAts } from '../support/fake-ats.js';
import { type FakeSites, startFakeSites } from '../support/fake-site.js';

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
 * A pass-through proxy in front of one vendor host that can hold requests: `arm()` makes every later request
 * wait (the test sees it in `held`) until `release()`. Used to freeze a worker inside a scrape step.
 */
export interface Gate {
  origin: string;
  held: number;
  arm(): void;
  release(): void;
  waitHeld(timeoutMs: number): Promise<void>;
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
    waitHeld: async (timeoutMs) => {
      const deadline = Date.now() + timeoutMs;
      while (gate.held === 0) {
        if (Date.now() > deadline) throw new Error('no request reached the gate');
        await new Promise((r) => setTimeout(r, 20));
      }
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

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

export interface Child {
  url: string;
  proc: ChildProcess;
  output(): string;
  /** SIGKILL: no shutdown hook runs, like a crashed machine. */
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

/** Runs `frontline <command>` (serve by default) from the TypeScript sources in a child process. */
export async function startChild(env: Record<string, string>, command = 'serve'): Promise<Child> {
  const port = Number(env.PORT ?? (await freePort()));
  const proc = spawn(process.execPath, ['--import', 'tsx', MAIN, command], {
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
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const url = `http://127.0.0.1:${port}`;
  const child: Child = {
    url,
    proc,
    output: () => out,
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
  if (command === 'serve') {
    const deadline = Date.now() + 240_000;
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`child exited early:\n${out}`);
      const ok = await fetch(`${url}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline) {
        await child.kill9();
        throw new Error(`child not ready:\n${out}`);
      }
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
