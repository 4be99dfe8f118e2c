/**
 * The documents holding one lexeme, as parallel typed arrays: slot, the slot's generation when the entry was
 * added, and the code of the lexeme's ts_rank contribution there (~12 bytes an entry, a fraction of what a
 * Map<slot, code> cost). Removing a document only bumps its slot's generation; readers skip
 * entries of an older generation, and a list mostly made of such entries is compacted.
 */
export class PostingList {
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

type Column = Uint32Array | Uint16Array | Int32Array | Float64Array;

/** A copy of `column` with `size` entries (zero-filled past the old ones). */
export function resized<T extends Column>(column: T, size: number): T {
  const out = new (column.constructor as new (n: number) => T)(size);
  out.set(column.subarray(0, Math.min(column.length, size)) as never);
  return out;
}
