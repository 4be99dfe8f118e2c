import type { CatalogReplica } from '../catalog/replica/catalog-replica.js';
import type { Db } from '../db/port.js';
import type { SearchGate } from './admission.js';
import type { Embedder } from './embedders/types.js';
import { HybridSearch } from './hybrid.js';
import { EmbeddingIndexer } from './indexer.js';
import { SqlSearch } from './sql/sql-search.js';
import type { SearchService } from './types.js';

/**
 * Builds the search side over the embedder and, for search in memory, the catalog replica its caller made (the
 * composition root, src/deps.ts): the hybrid service (in memory over the replica, or ranked in the database,
 * sql/sql-search.ts), the embedding writer and the background catch-up that keeps every active row embedded with
 * the current model.
 */

export interface SearchLogger {
  warn(obj: object, msg: string): void;
}

export interface SearchParts<R extends CatalogReplica | undefined = CatalogReplica | undefined> {
  embedder: Embedder;
  /** The in-process replica search ranks from; undefined when search is ranked in the database. */
  replica: R;
  search: R extends CatalogReplica ? HybridSearch : SearchService;
  indexer: EmbeddingIndexer;
  /** Starts the background catch-up (workers and the all-in-one role; not API-only processes). */
  startCatchUp(intervalMs?: number): void;
  /**
   * Loads the catalog replica (search ranked in the database: its vocabulary), then the embedder's local data, in
   * the background (API processes, once listening), so the first search does not pay for them. Searches before it
   * finishes wait for the same load.
   * Resolves when both are done or have failed (failures are logged, and the next search tries again).
   */
  warm(): Promise<void>;
  /**
   * Whether searches rank the semantic lists: always in memory; in the database where it offers pgvector (without
   * it, keyword lists only: docs/deployment.md#which-search-mode).
   */
  semantic(): Promise<boolean>;
  /** Resolves when the catch-up in flight, if any, has finished (tests and the sample loader await it). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export interface SearchPartsOptions {
  /** Where the embedding writer writes and reads its own writes. */
  db: Db;
  /** Where searches read the catalog (a read replica's, DATABASE_READ_URL); db when unset. */
  readDb?: Db;
  now: () => number;
  embedder: Embedder;
  /** The replica search ranks from, built for `embedder`'s model; its owner closes it. None: SQL ranks. */
  replica: CatalogReplica | undefined;
  logger?: SearchLogger;
  /** The admission gate each ranking passes (HybridSearchOptions.admit); none: rankings run at once. */
  gate?: SearchGate;
}

/** Full catch-up period in ms: rows written without embedIds (another process, a failed call) get embedded. */
export const CATCH_UP_INTERVAL_MS = 60_000;

export function createSearchParts(
  opts: SearchPartsOptions & { replica: CatalogReplica },
): SearchParts<CatalogReplica>;
export function createSearchParts(opts: SearchPartsOptions): SearchParts;
export function createSearchParts(opts: SearchPartsOptions): SearchParts {
  const { embedder, replica } = opts;
  const indexer = new EmbeddingIndexer(opts.db, embedder, opts.now);
  const warn = (err: unknown, msg: string) => opts.logger?.warn({ err }, msg);
  let running = false;
  let pending: Promise<unknown> = Promise.resolve();
  // One chain: catch-up passes never overlap each other (or hammer the single PGlite connection twice).
  const enqueue = (task: () => Promise<unknown>) => {
    pending = pending
      .then(task)
      .catch((err: unknown) => warn(err, 'embedding catch-up failed; retried later'));
    return pending;
  };
  const common = {
    db: opts.readDb ?? opts.db,
    embedder,
    onSemanticError: (err: unknown) =>
      warn(err, 'query embedding failed; answering from keyword search only'),
    ...(opts.gate ? { admit: opts.gate.run.bind(opts.gate) } : {}),
  };
  const search = replica
    ? new HybridSearch({ ...common, index: replica })
    : new SqlSearch({ ...common, now: opts.now, schemaDb: opts.db });
  const load = () => (search instanceof SqlSearch ? search.warm() : replica!.refresh());
  let timer: NodeJS.Timeout | undefined;
  return {
    embedder,
    replica,
    search,
    indexer,
    startCatchUp(intervalMs = CATCH_UP_INTERVAL_MS) {
      if (running) return;
      running = true;
      // A full pass on first start or after a model change, otherwise the rows changed since the recorded mark;
      // then only rows changed since.
      void enqueue(() => indexer.resume());
      timer = setInterval(() => void enqueue(() => indexer.catchUpChanges()), intervalMs);
      timer.unref();
    },
    warm() {
      return (
        load()
          .catch((err: unknown) => warn(err, 'search data load failed; retried by the next search'))
          // Then the word vectors (~0.3 s; built once per data directory first), which the first search would
          // otherwise wait for.
          .then(() => embedder.prepare?.())
          .catch((err: unknown) =>
            warn(err, 'embedder could not load; searches answer from keywords until it can'),
          )
      );
    },
    semantic: async () => (search instanceof SqlSearch ? search.semantic() : true),
    idle: async () => {
      await pending;
    },
    stop: async () => {
      running = false;
      if (timer) clearInterval(timer);
      await pending;
    },
  };
}
