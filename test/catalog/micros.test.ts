import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoFromMicros } from '../../src/catalog/micros.js';

const viaDate = (us: number) => new Date(Math.floor(us / 1000)).toISOString();

describe('isoFromMicros', () => {
  it('writes what Date.toISOString writes, truncated to the millisecond', () => {
    // Whole and fractional microseconds (float8 from extract(epoch)), from before 1970 to past year 9999.
    const micros = fc.oneof(
      fc.integer({ min: -62_000_000_000_000_000, max: 260_000_000_000_000_000 }),
      fc.double({ min: -1e17, max: 2.6e17, noNaN: true }),
      fc.integer({ min: 1_700_000_000_000_000, max: 1_900_000_000_000_000 }),
    );
    fc.assert(
      fc.property(micros, (us) => isoFromMicros(us) === viaDate(us)),
      { numRuns: 20_000 },
    );
  });

  it('gets the edges of a day and of the supported years right', () => {
    const day = 86_400_000_000;
    for (const us of [
      0,
      -1,
      999,
      1000,
      day - 1,
      day,
      Date.UTC(9999, 11, 31, 23, 59, 59, 999) * 1000,
      Date.UTC(10000, 0, 1) * 1000, // +010000-01-01
      Date.UTC(1, 0, 1) * 1000 - 1,
      Date.UTC(2026, 10, 24, 23, 59, 59, 999) * 1000 + 999.5,
    ])
      expect(isoFromMicros(us), String(us)).toBe(viaDate(us));
  });

  it('keeps answering after its day cache has been emptied', () => {
    const base = Date.UTC(2000, 0, 1) * 1000;
    for (let d = 0; d < 5000; d++) {
      const us = base + d * 86_400_000_000 + 45_296_789_000; // 12:34:56.789 on each day
      expect(isoFromMicros(us)).toBe(viaDate(us));
    }
  });
});
