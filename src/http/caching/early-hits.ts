import {
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { CounterCell } from '../../metric-cells.js';
import { type RefusalHeaders, refuseConnect } from '../client-error.js';
import { addCorsHeadersTo } from '../cors.js';
import type { Guard } from '../limits/guard.js';
import { requestId } from '../request-id.js';
import type { Series, SeriesOf } from '../request-metrics.js';
import { SECURITY_HEADERS } from '../security-headers.js';
import { addHitHeaders, cacheKey, type ResponseCache } from './response-cache.js';

/**
 * Answers response-cache hits before Fastify routes the request. A hit served from the onRequest hook still paid
 * for Fastify's request and reply objects, routing and its hook chain, which a hot cached row answered here does
 * not (docs/performance.md, Figures behind the HTTP layer). The answer is the
 * one the full pipeline sends, made by the same parts: the request id, the anonymous rate limit (counted once,
 * refused only by the guard), the CORS headers, the cached bytes with their headers, the request metrics and, at
 * `info`, the same two log lines.
 *
 * Only what needs no decision the full pipeline makes elsewhere is answered here; everything else goes on to
 * Fastify untouched:
 * - GET only (HEAD, preflights and writes are routed), with no Authorization header (a token is verified by the
 *   guard, asynchronously), no If-None-Match (the ETag plugin decides 304s), no Accept-Version (a routing
 *   constraint);
 * - an entry for this exact key: an entry exists only if a public, rate-limited route answered this URL with a 200
 *   for an anonymous caller (registerResponseCache refuses to cache any other route);
 * - a rate-limit store that answers without I/O, and no TRUST_PROXY (the client IP is then the socket's address,
 *   as Fastify's request.ip reads it); app.ts installs this only then;
 * - not while the server is closing (Fastify answers 503 then).
 */
export interface EarlyHitsOptions {
  cache: ResponseCache;
  admitAnonymous: NonNullable<Guard['admitAnonymous']>;
  seriesOf: SeriesOf;
  cacheHits: CounterCell<'outcome'>;
  /** Fastify's logger (pino), whose `info` decides whether requests are logged. */
  log: FastifyBaseLogger;
  closing: () => boolean;
}

export type EarlyHits = (req: IncomingMessage, res: ServerResponse) => boolean;

/** What the server asks of the app before routing: early cache hits, and the headers of parser refusals. */
export interface EarlySlot {
  hits: EarlyHits | undefined;
  refusalHeaders?: RefusalHeaders | undefined;
}

/** What the finish listener needs, kept on the response rather than in a closure per request. */
interface Timed {
  [STARTED]?: number;
  [SERIES]?: Series;
  [LOG]?: FastifyBaseLogger | undefined;
  [RELEASE]?: (() => void) | undefined;
}
const STARTED = Symbol('earlyHitStarted');
const SERIES = Symbol('earlyHitSeries');
const LOG = Symbol('earlyHitLog');
const RELEASE = Symbol('earlyHitRelease');

function finished(this: ServerResponse & Timed): void {
  const ms = performance.now() - (this[STARTED] ?? 0);
  this[RELEASE]?.();
  this[SERIES]?.requests.inc();
  this[SERIES]?.duration.observe(ms / 1000);
  // Fastify's line: the reply's status code through its `res` serializer, and the time in ms.
  this[LOG]?.info({ res: this, responseTime: ms }, 'request completed');
}

/** Returns true when it answered the request; false leaves the request to Fastify, untouched. */
export function earlyHits(opts: EarlyHitsOptions): EarlyHits {
  const log = opts.log as FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };
  // Without a logger Fastify logs no requests either.
  const logsRequests = () => log.isLevelEnabled?.('info') === true;
  return (req, res) => {
    if (req.method !== 'GET' || opts.closing()) return false;
    const headers = req.headers;
    if (
      headers.host === undefined ||
      headers.authorization !== undefined ||
      headers['if-none-match'] !== undefined ||
      headers['accept-version'] !== undefined
    )
      return false;
    const url = req.url;
    const ip = req.socket.remoteAddress;
    if (url === undefined || ip === undefined) return false;
    const started = performance.now();
    // A miss is counted by the full pipeline's lookup, not here as well.
    const hit = opts.cache.get(cacheKey('anonymous', url, headers), false);
    if (!hit) return false;
    const admitted = opts.admitAnonymous(ip, hit.page === true);
    if (!admitted) {
      // Refused: the guard answers the 429 and the copy is not sent, so its buffer goes back to the pool now.
      hit.release?.();
      return false;
    }
    opts.cacheHits.inc();

    const id = requestId(req);
    // Each part's own headers: the request id's, the guard's (tier and rate limit), CORS's, the security policy's, the cache's.
    const out: OutgoingHttpHeaders = { 'x-request-id': id, ...admitted, ...SECURITY_HEADERS };
    addCorsHeadersTo(out);
    addHitHeaders(out, hit);
    const timed = res as ServerResponse & Timed;
    timed[STARTED] = started;
    timed[SERIES] = opts.seriesOf(hit.route ?? 'unmatched', 'GET', 200);
    timed[RELEASE] = hit.release;
    if (logsRequests()) {
      const child = log.child({ reqId: id });
      // Fastify's request line: its `req` serializer reads these fields of a request.
      const request = { method: 'GET', url, headers, host: headers.host ?? '', ip, socket: req.socket };
      child.info({ req: request }, 'incoming request');
      timed[LOG] = child;
    }
    res.once('finish', finished);
    res.writeHead(200, out);
    res.end(hit.body);
    return true;
  };
}

/**
 * The HTTP server Fastify makes for itself (the same settings), with early hits in front of its handler.
 *
 * Two of Node's own answers are replaced by the envelope: a request without Host (Node answers 400 with no body;
 * here it reaches the app, whose host check answers it) and CONNECT (Node drops the connection; here 405).
 * A request must arrive whole within `requestTimeout` (headers and body): a body that trickles in is cut off with
 * 408 (client-error.ts), checked every `connectionsCheckingInterval`.
 */
export function serverWithEarlyHits(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  options: {
    http?: ServerOptions | undefined;
    keepAliveTimeout: number;
    requestTimeout: number;
    connectionTimeout: number;
    maxRequestsPerSocket: number;
  },
  early: { hits: EarlyHits | undefined },
): Server {
  const timeout = options.requestTimeout;
  const server = createServer(
    {
      ...(options.http ?? {}),
      requireHostHeader: false,
      ...(timeout > 0
        ? {
            requestTimeout: timeout,
            headersTimeout: Math.min(60_000, timeout),
            connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(timeout / 4))),
          }
        : {}),
    },
    (req, res) => {
      if (early.hits?.(req, res) !== true) handler(req, res);
    },
  );
  server.on('connect', refuseConnect);
  server.keepAliveTimeout = options.keepAliveTimeout;
  server.setTimeout(options.connectionTimeout);
  if (options.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
  return server;
}

/**
 * Turns early hits on for this app once its guard and metrics exist. Only with a rate-limit store that answers
 * without I/O, and without TRUST_PROXY: behind a trusted proxy the client IP comes from X-Forwarded-For, which
 * only Fastify's request reads.
 */
export function installEarlyHits(
  app: FastifyInstance,
  slot: { hits: EarlyHits | undefined },
  opts: Omit<EarlyHitsOptions, 'admitAnonymous' | 'closing' | 'log'> & {
    admitAnonymous: Guard['admitAnonymous'];
    trustProxy: unknown;
  },
): void {
  const { admitAnonymous, trustProxy, ...rest } = opts;
  if (!admitAnonymous || trustProxy !== false) return;
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  slot.hits = earlyHits({ ...rest, admitAnonymous, log: app.log, closing: () => closing });
}
