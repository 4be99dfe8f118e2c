import type { CatalogReplica } from './catalog-replica.js';

/**
 * When the in-process replica (src/catalog/replica/catalog-replica.ts) may answer a catalog read. It may once it has loaded
 * and is not reloading, and only after catching up with the change feed whenever the validity token moved (a
 * write committed through this process, or a new catalog_version polled from a shared server): the same rule
 * that keeps the response cache exact. The listings share one gate, so a write costs one catch-up, not one each.
 */
export class ReplicaGate {
  private freshAt: string | undefined;

  constructor(
    readonly index: CatalogReplica,
    private readonly validity: () => string,
  ) {}

  /** True when the replica is current and complete; false when the caller must read the database instead. */
  async open(): Promise<boolean> {
    if (!this.index.ready || this.index.loading) return false;
    const token = this.validity();
    if (token !== this.freshAt) {
      await this.index.refresh();
      // Read before the refresh: a write committed during it moves the token again and is read next time.
      this.freshAt = token;
    }
    return this.index.ready && !this.index.loading;
  }

  /** Waits for the load in flight (after a start); false if it failed (searchParts.warm reports that). */
  async loaded(): Promise<boolean> {
    try {
      await this.index.refresh();
      return await this.open();
    } catch {
      return false;
    }
  }
}
