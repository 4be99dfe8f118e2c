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

/** Lanes for scans on the thread: one per scan in flight there (more wait for none: they run here). */
const THREAD_LANES = 4;

/** Rows sampled to estimate a list's starting floor. */
export const SAMPLE = 2_048;
export const INT8_MAX = 127;
export const INT16_MAX = 32_767;
/**
 * The vector index's rows: ids, attributes and int8 vectors in the kernel's memory (see vector-index.ts), with the
 * lanes that scans write into. VectorIndex, which extends it, scans them.
 */
export class VectorRows<A> {
  protected dims = 0;
  /**
   * Bytes per row in the kernel's memory: the int8 components, zero padding, and the row's tail (Σ|int8
   * component| and scale, which the kernel's bound reads), rounded up to 16.
   */
  protected stride = 0;
  protected capacity = 0;
  /** Per row: the int8 scale (max |component| / 127); also in the row's tail, for the kernel. */
  protected scale = new Float64Array(0);
  /** int8 rows, then the query (int16) and one float64 bound per row. */
  protected memory: WasmMemory | undefined;
  /** A view of the memory for writing row tails (replaced when the memory grows). */
  private tail: DataView | undefined;
  protected dots: DotFn | undefined;
  protected ids: (string | undefined)[] = [];
  protected attrs: (A | undefined)[] = [];
  /** 1 when the slot holds a vector for the current model. */
  protected hasVector = new Uint8Array(0);
  protected readonly slots = new Map<string, number>();
  /** Scans by where their kernel pass over every row ran (the frontline_search_job_scans_total metric). */
  /** Bumped by every write to rows or to which slots hold one: a scan on the thread checks it. */
  protected version = 0;
  /** Lane 0 and, with a thread, THREAD_LANES more (layout()). */
  private lanes = 1;
  protected freeLanes: number[] = [];
  /** Bumped when the lanes are set up anew (clear, first vector): a lane taken before is not given back. */
  protected laneEpoch = 0;
  /** The memory's id at the scan thread, when the rows live in a shared memory. */
  protected memoryId: number | undefined;
  private readonly free: number[] = [];

  constructor(protected readonly options: VectorIndexOptions<A> = {}) {}

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
   * Where a lane's kernel inputs and outputs sit, after the rows: the int16 query, one float64 bound per row, one
   * int32 per row for the listed slots, and the sample's bounds. Lane 0 serves synchronous scans; the others,
   * scans on the thread, one each while it runs.
   */
  protected layout(lane: number): {
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
