import { expect, it } from 'vitest';
import { Warmup } from '../src/warmup.js';

it('is warm once settled and only while the replica is loaded', () => {
  let loaded = false;
  const warmup = new Warmup(() => loaded);
  expect(warmup.done).toBe(false);
  warmup.settle();
  // The start's work is done but its replica load failed: not warm until a later load succeeds.
  expect(warmup.done).toBe(false);
  loaded = true;
  expect(warmup.done).toBe(true);
});
