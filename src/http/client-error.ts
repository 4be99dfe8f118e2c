import { type IncomingMessage, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { SECURITY_HEADERS } from './security-headers.js';

/** Headers of a request refused by the parser: its tier and rate limit, counted (see Guard.parserRefusalHeaders). */
export type RefusalHeaders = (ip: string) => Record<string, string> | Promise<Record<string, string>>;

const lines = (headers: Record<string, string>): string =>
  Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');

/**
 * Answers requests that Node's HTTP parser refuses before any route or hook runs (Fastify's `clientErrorHandler`),
 * in the same error envelope as everything else: headers past Node's 16 KiB limit (431), a request that took too
 * long to arrive (408), malformed HTTP (400). The connection is then closed: its remaining bytes are never read.
 * The answer carries the headers every response carries: the anonymous tier (no header of the request was read),
 * its rate limit with this request counted against the IP, and the containment headers.
 */
export function clientErrorHandler(slot: { refusalHeaders?: RefusalHeaders | undefined }) {
  return (err: NodeJS.ErrnoException, socket: Socket): void => {
    // A reset connection has nobody left to answer.
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, code, message] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'HEADERS_TOO_LARGE', 'Request line and headers exceed 16 KiB']
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'REQUEST_TIMEOUT', 'The request did not arrive in time']
          : [400, 'BAD_REQUEST', 'Malformed HTTP request'];
    const answer = (headers: Record<string, string>) =>
      answerRaw(socket, status, code, message, lines({ ...headers, ...SECURITY_HEADERS }));
    const headers = slot.refusalHeaders?.(socket.remoteAddress ?? '') ?? {};
    if (headers instanceof Promise) headers.then(answer, () => answer({}));
    else answer(headers);
  };
}

/** Writes one envelope answer straight to the socket and closes it: for requests no route ever sees. */
function answerRaw(socket: Duplex, status: number, code: string, message: string, extra = ''): void {
  const body = JSON.stringify({ error: { code, message } });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n${extra}` +
        `Access-Control-Allow-Origin: *\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * The server's `connect` listener: this API is no proxy, so CONNECT is 405 (Node, without a listener, closes the
 * connection without a word).
 */
export function refuseConnect(_req: IncomingMessage, socket: Duplex): void {
  answerRaw(
    socket,
    405,
    'METHOD_NOT_ALLOWED',
    'CONNECT is not supported; use GET, HEAD or POST',
    'Allow: GET, HEAD, POST\r\n',
  );
}
