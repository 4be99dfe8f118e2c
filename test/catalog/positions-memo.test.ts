import { describe, expect, it } from 'vitest';
import { PositionsMemo } from '../../src/catalog/replica/listings/positions-memo.js';

const list = (n: number) => Int32Array.from({ length: n }, (_, i) => i);

describe('PositionsMemo', () => {
  it('answers only at the generation an entry was computed at', () => {
    const memo = new PositionsMemo(10, 1000);
    const a = list(3);
    memo.set('a', 1, a);
    expect(memo.get('a', 1)).toBe(a);
    expect(memo.get('a', 2)).toBeUndefined();
    // The stale entry is gone, and with it its positions.
    expect(memo.get('a', 1)).toBeUndefined();
    expect(memo.positions).toBe(0);
  });

  it('drops the least recently used entry past its entry bound', () => {
    const memo = new PositionsMemo(2, 1000);
    memo.set('a', 1, list(1));
    memo.set('b', 1, list(1));
    memo.get('a', 1);
    memo.set('c', 1, list(1));
    expect(memo.get('b', 1)).toBeUndefined();
    expect(memo.get('a', 1)).toBeDefined();
    expect(memo.get('c', 1)).toBeDefined();
    expect(memo.size).toBe(2);
  });

  it('keeps the positions it holds under its bound, replacing an entry in place', () => {
    const memo = new PositionsMemo(100, 10);
    memo.set('a', 1, list(4));
    memo.set('b', 1, list(4));
    memo.set('a', 1, list(2));
    expect(memo.positions).toBe(6);
    memo.set('c', 1, list(5));
    // b (least recently used) went first, and that made room.
    expect(memo.get('b', 1)).toBeUndefined();
    expect(memo.positions).toBe(7);
    // A list larger than the whole bound is not kept, and pushes nothing out.
    memo.set('d', 1, list(11));
    expect(memo.get('d', 1)).toBeUndefined();
    expect(memo.positions).toBe(7);
    expect(memo.size).toBe(2);
    memo.clear();
    expect(memo.positions).toBe(0);
  });
});
