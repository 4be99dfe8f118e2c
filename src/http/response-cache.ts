import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../metrics.js';
import { routeConfig } from './route-config.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * A per-process cache of rendered catalog responses. Exactness comes from the validity token: it changes with
 * every write committed through this process (Db.writeGeneration) and, in fleet mode, with the catalog_version
 * polled from the database, so a cached body is only ever served while nothing it depends on has changed.
 */
export interface ResponseCacheOptions {
  /** The current validity token; an entry stored under another token is stale. */
  validity: () => string;
  maxEntries?: number;
  /** Bound on the bytes of cached bodies. */
  maxBytes?: number;
}

interface Entry {
  validity: string;
  /** Encoded once when stored: a string body would be UTF-8 encoded again on every hit. */
  body: Buffer;
  etag: string | undefined;
}

export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  /** The most recently used key, already last in `entries`. */
  private newest: string | undefined;
  private bytes = 0;
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  hits = 0;
  misses = 0;

  constructor(private readonly opts: ResponseCacheOptions) {
    this.maxEntries = opts.maxEntries ?? 10_000;
    // Bounded for the process's memory budget (the 100k bench fills it): least recently used entries go first.
    this.maxBytes = opts.maxBytes ?? 32 * 1024 * 1024;
  }

  validity(): string {
    return this.opts.validity();
  }

  get(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry) {
      this.misses++;
      return undefined;
    }
    if (entry.validity !== this.opts.validity()) {
      this.remove(key, entry);
      this.misses++;
      return undefined;
    }
    // Re-insert to mark it most recently used (Map keeps insertion order), unless it already is: a key read
    // over and over then costs no Map churn.
    if (key !== this.newest) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      this.newest = key;
    }
    this.hits++;
    return entry;
  }

  /** Stores the entry; its body is copied when it is a slice of a shared slab (see ownBytes). */
  set(key: string, stored: Entry): void {
    const entry = { ...stored, body: ownBytes(stored.body) };
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    this.entries.set(key, entry);
    this.newest = key;
    this.bytes += entry.body.byteLength;
    for (const [k, e] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.remove(k, e);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private remove(key: string, entry: Entry): void {
    if (key === this.newest) this.newest = undefined;
    this.entries.delete(key);
    this.bytes -= entry.body.byteLength;
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
 * Registers after the guard (auth and rate limits always run) and after CORS, so a cached response carries the
 * same headers as a fresh one. The key includes the tier because page-size clamping differs per tier.
 * A hit is answered from onRequest, before parsing, validation and the handler. Callback-style hooks: these run on
 * every request, and an async hook costs promises even when it has nothing to do.
 */
export function registerResponseCache(app: FastifyInstance, cache: ResponseCache, metrics: Metrics): void {
  app.decorateRequest('cacheKey', null);
  app.decorateRequest('cacheValidity', null);
  const hits = metrics.responseCache.cell({ outcome: 'hit' });
  const misses = metrics.responseCache.cell({ outcome: 'miss' });

  app.addHook('onRequest', (request, reply, done) => {
    if (request.method !== 'GET' || routeConfig(request).cache !== true) return done();
    const key = `${request.caller.tier} ${request.url}`;
    const hit = cache.get(key);
    if (hit) {
      hits.inc();
      if (hit.etag) reply.header('etag', hit.etag);
      reply.header('x-cache', 'hit');
      reply.type(JSON_TYPE).send(hit.body);
      return;
    }
    misses.inc();
    request.cacheKey = key;
    request.cacheValidity = cache.validity();
    reply.header('x-cache', 'miss');
    done();
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    if (
      request.cacheKey !== null &&
      request.cacheValidity !== null &&
      reply.statusCode === 200 &&
      (typeof payload === 'string' || Buffer.isBuffer(payload))
    ) {
      const etag = reply.getHeader('etag');
      cache.set(request.cacheKey, {
        validity: request.cacheValidity,
        // A Buffer is the body as sent (app.ts encodes serialized bodies once); nothing writes to it afterwards.
        body: typeof payload === 'string' ? Buffer.from(payload) : payload,
        etag: typeof etag === 'string' ? etag : undefined,
      });
    }
    done();
  });
}

/**
 * The body in a buffer of its own. Node cuts small Buffers (under 4 KB) from shared 8 KB slabs, and a cached
 * slice keeps its whole slab alive: with thousands of 1–4 KB entries (company and job details) the cache held up
 * to twice the bytes it counted. One copy per stored miss keeps `maxBytes` what it says.
 */
function ownBytes(body: Buffer): Buffer {
  if (body.byteOffset === 0 && body.buffer.byteLength === body.byteLength) return body;
  const own = Buffer.allocUnsafeSlow(body.byteLength);
  body.copy(own);
  return own;
}
