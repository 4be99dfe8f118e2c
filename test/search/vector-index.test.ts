import { describe, expect, it } from 'vitest';
import { dotKernel, jsKernel, newMemory, ROW_TAIL } from '../../src/search/dot-kernel.js';
import { type Hit, quantise, type TopK, VectorIndex } from '../../src/search/vector-index.js';

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
  it('uses WebAssembly SIMD here, and computes the same bounds as the JavaScript loop', () => {
    expect(dotKernel.simd).toBe(true);
    const rand = prng(1);
    const stride = 32;
    const dims = stride - ROW_TAIL;
    const rows = 100;
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
    const simdOut = queryByte + stride * 2;
    const jsOut = simdOut + rows * 8;
    dotKernel.bind(memory)(queryByte, 0, rows, stride, simdOut, queryScale);
    jsKernel.bind(memory)(queryByte, 0, rows, stride, jsOut, queryScale);
    const expected = tails.map(({ l1, scale }, r) => {
      let s = 0;
      for (let d = 0; d < dims; d++) s += data[r * stride + d]! * query[d]!;
      return scale * queryScale * (s + 0.5 * l1);
    });
    expect([...new Float64Array(memory.buffer, simdOut, rows)]).toEqual(expected);
    expect([...new Float64Array(memory.buffer, jsOut, rows)]).toEqual(expected);
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
