import { ActiveLocations } from '../../catalog/active-locations.js';
import { readCatalogVersion } from '../../catalog/version.js';
import type { Queryable } from '../../db/port.js';
import { JOB_MATCH_WINDOW } from '../keyword.js';
import { type AllWordsQuery, wordsOf } from '../keyword-index/lexemes.js';
import { type Correction, Spelling } from '../query/spelling.js';
import { NameMatcher } from '../query/trigram.js';
import { TitleCounts } from './title-counts.js';

/**
 * What search ranked in the database keeps in the process: the words of active job titles and company names
 * (for typo tolerance, query/spelling.ts, with how many jobs hold each lexeme), the distinct titles with their
 * jobs (how many jobs a list matches, for its plan: title-counts.ts), the active companies' names and the
 * distinct job locations (for the companies and places a query names). Both grow with the catalog's vocabulary and places, not with its jobs: they are read
 * from the trigger-maintained counts of active jobs per title and company name (job_text_counts, migration 0176)
 * and per location (job_place_counts): one row per distinct text, none per job. Read again when the catalog has changed and `refreshMs` has passed since
 * the last check (in the background: searches meanwhile use the words already held).
 */
/** Texts (distinct titles and company names) up to which the words are read again at every catalog change. */
const EXACT_ROWS = 20_000;
/**
 * An all-words list may walk the newest jobs only when at least one active job in this many holds its words in
 * the title (`dense`): the walk then meets its window of matches within about this many times the window's
 * entries of an index-only scan, where fetching every match through the full-text index reads a heap page per
 * match (measured at 1,000,000 jobs, whose rows the buffer cache does not hold).
 */
const DENSE_SHARE = 64;
/**
 * What the full-text plan costs per match (reading its row, ranking and sorting it) in index entries the walk
 * tests: ~6.5 µs against ~0.43 µs at 100,000 jobs held in memory (EXPLAIN ANALYZE). With
 * m matches of A active jobs, the walk tests min(A, JOB_MATCH_WINDOW·A/m) entries and the plan reads m rows, so
 * the walk wins past m = min(A/ROW_COST, √(JOB_MATCH_WINDOW·A/ROW_COST)): 1 job in 28 at 100,000 jobs, where
 * the walk from 1 in 64 on took 2-5 times the plan's time for lists of 1,600-3,300 matches; at 1,000,000 jobs
 * DENSE_SHARE is the larger bound.
 */
const ROW_COST = 16;

export class SqlVocabulary {
  private spelling = new Spelling();
  private frequencies = new Map<string, number>();
  private sorted: string[] = [];
  private titles = new TitleCounts();
  /** The distinct locations of active jobs. */
  places = new ActiveLocations();
  /**
   * The active companies' names, for the names a job search is word-similar to (pg_trgm's word_similarity,
   * computed as query/trigram.ts does): in the database no index answers that direction of the comparison, and
   * it scanned every company on each search (179 ms at 20,000 companies under load).
   */
  names = new NameMatcher();
  private version: number | undefined;
  private rows = 0;
  private loadedAt = Number.NEGATIVE_INFINITY;
  private loading: Promise<void> | undefined;

  constructor(
    private readonly db: Queryable,
    private readonly now: () => number,
    private readonly refreshMs = 60_000,
  ) {}

  /**
   * Resolves when the words may be used: read at least once, and read again after any catalog change while
   * they come from at most EXACT_ROWS texts (a re-read then costs little); from more, a change starts a re-read
   * in the background at most once per `refreshMs`, and searches meanwhile use the words already held.
   */
  async ready(): Promise<void> {
    const version = await readCatalogVersion(this.db);
    if (version === this.version) return;
    if (this.version === undefined || this.rows <= EXACT_ROWS) return this.reload(version);
    if (this.loading === undefined && this.now() - this.loadedAt >= this.refreshMs)
      this.reload(version).catch(() => undefined);
  }

  /** Jobs whose title or company name holds the lexeme. */
  frequency = (lexeme: string): number => this.frequencies.get(lexeme) ?? 0;

  /**
   * The query with misspelled words corrected (as KeywordIndex.corrected does over the in-memory index), and the
   * corrections; words `keep` accepts (place names) stay as typed. The last word counts as known when some
   * lexeme starts with it.
   */
  corrected(q: string, keep?: (word: string) => boolean): { text: string; corrections: Correction[] } {
    const words = wordsOf(q);
    const typing = /[\p{L}\p{N}]$/u.test(q);
    const fixes = words.flatMap((w, i) => {
      const own =
        typing && i === words.length - 1 ? this.prefixFrequency(w.lexeme) : this.frequency(w.lexeme);
      const c = this.spelling.correct(w.word, w.lexeme, own, this.frequency);
      return c && !keep?.(w.word) ? [{ c, w }] : [];
    });
    // Replaced from the last word back, so the earlier words' offsets still hold.
    let text = q;
    for (let i = fixes.length - 1; i >= 0; i--) {
      const { c, w } = fixes[i]!;
      text = text.slice(0, w.start) + c.to + text.slice(w.end);
    }
    return { text, corrections: fixes.map((f) => f.c) };
  }

  /**
   * Whether the all-words query's matches are many: then its list walks the newest jobs instead of leaving the
   * plan to PostgreSQL's estimate, which multiplies the words' frequencies (title-counts.ts). Many is DENSE_SHARE,
   * and for a walk of the whole catalog's newest jobs (`whole`: job-lists.ts, walksNewest) at least the even cost
   * of ROW_COST. A filter's index walked in date order (one role, one department, a place, a company) holds few
   * of the catalog's entries, so its walk stays cheaper than the plan well below that (at 100,000 jobs, 3-16 ms
   * walked against 26-62 ms planned for 1,600-3,300 matches in the whole catalog).
   */
  dense = (q: AllWordsQuery, whole: boolean): boolean => {
    const { active, even } = this.shares();
    const floor = whole ? Math.max(active / DENSE_SHARE, even) : active / DENSE_SHARE;
    return active > 0 && this.titles.matches(q, this.completions) >= floor;
  };

  /**
   * Whether the jobs holding any of the lexemes in their title or company name are few (the sum of each lexeme's
   * jobs, at least their number): fetching and sorting every match then costs less than a walk, which PostgreSQL
   * takes when it overestimates rare words.
   */
  sparse = (lexemes: readonly string[]): boolean => {
    const { active, even } = this.shares();
    const most = lexemes.reduce((sum, l) => sum + this.frequency(l), 0);
    return active > 0 && most < Math.min(active / DENSE_SHARE, even);
  };

  /**
   * The active jobs counted in titles, and the matches past which a walk costs less than the plan: the walk tests
   * min(A, JOB_MATCH_WINDOW·A/m) index entries, the plan reads m rows at ROW_COST entries each.
   */
  private shares(): { active: number; even: number } {
    const active = this.titles.active;
    return { active, even: Math.min(active / ROW_COST, Math.sqrt((JOB_MATCH_WINDOW * active) / ROW_COST)) };
  }

  /** The lexemes of active titles and company names that start with `prefix`, in order. */
  completions = (prefix: string): string[] => {
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.sorted[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < this.sorted.length && this.sorted[i]!.startsWith(prefix); i++)
      out.push(this.sorted[i]!);
    return out;
  };

  private prefixFrequency(prefix: string): number {
    return this.completions(prefix).reduce((sum, l) => sum + this.frequency(l), 0);
  }

  /** One read at a time: a caller during a read waits for it. */
  private reload(version: number): Promise<void> {
    this.loading ??= this.read(version).finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async read(version: number): Promise<void> {
    const [texts, places, companies] = await Promise.all([
      this.db.query<{ text: string; n: number; title: boolean }>(
        'SELECT text, n, title FROM job_text_counts WHERE n > 0',
      ),
      this.db.query<{ place: string }>('SELECT DISTINCT place FROM job_place_counts WHERE n > 0'),
      this.db.query<{ id: string; name: string }>('SELECT id, name FROM companies WHERE active'),
    ]);
    const spelling = new Spelling();
    const frequencies = new Map<string, number>();
    const titles = new TitleCounts();
    for (const { text, n, title } of texts) {
      const seen = new Set<string>();
      for (const w of wordsOf(text)) {
        spelling.add(w.word, w.lexeme, title);
        if (w.lexeme === '' || seen.has(w.lexeme)) continue;
        seen.add(w.lexeme);
        frequencies.set(w.lexeme, (frequencies.get(w.lexeme) ?? 0) + n);
      }
      if (title) titles.add(seen, n);
    }
    this.spelling = spelling;
    this.frequencies = frequencies;
    this.titles = titles;
    this.sorted = [...frequencies.keys()].sort();
    const names = new NameMatcher();
    for (const c of companies) names.set(c.id, c.name);
    this.names = names;
    this.places = new ActiveLocations();
    for (const p of places) this.places.add(p.place);
    this.version = version;
    this.rows = texts.length;
    this.loadedAt = this.now();
  }
}
