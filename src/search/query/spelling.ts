/**
 * Typo tolerance against the index vocabulary: every word of a job title or company name the index has held,
 * with its lexeme, and the closest such word to a query word ("solutons" -> "solutions", "sucess" ->
 * "success"). A word of 4+ characters may be 1 edit away (insertion, deletion, substitution or transposition
 * of neighbours), one of 8+ characters 2 edits. Among the closest words, the one whose lexeme most documents
 * hold wins. Only words the index does not know, or knows from a handful of documents while a correction is in
 * many (a misspelled title), are corrected: a query of known words is left as it is. A word met only in
 * company names is a correction for words of 8+ characters only: short English words are a letter away from
 * many brand names ("model" and Modal, "adopt" and Adept), and company names have their own trigram match.
 *
 * The lookup is a SymSpell-style delete index: every word is filed under the strings its first 7 characters
 * become with up to two characters deleted, and a query word's own deletions find every word within its edit
 * distance in a few map reads, whatever the vocabulary's size (the prefix bounds a word's entries to 29; edits
 * past it are counted when the candidates are verified).
 */

export interface Correction {
  word: string;
  /** The corrected word (a surface word of the vocabulary) and its lexeme. */
  to: string;
  lexeme: string;
  distance: number;
}

/** How many documents hold a lexeme (0: none, any more). */
export type DocumentFrequency = (lexeme: string) => number;

/** Edit distance allowed for a word of this many characters. */
export function allowedEdits(length: number): number {
  return length >= 8 ? 2 : length >= 4 ? 1 : 0;
}

/** A present word is still corrected when a correction is in this many times more documents. */
const RARE_RATIO = 50;
const CACHE_MAX = 10_000;
const PREFIX = 7;
const MAX_EDITS = 2;

export class Spelling {
  /** Surface word -> its lexeme. Grows only (cleared with the index); liveness is the lexeme's frequency. */
  private readonly lexemeOf = new Map<string, string>();
  /** Words met in a job title (the others only in company names). */
  private readonly inTitles = new Set<string>();
  /** Deletion variant -> the words it comes from. */
  private readonly deletes = new Map<string, string[]>();
  private readonly cache = new Map<string, { version: number; candidates: string[] }>();
  private version = 0;

  /** Files a word of the vocabulary (words shorter than 4 characters are never corrected to or from). */
  add(word: string, lexeme: string, inTitle: boolean): void {
    if (word.length < 4 || lexeme === '') return;
    if (inTitle) this.inTitles.add(word);
    if (this.lexemeOf.has(word)) return;
    this.lexemeOf.set(word, lexeme);
    this.version++;
    for (const d of variants(word.slice(0, PREFIX), MAX_EDITS)) {
      const words = this.deletes.get(d);
      if (words) words.push(word);
      else this.deletes.set(d, [word]);
    }
  }

  clear(): void {
    this.lexemeOf.clear();
    this.inTitles.clear();
    this.deletes.clear();
    this.cache.clear();
    this.version++;
  }

  /**
   * The correction of `word` (lower-case), or undefined when it needs none or has none. `lexeme` is the word's
   * own lexeme and `own` how many documents match it (which decides whether it needs one).
   */
  correct(word: string, lexeme: string, own: number, frequency: DocumentFrequency): Correction | undefined {
    const max = allowedEdits(word.length);
    if (max === 0 || lexeme === '' || /\p{N}/u.test(word)) return undefined;
    let best: Correction | undefined;
    let bestFrequency = 0;
    for (const candidate of this.candidates(word, max)) {
      const to = this.lexemeOf.get(candidate)!;
      if (to === lexeme || (word.length < 8 && !this.inTitles.has(candidate))) continue;
      const f = frequency(to);
      if (f === 0) continue;
      const distance = editDistance(word, candidate, max);
      if (distance > max) continue;
      if (
        best === undefined ||
        distance < best.distance ||
        (distance === best.distance && (f > bestFrequency || (f === bestFrequency && candidate < best.to)))
      ) {
        best = { word, to: candidate, lexeme: to, distance };
        bestFrequency = f;
      }
    }
    if (best === undefined) return undefined;
    if (own > 0 && bestFrequency < own * RARE_RATIO) return undefined;
    return best;
  }

  /** Vocabulary words sharing a deletion variant with `word`: a superset of those within `max` edits. */
  private candidates(word: string, max: number): string[] {
    const kept = this.cache.get(word);
    if (kept?.version === this.version) return kept.candidates;
    const found = new Set<string>();
    for (const d of variants(word.slice(0, PREFIX), max)) {
      for (const w of this.deletes.get(d) ?? []) found.add(w);
    }
    const candidates = [...found];
    if (this.cache.size >= CACHE_MAX) this.cache.clear();
    this.cache.set(word, { version: this.version, candidates });
    return candidates;
  }
}

/** The word and every string it becomes with up to `max` characters deleted. */
function variants(word: string, max: number): Set<string> {
  const out = new Set<string>([word]);
  let level = [word];
  for (let edit = 0; edit < max; edit++) {
    const next: string[] = [];
    for (const w of level) {
      for (let i = 0; i < w.length; i++) {
        const d = w.slice(0, i) + w.slice(i + 1);
        if (!out.has(d)) {
          out.add(d);
          next.push(d);
        }
      }
    }
    level = next;
  }
  return out;
}

/** Optimal string alignment distance (Damerau-Levenshtein without repeated edits of a substring), capped at max+1. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => {
    const row = new Array<number>(cols).fill(0);
    row[0] = i;
    return row;
  });
  for (let j = 0; j < cols; j++) d[0]![j] = j;
  for (let i = 1; i < rows; i++) {
    let rowMin = Number.POSITIVE_INFINITY;
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > max) return max + 1;
  }
  return d[rows - 1]![cols - 1]!;
}
