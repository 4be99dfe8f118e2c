import type { AllWordsQuery } from '../keyword-index/lexemes.js';

/**
 * How many active jobs have a title holding every word of an all-words query, counted from the distinct titles
 * and their job counts (job_text_counts) that the vocabulary reads: the process's own estimate of a list's
 * matches, where PostgreSQL's multiplies each word's frequency as if the words were independent. The words of a
 * title are not ("customer" and "success" come together), so for `'custom' & 'success':*` it estimated 1,732
 * matches of 300,000 jobs where they were tens of thousands, and fetched every match's row through the full-text
 * index. Titles only: a word matched in the company name is not counted, so the figure is a lower bound.
 */
export class TitleCounts {
  /** Lexeme -> the titles (indexes into `jobs`) holding it. */
  private readonly titles = new Map<string, number[]>();
  private readonly jobs: number[] = [];
  /** Active jobs counted: the sum over every title. */
  active = 0;

  /** A distinct title's lexemes and its active jobs. */
  add(lexemes: Iterable<string>, n: number): void {
    const i = this.jobs.push(n) - 1;
    this.active += n;
    for (const l of new Set(lexemes)) {
      if (l === '') continue;
      const list = this.titles.get(l);
      if (list) list.push(i);
      else this.titles.set(l, [i]);
    }
  }

  /**
   * Active jobs whose title holds every exact lexeme and, for the prefix, a lexeme starting with it.
   * `completions`: the lexemes that start with the prefix.
   */
  matches(q: AllWordsQuery, completions: (prefix: string) => readonly string[]): number {
    const sets = [...new Set(q.exact)].map((l) => this.titles.get(l) ?? []);
    if (q.prefix !== null && !q.exact.includes(q.prefix)) {
      const any = new Set<number>();
      for (const l of completions(q.prefix)) for (const i of this.titles.get(l) ?? []) any.add(i);
      sets.push([...any].sort((a, b) => a - b));
    }
    if (sets.length === 0) return 0;
    // Each list is in ascending order (titles are numbered as they are added): the shortest one's titles are
    // looked up in the others by binary search.
    sets.sort((a, b) => a.length - b.length);
    const [first, ...rest] = sets as [number[], ...number[][]];
    let sum = 0;
    for (const i of first) if (rest.every((s) => holds(s, i))) sum += this.jobs[i]!;
    return sum;
  }
}

/** Whether the ascending list holds `x`. */
function holds(sorted: readonly number[], x: number): boolean {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return sorted[lo] === x;
}
