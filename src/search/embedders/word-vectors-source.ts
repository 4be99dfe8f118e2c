import { closeSync, openSync, readSync } from 'node:fs';

/**
 * Reads the word-vector package's JSON (`{"dimensions": n, "words": [...], "vectors": {"word": [...], ...}}`, other
 * keys ignored) one member at a time, quantising each vector as it goes. JSON.parse of the whole 300 MB file held
 * the text and ~341k arrays of boxed numbers at once (a large RSS and a long-blocked event loop on a newcomer's
 * first start); here only a window of the file, the vocabulary and the int8 rows are in memory, and the work comes
 * in slices (a generator step each) so an async caller can let requests through between them.
 */

export interface QuantisedVectors {
  dims: number;
  /** The vocabulary in the package's order (frequency rank), without words that have no vector or hold '\n'. */
  words: string[];
  /** Per-word scale: component d of word i is q[i * dims + d] * scales[i] (a unit-length vector). */
  scales: Float32Array;
  q: Int8Array;
}

/** Vectors quantised per slice: a short stretch of work between two turns of the event loop. */
const MEMBERS_PER_STEP = 1_000;
const WORDS_PER_STEP = 20_000;
const WINDOW_BYTES = 1 << 20;

/** Steps through the conversion; the generator's return value is the result. */
export function* quantiseSource(source: string): Generator<void, QuantisedVectors> {
  const reader = new JsonReader(openSync(source, 'r'));
  try {
    let dims: number | undefined;
    let words: string[] | undefined;
    let vectors: SlotVectors | undefined;
    reader.expect(0x7b); // {
    while (reader.peek() !== 0x7d) {
      const key = reader.string();
      reader.expect(0x3a); // :
      if (key === 'dimensions') dims = reader.json() as number;
      else if (key === 'words') words = yield* readWords(reader);
      else if (key === 'vectors') {
        if (dims === undefined || words === undefined) {
          throw new Error(`${source}: "vectors" comes before "dimensions" and "words"`);
        }
        vectors = new SlotVectors(words, dims);
        yield* readVectors(reader, vectors);
        yield;
      } else reader.skip();
      if (reader.peek() === 0x2c) reader.expect(0x2c);
    }
    if (!vectors) throw new Error(`${source}: no "vectors" member`);
    return vectors.result();
  } finally {
    reader.close();
  }
}

function* readWords(reader: JsonReader): Generator<void, string[]> {
  const words: string[] = [];
  reader.expect(0x5b); // [
  while (reader.peek() !== 0x5d) {
    words.push(reader.string());
    if (reader.peek() === 0x2c) reader.expect(0x2c);
    if (words.length % WORDS_PER_STEP === 0) yield;
  }
  reader.expect(0x5d);
  return words;
}

function* readVectors(reader: JsonReader, into: SlotVectors): Generator<void, void> {
  reader.expect(0x7b);
  for (let n = 1; reader.peek() !== 0x7d; n++) {
    const word = reader.string();
    reader.expect(0x3a);
    into.set(word, reader.json() as number[]);
    if (reader.peek() === 0x2c) reader.expect(0x2c);
    if (n % MEMBERS_PER_STEP === 0) yield;
  }
  reader.expect(0x7d);
}

/**
 * Quantised rows by distinct word (the package lists each word once; a repeat shares its row, and a repeated
 * vectors key keeps its last value, as JSON.parse would).
 */
class SlotVectors {
  /** Word -> slot, indexed as vectors arrive (in the package they come in the vocabulary's order). */
  private readonly slots = new Map<string, number>();
  private indexed = 0;
  private readonly scales: Float64Array;
  private readonly q: Int8Array;
  private readonly present: Uint8Array;

  constructor(
    private readonly words: string[],
    private readonly dims: number,
  ) {
    // At most one slot per listed word; repeats leave the tail unused.
    this.scales = new Float64Array(words.length);
    this.q = new Int8Array(words.length * dims);
    this.present = new Uint8Array(words.length);
  }

  /** The word's slot, indexing the vocabulary only as far as needed to find it. */
  private slot(word: string): number | undefined {
    const known = this.slots.get(word);
    if (known !== undefined || this.indexed === this.words.length) return known;
    this.indexUpTo(word);
    return this.slots.get(word);
  }

  /** Indexes the vocabulary up to the word's first listing; undefined: to its end. */
  private indexUpTo(word: string | undefined): void {
    while (this.indexed < this.words.length) {
      const w = this.words[this.indexed++]!;
      if (!this.slots.has(w)) this.slots.set(w, this.slots.size);
      if (w === word) return;
    }
  }

  /** Stores the vector unit-normalised and quantised to int8 with its own scale (max |component| -> 127). */
  set(word: string, v: number[]): void {
    const slot = this.slot(word);
    if (slot === undefined) return;
    const dims = this.dims;
    let norm = 0;
    for (let d = 0; d < dims; d++) norm += v[d]! * v[d]!;
    norm = Math.sqrt(norm) || 1;
    let max = 0;
    for (let d = 0; d < dims; d++) max = Math.max(max, Math.abs(v[d]! / norm));
    const scale = max > 0 ? max / 127 : 1;
    this.scales[slot] = scale;
    for (let d = 0; d < dims; d++) this.q[slot * dims + d] = Math.round(v[d]! / norm / scale);
    this.present[slot] = 1;
  }

  result(): QuantisedVectors {
    const dims = this.dims;
    this.indexUpTo(undefined);
    // The package's case: every word listed once, with a vector: the rows are already in the vocabulary's order.
    const inOrder =
      this.slots.size === this.words.length &&
      this.present.every((p) => p === 1) &&
      !this.words.some((w) => w.includes('\n'));
    if (inOrder) return { dims, words: this.words, scales: Float32Array.from(this.scales), q: this.q };
    // Words with a newline cannot be stored '\n'-joined; the package has none, but never corrupt the layout.
    const words = this.words.filter((w) => !w.includes('\n') && this.present[this.slots.get(w)!] === 1);
    const scales = new Float32Array(words.length);
    const q = new Int8Array(words.length * dims);
    words.forEach((w, i) => {
      const slot = this.slots.get(w)!;
      scales[i] = this.scales[slot]!;
      q.set(this.q.subarray(slot * dims, (slot + 1) * dims), i * dims);
    });
    return { dims, words, scales, q };
  }
}

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/**
 * A forward-only reader of JSON values from a file: a window of bytes refilled as the reader advances. Each value
 * it returns is cut out whole (strings and nesting followed, escapes included) and handed to JSON.parse, so what
 * it yields is exactly what JSON.parse of the whole file holds there.
 */
class JsonReader {
  private buf = Buffer.alloc(0);
  private pos = 0;
  private filePos = 0;
  private eof = false;

  constructor(private readonly fd: number) {}

  close(): void {
    closeSync(this.fd);
  }

  /** The next byte after whitespace, without consuming it; -1 at the end of the file. */
  peek(): number {
    for (;;) {
      if (this.pos >= this.buf.length && !this.more()) return -1;
      const b = this.buf[this.pos]!;
      if (!isSpace(b)) return b;
      this.pos++;
    }
  }

  expect(byte: number): void {
    const b = this.peek();
    if (b !== byte) {
      throw new Error(
        `word-vector source: expected "${String.fromCharCode(byte)}" at byte ${this.offset()}, found ${b < 0 ? 'the end' : `"${String.fromCharCode(b)}"`}`,
      );
    }
    this.pos++;
  }

  string(): string {
    if (this.peek() !== 0x22) this.expect(0x22);
    return this.json() as string;
  }

  json(): unknown {
    const end = this.valueEnd();
    const text = this.buf.toString('utf8', this.pos, end);
    this.pos = end;
    return JSON.parse(text);
  }

  skip(): void {
    this.pos = this.valueEnd();
  }

  private offset(): number {
    return this.filePos - (this.buf.length - this.pos);
  }

  /** Where the value starting at the next non-space byte ends (exclusive); the window grows until it holds it. */
  private valueEnd(): number {
    this.peek();
    let i = this.pos;
    let depth = 0;
    let inString = false;
    for (;;) {
      if (i >= this.buf.length) {
        const at = i - this.pos;
        if (!this.more()) {
          if (depth === 0 && !inString && at > 0) return this.buf.length;
          throw new Error(`word-vector source: the file ends inside a value at byte ${this.offset() + at}`);
        }
        i = this.pos + at;
        continue;
      }
      const b = this.buf[i]!;
      if (inString) {
        if (b === 0x5c) i++;
        else if (b === 0x22) {
          inString = false;
          if (depth === 0) return i + 1;
        }
      } else if (b === 0x22) inString = true;
      else if (b === 0x5b || b === 0x7b) depth++;
      else if (b === 0x5d || b === 0x7d) {
        if (depth === 0) return i;
        if (--depth === 0) return i + 1;
      } else if (depth === 0 && (b === 0x2c || b === 0x3a || isSpace(b))) return i;
      i++;
    }
  }

  /** Reads the next window, keeping the bytes from pos on; false at the end of the file. */
  private more(): boolean {
    if (this.eof) return false;
    const rest = this.buf.length - this.pos;
    const next = Buffer.allocUnsafe(rest + WINDOW_BYTES);
    this.buf.copy(next, 0, this.pos);
    const n = readSync(this.fd, next, rest, WINDOW_BYTES, this.filePos);
    this.filePos += n;
    this.buf = next.subarray(0, rest + n);
    this.pos = 0;
    if (n === 0) this.eof = true;
    return n > 0;
  }
}
