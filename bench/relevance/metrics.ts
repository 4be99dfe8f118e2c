/** Graded-relevance metrics. `grades` maps an id to its grade (0 or absent = not relevant). */

/** nDCG@k with gains 2^grade - 1 and log2 discounts; 1 when the query has no relevant rows and none returned. */
export function ndcgAt(ranked: readonly string[], grades: ReadonlyMap<string, number>, k: number): number {
  const dcg = (gs: number[]) => gs.slice(0, k).reduce((s, g, i) => s + (2 ** g - 1) / Math.log2(i + 2), 0);
  const ideal = dcg([...grades.values()].filter((g) => g > 0).sort((a, b) => b - a));
  if (ideal === 0) return 1;
  return dcg(ranked.map((id) => grades.get(id) ?? 0)) / ideal;
}

/** Share of rows with grade >= minGrade that appear in the first k results. */
export function recallAt(
  ranked: readonly string[],
  grades: ReadonlyMap<string, number>,
  k: number,
  minGrade: number,
): number {
  const relevant = [...grades.entries()].filter(([, g]) => g >= minGrade).map(([id]) => id);
  if (relevant.length === 0) return 1;
  const top = new Set(ranked.slice(0, k));
  return relevant.filter((id) => top.has(id)).length / relevant.length;
}

/** Reciprocal rank of the first result with grade >= minGrade (0 when none). */
export function reciprocalRank(
  ranked: readonly string[],
  grades: ReadonlyMap<string, number>,
  minGrade: number,
): number {
  const i = ranked.findIndex((id) => (grades.get(id) ?? 0) >= minGrade);
  return i < 0 ? 0 : 1 / (i + 1);
}
