/**
 * A hostile vendor in front of the fake ATS: a real node:http server on 127.0.0.1 that passes requests through to
 * an upstream fake (keeping the Host header, so one fake still serves every vendor) except the paths it was told
 * to break. Point a vendor host at it with OUTBOUND_HOST_MAP, e.g. `boards-api.greenhouse.io=<origin>`.
 *
 *   const faults = await startFaultyAts(ats.origin);
 *   faults.fault('/v1/boards/acme/jobs?content=true', { kind: 'hang' });
 */
import { createServer, request as httpRequest, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type AtsFault =
  /** Accepts the request and never answers, not even headers. */
  | { kind: 'hang' }
  /** Slow loris: headers and the start of a JSON body at once, then one byte every `everyMs`, never ending. */
  | { kind: 'trickle'; everyMs: number }
  /** Answers this status (a JSON error body) every time. */
  | { kind: 'status'; status: number }
  /** A 200 JSON body of about `bytes` bytes, streamed without Content-Length, that is not a board. */
  | { kind: 'huge'; bytes: number }
  /** A redirect to `location`. */
  | { kind: 'redirect'; location: string };

export interface FaultyAts {
  origin: string;
  /** Breaks every request whose path and query are exactly `path`; `null` heals it. */
  fault(path: string, fault: AtsFault | null): void;
  /** Requests received for `path` (faulted or not). */
  hits(path: string): number;
  /**
   * For each faulted request to `path`, in order: how many earlier faulted requests to it still had their
   * connection open when it arrived (all zeros: the client gave up on each attempt before making the next).
   */
  openAtArrival(path: string): number[];
  /** Resolves once `path` has been requested at least `n` times (the test's timeout bounds the wait). */
  waitHits(path: string, n: number): Promise<void>;
  /** Faulted requests whose connection is still open: 0 once the client has given up on all of them. */
  openFaulted(): number;
  close(): Promise<void>;
}

const CHUNK = Buffer.alloc(64 * 1024, 'x');

/** Writes `bytes` of filler with backpressure, stopping when the client goes away. */
async function stream(res: ServerResponse, bytes: number): Promise<void> {
  res.write('{"jobs":"');
  for (let sent = 0; sent < bytes && !res.destroyed; sent += CHUNK.length) {
    if (!res.write(CHUNK)) {
      await new Promise<void>((ok) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          ok();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    }
  }
  if (!res.destroyed) res.end('"}');
}

export async function startFaultyAts(upstream: string): Promise<FaultyAts> {
  const faults = new Map<string, AtsFault>();
  const counts = new Map<string, number>();
  const faulted = new Set<Socket>();
  const faultedByPath = new Map<string, { closed: boolean }[]>();
  const arrivals = new Map<string, number[]>();

  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const fault = faults.get(path);
    if (!fault) {
      const out = httpRequest(new URL(path, upstream), { method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      out.on('error', () => res.destroy());
      req.pipe(out);
      return;
    }
    const earlier = faultedByPath.get(path) ?? [];
    faultedByPath.set(path, earlier);
    arrivals.set(path, [...(arrivals.get(path) ?? []), earlier.filter((r) => !r.closed).length]);
    const entry = { closed: false };
    earlier.push(entry);
    res.once('close', () => {
      entry.closed = true;
    });
    const socket = req.socket;
    faulted.add(socket);
    socket.once('close', () => faulted.delete(socket));
    switch (fault.kind) {
      case 'hang':
        return;
      case 'trickle': {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"jobs":[');
        const timer = setInterval(() => res.write(' '), fault.everyMs);
        res.once('close', () => clearInterval(timer));
        return;
      }
      case 'status':
        res.writeHead(fault.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: `fake ${fault.status}` }));
        return;
      case 'huge':
        res.writeHead(200, { 'content-type': 'application/json' });
        void stream(res, fault.bytes);
        return;
      case 'redirect':
        res.writeHead(302, { location: fault.location, 'content-type': 'text/plain' });
        res.end('moved');
        return;
    }
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const hits = (path: string) => counts.get(path) ?? 0;
  return {
    origin,
    fault(path, fault) {
      if (fault) faults.set(path, fault);
      else faults.delete(path);
    },
    hits,
    openAtArrival: (path) => arrivals.get(path) ?? [],
    async waitHits(path, n) {
      while (hits(path) < n) await new Promise((r) => setTimeout(r, 20));
    },
    openFaulted: () => faulted.size,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
