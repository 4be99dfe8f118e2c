/**
 * A start's phases as consecutive spans of one clock that begins with the process (performance.now()'s origin):
 * each mark records the ms since the previous one (the first: since the process started). Spans are differences of
 * rounded instants, so they add up to `total` exactly, with no time between phases left out.
 */
export class PhaseClock {
  readonly ms: Record<string, number> = {};
  private last = 0;

  mark(phase: string): void {
    const now = Math.round(performance.now());
    this.ms[phase] = now - this.last;
    this.last = now;
  }

  /** ms from the process's start to the last mark. */
  get total(): number {
    return this.last;
  }
}
