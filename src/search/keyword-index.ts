import { slugify } from '../catalog/tags.js';
import type { CatalogIndex, CompanyAttrs, JobAttrs } from './catalog-index.js';
import { JobCodes, JobColumns, type JobRowFilter } from './job-columns.js';
import { type AllWordsQuery, lexemes } from './lexemes.js';
import { TopSlots } from './top-slots.js';
import { type NameMatch, NameMatcher } from './trigram.js';
import { type RankDoc, type RankTerm, rankOr, tsRank } from './ts-rank.js';

/**
 * The keyword half of hybrid search, in memory: an inverted index over job titles (weight A) and company names
 * (weight B), the same text as the jobs.search_tsv column, plus company names for misspellings (trigrams) and
 * exact name or slug matches. It follows the CatalogIndex through its listener (bulk load, snapshot, change-feed
 * deltas), so it is exactly as fresh as the vectors.
 *
 * Why not SQL: on the embedded database every statement runs on the event loop, and the keyword lists cost
 * ~10 ms (all words) + ~30 ms (any word) + ~6 ms (company-name trigrams) per search at 100k jobs, at p99 more
 * than the whole 30 ms budget; a word in half the catalog ("engineer") makes PostgreSQL read thousands of
 * tsvectors to rank them. Here the same lists cost ~0.1–5 ms together, off the database. Lexemes follow
 * to_tsvector('english') for ordinary words (lexemes.ts) and ranks follow ts_rank (ts-rank.ts); queries with
 * websearch operators ("quoted", -not, or) still go to PostgreSQL, whose semantics they ask for.
 */

/** The scratch RankDoc one ranking fills from a slot's columns (see docAt). */
interface DocView extends RankDoc {
  lex: string[];
  pos: readonly number[];
  titleCount: number;
}

export interface CompanyLookup {
  attributes(id: string): CompanyAttrs | undefined;
}

/**
 * The documents holding one lexeme, as parallel typed arrays: slot, the slot's generation when the entry was
 * added, and the code of the lexeme's ts_rank contribution there (~12 bytes an entry, where a Map<slot, code>
 * cost ~40: 5 MB against 23 MB at 100k jobs). Removing a document only bumps its slot's generation; readers skip
 * entries of an older generation, and a list mostly made of such entries is compacted.
 */
class PostingList {
  constructor(
    readonly lexeme: string,
    /** The lexeme's code in the documents' lexeme arena. */
    readonly word: number,
  ) {}
  slots = new Int32Array(4);
  gens = new Uint32Array(4);
  codes = new Int32Array(4);
  /** Entries written, dead ones included. */
  length = 0;
  /** Entries whose generation is current. */
  live = 0;

  add(slot: number, gen: number, code: number): void {
    if (this.length === this.slots.length) this.resize(this.length * 2);
    this.slots[this.length] = slot;
    this.gens[this.length] = gen;
    this.codes[this.length] = code;
    this.length++;
    this.live++;
  }

  /** One entry of this list died; drops the dead ones once they outnumber the live ones. */
  died(current: Uint32Array): void {
    this.live--;
    if (this.length - this.live <= Math.max(this.live, 8)) return;
    let n = 0;
    for (let i = 0; i < this.length; i++) {
      if (current[this.slots[i]!] !== this.gens[i]) continue;
      this.slots[n] = this.slots[i]!;
      this.gens[n] = this.gens[i]!;
      this.codes[n] = this.codes[i]!;
      n++;
    }
    this.length = n;
    if (n * 4 < this.slots.length && this.slots.length > 4) this.resize(Math.max(4, n * 2));
  }

  private resize(capacity: number): void {
    const slots = new Int32Array(capacity);
    slots.set(this.slots.subarray(0, this.length));
    const gens = new Uint32Array(capacity);
    gens.set(this.gens.subarray(0, this.length));
    const codes = new Int32Array(capacity);
    codes.set(this.codes.subarray(0, this.length));
    this.slots = slots;
    this.gens = gens;
    this.codes = codes;
  }
}

/**
 * The documents are columns by slot, not an object each: an object, its lexeme array and that array's elements
 * cost ~200 bytes a document (~20 MB at 100k jobs, live in V8's old generation and so counted again by each
 * collection's headroom). A document's lexemes are word codes in one arena (`lexStart`, `lexLength`).
 */
export class KeywordIndex {
  /** Job id by slot (the CatalogIndex's strings); undefined for a free slot. */
  private readonly idOf: (string | undefined)[] = [];
  /** The job's attributes by slot, as the CatalogIndex holds them. */
  private readonly attrsOf: (JobAttrs | undefined)[] = [];
  /** The shared positions list (see `positions`) by slot. */
  private readonly posOf: (readonly number[] | undefined)[] = [];
  /** By slot: how many of its lexemes come from the title (weight A), and where its word codes sit in `arena`. */
  private titleCounts = new Uint16Array(0);
  private lexStart = new Int32Array(0);
  private lexLength = new Uint16Array(0);
  /** Word codes of every document, appended; `arenaDead` of them belong to removed documents (see compact). */
  private arena = new Int32Array(1024);
  private arenaUsed = 0;
  private arenaDead = 0;
  /** Lexeme and posting list by word code; codes of lexemes no document holds any more are reused. */
  private readonly words: (string | undefined)[] = [];
  private readonly lists: (PostingList | undefined)[] = [];
  private readonly freeWords: number[] = [];
  private readonly view: DocView = { lex: [], pos: [], titleCount: 0 };
  private readonly slots = new Map<string, number>();
  private readonly free: number[] = [];
  /**
   * Lexeme -> the documents holding it, each with the code of that lexeme's ts_rank contribution there (see
   * rankOr). Titles make few distinct values, so postings hold small-integer codes into `contributions`.
   */
  private readonly postings = new Map<string, PostingList>();
  /** Per slot: bumped when its document goes, which kills the slot's posting entries (see PostingList). */
  private gens = new Uint32Array(0);
  /**
   * Identical position lists share one frozen array: titles make a few hundred patterns ([1, 2, 3], [1, 3, 4], …)
   * over 100k documents. Counted, so the last document with a pattern releases it.
   */
  private readonly positions = new Map<string, { pos: number[]; refs: number }>();
  private readonly contributions: number[] = [];
  private readonly contributionCodes = new Map<number, number>();
  /** Sorted lexemes, for prefix terms; rebuilt when a lexeme appears or disappears. */
  private vocabulary: string[] | undefined = [];
  private readonly companyJobs = new Map<string, Set<number>>();
  private readonly companyNames = new Map<string, string>();
  private readonly names = new NameMatcher();
  private readonly byLowerName = new Map<string, Set<string>>();
  private readonly bySlug = new Map<string, string>();
  /** Per-slot scratch of one query: score, and the stamp of the query that last visited the slot. */
  private scores = new Float64Array(0);
  private stamps = new Uint32Array(0);
  private touched = new Int32Array(0);
  private stamp = 0;
  /** Location, role, company and remote codes by slot, for filters given as masks. */
  private readonly columns: JobColumns;
  /** posted_at (µs) by slot: the lists' tie-break, read without touching the documents. */
  private posted = new Float64Array(0);

  constructor(
    private readonly companies: CompanyLookup,
    codes = new JobCodes(),
  ) {
    this.columns = new JobColumns(codes);
  }

  /** The index for a CatalogIndex: built once from its current rows, then kept current by its listener. */
  static of(index: CatalogIndex): KeywordIndex {
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

  get size(): number {
    return this.slots.size;
  }

  putJob(id: string, attrs: JobAttrs): void {
    const at = this.slots.get(id);
    const current = at === undefined ? undefined : this.attrsOf[at]!;
    // Re-reads and embedding writes re-put unchanged rows: same words, same company, nothing to re-index.
    if (current && current.title === attrs.title && current.companyId === attrs.companyId) {
      this.attrsOf[at!] = attrs;
      this.columns.set(at!, attrs);
      this.posted[at!] = attrs.postedAtUs;
      return;
    }
    this.indexJob(id, attrs);
  }

  private indexJob(id: string, attrs: JobAttrs): void {
    this.removeJob(id);
    const title = lexemes(attrs.title);
    const company = lexemes(this.companyNames.get(attrs.companyId) ?? '');
    // tsvector concatenation: the company name's positions follow the title's last lexeme.
    const offset = title.at(-1)?.pos ?? 0;
    const all = [...title, ...company.map((l) => ({ lexeme: l.lexeme, pos: l.pos + offset }))];
    const slot = this.free.pop() ?? this.idOf.length;
    if (slot >= this.gens.length) this.grow(Math.max(1024, (slot + 1) * 2));
    const lex = all.map((l) => l.lexeme);
    const pos = this.sharedPositions(all.map((l) => Math.min(l.pos, 16_383)));
    this.idOf[slot] = id;
    this.attrsOf[slot] = attrs;
    this.posOf[slot] = pos;
    this.titleCounts[slot] = title.length;
    this.slots.set(id, slot);
    this.columns.set(slot, attrs);
    this.posted[slot] = attrs.postedAtUs;
    const doc: RankDoc = { lex, pos, titleCount: title.length };
    for (const l of new Set(lex)) {
      let posting = this.postings.get(l);
      if (!posting) {
        const word = this.freeWords.pop() ?? this.words.length;
        posting = new PostingList(l, word);
        this.postings.set(l, posting);
        this.words[word] = l;
        this.lists[word] = posting;
        this.vocabulary = undefined;
      }
      // A one-term query's rank, precomputed: OR ranks are sums of these.
      posting.add(slot, this.gens[slot]!, this.contributionCode(rankOr(doc, [{ lexeme: l, prefix: false }])));
    }
    // The slot holds no codes yet: a compaction now must not copy a former occupant's.
    this.lexLength[slot] = 0;
    if (this.arenaUsed + lex.length > this.arena.length) this.compact(lex.length);
    this.lexStart[slot] = this.arenaUsed;
    this.lexLength[slot] = lex.length;
    for (const l of lex) this.arena[this.arenaUsed++] = this.postings.get(l)!.word;
    let jobs = this.companyJobs.get(attrs.companyId);
    if (!jobs) {
      jobs = new Set();
      this.companyJobs.set(attrs.companyId, jobs);
    }
    jobs.add(slot);
  }

  /** Sizes the per-slot columns for `size` slots. */
  private grow(size: number): void {
    this.gens = resized(this.gens, size);
    this.posted = resized(this.posted, size);
    this.titleCounts = resized(this.titleCounts, size);
    this.lexStart = resized(this.lexStart, size);
    this.lexLength = resized(this.lexLength, size);
  }

  /**
   * Makes room for `more` word codes: drops the codes of removed documents, and grows the arena so that a
   * quarter of it stays free (so compactions stay rare: each is a pass over every document).
   */
  private compact(more: number): void {
    const live = this.arenaUsed - this.arenaDead;
    const size = Math.max(this.arena.length, Math.ceil(((live + more) * 4) / 3));
    const arena = new Int32Array(size);
    let used = 0;
    for (let slot = 0; slot < this.idOf.length; slot++) {
      if (this.idOf[slot] === undefined) continue;
      const start = this.lexStart[slot]!;
      const length = this.lexLength[slot]!;
      arena.set(this.arena.subarray(start, start + length), used);
      this.lexStart[slot] = used;
      used += length;
    }
    this.arena = arena;
    this.arenaUsed = used;
    this.arenaDead = 0;
  }

  /** The slot's document as ts-rank reads it: one scratch view, valid until the next call. */
  private docAt(slot: number): RankDoc {
    const view = this.view;
    const start = this.lexStart[slot]!;
    const length = this.lexLength[slot]!;
    view.lex.length = length;
    for (let i = 0; i < length; i++) view.lex[i] = this.words[this.arena[start + i]!]!;
    view.pos = this.posOf[slot]!;
    view.titleCount = this.titleCounts[slot]!;
    return view;
  }

  private sharedPositions(pos: number[]): number[] {
    const key = pos.join(',');
    let shared = this.positions.get(key);
    if (!shared) {
      shared = { pos: Object.freeze(pos) as number[], refs: 0 };
      this.positions.set(key, shared);
    }
    shared.refs++;
    return shared.pos;
  }

  private releasePositions(pos: readonly number[]): void {
    const key = pos.join(',');
    const shared = this.positions.get(key);
    if (shared && --shared.refs === 0) this.positions.delete(key);
  }

  private contributionCode(value: number): number {
    let code = this.contributionCodes.get(value);
    if (code === undefined) {
      code = this.contributions.length;
      this.contributions.push(value);
      this.contributionCodes.set(value, code);
    }
    return code;
  }

  removeJob(id: string): void {
    const slot = this.slots.get(id);
    if (slot === undefined) return;
    const attrs = this.attrsOf[slot]!;
    this.gens[slot] = (this.gens[slot]! + 1) >>> 0;
    const start = this.lexStart[slot]!;
    const length = this.lexLength[slot]!;
    for (const word of new Set(this.arena.subarray(start, start + length))) {
      const list = this.lists[word]!;
      list.died(this.gens);
      if (list.live === 0) {
        this.postings.delete(list.lexeme);
        this.words[word] = undefined;
        this.lists[word] = undefined;
        this.freeWords.push(word);
        this.vocabulary = undefined;
      }
    }
    this.arenaDead += length;
    this.releasePositions(this.posOf[slot]!);
    const jobs = this.companyJobs.get(attrs.companyId);
    jobs?.delete(slot);
    if (jobs?.size === 0) this.companyJobs.delete(attrs.companyId);
    this.idOf[slot] = undefined;
    this.attrsOf[slot] = undefined;
    this.posOf[slot] = undefined;
    this.slots.delete(id);
    this.free.push(slot);
  }

  putCompany(id: string, attrs: CompanyAttrs, old: CompanyAttrs | undefined): void {
    if (old) this.forgetCompanyKeys(id, old);
    this.names.set(id, attrs.name);
    const lower = attrs.name.toLowerCase();
    let ids = this.byLowerName.get(lower);
    if (!ids) {
      ids = new Set();
      this.byLowerName.set(lower, ids);
    }
    ids.add(id);
    this.bySlug.set(attrs.slug, id);
    const renamed = this.companyNames.get(id) !== attrs.name;
    this.companyNames.set(id, attrs.name);
    // Job documents hold the company name's lexemes.
    if (renamed) {
      for (const slot of [...(this.companyJobs.get(id) ?? [])])
        this.indexJob(this.idOf[slot]!, this.attrsOf[slot]!);
    }
  }

  removeCompany(id: string, old: CompanyAttrs): void {
    this.forgetCompanyKeys(id, old);
    this.names.delete(id);
    this.companyNames.delete(id);
  }

  private forgetCompanyKeys(id: string, old: CompanyAttrs): void {
    const lower = old.name.toLowerCase();
    const ids = this.byLowerName.get(lower);
    ids?.delete(id);
    if (ids?.size === 0) this.byLowerName.delete(lower);
    if (this.bySlug.get(old.slug) === id) this.bySlug.delete(old.slug);
  }

  clear(): void {
    this.idOf.length = 0;
    this.attrsOf.length = 0;
    this.posOf.length = 0;
    this.arenaUsed = 0;
    this.arenaDead = 0;
    this.words.length = 0;
    this.lists.length = 0;
    this.freeWords.length = 0;
    this.slots.clear();
    this.free.length = 0;
    this.postings.clear();
    this.gens = new Uint32Array(0);
    this.positions.clear();
    this.vocabulary = [];
    this.companyJobs.clear();
    this.companyNames.clear();
    this.names.clear();
    this.byLowerName.clear();
    this.bySlug.clear();
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
    // document's lexemes chased through its object (~5 ms for "customer engineer" at 100k jobs).
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

const built = new WeakMap<CatalogIndex, KeywordIndex>();

type Column = Uint32Array | Uint16Array | Int32Array | Float64Array;

/** A copy of `column` with `size` entries (zero-filled past the old ones). */
function resized<T extends Column>(column: T, size: number): T {
  const out = new (column.constructor as new (n: number) => T)(size);
  out.set(column.subarray(0, Math.min(column.length, size)) as never);
  return out;
}
