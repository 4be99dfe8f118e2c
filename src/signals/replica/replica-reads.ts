import { readCatalogVersion } from '../../catalog/version.js';
import type { Db } from '../../db/port.js';
import type { Range } from '../periods.js';
import type { CompanyRef, CompanyRollup, ScopeRollup, SignalReads } from '../reads.js';
import { SqlSignalReads } from '../sql-reads.js';
import type { Scope } from '../store.js';
import { companyIndex, companyRollup, scopeRollup } from './copy-answers.js';
import { RollupCopy } from './rollup-copy.js';

/**
 * Least time between two loads: a scrape's writes come in bursts, and each load reads every rollup row (about a
 * second of the embedded database's time at the bench catalog's size).
 */
export const SIGNALS_MIN_RELOAD_MS = 10_000;
/** The longest wait between loads, as a multiple of minReloadMs, while writes keep discarding them. */
const MAX_BACKOFF = 16;

export interface ReplicaReadsOptions {
  /** The catalog's validity token (CatalogVersionFeed.token): a copy answers only while it is unchanged. */
  validity: () => string;
  /** Least time between the end of a load and the start of the next (writes in bursts cost one reload). */
  minReloadMs: number;
  onError: (err: unknown) => void;
  /** Told how each load ended: kept (with its time and bytes) or discarded (the catalog moved during it). */
  onLoad?: (outcome: { kept: boolean; ms: number; bytes: number }) => void;
  /** Statement batches of a load give the event loop (and PGlite's one connection) a turn in between. */
  yieldTurn?: () => Promise<void>;
}

/**
 * The hiring series' reads from an in-process copy of the daily rollups (RollupCopy), exact under the response
 * cache's rule: a copy answers only while the catalog's validity token is the one its load began at (every write
 * of the rollups is a catalog write, which moves it). A read that finds it stale goes to SQL, the reference, and
 * starts a reload in the background; so do reads before the first load ends. Without it (READ_MODEL=sql) the
 * service answers the same from SQL.
 */
export class ReplicaSignalReads implements SignalReads {
  private readonly sql: SqlSignalReads;
  private copy: RollupCopy | undefined;
  private loading: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private loadedAt = Number.NEGATIVE_INFINITY;
  /** Multiplies minReloadMs after loads that could not be kept (see load). */
  private backoff = 1;
  private closed = false;
  private checking: { token: string; version: Promise<number> } | undefined;
  /** Reads answered from memory (tests check that the copy, not SQL, answered). */
  answered = 0;

  constructor(
    private readonly db: Db,
    private readonly opts: ReplicaReadsOptions,
  ) {
    this.sql = new SqlSignalReads(db);
  }

  /** The copy when it is current under the validity token as it stands, else undefined. */
  current(): RollupCopy | undefined {
    const s = this.copy;
    return s && s.token === this.opts.validity() ? s : undefined;
  }

  /**
   * The copy when it is current, or undefined (a reload is then under way or scheduled). The token also moves
   * with writes that leave the catalog as it was (every write statement through this process moves it); every
   * write of the rollups bumps catalog_version in its transaction, so a copy read at the version the database still
   * has is current, and answers under the new token without a reload.
   */
  private async fresh(): Promise<RollupCopy | undefined> {
    const s = this.copy;
    if (!s) {
      this.schedule();
      return undefined;
    }
    const token = this.opts.validity();
    if (s.token === token) return s;
    // Reads under one token share a check; a check begun under an older token may predate a write since.
    if (this.checking?.token !== token) {
      const check = { token, version: readCatalogVersion(this.db) };
      this.checking = check;
      check.version
        .finally(() => {
          if (this.checking === check) this.checking = undefined;
        })
        .catch(() => {});
    }
    const version = await this.checking.version.catch(() => undefined);
    if (version === s.version && this.copy === s) {
      s.token = token;
      return s;
    }
    this.schedule();
    return undefined;
  }

  /** Bytes the current copy's arrays hold (0 before the first load). */
  bytes(): number {
    return this.copy?.bytes() ?? 0;
  }

  async company(idOrSlug: string): Promise<CompanyRef | undefined> {
    const s = await this.fresh();
    const i = s && companyIndex(s, idOrSlug);
    if (!s || i === null) return this.sql.company(idOrSlug);
    this.answered++;
    if (i === undefined) return undefined;
    const c = s.companies[i];
    return c && { id: c.id, slug: c.slug, name: c.name };
  }

  async companyRollup(
    idOrSlug: string,
    range: Range,
    categories: readonly string[],
  ): Promise<CompanyRollup | undefined> {
    const s = await this.fresh();
    const i = s && companyIndex(s, idOrSlug);
    if (!s || i === null) return this.sql.companyRollup(idOrSlug, range, categories);
    this.answered++;
    return i === undefined ? undefined : companyRollup(s, i, range, categories);
  }

  async scopeRollup(scope: Scope, range: Range, categories: readonly string[]): Promise<ScopeRollup> {
    const s = await this.fresh();
    if (!s) return this.sql.scopeRollup(scope, range, categories);
    this.answered++;
    return scopeRollup(s, scope, range, categories);
  }

  /** Loads (or reloads, when stale) now and resolves when the copy is current or the load failed. */
  async warm(): Promise<void> {
    if (this.closed) return;
    if (this.loading) await this.loading;
    if (!(await this.fresh())) await this.load();
  }

  close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    return this.loading ?? Promise.resolve();
  }

  private schedule(): void {
    if (this.loading || this.timer || this.closed) return;
    const wait = this.loadedAt + this.opts.minReloadMs * this.backoff - performance.now();
    if (wait <= 0) {
      void this.load();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.load();
    }, wait);
    this.timer.unref();
  }

  private load(): Promise<void> {
    if (this.loading) return this.loading;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const token = this.opts.validity();
    const turn = this.opts.yieldTurn ?? (() => new Promise<void>((resolve) => setImmediate(resolve)));
    const started = performance.now();
    this.loading = RollupCopy.load(this.db, token, turn)
      .then(
        (s) => {
          // A copy read across a catalog write (catalog_version moved) answers nothing: it stays out, and the next
          // read reloads. One read at a version answers once the token is checked against it (fresh).
          const kept = s !== undefined;
          // Writes that keep discarding loads (a scrape under way) space the next ones out: each load reads every
          // rollup row, and one that cannot be kept is only cost.
          this.backoff = kept ? 1 : Math.min(this.backoff * 2, MAX_BACKOFF);
          if (s) this.copy = s;
          else if (this.copy?.token !== this.opts.validity()) this.copy = undefined;
          this.opts.onLoad?.({ kept, ms: Math.round(performance.now() - started), bytes: s?.bytes() ?? 0 });
        },
        (err) => {
          this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF);
          if (!this.closed) this.opts.onError(err);
        },
      )
      .finally(() => {
        this.loadedAt = performance.now();
        this.loading = undefined;
      });
    return this.loading;
  }
}
