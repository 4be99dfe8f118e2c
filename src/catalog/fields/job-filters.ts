import { Type } from 'typebox';
import { CLIENT_FACING_CATEGORIES, type RoleCategory } from '../types.js';
import { type FiltersOf, jobFilter } from './define.js';
import {
  escapeLike,
  optionalText,
  QueryBoolean,
  QueryText,
  RoleCategorySchema,
  slugParam,
} from './params.js';

/**
 * The filters of GET /jobs, each declared once (see define.ts for what a declaration carries). To add a filter,
 * add a declaration to JOB_FILTERS; if it reads a job field the replica does not keep yet, add that field to
 * JOB_RECORD (job-record.ts).
 */

const CLIENT_FACING: readonly string[] = CLIENT_FACING_CATEGORIES;

/** role_category and client_facing: one set of categories (client_facing=true intersects role_category). */
const roleCategories = jobFilter({
  key: 'roleCategories',
  facet: 'role_category',
  params: {
    role_category: Type.Optional(RoleCategorySchema),
    client_facing: QueryBoolean(
      'true: only the seven client-facing categories (intersected with role_category when both are given); ' +
        'false or absent: no category restriction',
    ),
  },
  parse(q): RoleCategory[] | undefined {
    let categories = q.role_category ? [q.role_category as RoleCategory] : undefined;
    if (q.client_facing === true) {
      categories = (categories ?? [...CLIENT_FACING_CATEGORIES]).filter((c) => CLIENT_FACING.includes(c));
    }
    return categories;
  },
  // An empty list matches nothing (role_category=engineering with client_facing=true).
  sql: (v, to) =>
    v.length === 1
      ? `${to.alias}.role_category = ${to.param(v[0])}`
      : `${to.alias}.role_category = ANY(${to.param(v)}::text[])`,
  replica: { mask: (v, m) => m.roles(v) },
  counts: (v, to) => `role_category = ANY(${to.param(v)}::text[])`,
  memoKey: (v) => [...v].sort(),
});

const companySlug = jobFilter({
  key: 'companySlug',
  facet: 'company',
  params: { company: QueryText('Company slug (case-insensitive)', 'anthropic') },
  parse: (q) => slugParam('company', q.company),
  sql: (v, to) => `${to.alias}.company_id = (SELECT fc.id FROM companies fc WHERE fc.slug = ${to.param(v)})`,
  replica: { mask: (v, m) => m.company(v) },
  // No count table by company: the total is counted over the company's rows through jobs_company_idx.
});

/** lower(location) LIKE %x%, which the trigram index jobs_location_trgm_idx serves. */
const location = jobFilter({
  key: 'location',
  facet: 'location',
  params: {
    location: QueryText('Case-insensitive partial match on the location; blank = no filter', 'london'),
  },
  parse: (q) => optionalText(q.location),
  sql: (v, to) => `lower(${to.alias}.location) LIKE ${to.param(`%${escapeLike(v.toLowerCase())}%`)}`,
  replica: { mask: (v, m) => m.locationContains(v.toLowerCase()) },
  counts: (v, to) => `place LIKE ${to.param(`%${escapeLike(v.toLowerCase())}%`)}`,
  placeCounts: true,
  memoKey: (v) => v.toLowerCase(),
});

const remoteOnly = jobFilter({
  key: 'remoteOnly',
  facet: 'remote_only',
  params: { remote_only: QueryBoolean('true: only remote jobs; false or absent: all') },
  parse: (q) => (q.remote_only === true ? true : undefined),
  sql: (_v, to) => `${to.alias}.remote`,
  replica: { mask: (_v, m) => m.remoteOnly() },
  counts: () => 'remote',
});

export const JOB_FILTERS = [roleCategories, companySlug, location, remoteOnly] as const;

/** Filters of GET /jobs, already validated. Search candidates must apply them too (never post-filter). */
export type JobFilters = FiltersOf<typeof JOB_FILTERS>;
