import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../metrics.js';

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
  body: string;
  etag: string | undefined;
}

export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
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
    // Re-insert to mark it most recently used (Map keeps insertion order).
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.hits++;
    return entry;
  }

  set(key: string, entry: Entry): void {
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    this.entries.set(key, entry);
    this.bytes += entry.body.length;
    for (const [k, e] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.remove(k, e);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.body.length;
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
 */
export function registerResponseCache(app: FastifyInstance, cache: ResponseCache, metrics: Metrics): void {
  app.decorateRequest('cacheKey', null);
  app.decorateRequest('cacheValidity', null);

  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' || request.routeOptions.config.cache !== true) return;
    const key = `${request.caller.tier} ${request.url}`;
    const hit = cache.get(key);
    metrics.responseCache.inc({ outcome: hit ? 'hit' : 'miss' });
    if (hit) {
      if (hit.etag) reply.header('etag', hit.etag);
      reply.header('x-cache', 'hit');
      return reply.type('application/json; charset=utf-8').send(hit.body);
    }
    request.cacheKey = key;
    request.cacheValidity = cache.validity();
    reply.header('x-cache', 'miss');
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (request.cacheKey === null || request.cacheValidity === null) return payload;
    if (reply.statusCode === 200 && typeof payload === 'string') {
      const etag = reply.getHeader('etag');
      cache.set(request.cacheKey, {
        validity: request.cacheValidity,
        body: payload,
        etag: typeof etag === 'string' ? etag : undefined,
      });
    }
    return payload;
  });
}
