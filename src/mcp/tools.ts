import { Type } from 'typebox';
import { CLIENT_FACING_CATEGORIES, ROLE_CATEGORIES, ROLE_LABELS } from '../catalog/vocabulary.js';
import { webUrlOr } from '../net/web-url.js';
import type { JsonSchema } from './input-schemas.js';

/**
 * The MCP tools: each one an API operation, its access, and how its answer is shown to a model. Lists are
 * compact (ids, titles, URLs) so a page fits a model's context; details come from the get_* tools.
 */

export type Access = 'public' | 'token';

interface Envelope {
  data?: unknown;
  meta?: { total?: number; page?: number; limit?: number };
}

export interface ApiTool {
  kind: 'api';
  name: string;
  title: string;
  description: string;
  access: Access;
  method: 'GET' | 'POST';
  /** The API path, with `{param}` for path parameters. */
  path: string;
  /** Shapes the answer; absent = the envelope's `data` as the API sends it. */
  present?: (body: Envelope) => Record<string, unknown>;
  /** The schema of what `present` returns; absent = derived from the operation's answer. */
  output?: JsonSchema;
  /** Parameters of the operation the tool does not take (say, a chart format a model cannot read). */
  omit?: readonly string[];
  /** Parameters offered to token callers only: an anonymous agent is not shown arguments it cannot use. */
  tokenArgs?: readonly string[];
}

const JobSummary = Type.Object({
  id: Type.String(),
  title: Type.String(),
  company: Type.String(),
  companySlug: Type.String(),
  location: Type.String(),
  remote: Type.Boolean(),
  roleCategory: Type.String(),
  url: Type.String({ description: 'The posting (apply here)' }),
  postedAt: Type.String(),
});

const CompanySummary = Type.Object({
  id: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  domain: Type.String(),
  oneLiner: Type.String(),
  tags: Type.Array(Type.String(), { description: 'dimension:slug' }),
});

const Page = {
  total: Type.Integer({ description: 'Matching rows (a search: the size of its ranked shortlist)' }),
  page: Type.Integer(),
  limit: Type.Integer(),
};

interface JobItem {
  id: string;
  title: string;
  company: { name: string; slug: string };
  location: string;
  remote: boolean;
  roleCategory: string;
  url: string;
  postedAt: string;
}

interface CompanyItem {
  id: string;
  name: string;
  slug: string;
  domain: string;
  oneLiner: string;
  tags: { dimension: string; slug: string }[];
}

const pageOf = (body: Envelope) => ({
  total: body.meta?.total ?? 0,
  page: body.meta?.page ?? 1,
  limit: body.meta?.limit ?? 0,
});

export const jobSummary = (j: JobItem) => ({
  id: j.id,
  title: j.title,
  company: j.company.name,
  companySlug: j.company.slug,
  location: j.location,
  remote: j.remote,
  roleCategory: j.roleCategory,
  // The API refuses any URL but http(s) already; a deployment that does not is refused again here ('' = no link).
  url: webUrlOr(j.url, ''),
  postedAt: j.postedAt,
});

const companySummary = (c: CompanyItem) => ({
  id: c.id,
  name: c.name,
  slug: c.slug,
  domain: c.domain,
  oneLiner: c.oneLiner,
  tags: c.tags.map((t) => `${t.dimension}:${t.slug}`),
});

/** Long descriptions are cut so one detail cannot fill a model's context. */
const MAX_DESCRIPTION = 6_000;

function presentJob(body: Envelope): Record<string, unknown> {
  const job = { ...(body.data as Record<string, unknown>) };
  if (typeof job.description === 'string' && job.description.length > MAX_DESCRIPTION) {
    job.description = `${job.description.slice(0, MAX_DESCRIPTION)}… (cut; the full text is at the posting's url)`;
  }
  return job;
}

export const API_TOOLS: ApiTool[] = [
  {
    kind: 'api',
    name: 'search_jobs',
    title: 'Search jobs',
    description:
      'Active job listings at AI companies, newest first, or ranked by relevance with `search`. Filter by role ' +
      'category (list_role_categories), client_facing=true for the seven client-facing categories, company slug, ' +
      'location, country (ISO code or name), region (europe, emea, north_america, ...), remote_scope (where a remote ' +
      'job is open), workplace (remote, hybrid, onsite) and remote. Returns a page of compact rows; get_job gives one ' +
      'in full.',
    access: 'public',
    method: 'GET',
    path: '/jobs',
    // explain is answered to tokens alone. Delta sync (updated_since, after_id) is for a client keeping a copy of
    // the catalog, which holds a token for its ceilings; to an anonymous agent it is only noise in the schema.
    tokenArgs: ['explain', 'updated_since', 'after_id'],
    present: (body) => ({ ...pageOf(body), jobs: (body.data as JobItem[]).map(jobSummary) }),
    output: Type.Object({ ...Page, jobs: Type.Array(JobSummary) }) as unknown as JsonSchema,
  },
  {
    kind: 'api',
    name: 'get_job',
    title: 'Get a job',
    description:
      'One job listing with its description, department, salary and company (a closed one says active: false).',
    access: 'public',
    method: 'GET',
    path: '/jobs/{id}',
    present: presentJob,
  },
  {
    kind: 'api',
    name: 'search_companies',
    title: 'Search companies',
    description:
      'Companies tracked by the catalog, most active jobs first, or ranked with `search`. Tag filters take slugs ' +
      'from list_tags (OR within a dimension, AND across dimensions).',
    access: 'public',
    method: 'GET',
    path: '/companies',
    present: (body) => ({ ...pageOf(body), companies: (body.data as CompanyItem[]).map(companySummary) }),
    output: Type.Object({ ...Page, companies: Type.Array(CompanySummary) }) as unknown as JsonSchema,
  },
  {
    kind: 'api',
    name: 'get_company',
    title: 'Get a company',
    description: 'One company by slug or id: metadata, tags, active job count and research summary.',
    access: 'public',
    method: 'GET',
    path: '/companies/{id}',
  },
  {
    kind: 'api',
    name: 'list_tags',
    title: 'List tags',
    description:
      'Every company tag by dimension (industry, stage, business_model, ai_role, funding_tier), with slugs.',
    access: 'public',
    method: 'GET',
    path: '/tags',
  },
  {
    kind: 'api',
    name: 'get_stats',
    title: 'Catalog statistics',
    description: 'Active jobs, active companies, and jobs first seen today.',
    access: 'public',
    method: 'GET',
    path: '/stats',
  },
  {
    kind: 'api',
    name: 'hiring_trends',
    title: 'Hiring trends',
    description:
      'Hiring across the catalog per day, week or month: jobs opened, closed and active in total. ' +
      'share=client_facing adds the share of client-facing roles among openings (clientFacingShare); ' +
      'by=role_category adds a series per category (larger). Narrow by role_category or client_facing and by ' +
      'company tags (list_tags). Jobs found when a company or board was added are not counted as openings; ' +
      'periods before tracking began are absent. Range: from/to as YYYY-MM-DD.',
    access: 'public',
    method: 'GET',
    path: '/trends',
    omit: ['format'],
  },
  {
    kind: 'api',
    name: 'newly_hiring',
    title: 'Newly hiring companies',
    description:
      'Companies that started hiring in a role category within the last `days` (default 30): their first opening ' +
      'in it since we track them, with the jobs that did it. Give role_category or client_facing=true.',
    access: 'public',
    method: 'GET',
    path: '/signals/newly-hiring',
  },
  {
    kind: 'api',
    name: 'get_dossier',
    title: 'Get a research dossier',
    description: "The latest deep-research dossier of a tracked company, by domain (e.g. 'anthropic.com').",
    access: 'token',
    method: 'GET',
    path: '/deep-research/{domain}',
  },
  {
    kind: 'api',
    name: 'onboard_company',
    title: 'Onboard a company',
    description:
      'Starts the durable onboarding of a company by domain (enrichment, job-board discovery, first scrape). ' +
      'Returns a workflowId to follow with workflow_status.',
    access: 'token',
    method: 'POST',
    path: '/onboard',
  },
  {
    kind: 'api',
    name: 'workflow_status',
    title: 'Workflow status',
    description: 'The status and steps of a pipeline run started by onboard_company.',
    access: 'token',
    method: 'GET',
    path: '/workflows/{workflowId}',
  },
];

/** The role categories an agent passes as `role_category`, so it resolves slugs instead of guessing them. */
export function roleCategories(): { slug: string; label: string; clientFacing: boolean }[] {
  return ROLE_CATEGORIES.map((slug) => ({
    slug,
    label: ROLE_LABELS[slug],
    clientFacing: (CLIENT_FACING_CATEGORIES as readonly string[]).includes(slug),
  }));
}

export const RoleCategoriesOutput = Type.Object({
  categories: Type.Array(
    Type.Object({ slug: Type.String(), label: Type.String(), clientFacing: Type.Boolean() }),
  ),
}) as unknown as JsonSchema;
