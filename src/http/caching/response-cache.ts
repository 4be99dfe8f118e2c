import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { pipeline, type Readable, Transform } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import type { Metrics } from '../../metrics.js';
import { JSON_TYPE } from '../documents/list-body.js';
import { isPage, routeConfig } from '../route-config.js';

/**
 * A per-process cache of rendered catalog responses. Exactness comes from the validity token: it changes with
 * every write committed through this process (Db.writeGeneration) and, in fleet mode, with the catalog_version
 * polled from the database, so a cached body is only ever served while nothing it depends on has changed.
 *
 * Bodies live in one slab, written in a ring: a new body overwrites the oldest, and an entry read while in the
 * older half of the ring (by bytes or by entries written since) is written again at its front: a second chance,
 * so what is read often stays, as under LRU, without moving anything on most reads. Why not a
 * Buffer per entry: thousands of 1–25 KB bodies stored and evicted in random order left glibc's heap full of
 * holes it never returns, the largest share of the RSS peak (docs/performance.md). The slab is one allocation of its own, outside that heap. A hit is a copy: the ring may overwrite the
 * region while a slow client's socket still holds what was sent.
 */
export interface ResponseCacheOptions {
  /** The current validity token; an entry stored under another token is stale. */
  validity: () => string;
  maxEntries?: number;
  /** Size of the slab: the bound on the bytes of cached bodies. */
  maxBytes?: number;
}

/** A response as stored or served: the bytes as sent, and the headers that describe them. */
export interface CachedResponse {
  validity: string;
  body: Buffer;
  etag: string | undefined;
  /** Content-Encoding, when the body is compressed. */
  encoding?: string | undefined;
  vary?: string | undefined;
  /** Content-Type, when not the API's JSON (a page, a feed, a chart). */
  type?: string | undefined;
  /** A web page's: counted against the page budget, not the API's (see RouteConfig.page). */
  page?: boolean | undefined;
  /** The route pattern that answered (the request metrics' label). */
  route?: string | undefined;
  /**
   * On a hit: hands the body's buffer back for reuse, once the response that sent it has finished (its bytes are
   * with the kernel). Not calling it is safe: the buffer is then garbage, as any other.
   */
  release?: () => void;
}

/**
 * Reusable buffers for the bodies of hits. A hit is a copy (see ResponseCache), and a fresh Buffer over 4 KB is a
 * backing store of its own, malloc'd, and freed only when V8's accounting of external memory triggers a
 * collection: at the bench's rate of hot hits that churn held far more RSS at the peak (docs/performance.md). Buffers come
 * in power-of-two classes from 4 KB; a class keeps at most 4 MB of free buffers, and bodies over 256 KB are not
 * pooled. Smaller bodies come from Node's own pool.
 */
class BodyPool {
  private readonly free = new Map<number, Buffer[]>();
  static readonly MIN = 4096;
  static readonly MAX = 256 * 1024;
  private static readonly KEEP_BYTES = 4 * 1024 * 1024;

  /** A buffer of exactly `length` bytes, and how to give it back (undefined when it is not pooled). */
  take(length: number): { body: Buffer; release: (() => void) | undefined } {
    if (length < BodyPool.MIN || length > BodyPool.MAX)
      return { body: Buffer.allocUnsafe(length), release: undefined };
    const size = 2 ** Math.ceil(Math.log2(length));
    let list = this.free.get(size);
    if (!list) {
      list = [];
      this.free.set(size, list);
    }
    const backing = list.pop() ?? Buffer.allocUnsafeSlow(size);
    let released = false;
    return {
      body: backing.subarray(0, length),
      release: () => {
        if (released) return;
        released = true;
        if ((list.length + 1) * size <= BodyPool.KEEP_BYTES) list.push(backing);
      },
    };
  }
}

interface Entry {
  key: string;
  validity: string;
  etag: string | undefined;
  encoding: string | undefined;
  vary: string | undefined;
  type: string | undefined;
  page: boolean | undefined;
  route: string | undefined;
  /** Where the body sits in the slab. */
  offset: number;
  length: number;
  /** Writes before this one: its age in entries. */
  seq: number;
  /** Times the ring had wrapped when it was written: its age in bytes, with offset and the head. */
  lap: number;
}

export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  /** Every entry written, in slab order, oldest first from `first`; those no longer in `entries` are dead. */
  private ring: Entry[] = [];
  private first = 0;
  private slab: Buffer | undefined;
  /** Where the next body is written. */
  private head = 0;
  private lap = 0;
  private writes = 0;
  private bytes = 0;
  private readonly maxEntries: number;
  private readonly capacity: number;
  private readonly pool = new BodyPool();
  hits = 0;
  misses = 0;

  constructor(private readonly opts: ResponseCacheOptions) {
    this.maxEntries = opts.maxEntries ?? 10_000;
    // Bounded for the process's memory budget (the 100k bench fills it).
    this.capacity = opts.maxBytes ?? 32 * 1024 * 1024;
  }

  validity(): string {
    return this.opts.validity();
  }

  /** `countMiss` false: a lookup that goes on through the full pipeline on a miss, which counts it there. */
  get(key: string, countMiss = true): CachedResponse | undefined {
    const entry = this.entries.get(key);
    if (!entry) {
      if (countMiss) this.misses++;
      return undefined;
    }
    if (entry.validity !== this.opts.validity()) {
      this.drop(entry);
      if (countMiss) this.misses++;
      return undefined;
    }
    this.hits++;
    const { body, release } = this.pool.take(entry.length);
    this.slab!.copy(body, 0, entry.offset, entry.offset + entry.length);
    const hit: CachedResponse = {
      validity: entry.validity,
      body,
      release,
      etag: entry.etag,
      encoding: entry.encoding,
      vary: entry.vary,
      type: entry.type,
      page: entry.page,
      route: entry.route,
    };
    // Read while in the older half of the ring (bytes written since it, or entries): keep it. A live entry is
    // at most one lap behind (the wrap evicts what the last lap left at the slab's end).
    const bytesSince = (this.lap - entry.lap) * this.capacity + this.head - entry.offset;
    if (bytesSince > this.capacity / 2 || this.writes - entry.seq > this.maxEntries / 2) this.set(key, hit);
    return hit;
  }

  /** Stores a copy of the body; an empty one or one larger than the slab is not kept. */
  set(key: string, response: CachedResponse): void {
    const old = this.entries.get(key);
    if (old) this.drop(old);
    const length = response.body.byteLength;
    if (length === 0 || length > this.capacity) return;
    this.slab ??= Buffer.allocUnsafeSlow(this.capacity);
    if (this.head + length > this.capacity) {
      // The end of the slab is too short: what is stored there is the oldest, and goes first.
      while (this.first < this.ring.length && this.ring[this.first]!.offset >= this.head) this.evictOldest();
      this.head = 0;
      this.lap++;
    }
    const end = this.head + length;
    while (this.first < this.ring.length) {
      const oldest = this.ring[this.first]!;
      if (oldest.offset >= end || oldest.offset + oldest.length <= this.head) break;
      this.evictOldest();
    }
    response.body.copy(this.slab, this.head);
    const entry: Entry = {
      key,
      validity: response.validity,
      etag: response.etag,
      encoding: response.encoding,
      vary: response.vary,
      type: response.type,
      page: response.page,
      route: response.route,
      offset: this.head,
      length,
      seq: this.writes++,
      lap: this.lap,
    };
    this.head = end;
    this.entries.set(key, entry);
    this.ring.push(entry);
    this.bytes += length;
    while (this.entries.size > this.maxEntries) this.evictOldest();
  }

  /** The largest body the slab can hold. */
  get maxBodyBytes(): number {
    return this.capacity;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Bytes of the bodies cached. */
  get storedBytes(): number {
    return this.bytes;
  }

  private evictOldest(): void {
    const entry = this.ring[this.first++]!;
    this.drop(entry);
    // Reclaim the ring's dead prefix now and then, not on every eviction.
    if (this.first > 1024 && this.first * 2 > this.ring.length) {
      this.ring = this.ring.slice(this.first);
      this.first = 0;
    }
  }

  /** Forgets the entry if it is still the one its key maps to (its bytes are reused when the ring comes round). */
  private drop(entry: Entry): void {
    if (this.entries.get(entry.key) !== entry) return;
    this.entries.delete(entry.key);
    this.bytes -= entry.length;
  }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** true: GET responses may be served from the per-process response cache. */
    cache?: boolean;
  }
  interface FastifyRequest {
    cacheKey: string | null;
    cacheValidity: string | null;
  }
}

/**
 * The key: the tier (page-size clamping differs per tier), the URL as requested, and what decides the coding
 * compression picks, so an entry holds the bytes exactly as they were sent. An Accept naming HTML is part of it
 * too: GET / answers a page or JSON by it (an API client's Accept leaves its keys as they were).
 */
export function cacheKey(tier: string, url: string, headers: IncomingHttpHeaders): string {
  const accepted = headers['accept-encoding'];
  const refused = headers['x-no-compression'] !== undefined;
  const accept = headers.accept;
  const key = accept?.includes('html') ? `${tier} ${url}\naccept:${accept}` : `${tier} ${url}`;
  if (accepted === undefined && !refused) return key;
  return `${key}\n${accepted ?? ''}${refused ? '\nno-compression' : ''}`;
}

/** Adds what describes a hit's bytes to the headers the request's earlier steps set; the body follows as is. */
export function addHitHeaders(headers: OutgoingHttpHeaders, hit: CachedResponse): OutgoingHttpHeaders {
  headers['x-cache'] = 'hit';
  headers['content-type'] = hit.type ?? JSON_TYPE;
  if (hit.etag) headers.etag = hit.etag;
  if (hit.vary) headers.vary = hit.vary;
  if (hit.encoding) headers['content-encoding'] = hit.encoding;
  headers['content-length'] = hit.body.byteLength;
  return headers;
}

/** The reply's Content-Type when it is not the JSON every hit is assumed to be. */
function nonJsonType(reply: FastifyReply): string | undefined {
  const type = headerOf(reply, 'content-type');
  return type === undefined || type === JSON_TYPE ? undefined : type;
}

function headerOf(reply: FastifyReply, name: string): string | undefined {
  const value = reply.getHeader(name);
  return value === undefined ? undefined : String(value);
}

/**
 * Answers a hit. An unconditional one is written straight to the socket, with the headers the earlier onRequest
 * hooks set (request id, tier, rate limits, CORS): the onSend chain (ETag, compression, the store) has nothing
 * left to do for bytes already final, and skipping it is a tenth of a hot read's CPU. Fastify attaches its
 * response listeners before onRequest, so onResponse hooks (metrics) and the request log still see the hit.
 * A conditional one goes through reply.send, so the ETag plugin stays the one place that decides on a 304.
 */
function serveHit(request: FastifyRequest, reply: FastifyReply, hit: CachedResponse): void {
  if (request.headers['if-none-match'] !== undefined) {
    reply.header('x-cache', 'hit').type(hit.type ?? JSON_TYPE);
    if (hit.etag) reply.header('etag', hit.etag);
    if (hit.vary) reply.header('vary', hit.vary);
    // The store hook drops the coding again if the answer is a 304 (no body, nothing encoded).
    if (hit.encoding) reply.header('content-encoding', hit.encoding);
    if (hit.release) reply.raw.once('finish', hit.release);
    reply.send(hit.body);
    return;
  }
  // getHeaders() returns a fresh object.
  const headers = addHitHeaders(reply.getHeaders() as OutgoingHttpHeaders, hit);
  reply.hijack();
  if (hit.release) reply.raw.once('finish', hit.release);
  reply.raw.writeHead(200, headers);
  reply.raw.end(hit.body);
}

/**
 * Registers after the guard and CORS (a cached response carries the same headers as a fresh one) and after
 * compression, so an entry holds the bytes as sent: a hit from a client that accepts brotli or gzip is not
 * compressed again, which makes a compressed hit as fast as an uncompressed one (docs/performance.md). A hit is
 * answered from onRequest,
 * before parsing, validation and the handler. Callback-style hooks: these run on every request, and an async
 * hook costs promises even when it has nothing to do.
 */
export function registerResponseCache(app: FastifyInstance, cache: ResponseCache, metrics: Metrics): void {
  app.decorateRequest('cacheKey', null);
  app.decorateRequest('cacheValidity', null);
  const hits = metrics.responseCache.cell({ outcome: 'hit' });
  const misses = metrics.responseCache.cell({ outcome: 'miss' });

  app.addHook('onRequest', (request, reply, done) => {
    if (request.method !== 'GET' || routeConfig(request).cache !== true) return done();
    const key = cacheKey(request.caller.tier, request.url, request.headers);
    const hit = cache.get(key);
    if (hit) {
      hits.inc();
      serveHit(request, reply, hit);
      return;
    }
    misses.inc();
    request.cacheKey = key;
    request.cacheValidity = cache.validity();
    reply.header('x-cache', 'miss');
    done();
  });

  const store: onSendHookHandler = (request, reply, payload, done) => {
    if (reply.statusCode === 304) reply.removeHeader('content-encoding');
    const key = request.cacheKey;
    const validity = request.cacheValidity;
    if (key === null || validity === null || reply.statusCode !== 200) return done();
    const config = routeConfig(request);
    const put = (body: Buffer) =>
      cache.set(key, {
        validity,
        body,
        etag: headerOf(reply, 'etag'),
        encoding: headerOf(reply, 'content-encoding'),
        vary: headerOf(reply, 'vary'),
        type: nonJsonType(reply),
        page: isPage(request),
        route: config.url,
      });
    // Copied into the cache's slab: the payload itself is the body being sent.
    if (typeof payload === 'string') put(Buffer.from(payload));
    else if (Buffer.isBuffer(payload)) put(payload);
    // A stream, by its shape as Fastify tells one: compression's come from readable-stream, not node:stream.
    else if (typeof (payload as Readable | null)?.pipe === 'function')
      return done(null, teed(payload as Readable, cache.maxBodyBytes, put));
    done();
  };
  // A route-level onSend runs after every app-level one, and compression adds its own when a route is declared:
  // added after it, the store sees the final bytes.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('GET') || route.config?.cache !== true) return;
    // early-hits.ts answers an entry before routing, after the anonymous rate limit: only a rate-limited public
    // route may be cached, or that answer would skip a check the route makes.
    if (route.config.rateLimited === false || (route.config.access ?? 'public') !== 'public')
      throw new Error(`${route.url}: a cached route must be public and rate limited`);
    route.onSend = [...(route.onSend === undefined ? [] : [route.onSend].flat()), store];
  });
}

/**
 * A large body is compressed as a stream (zlib's thread pool, off the event loop): a copy of its bytes is kept as
 * they pass, and stored once the stream has ended without error.
 */
function teed(source: Readable, maxBytes: number, put: (body: Buffer) => void): Readable {
  let chunks: Buffer[] | null = [];
  let size = 0;
  const tee = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (chunks !== null) {
        size += chunk.byteLength;
        if (size > maxBytes) chunks = null;
        else chunks.push(chunk);
      }
      callback(null, chunk);
    },
  });
  pipeline(source, tee, (err) => {
    if (!err && chunks !== null) put(Buffer.concat(chunks, size));
  });
  return tee;
}
