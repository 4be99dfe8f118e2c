import { hash } from 'node:crypto';
import { constants as zlib } from 'node:zlib';
import compress from '@fastify/compress';
import etag from '@fastify/etag';
import type { FastifyInstance } from 'fastify';

/**
 * Bodies up to 64 KB (every default page, and a token's 50 jobs) are compressed in one synchronous call. The
 * plugin's default on two cores (8 KB) sent a /companies page through a zlib stream and the thread pool, at
 * several times the CPU of one call.
 *
 * gzip first when a client takes both (browsers send `gzip, deflate, br`): on our JSON pages brotli at the
 * plugin's quality 4 came out no smaller for many times the CPU, because the pinned mmap threshold
 * (src/runtime/malloc-env.ts) maps brotli's multi-MB encoder tables afresh on every call. Brotli stays for
 * clients that ask for it alone, with a 64 KB window: the same bytes on these pages, a fraction of that cost
 * (docs/performance.md, Figures behind the HTTP layer).
 */
const COMPRESSION = {
  threshold: 1024,
  syncThreshold: 64 * 1024,
  encodings: ['gzip', 'br', 'deflate'] as ('gzip' | 'br' | 'deflate')[],
  brotliOptions: {
    params: {
      [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
      [zlib.BROTLI_PARAM_QUALITY]: 4,
      [zlib.BROTLI_PARAM_LGWIN]: 16,
    },
  },
};

/**
 * A web page's compression (a route's `compress` option; a route's options replace the plugin's, so they carry
 * them all): gzip and deflate at level 3 rather than zlib's 6. A miss of the /jobs page renders ~16 KB of HTML,
 * which level 3 sends ~3 % larger (4.9 KB against 4.7 KB) for ~30 % fewer instructions (docs/performance.md,
 * "Where a miss of the HTML page goes"). A page is read once per visit, where a JSON answer feeds a program.
 */
export const PAGE_COMPRESSION = { ...COMPRESSION, zlibOptions: { level: 3 } };

/**
 * Strong ETags and response compression. Hook order matters: ETag sees the uncompressed body, compression runs
 * after it, and the response cache (registered next) stores the bytes as sent.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  // A large serialized body is UTF-8 encoded once, here: the ETag hash, the response cache and the socket then
  // share the bytes rather than each encoding it again. A small one stays a string, which Node writes in one piece
  // with the headers (docs/performance.md, Figures behind the HTTP layer).
  app.addHook('onSend', (_request, _reply, payload, done) => {
    done(null, typeof payload === 'string' && payload.length > 1024 ? Buffer.from(payload) : payload);
  });
  // The plugin's default digest (sha1, base64) through the one-shot crypto.hash, which skips a Hash object.
  await app.register(etag, { weak: false, hashFn: (payload) => hash('sha1', payload, 'base64') });
  await app.register(compress, { global: true, ...COMPRESSION });
}
