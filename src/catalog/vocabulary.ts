/** Vocabulary of the catalog (docs/catalog.md): role and company categories, tag dimensions. */

export const CLIENT_FACING_CATEGORIES = [
  'fde',
  'solutions_engineer',
  'csm',
  'tam',
  'sales_engineer',
  'implementation',
  'professional_services',
] as const;

export const BROAD_CATEGORIES = [
  'engineering',
  'product',
  'design',
  'marketing',
  'data',
  'operations',
  'sales',
  'finance',
  'hr',
  'legal',
  'other',
] as const;

export const ROLE_CATEGORIES = [...CLIENT_FACING_CATEGORIES, ...BROAD_CATEGORIES] as const;
export type RoleCategory = (typeof ROLE_CATEGORIES)[number];

/** Each role category's name for people: pages, feed entries and the MCP tools' category list. */
export const ROLE_LABELS: Record<RoleCategory, string> = {
  fde: 'Forward deployed engineer',
  solutions_engineer: 'Solutions engineer',
  csm: 'Customer success manager',
  tam: 'Technical account manager',
  sales_engineer: 'Sales engineer',
  implementation: 'Implementation',
  professional_services: 'Professional services',
  engineering: 'Engineering',
  product: 'Product',
  design: 'Design',
  marketing: 'Marketing',
  data: 'Data',
  operations: 'Operations',
  sales: 'Sales',
  finance: 'Finance',
  hr: 'People / HR',
  legal: 'Legal',
  other: 'Other',
};

export const COMPANY_CATEGORIES = ['enterprise_ai', 'public_saas', 'ai_native', 'other'] as const;
export type CompanyCategory = (typeof COMPANY_CATEGORIES)[number];

export const TAG_DIMENSIONS = ['industry', 'stage', 'business_model', 'ai_role', 'funding_tier'] as const;
export type TagDimension = (typeof TAG_DIMENSIONS)[number];
