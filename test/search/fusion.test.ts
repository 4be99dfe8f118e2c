import { describe, expect, it } from 'vitest';
import { DEFAULT_RRF_K, fuseRankings } from '../../src/search/fusion.js';

describe('fuseRankings (Reciprocal Rank Fusion)', () => {
  it('sums 1/(k+rank) over lists, so agreement beats a single first place', () => {
    const out = fuseRankings([{ ids: ['a', 'b', 'c'] }, { ids: ['b', 'c', 'a'] }, { ids: ['d'] }], {
      limit: 10,
    });
    // b: 1/62+1/61, a: 1/61+1/63, c: 1/63+1/62, d: 1/61
    expect(out).toEqual(['b', 'a', 'c', 'd']);
  });

  it('uses k: a small k rewards top ranks, a large one rewards agreement', () => {
    const lists = [{ ids: ['x', 'y'] }, { ids: ['z', 'y'] }];
    expect(fuseRankings(lists, { k: 0, limit: 3 })).toEqual(['x', 'z', 'y']);
    expect(fuseRankings(lists, { k: 1000, limit: 3 })).toEqual(['y', 'x', 'z']);
    expect(DEFAULT_RRF_K).toBe(60);
  });

  it('breaks score ties by best rank, then by id, whatever the list order', () => {
    const one = fuseRankings([{ ids: ['q', 'p'] }, { ids: ['p', 'q'] }], { limit: 5 });
    const two = fuseRankings([{ ids: ['p', 'q'] }, { ids: ['q', 'p'] }], { limit: 5 });
    expect(one).toEqual(['p', 'q']);
    expect(two).toEqual(one);
    expect(fuseRankings([{ ids: ['m'] }, { ids: ['c'] }, { ids: ['h'] }], { limit: 5 })).toEqual([
      'c',
      'h',
      'm',
    ]);
  });

  it('applies weights and boosts, and ignores duplicates within a list', () => {
    expect(fuseRankings([{ ids: ['a'] }, { ids: ['b'], weight: 2 }], { limit: 2 })).toEqual(['b', 'a']);
    const boosts = new Map([
      ['c', 1],
      ['zzz', 5],
    ]);
    expect(fuseRankings([{ ids: ['a', 'b', 'c'] }], { boosts, limit: 5 })).toEqual(['c', 'a', 'b']);
    expect(fuseRankings([{ ids: ['a', 'a', 'b'] }, { ids: ['b'] }], { limit: 5 })).toEqual(['b', 'a']);
  });

  it('pins exact matches first, in order, and caps the result at limit', () => {
    const ids = Array.from({ length: 150 }, (_, i) => `id${String(i).padStart(3, '0')}`);
    const out = fuseRankings([{ ids }], { pinned: ['id120', 'new', 'id120'], limit: 100 });
    expect(out.slice(0, 3)).toEqual(['id120', 'new', 'id000']);
    expect(out).toHaveLength(100);
    expect(new Set(out).size).toBe(100);
    expect(fuseRankings([{ ids }], { limit: 0 })).toEqual([]);
    expect(fuseRankings([], { limit: 10 })).toEqual([]);
  });

  it('rejects a negative or non-finite k', () => {
    expect(() => fuseRankings([], { k: -1, limit: 1 })).toThrow(RangeError);
    expect(() => fuseRankings([], { k: Number.NaN, limit: 1 })).toThrow(RangeError);
  });
});
