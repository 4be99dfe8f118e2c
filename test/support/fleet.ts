import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { serviceArgs } from './service-entry.js';

/**
 * Helpers for multi-process tests: real `frontline` processes (never in-process apps), a round-robin HTTP proxy
 * standing in for the load balancer, and a throwaway PostgreSQL cluster that a test may stop and start without
 * touching the machine's shared server on 5432.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/** A port that was free a moment ago (the OS hands out a fresh ephemeral port, so a reuse race is unlikely). */
export async function freePort(): Promise<number> {
  const srv = createNetServer();
  await new Promise<void>((ok) => srv.listen(0, '127.0.0.1', ok));
  const { port } = srv.address() as AddressInfo;
  await new Promise<void>((ok) => srv.close(() => ok()));
  return port;
}

const pause = (ms: number) => new Promise<void>((ok) => setTimeout(ok, ms));

export interface ServiceProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far (JSON log lines). */
  output(): string;
  /** Resolves with the exit code (or signal name) once the process has exited. */
  exited: Promise<number | string>;
  /** SIGTERM, then the exit (no SIGKILL on a timer: how the process stops is what some tests assert). */
  stop(): Promise<void>;
}

const baseEnv = (): Record<string, string> => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: process.env.HOME ?? '/tmp',
  LOG_LEVEL: 'info',
  HOST: '127.0.0.1',
});

/** How a test runs the service: the run's bundle or the sources (service-entry.ts), or a given entry file. */
const command = (entry: string | undefined): string[] => (entry ? [entry] : serviceArgs());

/** `node <entry> <args>` with exactly the given environment (nothing inherited but PATH/HOME). */
export function spawnFrontline(args: string[], env: Record<string, string>, entry?: string): ChildProcess {
  return spawn(process.execPath, [...command(entry), ...args], {
    cwd: ROOT,
    env: { ...baseEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Collects a process's output as it comes, and its exit code (or signal name). */
export function trackOutput(child: ChildProcess): { output: () => string; exited: Promise<number | string> } {
  let out = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<number | string>((ok) =>
    child.once('exit', (code, signal) => ok(code ?? signal ?? 'unknown')),
  );
  return { output: () => out, exited };
}

type StartOptions = { command?: 'serve' | 'worker'; entry?: string };

/**
 * Starts `frontline serve` (or worker) and waits until /healthz answers (workers: until the log says started).
 * A port free a moment ago can be taken by another test's listener before the child binds it: a start that
 * fails with EADDRINUSE on a port picked here is tried again on a fresh one.
 */
export async function startService(
  env: Record<string, string>,
  opts: StartOptions = {},
): Promise<ServiceProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(env, opts);
    } catch (err) {
      const portTaken = String((err as Error).message).includes('EADDRINUSE') && env.PORT === undefined;
      if (!portTaken || attempt === 3) throw err;
    }
  }
}

async function startOnce(env: Record<string, string>, opts: StartOptions): Promise<ServiceProcess> {
  const command = opts.command ?? 'serve';
  const port = await freePort();
  const child = spawnFrontline([command], { PORT: String(port), ...env }, opts.entry);
  const { output, exited } = trackOutput(child);
  const url = `http://127.0.0.1:${port}`;
  let dead = false;
  void exited.then(() => {
    dead = true;
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await exited;
  };
  const proc: ServiceProcess = { url, port, child, output, exited, stop };
  if (command === 'worker') return proc;
  // Healthy, or dead: no deadline of its own, the test's timeout bounds a start that hangs.
  for (;;) {
    if (dead) throw new Error(`frontline ${command} exited during start:\n${output().slice(-4000)}`);
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return proc;
    await pause(100);
  }
}

/** Runs a CLI command (e.g. `tokens revoke x`) to completion and returns its output. */
export async function runCli(args: string[], env: Record<string, string>, entry?: string): Promise<string> {
  const { stdout } = await run(process.execPath, [...command(entry), ...args], {
    cwd: ROOT,
    env: { ...baseEnv(), LOG_LEVEL: 'warn', ...env },
  });
  return stdout;
}

/** Mints a token through the CLI and returns its secret. */
export async function cliToken(name: string, env: Record<string, string>): Promise<string> {
  const out = await runCli(['tokens', 'create', '--name', name], env);
  const secret = /secret \(shown once, store it now\): (\S+)/.exec(out)?.[1];
  if (!secret) throw new Error(`no secret in CLI output: ${out}`);
  return secret;
}

export interface RoundRobinProxy {
  url: string;
  /** Which upstream served each request, in order (index into the upstream list). */
  served: number[];
  close(): Promise<void>;
}

/**
 * A minimal load balancer: each request goes to the next upstream in turn; X-Forwarded-For gets the client's
 * address appended, as nginx's $proxy_add_x_forwarded_for does, so the services run with TRUST_PROXY=127.0.0.1.
 */
export async function startProxy(upstreams: string[]): Promise<RoundRobinProxy> {
  let next = 0;
  const served: number[] = [];
  const server: Server = createServer((req, res) => {
    const index = next++ % upstreams.length;
    served.push(index);
    const target = new URL(req.url ?? '/', upstreams[index]);
    const forwarded = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
    const upstream = httpRequest(
      target,
      { method: req.method, headers: { ...req.headers, 'x-forwarded-for': forwarded } },
      (up: IncomingMessage) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('bad gateway');
    });
    req.pipe(upstream);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

const PG_BIN = '/usr/lib/postgresql/15/bin';

export interface ThrowawayPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the cluster and deletes its data directory. */
  destroy(): Promise<void>;
}

/** initdb/pg_ctl run as the postgres user when we are root (initdb refuses to run as root). */
async function asPostgres(cmd: string, args: string[]): Promise<void> {
  const root = process.getuid?.() === 0;
  await run(root ? 'runuser' : cmd, root ? ['-u', 'postgres', '--', cmd, ...args] : args);
}

/**
 * A private PostgreSQL 15 cluster in a temp dir on a free port, trust auth, fsync off (tests need no
 * durability across a machine crash, only across a server restart, which a clean or immediate stop keeps).
 */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'frontline-pg-'));
  const data = join(dir, 'data');
  await run('chmod', ['777', dir]);
  await asPostgres(`${PG_BIN}/initdb`, ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
  const port = await freePort();
  // pg_ctl's wait (-w) gives up after 60 s by default; a day leaves the test's timeout the only bound.
  const pgCtl = (args: string[]) => asPostgres(`${PG_BIN}/pg_ctl`, ['-D', data, '-t', '86400', ...args]);
  const start = () =>
    pgCtl([
      '-l',
      join(dir, 'log'),
      '-w',
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
      'start',
    ]);
  // Immediate mode: in-flight connections are cut, as when the server crashes or is failed over.
  const stop = () => pgCtl(['-m', 'immediate', '-w', 'stop']);
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    destroy: async () => {
      await stop().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A private redis-server on a free port, killable by the test. */
export async function startThrowawayRedis(): Promise<{ url: string; port: number; kill(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  for (;;) {
    const up = await new Promise<boolean>((ok) => {
      const s = createNetServer();
      s.once('error', () => ok(true));
      s.listen(port, '127.0.0.1', () => s.close(() => ok(false)));
    });
    if (up) break;
    if (child.exitCode !== null) throw new Error('redis-server exited during start');
    await pause(50);
  }
  return {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
