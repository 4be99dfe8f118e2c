/**
 * Exact nearest-neighbour search over unit vectors held in one growable Float32Array, with per-row attributes so
 * every filter is applied while scanning (never to an unfiltered top-k). A full scan of 100k × 100 floats is
 * ~10 ms of plain JS; it is exact, needs no extension, and behaves the same on PGlite and PostgreSQL.
 */

export interface Hit {
  id: string;
  score: number;
}

export class VectorIndex<A> {
  private dims = 0;
  private capacity = 0;
  private data = new Float32Array(0);
  private ids: (string | undefined)[] = [];
  private attrs: (A | undefined)[] = [];
  /** 1 when the slot holds a vector for the current model. */
  private hasVector = new Uint8Array(0);
  private readonly slots = new Map<string, number>();
  private readonly free: number[] = [];

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

  /** The stored vector of a row (a view, valid until the next write), or null when it has none. */
  vectorOf(id: string): Float32Array | null {
    const slot = this.slots.get(id);
    if (slot === undefined || this.hasVector[slot] !== 1) return null;
    return this.data.subarray(slot * this.dims, (slot + 1) * this.dims);
  }

  *entries(): IterableIterator<[string, A]> {
    for (const [id, slot] of this.slots) yield [id, this.attrs[slot]!];
  }

  /** Sizes the storage for `rows` rows of `dims` floats up front (a bulk load then never re-copies it). */
  reserve(rows: number, dims: number): void {
    if (this.dims === 0 && dims > 0) {
      this.dims = dims;
      this.data = new Float32Array(this.capacity * dims);
    }
    this.ensureCapacity(rows);
  }

  /** Inserts or replaces a row; a null vector keeps the row filterable but out of semantic results. */
  upsert(id: string, attrs: A, vector: Float32Array | null): void {
    if (vector && this.dims === 0) {
      // Rows may have arrived before the first vector; size the vector storage now that the width is known.
      this.dims = vector.length;
      this.data = new Float32Array(this.capacity * this.dims);
    }
    if (vector && vector.length !== this.dims) {
      throw new Error(`vector for ${id} has ${vector.length} dimensions, the index holds ${this.dims}`);
    }
    let slot = this.slots.get(id);
    if (slot === undefined) {
      slot = this.free.pop() ?? this.ids.length;
      this.slots.set(id, slot);
      this.ensureCapacity(slot + 1);
    }
    this.ids[slot] = id;
    this.attrs[slot] = attrs;
    if (vector) {
      this.data.set(vector, slot * this.dims);
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
    this.data = new Float32Array(0);
    this.dims = 0;
  }

  /**
   * The k rows most similar to `query` (cosine = dot product of unit vectors) among rows that `accept` admits
   * and score at least `minScore`, best first; equal scores order by id so results are deterministic.
   */
  search(query: Float32Array, k: number, accept: (attrs: A) => boolean, minScore = -1): Hit[] {
    if (this.dims === 0 || query.length !== this.dims || k <= 0) return [];
    const dims = this.dims;
    const data = this.data;
    const topScore: number[] = [];
    const topSlot: number[] = [];
    let floor = minScore;
    for (let slot = 0; slot < this.ids.length; slot++) {
      if (this.hasVector[slot] !== 1) continue;
      let s = 0;
      const base = slot * dims;
      for (let d = 0; d < dims; d++) s += data[base + d]! * query[d]!;
      if (s < floor) continue;
      if (!accept(this.attrs[slot]!)) continue;
      // Insertion into a small sorted array: k is ~100, and most rows fail the floor check above.
      let i = topScore.length;
      while (i > 0 && topScore[i - 1]! < s) i--;
      topScore.splice(i, 0, s);
      topSlot.splice(i, 0, slot);
      if (topScore.length > k) {
        topScore.pop();
        topSlot.pop();
      }
      if (topScore.length === k) floor = Math.max(minScore, topScore[k - 1]!);
    }
    const hits = topSlot.map((slot, i) => ({ id: this.ids[slot]!, score: topScore[i]! }));
    return hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  private ensureCapacity(rows: number): void {
    if (rows <= this.capacity) return;
    const next = Math.max(rows, this.capacity * 2, 1024);
    const data = new Float32Array(next * Math.max(this.dims, 1));
    data.set(this.data);
    this.data = data;
    const has = new Uint8Array(next);
    has.set(this.hasVector);
    this.hasVector = has;
    this.capacity = next;
  }
}
