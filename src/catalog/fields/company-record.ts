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
