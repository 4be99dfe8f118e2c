/** Types of the catalog's read side: filters (declared in fields/), list items and details; the vocabulary re-exported. */
import type { JobPlaces } from '../sources/normalize/job-places.js';
import type { PostingLocation } from '../sources/normalize/locations.js';
import type { SalaryRange } from '../sources/normalize/salary.js';
import type { Workplace } from '../sources/normalize/workplace.js';

import {
  CLIENT_FACING_CATEGORIES,
  type CompanyCategory,
  type RoleCategory,
  type TagDimension,
} from './vocabulary.js';

export type { CompanyFilters } from './fields/company-filters.js';
export type { JobFilters } from './fields/job-filters.js';
export * from './vocabulary.js';

/** Canonical textual UUID (any version), as the ids of jobs and companies are written. */
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isClientFacing = (category: RoleCategory): boolean =>
  (CLIENT_FACING_CATEGORIES as readonly string[]).includes(category);

/** A tag as attached to a company (`{ dimension, value, slug }`). */
export interface CompanyTag {
  dimension: TagDimension;
  value: string;
  slug: string;
}

export type { PostingLocation, SalaryRange };

/** GET /jobs item: exactly the documented fields (docs/catalog.md). */
export interface JobListItem {
  id: string;
  title: string;
  company: { name: string; slug: string };
  location: string;
  remote: boolean;
  roleCategory: RoleCategory;
  url: string;
  /** ISO 8601 UTC. */
  postedAt: string;
  /** Delta sync (updated_since) only: false for a closed job. */
  active?: boolean;
  /** Delta sync only: when the item last changed (ISO 8601 UTC, milliseconds); the paging cursor. */
  updatedAt?: string;
  /** Search only: [start, end) character ranges of the matched words in the title and the company name. */
  highlight?: { title: [number, number][]; company: [number, number][] };
  /** Search with explain: the fused score and what each ranked list (and boost) contributed to it. */
  explain?: { score: number; lists: Record<string, number> };
}

/** GET /jobs/:id: the list fields plus the full posting and the company's details. */
export interface JobDetail extends Omit<JobListItem, 'company'> {
  description: string;
  department: string | null;
  /** Remote, hybrid, on-site or not stated: the vendor's field first, else the location text. */
  workplace: Workplace;
  /** Pay range: the vendor's structured range, else one stated in the description; null when neither. */
  salary: SalaryRange | null;
  /** The places of `location`, parsed (city / region / country where recognised, remote scope). */
  locations: PostingLocation[];
  /** The countries, regions and remote scopes derived from the locations, as the place filters match them. */
  places: JobPlaces;
  /** Where the posting came from (a job-board vendor, or `sample`). */
  source: string;
  firstSeenAt: string;
  lastSeenAt: string;
  /** The board's own publication date; null when the vendor gives none (postedAt is then firstSeenAt). */
  boardPostedAt: string | null;
  /** The board's own date of the posting's last edit; null when the vendor gives none. */
  boardUpdatedAt: string | null;
  /** Whole days from postedAt to lastSeenAt: how long the opening has been (or was) listed. */
  openDays: number;
  /** How many times the opening was closed and posted again under a new id. */
  reposts: number;
  /** The closed posting this one reposts (its job id), or null. */
  repostOf: string | null;
  active: boolean;
  sample: boolean;
  /** The role category and the classification rule that decided it (null for rows written before rules were kept). */
  classification: { category: RoleCategory; rule: string | null };
  company: {
    id: string;
    name: string;
    slug: string;
    domain: string;
    oneLiner: string;
    website: string | null;
  };
}

/** GET /companies item: exactly the documented fields (docs/catalog.md). */
export interface CompanyListItem {
  id: string;
  name: string;
  slug: string;
  domain: string;
  oneLiner: string;
  tags: CompanyTag[];
}

/** GET /companies/:id: the list fields, activeJobCount and the full metadata (docs/catalog.md lists it). */
export interface CompanyDetail extends CompanyListItem {
  activeJobCount: number;
  website: string | null;
  category: CompanyCategory;
  description: string | null;
  foundedYear: number | null;
  employeeCount: number | null;
  headquarters: string | null;
  funding: { summary: string | null; totalUsd: number | null };
  socialLinks: Record<string, string>;
  logoUrl: string | null;
  /** Summary of the stored research dossier; null until deep research has run. */
  researchSummary: string | null;
  active: boolean;
  sample: boolean;
  createdAt: string;
  updatedAt: string;
}

export type TagListing = Record<TagDimension, { value: string; slug: string }[]>;

export interface CatalogStats {
  totalJobs: number;
  totalCompanies: number;
  newToday: number;
}
