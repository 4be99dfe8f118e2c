import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * The request-header limit over a real TCP socket (app.inject never parses raw HTTP, so it cannot see it). Node's
 * HTTP parser caps the request line plus headers at 16 KiB (its default maxHeaderSize, which the service keeps):
 * past it the answer is 431 in the error envelope, the connection is closed, and the server neither reads the
 * rest nor suffers for it.
 */

const LIMIT = 16 * 1024;

let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(async () => t?.close());

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Bytes of the request the socket accepted before the server closed it. */
  sent: number;
}

/**
 * Writes `head` (request line and headers, without the blank line that ends them) in chunks, then the blank
 * line, and reads until the server closes the connection.
 */
function rawRequest(head: string, opts: { endHeaders?: boolean } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let sent = 0;
    let closed = false;
    const payload = Buffer.from(opts.endHeaders === false ? head : `${head}\r\n\r\n`);
    // Every request says `Connection: close`, so the answer is complete when the server closes the connection;
    // a server that never closes it is caught by the test's timeout, not by a budget of this helper.
    socket.on('connect', async () => {
      // 4 KiB at a time, as a slow client would: the server may answer and close before it has all of it.
      for (let at = 0; at < payload.length && !closed && !socket.destroyed; at += 4096) {
        const chunk = payload.subarray(at, at + 4096);
        const flushed = socket.write(chunk);
        sent += chunk.length;
        if (!flushed) await new Promise((r) => socket.once('drain', r));
        await new Promise((r) => setImmediate(r));
      }
    });
    socket.on('data', (d) => {
      received += d.toString('latin1');
    });
    socket.on('error', () => {}); // EPIPE/ECONNRESET once the server closes mid-upload: expected here
    socket.on('close', () => {
      closed = true;
      finish();
    });
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      if (received === '') {
        reject(new Error('the server closed the connection without answering'));
        return;
      }
      const [head, ...rest] = received.split('\r\n\r\n');
      const [statusLine = '', ...lines] = (head ?? '').split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n'), sent });
    };
  });
}

const get = (path: string, extra: string[] = []) =>
  [`GET ${path} HTTP/1.1`, 'Host: frontline.test', 'Connection: close', ...extra].join('\r\n');

async function healthy(): Promise<void> {
  const res = await rawRequest(get('/healthz'));
  expect(res.status).toBe(200);
  expect(JSON.parse(res.body)).toEqual({ data: { status: 'ok' } });
}

function expectHeaderLimit(res: RawResponse): void {
  expect(res.status).toBe(431);
  expect(res.headers['content-type']).toContain('application/json');
  const body = JSON.parse(res.body);
  expect(body).toEqual({ error: { code: 'HEADERS_TOO_LARGE', message: expect.stringContaining('16 KiB') } });
  // rawRequest resolves only once the server has closed the connection; it says so too.
  expect(res.headers.connection).toBe('close');
  // The headers every response carries: the tier (anonymous: no header was read), the IP's rate limit with this
  // request counted, and the containment headers.
  expect(res.headers['x-api-tier']).toBe('anonymous');
  expect(res.headers['x-ratelimit-limit']).toBe('100000');
  expect(Number(res.headers['x-ratelimit-remaining'])).toBeLessThan(100000);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
}

describe('request header limit', () => {
  it('serves headers just under the limit', async () => {
    const res = await rawRequest(get('/api/v1/tags', [`X-Padding: ${'a'.repeat(LIMIT - 1024)}`]));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toHaveProperty('data');
  });

  it('answers 431 in the envelope to one header over the limit, and closes the connection', async () => {
    const res = await rawRequest(get('/api/v1/jobs', [`X-Junk: ${'y'.repeat(LIMIT + 1024)}`]));
    expectHeaderLimit(res);
    await healthy();
  });

  it('counts every header: many small ones over the limit get 431 too', async () => {
    const many = Array.from({ length: 400 }, (_, i) => `X-H${i}: ${'z'.repeat(40)}`);
    const res = await rawRequest(get('/api/v1/jobs', many));
    expectHeaderLimit(res);
    await healthy();
  });

  it('stops reading headers that never end, long before the client is done sending', async () => {
    // 4 MiB of one header that never ends: the server must answer and hang up after about 16 KiB.
    const endless = get('/api/v1/jobs', [`X-Endless: ${'e'.repeat(4 * 1024 * 1024)}`]);
    const res = await rawRequest(endless, { endHeaders: false });
    expectHeaderLimit(res);
    expect(res.sent).toBeLessThan(1024 * 1024);
    await healthy();
  });

  it('stays healthy after a burst of oversized requests', async () => {
    const burst = await Promise.all(
      Array.from({ length: 20 }, () => rawRequest(get('/api/v1/jobs', [`X-Junk: ${'q'.repeat(LIMIT * 2)}`]))),
    );
    for (const res of burst) expect(res.status).toBe(431);
    await healthy();
    const ready = await t.get('/readyz');
    expect(ready.statusCode).toBe(200);
  });
});
