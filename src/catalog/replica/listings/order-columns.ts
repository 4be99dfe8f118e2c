import type { JobAttrs } from '../../fields/job-record.js';
import { JOB_FACETS } from '../../sql/facets.js';
import type { JobCodes } from '../job-columns.js';
import type { FacetCodes } from './facet-counts.js';

/**
 * The /jobs order as columns (see JobListing): position i holds the i-th job of the order, its id and attributes
 * for building items, and typed arrays of small integer codes for what the filters select on and what the facets
 * count (one coded column per declared job facet, in JOB_FACETS order).
 */
export class OrderColumns {
  ids: string[];
  attrs: JobAttrs[];
  posted: Float64Array;
  role: Uint8Array;
  remote: Uint8Array;
  company: Int32Array;
  place: Int32Array;
  department: Int32Array;
  currency: Int32Array;
  payYearMax: Float64Array;
  facets: Int32Array[];

  constructor(readonly length: number) {
    this.ids = new Array<string>(length);
    this.attrs = new Array<JobAttrs>(length);
    this.posted = new Float64Array(length);
    this.role = new Uint8Array(length);
    this.remote = new Uint8Array(length);
    this.company = new Int32Array(length);
    this.place = new Int32Array(length);
    this.department = new Int32Array(length);
    this.currency = new Int32Array(length);
    this.payYearMax = new Float64Array(length);
    this.facets = JOB_FACETS.map(() => new Int32Array(length));
  }

  private everyPosition: Int32Array | undefined;

  /** 0 … length − 1, built once per columns (they are not resized: a change builds new ones). */
  every(): Int32Array {
    if (this.everyPosition === undefined) {
      this.everyPosition = new Int32Array(this.length);
      for (let i = 0; i < this.length; i++) this.everyPosition[i] = i;
    }
    return this.everyPosition;
  }

  /** Position k holds this job. */
  put(k: number, id: string, a: JobAttrs, codes: JobCodes, facetCodes: FacetCodes): void {
    this.ids[k] = id;
    this.attrs[k] = a;
    this.posted[k] = a.postedAtUs;
    this.role[k] = codes.role(a.role);
    this.remote[k] = a.remote ? 1 : 0;
    this.company[k] = codes.company(a.companyId);
    this.place[k] = codes.location(a.location);
    this.department[k] = codes.department(a.departmentKey);
    this.currency[k] = codes.currency(a.payCurrency);
    this.payYearMax[k] = a.payYearMax;
    for (const [f, d] of JOB_FACETS.entries()) this.facets[f]![k] = facetCodes.code(f, d.facet.key(a));
  }

  /** Position k holds what position i of `from` holds. */
  copy(k: number, from: OrderColumns, i: number): void {
    this.ids[k] = from.ids[i]!;
    this.attrs[k] = from.attrs[i]!;
    this.posted[k] = from.posted[i]!;
    this.role[k] = from.role[i]!;
    this.remote[k] = from.remote[i]!;
    this.company[k] = from.company[i]!;
    this.place[k] = from.place[i]!;
    this.department[k] = from.department[i]!;
    this.currency[k] = from.currency[i]!;
    this.payYearMax[k] = from.payYearMax[i]!;
    for (let f = 0; f < this.facets.length; f++) this.facets[f]![k] = from.facets[f]![i]!;
  }
}
