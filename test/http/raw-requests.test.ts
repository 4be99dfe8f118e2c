import { once } from 'node:events';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

/** Sends raw bytes and collects everything the server answers until it closes the connection. */
async function raw(port: number, ...chunks: string[]): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let answer = '';
  socket.setEncoding('utf8');
  socket.on('data', (d: string) => {
    answer += d;
  });
  const closed = once(socket, 'close');
  for (const chunk of chunks) socket.write(chunk);
  await closed;
  return answer;
}

const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

/** Requests only a real socket can make: no Host, CONNECT, a body that never finishes arriving. */
describe('requests at the socket level', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await startTestApp({ env: { REQUEST_TIMEOUT_MS: '300' } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(async () => t.close());

  it('answers an HTTP/1.1 request without Host with a 400 envelope', async () => {
    const answer = await raw(port, 'GET /api/v1/tags HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer.toLowerCase()).toContain('x-request-id:');
    expect(bodyOf(answer).error).toEqual({
      code: 'BAD_REQUEST',
      message: 'Missing Host header (required by HTTP/1.1)',
    });
  });

  it('answers CONNECT with a 405 envelope', async () => {
    const answer = await raw(port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 405 /);
    expect(answer).toContain('Allow: GET, HEAD, POST');
    expect(bodyOf(answer).error.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('cuts off a body that trickles in with 408 after the request timeout', async () => {
    // Headers and part of the body, then nothing more: the connection is held open until the server answers.
    const head = 'Host: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n';
    const answer = await raw(
      port,
      `POST /api/v1/onboard HTTP/1.1\r\nAuthorization: Bearer ${t.token}\r\n${head}\r\n`,
      '{"name":',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(answer).error.code).toBe('REQUEST_TIMEOUT');
    // A body on a route the caller may not use is refused at once, without waiting for it.
    const anonymous = await raw(port, `POST /api/v1/onboard HTTP/1.1\r\n${head}\r\n`, '{"name":');
    expect(anonymous).toMatch(/^HTTP\/1\.1 401 /);
  });
});

describe('/metrics access', () => {
  let open: TestApp;
  let secured: TestApp;
  beforeAll(async () => {
    [open, secured] = await Promise.all([
      startTestApp(),
      startTestApp({ env: { METRICS_TOKEN: 'scrape-secret', RATE_LIMIT_FAILED_AUTH: '3' } }),
    ]);
  });
  afterAll(async () => {
    await open.close();
    await secured.close();
  });

  const scrape = (t: TestApp, remoteAddress: string, authorization?: string) =>
    t.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress,
      headers: authorization ? { authorization } : {},
    });

  it('counts all of 127.0.0.0/8 and ::1 as loopback', async () => {
    for (const ip of ['127.0.0.1', '127.0.0.2', '127.255.0.9', '::1', '::ffff:127.0.0.3']) {
      expect((await scrape(open, ip)).statusCode, ip).toBe(200);
    }
    for (const ip of ['128.0.0.1', '10.0.0.1', '::2', '::ffff:10.0.0.1']) {
      expect((await scrape(open, ip)).statusCode, ip).toBe(403);
    }
  });

  it('takes the bearer scheme in any case, and limits wrong metrics tokens', async () => {
    expect((await scrape(secured, '203.0.113.1', 'bearer scrape-secret')).statusCode).toBe(200);
    expect((await scrape(secured, '203.0.113.1', 'BEARER scrape-secret')).statusCode).toBe(200);
    const missing = await scrape(secured, '203.0.113.2');
    expect(missing.statusCode).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer');
    for (let i = 0; i < 3; i++) {
      expect((await scrape(secured, '203.0.113.2', `Bearer guess-${i}`)).statusCode).toBe(403);
    }
    const limited = await scrape(secured, '203.0.113.2', 'Bearer guess-again');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.message).toContain('failed-authentication limit of 3 attempts');
  });
});
