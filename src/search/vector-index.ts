import { type DotFn, dotKernel, newMemory, ROW_TAIL, WASM_PAGE, type WasmMemory } from './dot-kernel.js';
import { type Below, TopSlots } from './top-slots.js';

/**
 * Exact nearest-neighbour search over stored unit vectors, with per-row attributes so every filter is applied
 * while scanning (never to an unfiltered top-k). It needs no extension and behaves the same on PGlite and
 * PostgreSQL.
 *
 * Rows are stored as int8 with a per-row scale (x̂ = s·q8, s = max|x|/127): a quarter of float32's memory (10 MB
 * instead of 40 at 100k × 100) and of its memory traffic. That rounding is the only approximation: each
 * component moves by at most s/2, so a score moves by at most s/2·‖q‖₁ (~0.002 for these embeddings), well
 * inside the gaps that matter to ranking. Over the stored vectors the search is exact.
 *
 * A scan is two passes. First one WebAssembly SIMD call (dot-kernel.ts, ~1 ms for 100k × 100 where a float32
 * JavaScript loop takes ~10 ms) takes every row's dot product with an int16 copy of the query and turns it into
 * an upper bound of the row's exact score: the query's rounding is bounded per row
 * (|x̂·q − s·qs·(q8·q16)| ≤ s·qs/2·‖q8‖₁), so the integer score plus that bound can only overestimate. Then the
 * selection visits the rows whose bound reaches the current floor, and only those get their exact score against
 * the float query and a place in the top k: the exact top k of the stored vectors, with a few hundred rows
 * re-scored instead of 100k.
 *
 * One scan fills several top-k lists with different filters and floors (hybrid search's nearest jobs and
 * nearest jobs at the places named), so a second list costs no second pass.
 */

export interface Hit {
  id: string;
  score: number;
}

/** A vector as the index stores it: int8 components and their scale (x ≈ scale · values). */
export interface StoredVector {
  scale: number;
  values: Int8Array;
}

/** The stored form of a vector (what upsert keeps; snapshots save and restore it as is). */
export function quantise(vector: Float32Array): StoredVector {
  let max = 0;
  for (const x of vector) max = Math.max(max, Math.abs(x));
  const scale = max / INT8_MAX;
  const values = new Int8Array(vector.length);
  if (scale > 0) for (let d = 0; d < vector.length; d++) values[d] = Math.round(vector[d]! / scale);
  return { scale, values };
}

/**
 * One top-k list filled by a scan: the k best rows that `admit` (by slot) and `accept` (by attributes) both
 * admit and that score at least `minScore`.
 */
export interface TopK<A> {
  k: number;
  accept?: (attrs: A) => boolean;
  /**
   * Admits rows by slot, from typed columns the index keeps current (VectorIndexOptions.columns): tested first,
   * with a few array reads where `accept` reads the row's attributes object.
   */
  admit?: (slot: number) => boolean;
  minScore: number;
}

export interface VectorIndexOptions<A> {
  /** Told each row's attributes by slot whenever they are set (JobColumns), for TopK.admit. */
  columns?: { set(slot: number, attrs: A): void };
}

const INT8_MAX = 127;
const INT16_MAX = 32_767;
/** Float slack on top of the quantisation bound (the exact scores are float64 sums). */
const SLACK = 1e-9;

export class VectorIndex<A> {
  private dims = 0;
  /**
   * Bytes per row in the kernel's memory: the int8 components, zero padding, and the row's tail (Σ|int8
   * component| and scale, which the kernel's bound reads), rounded up to 16.
   */
  private stride = 0;
  private capacity = 0;
  /** Per row: the int8 scale (max |component| / 127); also in the row's tail, for the kernel. */
  private scale = new Float64Array(0);
  /** int8 rows, then the query (int16) and one float64 bound per row. */
  private memory: WasmMemory | undefined;
  /** A view of the memory for writing row tails (replaced when the memory grows). */
  private tail: DataView | undefined;
  private dots: DotFn | undefined;
  private ids: (string | undefined)[] = [];
  private attrs: (A | undefined)[] = [];
  /** 1 when the slot holds a vector for the current model. */
  private hasVector = new Uint8Array(0);
  private readonly slots = new Map<string, number>();
  private readonly free: number[] = [];

  constructor(private readonly options: VectorIndexOptions<A> = {}) {}

  get size(): number {
    return this.slots.size;
  }

  get dimension(): number {
    return this.dims;
  }

  attributes(id: string): A | undefined {
    const slot = this.slots.get(id);
    return slot === undefined ? undefined : this.attrs[slot];
  }

  /** The stored vector of a row (values a view, valid until the next write), or null when it has none. */
  storedOf(id: string): StoredVector | null {
    const slot = this.slots.get(id);
    if (slot === undefined || this.hasVector[slot] !== 1 || !this.memory) return null;
    return {
      scale: this.scale[slot]!,
      values: new Int8Array(this.memory.buffer, slot * this.stride, this.dims),
    };
  }

  /** True when the row stores exactly what upserting `vector` would store (null: the row has no vector). */
  holds(id: string, vector: Float32Array | null): boolean {
    const stored = this.storedOf(id);
    if (stored === null || vector === null) return stored === vector && this.slots.has(id);
    if (vector.length !== this.dims) return false;
    const q = quantise(vector);
    if (q.scale !== stored.scale) return false;
    for (let d = 0; d < this.dims; d++) if (q.values[d] !== stored.values[d]) return false;
    return true;
  }

  *entries(): IterableIterator<[string, A]> {
    for (const [id, slot] of this.slots) yield [id, this.attrs[slot]!];
  }

  /** Sizes the storage for `rows` rows of `dims` floats up front (a bulk load then never re-copies it). */
  reserve(rows: number, dims: number): void {
    if (this.dims === 0 && dims > 0) this.setDims(dims);
    this.ensureCapacity(rows);
  }

  /**
   * Inserts or replaces a row; a null vector keeps the row filterable but out of semantic results. A vector is
   * given as floats (quantised here) or already in stored form (a snapshot).
   */
  upsert(id: string, attrs: A, vector: Float32Array | StoredVector | null): void {
    const width = vector === null ? 0 : vector instanceof Float32Array ? vector.length : vector.values.length;
    // Rows may have arrived before the first vector; size the vector storage now that the width is known.
    if (vector && this.dims === 0) this.setDims(width);
    if (vector && width !== this.dims) {
      throw new Error(`vector for ${id} has ${width} dimensions, the index holds ${this.dims}`);
    }
    let slot = this.slots.get(id);
    if (slot === undefined) {
      slot = this.free.pop() ?? this.ids.length;
      this.slots.set(id, slot);
      this.ensureCapacity(slot + 1);
    }
    this.ids[slot] = id;
    this.attrs[slot] = attrs;
    this.options.columns?.set(slot, attrs);
    if (vector) {
      this.store(slot, vector instanceof Float32Array ? quantise(vector) : vector);
      this.hasVector[slot] = 1;
    } else if (vector === null) {
      this.hasVector[slot] = 0;
    }
  }

  /** Updates a row's attributes and keeps its vector. */
  setAttributes(id: string, attrs: A): boolean {
    const slot = this.slots.get(id);
    if (slot === undefined) return false;
    this.attrs[slot] = attrs;
    this.options.columns?.set(slot, attrs);
    return true;
  }

  remove(id: string): void {
    const slot = this.slots.get(id);
    if (slot === undefined) return;
    this.slots.delete(id);
    this.ids[slot] = undefined;
    this.attrs[slot] = undefined;
    this.hasVector[slot] = 0;
    this.free.push(slot);
  }

  clear(): void {
    this.slots.clear();
    this.free.length = 0;
    this.ids = [];
    this.attrs = [];
    this.hasVector = new Uint8Array(0);
    this.capacity = 0;
    this.scale = new Float64Array(0);
    this.memory = undefined;
    this.tail = undefined;
    this.dots = undefined;
    this.dims = 0;
    this.stride = 0;
  }

  /**
   * The k rows most similar to `query` (cosine = dot product of unit vectors) among rows that `accept` admits
   * and score at least `minScore`, best first; equal scores order by id so results are deterministic.
   */
  search(query: Float32Array, k: number, accept: (attrs: A) => boolean, minScore = -1): Hit[] {
    return this.searchEach(query, [{ k, accept, minScore }])[0]!;
  }

  /**
   * Fills every list of `lists` from one scan; each is what search() would return for it. Equal scores order by
   * id, also at the cut-off, so which of several equally similar rows make a list never depends on storage order.
   */
  searchEach(query: Float32Array, lists: readonly TopK<A>[]): Hit[][] {
    const rows = this.ids.length;
    if (this.dims === 0 || query.length !== this.dims || rows === 0 || !this.dots || !this.memory) {
      return lists.map(() => []);
    }
    const { dims, scale, ids, stride, attrs } = this;
    // Best first: higher score, then smaller id.
    const below: Below = (a, sa, b, sb) => a < b || (a === b && ids[sa]! > ids[sb]!);
    const tops = lists.map((l) => ({
      list: l,
      best: new TopSlots(Math.max(0, l.k), below),
      floor: l.minScore,
    }));
    const bounds = this.bounds(query, rows);
    const has = this.hasVector;
    const rowsInt8 = new Int8Array(this.memory.buffer, 0, rows * stride);
    const lowest = () => tops.reduce((m, t) => Math.min(m, t.list.k > 0 ? t.floor : 2), 2) - SLACK;
    let low = lowest();
    const visit = (slot: number) => {
      if (has[slot] !== 1) return;
      const bound = bounds[slot]! + SLACK;
      let exact = Number.NaN;
      let changed = false;
      for (let i = 0; i < tops.length; i++) {
        const t = tops[i]!;
        if (bound < t.floor || t.best.k === 0) continue;
        if (t.list.admit !== undefined && !t.list.admit(slot)) continue;
        if (t.list.accept !== undefined && !t.list.accept(attrs[slot]!)) continue;
        if (Number.isNaN(exact)) {
          let sum = 0;
          const base = slot * stride;
          for (let d = 0; d < dims; d++) sum += rowsInt8[base + d]! * query[d]!;
          exact = scale[slot]! * sum;
        }
        if (exact < t.floor || !t.best.offer(exact, slot)) continue;
        if (t.best.full) {
          t.floor = Math.max(t.list.minScore, t.best.worst);
          changed = true;
        }
      }
      if (changed) low = lowest();
    };
    for (let slot = 0; slot < rows; slot++) {
      // An upper bound of the exact score: most rows stop here, before anything else about them is read.
      if (bounds[slot]! >= low) visit(slot);
    }
    return tops.map((t) => t.best.ranked().map(([slot, score]) => ({ id: ids[slot]!, score })));
  }

  /** Quantises the query to int16 and runs the kernel: every row's upper bound, in the returned array. */
  private bounds(query: Float32Array, rows: number): Float64Array {
    const buffer = this.memory!.buffer;
    const queryByte = this.capacity * this.stride;
    const outByte = queryByte + this.stride * 2;
    const q16 = new Int16Array(buffer, queryByte, this.stride);
    let max = 0;
    for (const x of query) max = Math.max(max, Math.abs(x));
    // Keep every int32 sum exact: |Σ x·q| ≤ 127 · stride · top.
    const top = Math.min(INT16_MAX, Math.floor(0x7fffffff / (INT8_MAX * this.stride)));
    const queryScale = max > 0 ? max / top : 0;
    // Zero past dims: the rows' tails must not count in their dot products.
    q16.fill(0);
    if (queryScale > 0) for (let d = 0; d < this.dims; d++) q16[d] = Math.round(query[d]! / queryScale);
    this.dots!(queryByte, 0, rows, this.stride, outByte, queryScale);
    return new Float64Array(buffer, outByte, rows);
  }

  private store(slot: number, vector: StoredVector): void {
    const buffer = this.memory!.buffer;
    const row = new Int8Array(buffer, slot * this.stride, this.dims);
    row.set(vector.values);
    let l1 = 0;
    for (let d = 0; d < this.dims; d++) l1 += Math.abs(vector.values[d]!);
    const end = (slot + 1) * this.stride;
    if (this.tail?.buffer !== buffer) this.tail = new DataView(buffer);
    this.tail!.setInt32(end - ROW_TAIL, l1, true);
    this.tail!.setFloat64(end - 8, vector.scale, true);
    this.scale[slot] = vector.scale;
  }

  private setDims(dims: number): void {
    this.dims = dims;
    this.stride = Math.ceil((dims + ROW_TAIL) / 16) * 16;
    this.memory = newMemory(1);
    this.dots = dotKernel.bind(this.memory);
    this.growMemory();
  }

  /** Room for `capacity` int8 rows, the query and one result per row; the rows keep their place (they come first). */
  private growMemory(): void {
    if (!this.memory) return;
    const bytes = this.capacity * (this.stride + 8) + this.stride * 2;
    const have = this.memory.buffer.byteLength;
    if (bytes > have) this.memory.grow(Math.ceil((bytes - have) / WASM_PAGE));
  }

  private ensureCapacity(rows: number): void {
    if (rows <= this.capacity) return;
    const next = Math.max(rows, this.capacity * 2, 1024);
    const scale = new Float64Array(next);
    scale.set(this.scale);
    this.scale = scale;
    const has = new Uint8Array(next);
    has.set(this.hasVector);
    this.hasVector = has;
    this.capacity = next;
    this.growMemory();
  }
}
