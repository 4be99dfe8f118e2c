import { describe, expect, it } from 'vitest';
import { exactDate, shortDate } from '../../src/web/format.js';

/** The pages' dates are remembered by day and minute (src/web/format.ts); they must read as Intl formats them. */

const day = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' });
const long = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });

describe('shortDate and exactDate', () => {
  it('match Intl for instants within one minute, across days, and outside four-digit years', () => {
    const base = Date.UTC(2026, 10, 20, 23, 59, 0);
    const instants = [
      base,
      base + 59_999,
      base + 60_000,
      base - 1,
      0,
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(10_000, 0, 1, 0, 0, 7),
      Date.UTC(10_000, 0, 1, 0, 5, 7),
      -86_400_000 * 800_000,
    ];
    // Seeded walk over ten years in uneven steps: many share a day or a minute with an earlier one.
    let t = Date.UTC(2020, 0, 1);
    for (let i = 0; i < 3_000; i++) {
      t += ((i * 7_919) % 4_001) * 37_003;
      instants.push(t);
    }
    for (const ms of instants) {
      const iso = new Date(ms).toISOString();
      expect(shortDate(iso), iso).toBe(day.format(ms));
      expect(exactDate(iso), iso).toBe(`${long.format(ms)} UTC`);
    }
  });
});
