import { Counter, type Histogram, type LabelValues, type Registry } from 'prom-client';

/**
 * Metrics for per-request paths. prom-client hashes and validates the label object on every inc() or observe(),
 * which costs more than the counting itself. A cell binds one label set once and counts in plain numbers; what is
 * exported is read from the cells at scrape time, so it stays exact.
 */

/** One label set of a CellCounter; inc() is a plain addition. */
export class CounterCell<T extends string> {
  pending = 0;
  constructor(readonly labels: LabelValues<T>) {}
  inc(): void {
    this.pending++;
  }
}

/** A prom-client Counter that also counts through cells, added in whenever it is read. inc() works as usual. */
export class CellCounter<T extends string> extends Counter<T> {
  private readonly cells: CounterCell<T>[] = [];

  /** A new cell for these labels; the caller keeps it (one per label set it counts). */
  cell(labels: LabelValues<T>): CounterCell<T> {
    const cell = new CounterCell<T>(labels);
    this.cells.push(cell);
    return cell;
  }

  override async get(): ReturnType<Counter<T>['get']> {
    for (const cell of this.cells) {
      if (cell.pending === 0) continue;
      this.inc(cell.labels, cell.pending);
      cell.pending = 0;
    }
    return super.get();
  }

  override reset(): void {
    // The base constructor calls reset() too, before this class's fields are initialised.
    for (const cell of this.cells ?? []) cell.pending = 0;
    super.reset();
  }
}

/** One label set of a CellHistogram; observe() is a bucket search and three additions. */
export class HistogramCell<T extends string> {
  /** Observations per bucket, not cumulative; the last slot holds those above every bound. */
  readonly counts: number[];
  sum = 0;
  count = 0;

  constructor(
    readonly labels: LabelValues<T>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = bounds.map(() => 0).concat(0);
  }

  observe(value: number): void {
    let i = 0;
    while (i < this.bounds.length && value > (this.bounds[i] as number)) i++;
    this.counts[i] = (this.counts[i] as number) + 1;
    this.sum += value;
    this.count++;
  }

  reset(): void {
    this.counts.fill(0);
    this.sum = 0;
    this.count = 0;
  }
}

export interface CellHistogramConfig<T extends string> {
  name: string;
  help: string;
  labelNames: readonly T[];
  /** Upper bounds, ascending. */
  buckets: readonly number[];
  registers: Registry[];
}

interface Sample {
  metricName: string;
  labels: LabelValues<string>;
  value: number;
}

/**
 * A Prometheus histogram whose only state is its cells. It exports the series prom-client's Histogram exports
 * for the same observations (buckets with `le` first, then +Inf, _sum and _count), through the one method
 * prom-client's registry reads from a metric, get().
 */
export class CellHistogram<T extends string> {
  readonly name: string;
  readonly help: string;
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly bounds: readonly number[];
  private readonly cells: HistogramCell<T>[] = [];

  constructor(config: CellHistogramConfig<T>) {
    this.name = config.name;
    this.help = config.help;
    this.bounds = [...config.buckets];
    // The registry needs name, get() and reset(); its parameter type lists only prom-client's own classes.
    for (const registry of config.registers) registry.registerMetric(this as unknown as Histogram<T>);
  }

  /** A new cell for these labels; the caller keeps it (one per label set it observes). */
  cell(labels: LabelValues<T>): HistogramCell<T> {
    const cell = new HistogramCell<T>(labels, this.bounds);
    this.cells.push(cell);
    return cell;
  }

  async get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: Sample[] }> {
    const values: Sample[] = [];
    for (const cell of this.cells) {
      if (cell.count === 0) continue;
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += cell.counts[i] as number;
        values.push({ metricName: `${this.name}_bucket`, labels: { le, ...cell.labels }, value: cumulative });
      });
      values.push(
        { metricName: `${this.name}_bucket`, labels: { le: '+Inf', ...cell.labels }, value: cell.count },
        { metricName: `${this.name}_sum`, labels: { ...cell.labels }, value: cell.sum },
        { metricName: `${this.name}_count`, labels: { ...cell.labels }, value: cell.count },
      );
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    for (const cell of this.cells) cell.reset();
  }
}
