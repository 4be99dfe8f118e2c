import {
  type DotFn,
  dotKernel,
  newMemory,
  newSharedMemory,
  ROW_TAIL,
  WASM_PAGE,
  type WasmMemory,
} from './dot-kernel.js';
import type { ScanThread } from './scan-thread.js';
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
 * A scan has three steps. The kernel (dot-kernel.ts, one WebAssembly SIMD call, ~0.8 ms for 100k × 100) first
 * bounds a sample of every ~50th row, from which each list gets a starting floor: the bound about 3k admitted
 * rows reach. Then it bounds every row: the int16 query's rounding is bounded per row
 * (|x̂·q − s·qs·(q8·q16)| ≤ s·qs/2·‖q8‖₁), so the integer score plus that bound can only overestimate. It lists
 * the rows whose bound reaches the lowest starting floor, a few hundred of 100k. Last, those rows get their exact
 * score against the float query and a place in their lists' top k. A list that ends with its floor below where it
 * started (the sample promised more admitted rows than there were) takes a second pass over the rows the kernel
 * did not list, so the result is the exact top k of the stored vectors whatever the sample said. A list whose
 * filter admits few rows can name them (TopK.within) and is filled from those alone.
 *
 * One scan fills several top-k lists with different filters and floors (hybrid search's nearest jobs and
 * nearest jobs at the places named), so a second list costs no second pass.
 *
 * With a scan thread (scan-thread.ts), the pass over every row can run there (searchEachOffloaded): the rows then
 * live in a shared memory, each scan in flight writes into its own lane of it, and a write counter tells whether
 * the rows stayed put until the thread answered.
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
  /**
   * The only slots the list can admit (a superset of what admit and accept pass, each slot once), for a filter
   * that admits few rows (jobs at the places a query names): they are offered directly, where the scan would
   * test every row against the filter.
   */
  within?: () => Iterable<number>;
  minScore: number;
}

export interface VectorIndexOptions<A> {
  /** Told each row's attributes by slot whenever they are set (JobColumns), for TopK.admit. */
  columns?: { set(slot: number, attrs: A): void };
  /**
   * A scan thread for searchEachOffloaded, used from `minRows` rows (below, the round trip costs more than the
   * kernel). The rows then live in a shared memory.
   */
  thread?: { scans: ScanThread; minRows: number };
}

/** A scan between prepare() and finish(). */
interface Scan<A> {
  query: Float32Array;
  tops: Top<A>[];
  /** The lists filled from the kernel's listed rows (those without TopK.within). */
  scanned: Top<A>[];
  threshold: number;
  queryScale: number;
  rows: number;
  lane: number;
}

/** Lanes for scans on the thread: one per scan in flight there (more wait for none: they run here). */
const THREAD_LANES = 4;

interface Top<A> {
  list: TopK<A>;
  best: TopSlots;
  /** The score a row needs now: the list's minScore, then its k-th best once full. */
  floor: number;
}

/** Rows sampled to estimate a list's starting floor. */
const SAMPLE = 2_048;
/** Admitted rows the starting floor should leave above it, as a multiple of k. */
const OVERSAMPLE = 3;
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
  /** Scans by where their kernel pass over every row ran (the frontline_search_job_scans_total metric). */
  readonly scanCounts = { thread: 0, event_loop: 0 };
  /** Bumped by every write to rows or to which slots hold one: a scan on the thread checks it. */
  private version = 0;
  /** Lane 0 and, with a thread, THREAD_LANES more (layout()). */
  private lanes = 1;
  private freeLanes: number[] = [];
  /** Bumped when the lanes are set up anew (clear, first vector): a lane taken before is not given back. */
  private laneEpoch = 0;
  /** The memory's id at the scan thread, when the rows live in a shared memory. */
  private memoryId: number | undefined;
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

  /** The slot holding a row: a compact reference to it, valid until the next write to the index. */
  slotOf(id: string): number | undefined {
    return this.slots.get(id);
  }

  /** The id of the row in `slot` (see slotOf), undefined when the slot is empty. */
  idAt(slot: number): string | undefined {
    return this.ids[slot];
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
      this.version++;
    } else if (vector === null) {
      this.hasVector[slot] = 0;
      this.version++;
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
    this.version++;
  }

  clear(): void {
    if (this.memoryId !== undefined) this.options.thread?.scans.detach(this.memoryId);
    this.memoryId = undefined;
    this.lanes = 1;
    this.freeLanes = [];
    this.laneEpoch++;
    this.version++;
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
    const scan = this.prepare(query, lists, 0);
    if (!scan) return lists.map(() => []);
    this.scanCounts.event_loop++;
    const n = this.dots!(...this.kernelArgs(scan));
    return this.finish(scan, n);
  }

  /**
   * searchEach with the kernel's pass over every row on the scan thread (VectorIndexOptions.thread), so the
   * caller can rank other lists meanwhile; the same result. Undefined when the scan cannot go there (no thread,
   * fewer rows than worth it, every lane busy): call searchEach. If a row changes before the thread answers, or
   * the thread fails, the scan is recomputed here.
   */
  searchEachOffloaded(query: Float32Array, lists: readonly TopK<A>[]): Promise<Hit[][]> | undefined {
    const thread = this.options.thread;
    if (!thread?.scans.usable || this.memoryId === undefined || this.ids.length < thread.minRows)
      return undefined;
    const lane = this.freeLanes.pop();
    if (lane === undefined) return undefined;
    const scan = this.prepare(query, lists, lane);
    if (!scan) {
      this.freeLanes.push(lane);
      return undefined;
    }
    const version = this.version;
    const epoch = this.laneEpoch;
    return thread.scans
      .run(this.memoryId, ...this.kernelArgs(scan))
      .then(
        (n) => {
          if (this.version !== version) return this.searchEach(query, lists);
          this.scanCounts.thread++;
          return this.finish(scan, n);
        },
        () => this.searchEach(query, lists),
      )
      .finally(() => {
        if (this.laneEpoch === epoch) this.freeLanes.push(lane);
      });
  }

  /** The kernel's arguments for a scan's pass over every row, into its lane. */
  private kernelArgs(scan: Scan<A>): Parameters<DotFn> {
    const { queryByte, outByte, slotsByte } = this.layout(scan.lane);
    return [queryByte, 0, scan.rows, this.stride, outByte, scan.queryScale, scan.threshold, slotsByte, 0];
  }

  /**
   * Everything before the kernel's pass over every row: the lists' top-k heaps, the int16 query in the lane, and
   * the threshold from the sample (startingFloor). Undefined when nothing can match (no rows, another width).
   */
  private prepare(query: Float32Array, lists: readonly TopK<A>[], lane: number): Scan<A> | undefined {
    const rows = this.ids.length;
    if (this.dims === 0 || query.length !== this.dims || rows === 0 || !this.dots || !this.memory)
      return undefined;
    const { ids, stride } = this;
    // Best first: higher score, then smaller id.
    const below: Below = (a, sa, b, sb) => a < b || (a === b && ids[sa]! > ids[sb]!);
    const tops: Top<A>[] = lists.map((l) => ({
      list: l,
      best: new TopSlots(Math.max(0, l.k), below),
      floor: l.minScore,
    }));
    const layout = this.layout(lane);
    const queryScale = this.quantiseQuery(query, layout.queryByte);
    const scanned = tops.filter((t) => t.best.k > 0 && t.list.within === undefined);
    // The lists that scan every row start from a floor estimated on a sample (startingFloor), so the kernel lists
    // only the rows that can matter and the floors rise to (nearly) their final values among those.
    let threshold = Number.POSITIVE_INFINITY;
    if (scanned.length > 0) {
      // At most SAMPLE rows: the lane holds SAMPLE + 1 bounds.
      const step = Math.max(1, Math.ceil(rows / SAMPLE));
      const sampled = Math.ceil(rows / step);
      // Nothing is listed from the sample: no bound reaches infinity.
      this.dots(layout.queryByte, 0, sampled, stride * step, layout.sampleByte, queryScale, Infinity, 0, 0);
      const sample = new Float64Array(this.memory.buffer, layout.sampleByte, sampled);
      for (const t of scanned)
        threshold = Math.min(threshold, this.startingFloor(t, sample, step, rows) - SLACK);
    }
    return { query, tops, scanned, threshold, queryScale, rows, lane };
  }

  /** The rest of a scan once the kernel has listed its `n` rows: exact scores, top k, second passes. */
  private finish(scan: Scan<A>, n: number): Hit[][] {
    const { query, tops, scanned, threshold, rows } = scan;
    const { dims, scale, ids, stride, attrs } = this;
    const buffer = this.memory!.buffer;
    const layout = this.layout(scan.lane);
    const has = this.hasVector;
    const rowsInt8 = new Int8Array(buffer, 0, rows * stride);
    const bounds = new Float64Array(buffer, layout.outByte, rows);
    const offer = (group: readonly Top<A>[], slot: number) => {
      const bound = bounds[slot]! + SLACK;
      let exact = Number.NaN;
      for (const t of group) {
        if (bound < t.floor || has[slot] !== 1) continue;
        if (t.list.admit !== undefined && !t.list.admit(slot)) continue;
        if (t.list.accept !== undefined && !t.list.accept(attrs[slot]!)) continue;
        if (Number.isNaN(exact)) {
          let sum = 0;
          const base = slot * stride;
          for (let d = 0; d < dims; d++) sum += rowsInt8[base + d]! * query[d]!;
          exact = scale[slot]! * sum;
        }
        if (exact < t.floor || !t.best.offer(exact, slot)) continue;
        if (t.best.full) t.floor = Math.max(t.list.minScore, t.best.worst);
      }
    };
    const candidates = new Int32Array(buffer, layout.slotsByte, n);
    for (let i = 0; i < n; i++) offer(scanned, candidates[i]!);
    for (const t of scanned) {
      // Its floor stayed below the threshold (fewer admitted rows above it than the sample promised): rows the
      // kernel did not list may still enter.
      if (t.floor >= threshold + SLACK) continue;
      const only = [t];
      for (let slot = 0; slot < rows; slot++) {
        const b = bounds[slot]!;
        if (b < threshold && b + SLACK >= t.floor) offer(only, slot);
      }
    }
    for (const t of tops) {
      if (t.best.k === 0 || t.list.within === undefined) continue;
      const only = [t];
      for (const slot of t.list.within()) if (slot < rows) offer(only, slot);
    }
    return tops.map((t) => t.best.ranked().map(([slot, score]) => ({ id: ids[slot]!, score })));
  }

  /**
   * A floor to start a list's scan from: the bound of about the (OVERSAMPLE·k)-th best admitted row, estimated
   * on every step-th row, and never below the list's minScore. Only a starting point: searchEach's second pass
   * keeps the result exact whatever this returns.
   */
  private startingFloor(t: Top<A>, sample: Float64Array, step: number, rows: number): number {
    const j = Math.ceil((OVERSAMPLE * t.best.k * sample.length) / rows);
    if (j >= sample.length) return t.list.minScore;
    const { admit, accept } = t.list;
    // The j best bounds of admitted sampled rows, ascending (j is small: OVERSAMPLE·k·SAMPLE/rows).
    const best: number[] = [];
    for (let i = 0; i < sample.length; i++) {
      const b = sample[i]!;
      if (b < t.list.minScore || (best.length === j && b <= best[0]!)) continue;
      const slot = i * step;
      if (this.hasVector[slot] !== 1) continue;
      if ((admit !== undefined && !admit(slot)) || (accept !== undefined && !accept(this.attrs[slot]!)))
        continue;
      if (best.length === j) best.shift();
      let at = best.length;
      best.push(b);
      while (at > 0 && best[at - 1]! > b) {
        best[at] = best[at - 1]!;
        at--;
      }
      best[at] = b;
    }
    return best.length === j ? best[0]! : t.list.minScore;
  }

  /** Writes the int16 query for the kernel; returns its scale. */
  private quantiseQuery(query: Float32Array, queryByte: number): number {
    const q16 = new Int16Array(this.memory!.buffer, queryByte, this.stride);
    let max = 0;
    for (const x of query) max = Math.max(max, Math.abs(x));
    // Keep every int32 sum exact: |Σ x·q| ≤ 127 · stride · top.
    const top = Math.min(INT16_MAX, Math.floor(0x7fffffff / (INT8_MAX * this.stride)));
    const queryScale = max > 0 ? max / top : 0;
    // Zero past dims: the rows' tails must not count in their dot products.
    q16.fill(0);
    if (queryScale > 0) for (let d = 0; d < this.dims; d++) q16[d] = Math.round(query[d]! / queryScale);
    return queryScale;
  }

  /**
   * Where a lane's kernel inputs and outputs sit, after the rows: the int16 query, one float64 bound per row, one
   * int32 per row for the listed slots, and the sample's bounds. Lane 0 serves synchronous scans; the others,
   * scans on the thread, one each while it runs.
   */
  private layout(lane: number): {
    queryByte: number;
    outByte: number;
    slotsByte: number;
    sampleByte: number;
  } {
    const queryByte = this.capacity * this.stride + lane * this.laneBytes();
    const outByte = queryByte + this.stride * 2;
    const slotsByte = outByte + this.capacity * 8;
    return { queryByte, outByte, slotsByte, sampleByte: slotsByte + align(this.capacity * 4, 8) };
  }

  private laneBytes(): number {
    return align(this.stride * 2 + this.capacity * 8 + align(this.capacity * 4, 8) + (SAMPLE + 1) * 8, 16);
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
    const thread = this.options.thread;
    const module = thread && dotKernel.sharedModule?.(this.stride, dims);
    const shared = module ? newSharedMemory(1) : undefined;
    this.memory = shared ?? newMemory(1);
    this.lanes = shared ? 1 + THREAD_LANES : 1;
    this.freeLanes = Array.from({ length: this.lanes - 1 }, (_, i) => i + 1);
    this.laneEpoch++;
    this.dots = dotKernel.bind(this.memory, this.stride, dims);
    if (shared && thread && module) this.memoryId = thread.scans.attach(shared, module);
    this.growMemory(0);
  }

  /**
   * Room for `capacity` rows and the lanes (layout()). The rows keep their place; the lanes move up. A shared
   * memory is replaced by a larger copy instead: a job on the thread may still be writing into its lane.
   */
  private growMemory(oldCapacity: number): void {
    if (!this.memory) return;
    const bytes = this.layout(this.lanes - 1).sampleByte + (SAMPLE + 1) * 8;
    const have = this.memory.buffer.byteLength;
    const thread = this.options.thread;
    // The kernel's module for this layout (compiled once, kept by dot-kernel.ts), for a shared memory only.
    const module = this.memoryId !== undefined ? dotKernel.sharedModule?.(this.stride, this.dims) : undefined;
    if (this.memoryId !== undefined && thread && module) {
      if (oldCapacity === this.capacity && bytes <= have) return;
      const next = newSharedMemory(Math.ceil(bytes / WASM_PAGE));
      if (!next) throw new Error('no shared memory for the vector index');
      new Uint8Array(next.buffer).set(new Uint8Array(this.memory.buffer, 0, oldCapacity * this.stride));
      thread.scans.detach(this.memoryId);
      this.memory = next;
      this.memoryId = thread.scans.attach(next, module);
      this.dots = dotKernel.bind(next, this.stride, this.dims);
      this.tail = undefined;
    } else if (bytes > have) {
      this.memory.grow(Math.ceil((bytes - have) / WASM_PAGE));
    }
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
    const old = this.capacity;
    this.capacity = next;
    this.version++;
    this.growMemory(old);
  }
}

const align = (n: number, to: number) => Math.ceil(n / to) * to;
