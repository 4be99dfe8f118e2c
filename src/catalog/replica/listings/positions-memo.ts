/**
 * Listings remember which positions of their order match a filter, so deeper pages of the same filter, and the
 * same filter asked again, are slices instead of scans. Entries are tagged with the replica's generation they were
 * computed at and are stale once it moves. Least recently used first out, bounded by entries and by the positions
 * held together (4 bytes each), which is what sizes the memory.
 */
export class PositionsMemo {
  private readonly entries = new Map<string, { generation: number; positions: Int32Array }>();
  private held = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxPositions: number,
  ) {}

  /** The positions remembered for `key` at this generation, or undefined. */
  get(key: string, generation: number): Int32Array | undefined {
    const hit = this.entries.get(key);
    if (hit === undefined) return undefined;
    this.forget(key);
    if (hit.generation !== generation) return undefined;
    this.entries.set(key, hit);
    this.held += hit.positions.length;
    return hit.positions;
  }

  /** Remembers the positions; a list larger than the whole bound is not kept (it would push out every other). */
  set(key: string, generation: number, positions: Int32Array): void {
    this.forget(key);
    if (positions.length > this.maxPositions) return;
    this.entries.set(key, { generation, positions });
    this.held += positions.length;
    for (const k of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries && this.held <= this.maxPositions) break;
      this.forget(k);
    }
  }

  clear(): void {
    this.entries.clear();
    this.held = 0;
  }

  /** Positions held (for tests and sizing). */
  get positions(): number {
    return this.held;
  }

  get size(): number {
    return this.entries.size;
  }

  private forget(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.held -= entry.positions.length;
  }
}
