import type { JobAttrs } from '../../fields/job-record.js';
import { JOB_FACETS } from '../../sql/facets.js';
import { CodedRows, columnOf, type JobCodes } from '../job-columns.js';
import type { FacetCodes } from './facet-counts.js';

const POSTED = columnOf('posted');
const COMPANY = columnOf('company');

/**
 * The /jobs order as columns (see JobListing): position i holds the i-th job of the order, its id, its coded
 * columns (CodedRows: what the filters select on, attributes for building items) and one coded column per
 * declared job facet, in JOB_FACETS order, for what the facets count.
 */
export class OrderColumns {
  readonly ids: string[];
  readonly rows: CodedRows;
  readonly facets: Int32Array[];
  /** posted_at by position (µs): the order's key. */
  readonly posted: Float64Array;
  /** Company codes by position. */
  readonly company: Int32Array;

  constructor(readonly length: number) {
    this.ids = new Array<string>(length);
    this.rows = new CodedRows(length);
    this.facets = JOB_FACETS.map(() => new Int32Array(length));
    this.posted = this.rows.values[POSTED]!;
    this.company = this.rows.keys[COMPANY]!;
  }

  get attrs(): JobAttrs[] {
    return this.rows.attrs;
  }

  /** Position k holds this job. */
  put(k: number, id: string, a: JobAttrs, codes: JobCodes, facetCodes: FacetCodes): void {
    this.ids[k] = id;
    this.rows.put(k, a, codes);
    for (const [f, d] of JOB_FACETS.entries()) this.facets[f]![k] = facetCodes.code(f, d.facet.key(a));
  }

  /** Position k holds what position i of `from` holds. */
  copy(k: number, from: OrderColumns, i: number): void {
    this.ids[k] = from.ids[i]!;
    this.rows.copy(k, from.rows, i);
    for (let f = 0; f < this.facets.length; f++) this.facets[f]![k] = from.facets[f]![i]!;
  }
}
