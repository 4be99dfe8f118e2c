/**
 * pg_trgm's word_similarity in memory, and a matcher over many names. Misspelled company names ("antropic",
 * "databriks") were found by `word_similarity(lower(name), lower(query)) >= 0.5` over every company, a scan of
 * SQL per search on the embedded database; the same test over an inverted trigram index in memory costs a small
 * fraction of it. test/search/trigram.test.ts checks the values against the database's function.
 */

/** Trigrams of each alphanumeric word, lower-cased and padded like pg_trgm ("  w", " wo", "wor", "ord", "rd "). */
export function trigrams(text: string): string[] {
  const out: string[] = [];
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const padded = [...`  ${word} `];
    for (let i = 0; i + 3 <= padded.length; i++) out.push(padded[i]! + padded[i + 1]! + padded[i + 2]!);
  }
  return out;
}

/**
 * The greatest similarity between the trigram set of `word` and any continuous extent of the ordered trigrams of
 * `text` (pg_trgm calc_word_similarity / iterate_word_similarity, non-strict), as float4 like PostgreSQL.
 */
export function wordSimilarity(word: string, text: string): number {
  const ids = new Map<string, number>();
  const found: boolean[] = [];
  for (const t of trigrams(word)) {
    let id = ids.get(t);
    if (id === undefined) {
      id = ids.size;
      ids.set(t, id);
    }
    found[id] = true;
  }
  const ulen1 = ids.size;
  if (ulen1 === 0) return 0;
  const positions = trigrams(text).map((t) => {
    let id = ids.get(t);
    if (id === undefined) {
      id = ids.size;
      ids.set(t, id);
      found[id] = false;
    }
    return id;
  });
  const sml = (count: number, ulen2: number) => Math.fround(count / (ulen1 + ulen2 - count));
  const lastpos = new Int32Array(ids.size).fill(-1);
  let ulen2 = 0;
  let count = 0;
  let lower = -1;
  let max = 0;
  for (let i = 0; i < positions.length; i++) {
    const t = positions[i]!;
    if (lower >= 0 || found[t]) {
      if (lastpos[t]! < 0) {
        ulen2++;
        if (found[t]) count++;
      }
      lastpos[t] = i;
    }
    if (!found[t]) continue;
    const upper = i;
    if (lower === -1) {
      lower = i;
      ulen2 = 1;
    }
    let current = sml(count, ulen2);
    // Try moving the extent's start right for a greater similarity.
    let tmpCount = count;
    let tmpUlen2 = ulen2;
    const prevLower = lower;
    for (let tmpLower = lower; tmpLower <= upper; tmpLower++) {
      const s = sml(tmpCount, tmpUlen2);
      if (s > current) {
        current = s;
        ulen2 = tmpUlen2;
        lower = tmpLower;
        count = tmpCount;
      }
      const tt = positions[tmpLower]!;
      if (lastpos[tt] === tmpLower) {
        tmpUlen2--;
        if (found[tt]) tmpCount--;
      }
    }
    max = Math.max(max, current);
    for (let tmpLower = prevLower; tmpLower < lower; tmpLower++) {
      const tt = positions[tmpLower]!;
      if (lastpos[tt] === tmpLower) lastpos[tt] = -1;
    }
  }
  return max;
}

export interface NameMatch {
  id: string;
  similarity: number;
}

/**
 * Names by id, with an inverted index from trigram to names: a name can only reach similarity s if at least s of
 * its distinct trigrams occur in the text (the similarity is count / (|name| + |extent| − count) ≤ count / |name|),
 * so only those few names are scored exactly. Names are numbered and counted in a typed array: a query's common
 * trigrams ("eng", " s") reach thousands of names, and a Map of string ids per query cost several times more.
 */
export class NameMatcher {
  private readonly numbers = new Map<string, number>();
  private ids: (string | undefined)[] = [];
  private names: string[] = [];
  /** Distinct trigrams per name. */
  private sizes: number[] = [];
  private readonly free: number[] = [];
  private readonly postings = new Map<string, number[]>();
  /** Per-name scratch of one match: how many of the text's trigrams the name has. */
  private counts = new Uint16Array(0);

  get size(): number {
    return this.numbers.size;
  }

  set(id: string, name: string): void {
    const old = this.numbers.get(id);
    if (old !== undefined && this.names[old] === name) return;
    if (old !== undefined) this.delete(id);
    const distinct = new Set(trigrams(name));
    const n = this.free.pop() ?? this.ids.length;
    this.numbers.set(id, n);
    this.ids[n] = id;
    this.names[n] = name;
    this.sizes[n] = distinct.size;
    for (const t of distinct) {
      let list = this.postings.get(t);
      if (!list) {
        list = [];
        this.postings.set(t, list);
      }
      list.push(n);
    }
  }

  delete(id: string): void {
    const n = this.numbers.get(id);
    if (n === undefined) return;
    for (const t of new Set(trigrams(this.names[n]!))) {
      const list = this.postings.get(t);
      if (!list) continue;
      const at = list.indexOf(n);
      if (at >= 0) list.splice(at, 1);
      if (list.length === 0) this.postings.delete(t);
    }
    this.numbers.delete(id);
    this.ids[n] = undefined;
    this.names[n] = '';
    this.free.push(n);
  }

  clear(): void {
    this.numbers.clear();
    this.ids = [];
    this.names = [];
    this.sizes = [];
    this.free.length = 0;
    this.postings.clear();
  }

  /** Names whose word similarity to `text` is at least `threshold`, best first, then by id. */
  match(text: string, threshold: number, accept: (id: string) => boolean = () => true): NameMatch[] {
    if (this.counts.length < this.ids.length) this.counts = new Uint16Array(this.ids.length * 2);
    const counts = this.counts;
    const touched: number[] = [];
    for (const t of new Set(trigrams(text))) {
      for (const n of this.postings.get(t) ?? []) if (counts[n]!++ === 0) touched.push(n);
    }
    const out: NameMatch[] = [];
    for (const n of touched) {
      const hits = counts[n]!;
      counts[n] = 0;
      const id = this.ids[n]!;
      if (hits < threshold * this.sizes[n]! || !accept(id)) continue;
      const similarity = wordSimilarity(this.names[n]!, text);
      if (similarity >= threshold) out.push({ id, similarity });
    }
    return out.sort((a, b) => b.similarity - a.similarity || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
}
