/**
 * Reads a response body under a byte cap, decompressing gzip/deflate/br itself so that the cap applies to the
 * decompressed size (a 10 KB gzip bomb must not become 10 GB in memory).
 */
import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { OutboundError } from './types.js';

function decoderFor(encoding: string | undefined): Transform | null {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return null;
  }
}

export async function readCapped(
  body: Readable,
  encoding: string | undefined,
  maxBytes: number,
): Promise<Buffer> {
  const decoder = decoderFor(encoding);
  let source: Readable = body;
  if (decoder) {
    body.on('error', (err) => decoder.destroy(err));
    source = body.pipe(decoder);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > maxBytes) {
        throw new OutboundError('too_large', `Response body exceeds ${maxBytes} bytes`, false);
      }
      chunks.push(chunk);
    }
  } catch (err) {
    body.destroy();
    decoder?.destroy();
    if (err instanceof OutboundError) throw err;
    if (decoder && (err as NodeJS.ErrnoException).code?.startsWith('Z_')) {
      throw new OutboundError('network', `Response body is not valid ${encoding} data`, false);
    }
    throw err;
  }
  return Buffer.concat(chunks);
}
