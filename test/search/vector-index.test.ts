import { describe, expect, it } from 'vitest';
import { dotKernel, jsKernel, newMemory, ROW_TAIL } from '../../src/search/vectors/dot-kernel.js';
import { ScanThread } from '../../src/search/vectors/scan-thread.js';
import { type Hit, quantise, type TopK, VectorIndex } from '../../src/search/vectors/vector-index.js';

/** A seeded PRNG (mulberry32): the same vectors every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function unit(dims: number, rand: () => number): Float32Array {
  const v = Float32Array.from({ length: dims }, () => rand() - 0.5);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

interface Attrs {
  group: number;
}

/**
 * The exact answer over the stored (int8) vectors: every admitted row scored in float64 against the float query,
 * as the scan re-scores, best first, ties by id.
 */
type List = TopK<Attrs> & { accept: (a: Attrs) => boolean };

function bruteForce(rows: Map<string, [Attrs, Float32Array]>, q: Float32Array, want: List): Hit[] {
  const hits: Hit[] = [];
  for (const [id, [a, v]] of rows) {
    const { scale, values } = quantise(v);
    let sum = 0;
    for (let d = 0; d < q.length; d++) sum += values[d]! * q[d]!;
    const s = scale * sum;
    if (s >= want.minScore && want.accept(a)) hits.push({ id, score: s });
  }
  hits.sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1));
  return hits.slice(0, want.k);
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('dot kernel', () => {
  // The module is specialised per layout: 100 dims is this project's, the others end mid-vector or mid-half.
  it.each([
    [32, 20],
    [112, 100],
    [48, 30],
    [160, 148],
  ])('uses WebAssembly SIMD here, and computes the same bounds as the JavaScript loop (stride %i, %i dims)', (stride, dims) => {
    expect(dotKernel.simd).toBe(true);
    const rand = prng(stride);
    const rows = 99;
    const memory = newMemory(1);
    const data = new Int8Array(memory.buffer, 0, rows * stride);
    const view = new DataView(memory.buffer);
    const tails: { l1: number; scale: number }[] = [];
    for (let r = 0; r < rows; r++) {
      for (let d = 0; d < dims; d++) data[r * stride + d] = Math.round((rand() - 0.5) * 254);
      const tail = { l1: Math.round(rand() * 4000), scale: rand() / 127 };
      view.setInt32((r + 1) * stride - ROW_TAIL, tail.l1, true);
      view.setFloat64((r + 1) * stride - 8, tail.scale, true);
      tails.push(tail);
    }
    const queryByte = rows * stride;
    const query = new Int16Array(memory.buffer, queryByte, stride);
    // Past dims the query is zero, so a row's tail bytes never count in its dot product.
    for (let d = 0; d < dims; d++) query[d] = Math.round((rand() - 0.5) * 65_534);
    const queryScale = 0.37 / 32_767;
    const expected = tails.map(({ l1, scale }, r) => {
      let s = 0;
      for (let d = 0; d < dims; d++) s += data[r * stride + d]! * query[d]!;
      return scale * queryScale * (s + 0.5 * l1);
    });
    // The median bound as threshold: the kernel lists exactly the rows at or above it, in slot order.
    const threshold = [...expected].sort((a, b) => a - b)[Math.floor(rows / 2)]!;
    const listed = expected.flatMap((b, r) => (b >= threshold ? [1000 + r] : []));
    const outByte = queryByte + stride * 2;
    const slotsByte = outByte + rows * 8;
    for (const kernel of [dotKernel, jsKernel]) {
      const dots = kernel.bind(memory, stride, dims);
      const n = dots(queryByte, 0, rows, stride, outByte, queryScale, threshold, slotsByte, 1000);
      expect([...new Float64Array(memory.buffer, outByte, rows)]).toEqual(expected);
      expect([...new Int32Array(memory.buffer, slotsByte, n)]).toEqual(listed);
      // Every third row (a sample): a step of three strides.
      const m = dots(queryByte, 0, rows / 3, 3 * stride, outByte, queryScale, threshold, slotsByte, 0);
      const sampled = expected.filter((_, r) => r % 3 === 0).slice(0, rows / 3);
      expect([...new Float64Array(memory.buffer, outByte, rows / 3)]).toEqual(sampled);
      expect([...new Int32Array(memory.buffer, slotsByte, m)]).toEqual(
        sampled.flatMap((b, i) => (b >= threshold ? [i] : [])),
      );
    }
  });
});

describe('VectorIndex', () => {
  for (const dims of [6, 100]) {
    it(`returns the exact top k of the stored vectors with filters, floors and ties, in one scan for several lists (${dims} dims)`, () => {
      const rand = prng(dims);
      const index = new VectorIndex<Attrs>();
      const rows = new Map<string, [Attrs, Float32Array]>();
      const shared = unit(dims, rand);
      // 9,000 rows (the storage grows past its first capacity), 1 in 10 an exact copy of one vector: ties.
      for (let i = 0; i < 9000; i++) {
        const id = `r${String((i * 7919) % 9000).padStart(5, '0')}`;
        const v = i % 10 === 0 ? shared : unit(dims, rand);
        const a = { group: i % 3 };
        index.upsert(id, a, v);
        rows.set(id, [a, v]);
      }
      // Removed rows and reused slots.
      for (let i = 0; i < 3000; i += 13) {
        const id = `r${String(i).padStart(5, '0')}`;
        index.remove(id);
        rows.delete(id);
      }
      for (let i = 0; i < 50; i++) {
        const v = unit(dims, rand);
        index.upsert(`n${i}`, { group: 1 }, v);
        rows.set(`n${i}`, [{ group: 1 }, v]);
      }
      expect(index.size).toBe(rows.size);
      const lists: List[] = [
        { k: 20, accept: () => true, minScore: -1 },
        { k: 150, accept: (a) => a.group !== 1, minScore: 0.1 },
        { k: 10, accept: (a) => a.group === 2, minScore: -1 },
      ];
      for (const q of [shared, unit(dims, rand), unit(dims, rand)]) {
        const found = index.searchEach(q, lists);
        const l1 = q.reduce((s, x) => s + Math.abs(x), 0);
        lists.forEach((want, i) => {
          const ids = found[i]!.map((h) => h.id);
          // The query's int16 rounding only prunes: the lists and scores are exactly those of a scan of the
          // stored vectors with the float query.
          expect(found[i]).toEqual(bruteForce(rows, q, want));
          expect(index.search(q, want.k, want.accept, want.minScore).map((h) => h.id)).toEqual(ids);
          // And the stored vectors' rounding moves a score by at most half a step per component.
          for (const hit of found[i]!) {
            const v = rows.get(hit.id)![1];
            const step = Math.max(...v.map(Math.abs)) / 127;
            expect(Math.abs(hit.score - dot(v, q))).toBeLessThanOrEqual((step / 2) * l1 + 1e-6);
          }
        });
      }
      const [id, [, v]] = [...rows][5]!;
      const stored = index.storedOf(id)!;
      expect({ scale: stored.scale, values: [...stored.values] }).toEqual({
        scale: quantise(v).scale,
        values: [...quantise(v).values],
      });
      expect(index.holds(id, v)).toBe(true);
      expect(
        index.holds(
          id,
          v.map((x) => x * 0.5),
        ),
      ).toBe(false);
      expect(index.holds(id, null)).toBe(false);
      // A stored form given back (a snapshot) is kept as is.
      index.upsert('copy', { group: 0 }, stored);
      expect([...index.storedOf('copy')!.values]).toEqual([...stored.values]);
      expect(index.search(v, 2, () => true).map((h) => h.id)).toEqual(['copy', id].sort());
    });
  }

  it('stays exact when the sample misjudges a filter, and for lists given the only slots they admit', () => {
    const rand = prng(7);
    const index = new VectorIndex<Attrs>();
    const rows = new Map<string, [Attrs, Float32Array]>();
    // A fresh index: row i sits in slot i. 9,000 rows: the scan samples every 4th slot.
    for (let i = 0; i < 9000; i++) {
      const id = `r${String(i).padStart(5, '0')}`;
      const v = unit(100, rand);
      const a = { group: i };
      index.upsert(id, a, v);
      rows.set(id, [a, v]);
    }
    const lists: List[] = [
      // Only sampled slots: the sample sees every admitted row and puts its starting floor too high (75 above it
      // for k = 100), so the rest must come from a second pass.
      { k: 100, admit: (s) => s % 4 === 0, accept: (a) => a.group % 4 === 0, minScore: -1 },
      // No sampled slot: the sample sees nothing of it.
      { k: 30, admit: (s) => s % 4 === 1, accept: (a) => a.group % 4 === 1, minScore: -1 },
      // Given its slots directly.
      {
        k: 50,
        within: () => Array.from({ length: 3000 }, (_, i) => 3 * i + 2),
        accept: (a) => a.group % 3 === 2,
        minScore: -1,
      },
      { k: 40, accept: () => true, minScore: 0.05 },
    ];
    for (let n = 0; n < 5; n++) {
      const q = unit(100, rand);
      const found = index.searchEach(q, lists);
      lists.forEach((want, i) => {
        const exact = bruteForce(rows, q, want);
        expect(found[i]).toEqual(exact);
        // Alone, each list sets the scan's threshold itself.
        expect(index.searchEach(q, [want])[0]).toEqual(exact);
      });
    }
  });

  it('scans on the thread with the same results, also when rows change or the storage grows meanwhile', async () => {
    const scans = new ScanThread();
    try {
      const rand = prng(11);
      const index = new VectorIndex<Attrs>({ thread: { scans, minRows: 0 } });
      const rows = new Map<string, [Attrs, Float32Array]>();
      const add = (id: string, group: number) => {
        const v = unit(100, rand);
        index.upsert(id, { group }, v);
        rows.set(id, [{ group }, v]);
      };
      for (let i = 0; i < 5000; i++) add(`r${String(i).padStart(5, '0')}`, i % 3);
      const lists: List[] = [
        { k: 50, accept: () => true, minScore: -1 },
        { k: 20, admit: (s) => s % 3 === 1, accept: (a) => a.group === 1, minScore: 0 },
      ];
      const queries = Array.from({ length: 6 }, () => unit(100, rand));
      const exact = (found: Hit[][], q: Float32Array) => {
        for (const [i, want] of lists.entries()) expect(found[i]).toEqual(bruteForce(rows, q, want));
      };
      // Several in flight at once (more than the thread's lanes: the rest run here).
      const offloaded = queries.map((q) => index.searchEachOffloaded(q, lists));
      expect(offloaded.filter((p) => p !== undefined).length, 'scans sent to the thread').toBeGreaterThan(0);
      expect(scans.scansPosted).toBeGreaterThan(0);
      const found = await Promise.all(
        offloaded.map((p, i) => p ?? Promise.resolve(index.searchEach(queries[i]!, lists))),
      );
      expect(found.filter((f) => f.length > 0).length).toBe(queries.length);
      for (const [n, q] of queries.entries()) exact(found[n]!, q);
      // A row written while the thread scans: the answer is that of the index as it is when it arrives.
      const q = queries[0]!;
      const pending = index.searchEachOffloaded(q, lists);
      expect(pending).toBeDefined();
      const best = found[0]![0]![0]!.id;
      index.upsert(
        best,
        { group: 0 },
        q.map((x) => -x),
      );
      rows.set(best, [{ group: 0 }, q.map((x) => -x)]);
      const moved = await pending!;
      expect(moved[0]).toEqual(bruteForce(rows, q, lists[0]!));
      expect(moved[0]!.map((h) => h.id)).not.toContain(best);
      // The storage outgrows its shared memory while a scan is in flight: a new memory, the same rows.
      const growing = index.searchEachOffloaded(q, lists);
      // Row i sits in slot 5000 + i: its group is that slot's, as admit reads it.
      for (let i = 0; i < 6000; i++) add(`g${String(i).padStart(5, '0')}`, (5000 + i) % 3);
      const grown = await growing!;
      exact(grown, q);
      const after = await index.searchEachOffloaded(q, lists)!;
      exact(after, q);
      // The thread never failed over to the event loop along the way.
      expect(scans.usable).toBe(true);
      // A closed (or failed) thread: scans stay here.
      const last = index.searchEachOffloaded(q, lists);
      await scans.close();
      exact(index.searchEach(q, lists), q);
      expect(index.searchEachOffloaded(q, lists)).toBeUndefined();
      expect((await last!)[0]).toEqual(bruteForce(rows, q, lists[0]!));
    } finally {
      await scans.close();
    }
  });

  it('keeps rows without a vector filterable but out of results, and sizes vectors on the first one', () => {
    const index = new VectorIndex<Attrs>();
    index.upsert('a', { group: 0 }, null);
    expect(index.search(new Float32Array([1, 0, 0]), 5, () => true)).toEqual([]);
    index.upsert('b', { group: 0 }, new Float32Array([1, 0, 0]));
    index.setAttributes('a', { group: 1 });
    expect(index.search(new Float32Array([1, 0, 0]), 5, () => true).map((h) => h.id)).toEqual(['b']);
    expect(index.attributes('a')).toEqual({ group: 1 });
    expect(index.search(new Float32Array([1, 0]), 5, () => true)).toEqual([]);
    index.clear();
    expect(index.size).toBe(0);
    index.upsert('c', { group: 0 }, new Float32Array([0, 1]));
    expect(index.search(new Float32Array([0, 1]), 5, () => true)).toEqual([{ id: 'c', score: 1 }]);
  });
});
