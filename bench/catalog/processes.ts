import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * Child processes of the bench: the service under test and the bare baseline. Each runs in its own process so
 * the bench's load generator (autocannon, in this process) never shares an event loop with a server.
 */

export interface Child {
  proc: ChildProcess;
  pid: number;
  origin: string;
  /** performance.now() when the process was spawned. */
  spawnedAt: number;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() =>
        typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export interface SpawnOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  /** stdout and stderr are appended here, so a failed start can be diagnosed. */
  logFile: string;
  port: number;
  cwd: string;
}

export function spawnChild(opts: SpawnOptions): Child {
  const log = createWriteStream(opts.logFile, { flags: 'a' });
  const spawnedAt = performance.now();
  const proc = spawn(opts.command, opts.args, {
    cwd: opts.cwd,
    env: opts.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout?.pipe(log, { end: false });
  proc.stderr?.pipe(log, { end: false });
  if (proc.pid === undefined) throw new Error(`could not start ${opts.command}`);
  const exited = new Promise<void>((resolveExit) => proc.once('exit', () => resolveExit()));
  return {
    proc,
    pid: proc.pid,
    origin: `http://127.0.0.1:${opts.port}`,
    spawnedAt,
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill('SIGTERM');
        const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      log.end();
    },
  };
}

/**
 * Polls `url` until it answers 2xx and returns the ms from spawn to that answer. Polls every 10 ms, so the
 * figure is accurate to about that; gives up after `timeoutMs` or when the process exits.
 */
export async function waitForOk(child: Child, url: string, timeoutMs: number): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (child.proc.exitCode !== null || child.proc.signalCode !== null) {
      throw new Error(
        `process ${child.pid} exited (${child.proc.exitCode ?? child.proc.signalCode}) before ${url} answered`,
      );
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.ok) return performance.now() - child.spawnedAt;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${url} did not answer 2xx within ${timeoutMs} ms`);
}

/**
 * Waits until the service's start has warmed up (`/readyz?warm=true` answers 200), so latency rows measure it
 * serving, not finishing its start. A build without the parameter (an older one timed beside this) answers 400:
 * it gets 3 s, more than its start's work after the first search took (~1.5 s at 100k jobs).
 */
export async function waitForWarm(child: Child, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const res = await fetch(`${child.origin}/readyz?warm=true`);
    await res.arrayBuffer();
    if (res.ok) return;
    if (res.status === 400) {
      await new Promise((r) => setTimeout(r, 3_000));
      return;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${child.origin} did not warm up within ${timeoutMs} ms`);
}

export interface MemoryStatus {
  /** Peak resident set size in MB (VmHWM). */
  peakMb: number;
  /** Current resident set size in MB (VmRSS). */
  currentMb: number;
}

/** Linux only: reads VmHWM and VmRSS of a process from /proc. */
export function memoryOf(pid: number): MemoryStatus | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string): number =>
      Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? 0);
    return { peakMb: kb('VmHWM') / 1024, currentMb: kb('VmRSS') / 1024 };
  } catch {
    return undefined;
  }
}
