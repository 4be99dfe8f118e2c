import { micros } from '../micros.js';

/**
 * What a company's detail (GET /companies/:id) shows beyond its list item, as stored. Timestamps are float8
 * microseconds (catalog/micros.ts).
 */
export interface CompanyDetailAttrs {
  website: string | null;
  description: string | null;
  foundedYear: number | null;
  employeeCount: number | null;
  headquarters: string | null;
  fundingSummary: string | null;
  totalFundingUsd: number | null;
  socialLinks: Record<string, string>;
  logoUrl: string | null;
  researchSummary: string | null;
  sample: boolean;
  createdAtUs: number;
  updatedAtUs: number;
}

/** CompanyDetailAttrs of companies c, one JSON value (migration 0009 puts every one of them on the feed). */
export const COMPANY_DETAIL = `json_build_object('website', c.website, 'description', c.description,
    'foundedYear', c.founded_year, 'employeeCount', c.employee_count, 'headquarters', c.headquarters,
    'fundingSummary', c.funding_summary, 'totalFundingUsd', c.total_funding_usd::float8,
    'socialLinks', c.social_links, 'logoUrl', c.logo_url, 'researchSummary', c.research_summary,
    'sample', c.is_sample, 'createdAtUs', ${micros('c.created_at')}, 'updatedAtUs', ${micros('c.updated_at')})`;

/** A tag as a company list item shows it. */
export interface TagRef {
  dimension: string;
  value: string;
  slug: string;
}

/**
 * A company as the in-memory replica keeps it, declared once with each field's SQL below: the feed's and bulk
 * reads' columns, the snapshot's fields and the replica's equality follow from the declaration.
 */
export interface CompanyRecord {
  name: string;
  slug: string;
  category: string;
  active: boolean;
  domain: string;
  oneLiner: string;
  /** The column the /companies order reads (kept by the writers). */
  activeJobCount: number;
  /** lower(name) as the database computes it: the /companies tie-break compares it. */
  nameKey: string;
  /** Attached tags as list items show them, in the database's order (lower(value), slug). */
  tagList: TagRef[];
  detail: CompanyDetailAttrs;
}

/** Each field of the record as SQL over companies `c`. */
const COMPANY_RECORD: { readonly [K in keyof CompanyRecord]: string } = {
  name: 'c.name',
  slug: 'c.slug',
  category: 'c.category',
  active: 'c.active',
  domain: 'c.domain',
  oneLiner: 'c.one_liner',
  activeJobCount: 'c.active_job_count',
  nameKey: 'lower(c.name)',
  tagList: `coalesce((SELECT json_agg(json_build_object('dimension', t.dimension, 'value', t.value, 'slug', t.slug)
        ORDER BY lower(t.value), t.slug)
      FROM company_tags ct JOIN tags t ON t.id = ct.tag_id WHERE ct.company_id = c.id), '[]'::json)`,
  detail: COMPANY_DETAIL,
};

/** The record's fields, in declaration order. */
export const COMPANY_RECORD_KEYS = Object.keys(COMPANY_RECORD) as readonly (keyof CompanyRecord)[];

/** A select list over companies `c` of these fields of the record, one column per field, named as the field. */
export const companyColumns = (keys: readonly (keyof CompanyRecord)[]): string =>
  keys.map((k) => `${COMPANY_RECORD[k]} AS "${k}"`).join(',\n    ');

/** The select list of the whole record over companies `c`. */
export const COMPANY_RECORD_COLUMNS = companyColumns(COMPANY_RECORD_KEYS);

/** The record's fields of `from` (a row, a snapshot entry or the replica's attributes), nothing else. */
export function companyRecordOf(from: CompanyRecord): CompanyRecord {
  const out: Record<string, unknown> = {};
  for (const k of COMPANY_RECORD_KEYS) out[k] = from[k];
  return out as unknown as CompanyRecord;
}

/** Whether two records are equal; the tags and the detail are small and compared whole. */
export function sameCompanyRecord(a: CompanyRecord, b: CompanyRecord): boolean {
  for (const k of COMPANY_RECORD_KEYS) {
    const x = a[k];
    const y = b[k];
    if (x !== y && (typeof x !== 'object' || JSON.stringify(x) !== JSON.stringify(y))) return false;
  }
  return true;
}
