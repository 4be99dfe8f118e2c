import { CatalogIndex } from '../catalog/replica/catalog-index.js';
import type { Config } from '../config.js';
import type { Db } from '../db/port.js';
import type { SearchGate } from './admission.js';
import { createEmbedder, type EmbedderConfig } from './embedders/index.js';
import type { Embedder } from './embedders/types.js';
import { HybridSearch } from './hybrid.js';
import { EmbeddingIndexer } from './indexer.js';

/**
 * Builds the search side: embedder, in-process vector index, hybrid service, embedding writer and the
 * background catch-up that keeps every active row embedded with the current model.
 */

export interface SearchLogger {
  warn(obj: object, msg: string): void;
}

export interface SearchParts {
  embedder: Embedder;
  index: CatalogIndex;
  search: HybridSearch;
  indexer: EmbeddingIndexer;
  /** Starts the background catch-up (workers and the all-in-one role; not API-only processes). */
  startCatchUp(intervalMs?: number): void;
  /**
   * Loads the in-process index, then the embedder's local data, in the background (API processes, once
   * listening), so the first search does not pay for them. Searches before it finishes wait for the same load.
   * Resolves when both are done or have failed (failures are logged, and the next search tries again).
   */
  warm(): Promise<void>;
  /** Resolves when the catch-up in flight, if any, has finished (tests and the sample loader await it). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export interface SearchPartsOptions {
  db: Db;
  config: EmbedderConfig & Partial<Pick<Config, 'searchScanThreadRows'>>;
  now: () => number;
  embedder?: Embedder;
  logger?: SearchLogger;
  /** Where the index snapshot lives; only for a database this process owns (the embedded one). */
  snapshotPath?: string;
  /** The admission gate each ranking passes (HybridSearchOptions.admit); none: rankings run at once. */
  gate?: SearchGate;
}

/** Full catch-up period in ms: rows written without embedIds (another process, a failed call) get embedded. */
export const CATCH_UP_INTERVAL_MS = 60_000;

export function createSearchParts(opts: SearchPartsOptions): SearchParts {
  const embedder = opts.embedder ?? createEmbedder(opts.config);
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
  const index = new CatalogIndex(opts.db, {
    model: embedder.id,
    now: opts.now,
    ...(opts.snapshotPath ? { snapshotPath: opts.snapshotPath } : {}),
    scanThreadRows: opts.config.searchScanThreadRows ?? 0,
    onError: warn,
  });
  const search = new HybridSearch({
    db: opts.db,
    index,
    embedder,
    onSemanticError: (err) => warn(err, 'query embedding failed; answering from keyword search only'),
    ...(opts.gate ? { admit: opts.gate.run.bind(opts.gate) } : {}),
  });
  let timer: NodeJS.Timeout | undefined;
  return {
    embedder,
    index,
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
        index
          .refresh()
          .catch((err: unknown) => warn(err, 'search index load failed; retried by the next search'))
          // Then the word vectors (~0.3 s; built once per data directory first), which the first search would
          // otherwise wait for.
          .then(() => embedder.prepare?.())
          .catch((err: unknown) =>
            warn(err, 'embedder could not load; searches answer from keywords until it can'),
          )
      );
    },
    idle: async () => {
      await pending;
    },
    stop: async () => {
      running = false;
      if (timer) clearInterval(timer);
      await pending;
      // The next start reads this instead of bulk-loading every vector from the database.
      index.close();
    },
  };
}
