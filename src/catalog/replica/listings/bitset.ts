/** Bitsets over a listing's order (bit i: the i-th row of the order), as the in-memory listings use them. */

/** The set bits' positions, lowest first; `count` when the caller knows how many are set. */
export function setBits(set: Uint32Array, count?: number): Int32Array {
  let n = count ?? 0;
  if (count === undefined) for (let w = 0; w < set.length; w++) n += popcount(set[w]!);
  const out = new Int32Array(n);
  let k = 0;
  for (let w = 0; w < set.length; w++) {
    let word = set[w]!;
    while (word !== 0) {
      const low = word & -word;
      out[k++] = w * 32 + 31 - Math.clz32(low);
      word ^= low;
    }
  }
  return out;
}

function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
