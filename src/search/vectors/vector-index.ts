import { type Below, TopSlots } from '../top-slots.js';
import type { DotFn } from './dot-kernel.js';
import { type Hit, INT8_MAX, INT16_MAX, SAMPLE, type TopK, VectorRows } from './vector-rows.js';

export { type Hit, quantise, type StoredVector, type TopK, type VectorIndexOptions } from './vector-rows.js';

/**
 * Exact nearest-neighbour search over stored unit vectors, with per-row attributes so every filter is applied
 * while scanning (never to an unfiltered top-k). It needs no extension and behaves the same on PGlite and
 * PostgreSQL.
 *
 * Rows are stored as int8 with a per-row scale (x̂ = s·q8, s = max|x|/127): a quarter of float32's memory and of
 * its memory traffic. That rounding is the only approximation: each
 * component moves by at most s/2, so a score moves by at most s/2·‖q‖₁ (~0.002 for these embeddings), well
 * inside the gaps that matter to ranking. Over the stored vectors the search is exact.
 *
 * A scan has three steps. The kernel (dot-kernel.ts, one WebAssembly SIMD call over every row) first
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

interface Top<A> {
  list: TopK<A>;
  best: TopSlots;
  /** The score a row needs now: the list's minScore, then its k-th best once full. */
  floor: number;
}

/** Admitted rows the starting floor should leave above it, as a multiple of k. */
const OVERSAMPLE = 3;
/** Float slack on top of the quantisation bound (the exact scores are float64 sums). */
const SLACK = 1e-9;

export class VectorIndex<A> extends VectorRows<A> {
  /** Scans by where their kernel pass over every row ran (the frontline_search_job_scans_total metric). */
  readonly scanCounts = { thread: 0, event_loop: 0 };

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
}
