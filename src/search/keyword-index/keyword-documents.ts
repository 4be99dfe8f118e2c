import type { CompanyAttrs, JobAttrs } from '../../catalog/replica/catalog-replica.js';
import { JobCodes, JobColumns } from '../../catalog/replica/job-columns.js';
import { Spelling } from '../query/spelling.js';
import { NameMatcher } from '../query/trigram.js';
import { lexemes, wordsOf } from './lexemes.js';
import { PostingList, resized } from './posting-list.js';
import { type RankDoc, rankOr } from './ts-rank.js';

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
 * The documents are columns by slot, not an object each: an object, its lexeme array and that array's elements
 * cost far more per document (live in V8's old generation and so counted again by each collection's
 * headroom). A document's lexemes are word codes in one arena (`lexStart`, `lexLength`).
 *
 * This half of the keyword index keeps the documents current; KeywordIndex adds the queries over them.
 */
export class KeywordDocuments {
  /** Job id by slot (the CatalogReplica's strings); undefined for a free slot. */
  protected readonly idOf: (string | undefined)[] = [];
  /** The job's attributes by slot, as the CatalogReplica holds them. */
  protected readonly attrsOf: (JobAttrs | undefined)[] = [];
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
  protected readonly postings = new Map<string, PostingList>();
  /** Per slot: bumped when its document goes, which kills the slot's posting entries (see PostingList). */
  protected gens = new Uint32Array(0);
  /**
   * Identical position lists share one frozen array: titles make a few hundred patterns ([1, 2, 3], [1, 3, 4], …)
   * over 100k documents. Counted, so the last document with a pattern releases it.
   */
  private readonly positions = new Map<string, { pos: number[]; refs: number }>();
  protected readonly contributions: number[] = [];
  private readonly contributionCodes = new Map<number, number>();
  /** Sorted lexemes, for prefix terms; rebuilt when a lexeme appears or disappears. */
  protected vocabulary: string[] | undefined = [];
  protected readonly companyJobs = new Map<string, Set<number>>();
  private readonly companyNames = new Map<string, string>();
  protected readonly names = new NameMatcher();
  /** Every title and company-name word held so far, for typo corrections of query words. */
  protected readonly spelling = new Spelling();
  protected readonly byLowerName = new Map<string, Set<string>>();
  protected readonly bySlug = new Map<string, string>();
  /** Location, role, company and remote codes by slot, for filters given as masks. */
  protected readonly columns: JobColumns;
  /** posted_at (µs) by slot: the lists' tie-break, read without touching the documents. */
  protected posted = new Float64Array(0);

  constructor(
    protected readonly companies: CompanyLookup,
    codes = new JobCodes(),
  ) {
    this.columns = new JobColumns(codes);
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
    const companyName = this.companyNames.get(attrs.companyId) ?? '';
    const company = lexemes(companyName);
    for (const w of wordsOf(attrs.title)) this.spelling.add(w.word, w.lexeme, true);
    for (const w of wordsOf(companyName)) this.spelling.add(w.word, w.lexeme, false);
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
  protected docAt(slot: number): RankDoc {
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
    this.spelling.clear();
    this.byLowerName.clear();
    this.bySlug.clear();
  }
}
