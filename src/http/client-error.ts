import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Answers requests that Node's HTTP parser refuses before any route or hook runs (Fastify's `clientErrorHandler`),
 * in the same error envelope as everything else: headers past Node's 16 KiB limit (431), a request that took too
 * long to arrive (408), malformed HTTP (400). The connection is then closed: its remaining bytes are never read.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'HEADERS_TOO_LARGE', 'Request line and headers exceed 16 KiB']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'REQUEST_TIMEOUT', 'The request did not arrive in time']
        : [400, 'BAD_REQUEST', 'Malformed HTTP request'];
  const body = JSON.stringify({ error: { code, message } });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
