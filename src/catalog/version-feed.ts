import type { Db } from '../db/port.js';
import { readCatalogVersion } from './version.js';

/**
 * Tells per-process caches when the catalog may have changed. Writes made through this process are seen at once
 * (Db.writeGeneration); writes made by other processes sharing a PostgreSQL server are seen within one poll of
 * catalog_version (CACHE_COHERENCE_MS, default 2 s). The embedded database has one process, so it never polls.
 */
export class CatalogVersionFeed {
  private version = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly pollMs: number,
  ) {}

  async start(): Promise<void> {
    this.version = await readCatalogVersion(this.db);
    if (this.db.kind !== 'postgres' || this.pollMs <= 0) return;
    this.timer = setInterval(() => {
      readCatalogVersion(this.db).then(
        (v) => {
          this.version = v;
        },
        // A failed poll keeps the last version; the request path reports database trouble on its own.
        () => {},
      );
    }, this.pollMs);
    this.timer.unref();
  }

  /** Changes whenever a cached catalog response may be stale. */
  token(): string {
    return `${this.db.writeGeneration}:${this.version}`;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
