/**
 * The k best of the slots offered to it: a binary heap whose root is the worst kept, so a better slot replaces it
 * in log k steps. Both in-memory retrievers keep their top k here (the vector scan and the keyword lists); each
 * gives its own order as `below(scoreA, slotA, scoreB, slotB)`, true when A ranks below B, ties included (the
 * vector index breaks them by id, the keyword lists by recency, then id).
 *
 * Not a sorted array shifted half its length per insertion: postings are visited in slot order, which is load
 * order, oldest first, so among thousands of documents tied on score (every "Solutions Engineer" for "solutions
 * engineer") nearly each is newer than the worst kept and is inserted, and the shifting would take most of a
 * list's time.
 */
export type Below = (scoreA: number, slotA: number, scoreB: number, slotB: number) => boolean;

export class TopSlots {
  private readonly scores: Float64Array;
  private readonly slots: Int32Array;
  private size = 0;

  constructor(
    readonly k: number,
    private readonly below: Below,
  ) {
    this.scores = new Float64Array(Math.max(0, k));
    this.slots = new Int32Array(Math.max(0, k));
  }

  get full(): boolean {
    return this.size === this.k;
  }

  /** The lowest score kept (meaningful when full). */
  get worst(): number {
    return this.scores[0]!;
  }

  /** The slot of the lowest kept (meaningful when full). */
  get worstSlot(): number {
    return this.slots[0]!;
  }

  /** Keeps the slot if it ranks among the best k; false when it does not. */
  offer(score: number, slot: number): boolean {
    if (this.k <= 0) return false;
    if (this.size < this.k) {
      this.up(this.size++, score, slot);
      return true;
    }
    if (!this.below(this.scores[0]!, this.slots[0]!, score, slot)) return false;
    this.down(0, score, slot);
    return true;
  }

  /** [slot, score] best first. */
  ranked(): [number, number][] {
    const out: [number, number][] = [];
    for (let i = 0; i < this.size; i++) out.push([this.slots[i]!, this.scores[i]!]);
    return out.sort(([sa, a], [sb, b]) => (this.below(a, sa, b, sb) ? 1 : this.below(b, sb, a, sa) ? -1 : 0));
  }

  private up(i: number, score: number, slot: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.below(score, slot, this.scores[parent]!, this.slots[parent]!)) break;
      this.scores[i] = this.scores[parent]!;
      this.slots[i] = this.slots[parent]!;
      i = parent;
    }
    this.scores[i] = score;
    this.slots[i] = slot;
  }

  private down(i: number, score: number, slot: number): void {
    const n = this.size;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      const right = child + 1;
      if (
        right < n &&
        this.below(this.scores[right]!, this.slots[right]!, this.scores[child]!, this.slots[child]!)
      ) {
        child = right;
      }
      if (!this.below(this.scores[child]!, this.slots[child]!, score, slot)) break;
      this.scores[i] = this.scores[child]!;
      this.slots[i] = this.slots[child]!;
      i = child;
    }
    this.scores[i] = score;
    this.slots[i] = slot;
  }
}
