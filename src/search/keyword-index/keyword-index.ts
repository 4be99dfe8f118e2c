import type { CatalogReplica, CompanyAttrs } from '../../catalog/replica/catalog-replica.js';
import type { JobRowFilter } from '../../catalog/replica/job-columns.js';
import { slugify } from '../../catalog/tags.js';
import type { IntentLookup } from '../query/company-intent.js';
import { allowedEdits, type Correction, editDistance } from '../query/spelling.js';
import type { NameMatch } from '../query/trigram.js';
import { TopSlots } from '../top-slots.js';
import { KeywordDocuments } from './keyword-documents.js';
import { type AllWordsQuery, wordsOf } from './lexemes.js';
import type { PostingList } from './posting-list.js';
import { type RankTerm, tsRank } from './ts-rank.js';

export type { CompanyLookup } from './keyword-documents.js';

/**
 * The keyword half of hybrid search, in memory: an inverted index over job titles (weight A) and company names
 * (weight B), the same text as the jobs.search_tsv column, plus company names for misspellings (trigrams) and
 * exact name or slug matches. It follows the CatalogReplica through its listener (bulk load, snapshot, change-feed
 * deltas), so it is exactly as fresh as the vectors.
 *
 * Why not SQL: on the embedded database every statement runs on the event loop, and the keyword lists (all
 * words, any word, company-name trigrams) cost more than a search's whole latency budget at p99; a word in half
 * the catalog ("engineer") makes PostgreSQL read thousands of tsvectors to rank them. Here the same lists cost a
 * fraction of that, off the database (figures in docs/performance.md, "Figures behind the replica"). Lexemes follow
 * to_tsvector('english') for ordinary words (lexemes.ts) and ranks follow ts_rank (ts-rank.ts); queries with
 * websearch operators ("quoted", -not, or) still go to PostgreSQL, whose semantics they ask for.
 *
 * This class answers the queries; KeywordDocuments, which it extends, keeps the documents current.
 */
export class KeywordIndex extends KeywordDocuments {
  /** Per-slot scratch of one query: score, and the stamp of the query that last visited the slot. */
  private scores = new Float64Array(0);
  private stamps = new Uint32Array(0);
  private touched = new Int32Array(0);
  private stamp = 0;

  /** The index for a CatalogReplica: built once from its current rows, then kept current by its listener. */
  static of(index: CatalogReplica): KeywordIndex {
    let k = built.get(index);
    if (!k) {
      const made = new KeywordIndex(index.companies, index.jobCodes);
      for (const [id, attrs] of index.companies.entries()) made.putCompany(id, attrs, undefined);
      for (const [id, attrs] of index.jobs.entries()) made.putJob(id, attrs);
      index.listen({
        jobPut: (id, attrs) => made.putJob(id, attrs),
        jobRemoved: (id) => made.removeJob(id),
        companyPut: (id, attrs, old) => made.putCompany(id, attrs, old),
        companyRemoved: (id, old) => made.removeCompany(id, old),
        cleared: () => made.clear(),
      });
      built.set(index, made);
      k = made;
    }
    return k;
  }

  /**
   * Jobs containing every lexeme of the query (the last word as a prefix), ranked like ts_rank, then newest.
   * Every match is ranked (the SQL list ranked only the 2,000 newest, to bound its cost).
   */
  allWords(q: AllWordsQuery, filter: JobRowFilter, n: number): string[] {
    const admit = this.admitter(filter);
    const prefix = q.prefix !== null && !q.exact.includes(q.prefix) ? q.prefix : null;
    const terms: RankTerm[] = q.exact.map((lexeme) => ({ lexeme, prefix: false }));
    if (prefix !== null) terms.push({ lexeme: prefix, prefix: true });
    // One term: its rank is the sum of the precomputed contributions of the lexemes it matches.
    if (terms.length === 1)
      return this.sumRanked(prefix !== null ? this.expand(prefix) : q.exact, 1, admit, n);
    if (terms.length === 0) return [];
    // Each term's postings: an exact lexeme's list, or the lists of every lexeme the prefix expands to.
    const groups: PostingList[][] = [];
    for (const l of new Set(q.exact)) {
      const p = this.postings.get(l);
      if (!p) return [];
      groups.push([p]);
    }
    if (prefix !== null) {
      const lists = this.expand(prefix).map((l) => this.postings.get(l)!);
      if (lists.length === 0) return [];
      groups.push(lists);
    }
    // The documents holding every term: the terms' postings are walked rarest first, and each slot counts the
    // terms it has matched so far. A flat pass over typed arrays per list, where testing each candidate
    // document's lexemes chased through its object took milliseconds for a common pair of words.
    const size = (g: PostingList[]) => g.reduce((sum, p) => sum + p.live, 0);
    groups.sort((a, b) => size(a) - size(b));
    const counts = this.scratch();
    const { stamps, stamp, touched } = this;
    const current = this.gens;
    let found = 0;
    for (let term = 0; term < groups.length; term++) {
      for (const { slots, gens, length } of groups[term]!) {
        for (let i = 0; i < length; i++) {
          const slot = slots[i]!;
          if (current[slot] !== gens[i]) continue;
          if (term === 0) {
            if (stamps[slot] === stamp) continue;
            stamps[slot] = stamp;
            counts[slot] = 1;
            touched[found++] = slot;
          } else if (stamps[slot] === stamp && counts[slot] === term) {
            counts[slot] = term + 1;
          }
        }
      }
    }
    const top = this.top(n);
    for (let i = 0; i < found; i++) {
      const slot = touched[i]!;
      if (counts[slot] !== groups.length || (admit !== undefined && !admit(slot))) continue;
      const rank = tsRank(this.docAt(slot), terms);
      top.offer(rank, slot);
    }
    return this.ids(top);
  }

  /** Jobs containing any of the lexemes, ranked like ts_rank of their OR, then newest. */
  anyWords(words: readonly string[], filter: JobRowFilter, n: number): string[] {
    return this.sumRanked(words, words.length, this.admitter(filter), n);
  }

  /**
   * The best n documents offered, best first: higher score, then newer, then larger id (the SQL lists' ORDER BY
   * … posted_at DESC, id DESC).
   */
  private top(n: number): TopSlots {
    const { posted, idOf } = this;
    return new TopSlots(
      n,
      (a, sa, b, sb) =>
        a < b ||
        (a === b && (posted[sa]! < posted[sb]! || (posted[sa] === posted[sb] && idOf[sa]! < idOf[sb]!))),
    );
  }

  private ids(top: TopSlots): string[] {
    return top.ranked().map(([slot]) => this.idOf[slot]!);
  }

  /** The filter as a slot predicate over this index's rows; undefined when it admits every row. */
  private admitter(filter: JobRowFilter): ((slot: number) => boolean) | undefined {
    if (filter === null) return undefined;
    if (typeof filter === 'function') return (slot) => filter(this.attrsOf[slot]!);
    return this.columns.admit(filter);
  }

  /**
   * Documents holding any of `lexemes`, scored Σ contribution / `terms` (calc_rank_or), the best n that
   * `admit` admits. A word in most of the catalog makes this visit most documents, so the loop stays flat:
   * scores accumulate in a typed array, and `admit` runs only for documents that would enter the top n.
   */
  private sumRanked(
    lexemes: readonly string[],
    terms: number,
    admit: ((slot: number) => boolean) | undefined,
    n: number,
  ): string[] {
    const scores = this.scratch();
    const { stamps, stamp } = this;
    let touched = 0;
    const current = this.gens;
    const contributions = this.contributions;
    for (const l of lexemes) {
      const list = this.postings.get(l);
      if (!list) continue;
      const { slots, gens, codes, length } = list;
      for (let i = 0; i < length; i++) {
        const slot = slots[i]!;
        if (current[slot] !== gens[i]) continue;
        const c = contributions[codes[i]!]!;
        if (stamps[slot] !== stamp) {
          stamps[slot] = stamp;
          scores[slot] = c;
          this.touched[touched++] = slot;
        } else {
          scores[slot]! += c;
        }
      }
    }
    const top = this.top(n);
    const posted = this.posted;
    for (let i = 0; i < touched; i++) {
      const slot = this.touched[i]!;
      const score = scores[slot]! / terms;
      // Rejected here when it cannot enter, ties older than the worst kept included: a common word leaves
      // thousands of documents tied on one score, and each would otherwise cost a filter and a comparator call.
      if (top.full && (score < top.worst || (score === top.worst && posted[slot]! < posted[top.worstSlot]!)))
        continue;
      if (admit === undefined || admit(slot)) top.offer(score, slot);
    }
    return this.ids(top);
  }

  /** Active companies whose name is word-similar (pg_trgm) to the query, best first; `accept` filters. */
  similarCompanies(q: string, threshold: number, accept: (a: CompanyAttrs) => boolean): NameMatch[] {
    return this.names.match(q.toLowerCase(), threshold, (id) => {
      const a = this.companies.attributes(id);
      return a !== undefined && accept(a);
    });
  }

  /** Jobs of the matched companies passing `accept`: best name match first, then newest. */
  jobsOfCompanies(matches: readonly NameMatch[], filter: JobRowFilter, n: number): string[] {
    const admit = this.admitter(filter);
    const top = this.top(n);
    for (const m of matches) {
      for (const slot of this.companyJobs.get(m.id) ?? []) {
        if (admit === undefined || admit(slot)) top.offer(m.similarity, slot);
      }
    }
    return this.ids(top);
  }

  /** Companies whose name equals the query case-insensitively (first, by id), then the one with its slug. */
  exactCompanies(q: string, accept: (a: CompanyAttrs) => boolean): string[] {
    const byName = [...(this.byLowerName.get(q.toLowerCase()) ?? [])].sort();
    const bySlug = this.bySlug.get(slugify(q));
    const ids = bySlug !== undefined && !byName.includes(bySlug) ? [...byName, bySlug] : byName;
    return ids.filter((id) => {
      const a = this.companies.attributes(id);
      return a !== undefined && accept(a);
    });
  }

  /**
   * Companies whose whole name is within the typo allowance of the query (query/spelling.ts: one edit from 4
   * characters, two from 8), nearest first, then by name: "anthropc" finds Anthropic. Exact names are not
   * among them (exactCompanies has those), so a correction never passes for an exact match.
   */
  correctedCompanies(q: string, accept: (a: CompanyAttrs) => boolean): string[] {
    const query = q.toLowerCase().replace(/\s+/g, ' ').trim();
    const edits = allowedEdits(query.length);
    if (edits === 0) return [];
    const found: { distance: number; name: string; id: string }[] = [];
    for (const [name, ids] of this.byLowerName) {
      if (name === query || Math.abs(name.length - query.length) > edits) continue;
      const distance = editDistance(query, name, edits);
      if (distance > edits) continue;
      for (const id of ids) {
        const a = this.companies.attributes(id);
        if (a !== undefined && accept(a)) found.push({ distance, name, id });
      }
    }
    found.sort((a, b) => a.distance - b.distance || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return found.map((f) => f.id);
  }

  /**
   * The query with each misspelled word replaced by its correction from the vocabulary (query/spelling.ts), and the
   * corrections made; the text unchanged when it needs none. The last word is known when it is a prefix of a
   * known lexeme (the keyword list matches it as one). Words `keep` accepts (place names) are left as they are.
   */
  corrected(q: string, keep?: (word: string) => boolean): { text: string; corrections: Correction[] } {
    const words = wordsOf(q);
    const corrections: Correction[] = [];
    let text = '';
    let at = 0;
    const frequency = (lexeme: string) => this.postings.get(lexeme)?.live ?? 0;
    for (const [i, w] of words.entries()) {
      const last = i === words.length - 1 && /[\p{L}\p{N}]$/u.test(q);
      const own = last
        ? this.expand(w.lexeme).reduce((sum, l) => sum + frequency(l), 0)
        : frequency(w.lexeme);
      const c = this.spelling.correct(w.word, w.lexeme, own, frequency);
      if (!c || keep?.(w.word)) continue;
      corrections.push(c);
      text += q.slice(at, w.start) + c.to;
      at = w.end;
    }
    return { text: corrections.length > 0 ? text + q.slice(at) : q, corrections };
  }

  /** Ids of the company's jobs in the index. */
  jobIdsOf(companyId: string): string[] {
    return [...(this.companyJobs.get(companyId) ?? [])].map((slot) => this.idOf[slot]!);
  }

  /** What query/company-intent.ts reads of the index. */
  intentLookup(): IntentLookup {
    return {
      name: (id) => {
        const a = this.companies.attributes(id);
        return a?.active ? a.name : undefined;
      },
      frequency: (lexeme) => this.postings.get(lexeme)?.live ?? 0,
      jobCount: (id) => this.companyJobs.get(id)?.size ?? 0,
    };
  }

  /** Sizes the per-slot scratch arrays and starts a new stamp (a slot is visited when its stamp is current). */
  private scratch(): Float64Array {
    const size = this.idOf.length;
    if (this.scores.length < size) {
      this.scores = new Float64Array(size * 2);
      this.stamps = new Uint32Array(size * 2);
      this.touched = new Int32Array(size * 2);
    }
    this.stamp = (this.stamp + 1) >>> 0;
    if (this.stamp === 0) {
      this.stamps.fill(0);
      this.stamp = 1;
    }
    return this.scores;
  }

  /** Lexemes of the vocabulary that start with `prefix`. */
  private expand(prefix: string): string[] {
    this.vocabulary ??= [...this.postings.keys()].sort();
    const v = this.vocabulary;
    let lo = 0;
    let hi = v.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (v[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < v.length && v[i]!.startsWith(prefix); i++) out.push(v[i]!);
    return out;
  }
}

const built = new WeakMap<CatalogReplica, KeywordIndex>();
