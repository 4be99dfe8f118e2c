import { slugify } from '../../src/catalog/tags.js';
import type { CompanyCategory, RoleCategory, TagDimension } from '../../src/catalog/types.js';
import { TAG_DIMENSIONS } from '../../src/catalog/types.js';
import { Rng } from './prng.js';
import {
  AUDIENCES,
  BENEFITS,
  CATEGORY_WEIGHTS,
  CITIES,
  cityWeight,
  DEPARTMENTS,
  NAME_HEADS,
  NAME_TAILS,
  PRODUCTS,
  REMOTE_LOCATIONS,
  REQUIREMENTS,
  RESPONSIBILITIES,
  SENIORITY,
  SOURCES,
  SYLLABLES,
  TAG_VALUES,
  TEAMS,
  TITLES,
  TLDS,
} from './vocabulary.js';

/**
 * The synthetic catalog as plain rows, derived only from (seed, sizes, day): companies and their tags up front,
 * jobs in batches so 100k descriptions never sit in memory at once. Separate PRNG streams keep companies, jobs
 * and URL sets independent, so changing one never reshuffles the others.
 */

export interface CatalogSize {
  seed: number;
  jobs: number;
  companies: number;
  /** Closed (inactive) postings added on top of the active ones, as a fraction of them. */
  inactiveRatio: number;
}

export interface SynthCompany {
  id: string;
  name: string;
  slug: string;
  domain: string;
  oneLiner: string;
  description: string;
  category: CompanyCategory;
  foundedYear: number;
  employeeCount: number;
  headquarters: string;
  fundingSummary: string;
  totalFundingUsd: number;
  socialLinks: string;
  source: (typeof SOURCES)[number];
  tags: { dimension: TagDimension; value: string }[];
  activeJobCount: number;
}

export interface SynthJob {
  id: string;
  companyIndex: number;
  source: string;
  externalId: string;
  title: string;
  location: string;
  remote: boolean;
  department: string;
  roleCategory: RoleCategory;
  url: string;
  description: string;
  salary: string | null;
  postedAt: Date;
  firstSeenAt: Date;
  lastSeenAt: Date;
  active: boolean;
}

const DAY_MS = 86_400_000;
const POSTING_SPREAD_DAYS = 120;
/** Share of active jobs first seen today, so /stats newToday is a real, non-empty count. */
const NEW_TODAY_SHARE = 0.015;

const CATEGORY_MIX: readonly (readonly [CompanyCategory, number])[] = [
  ['ai_native', 45],
  ['enterprise_ai', 20],
  ['public_saas', 15],
  ['other', 20],
];

/** How many tags of each dimension a company carries: [min, max]. */
const TAGS_PER_COMPANY: Record<TagDimension, readonly [number, number]> = {
  industry: [1, 3],
  stage: [1, 1],
  business_model: [1, 2],
  ai_role: [1, 2],
  funding_tier: [1, 1],
};

const longTail = <T>(values: readonly T[]): (readonly [T, number])[] =>
  values.map((v, i) => [v, 1 / (i + 3)]);

function companyName(rng: Rng): string {
  const word = (): string => {
    const n = rng.range(2, 3);
    let s = '';
    for (let i = 0; i < n; i++) s += rng.pick(SYLLABLES);
    return s.charAt(0).toUpperCase() + s.slice(1);
  };
  const shape = rng.float();
  if (shape < 0.55) return `${rng.pick(NAME_HEADS)} ${rng.pick(NAME_TAILS)}`;
  if (shape < 0.8) return word();
  if (shape < 0.92) return `${word()} ${rng.pick(NAME_TAILS)}`;
  return `${rng.pick(NAME_HEADS)}${rng.pick(NAME_TAILS).toLowerCase()}`;
}

/** Companies with unique names, slugs and domains, and each one's number of active jobs. */
export function buildCompanies(size: CatalogSize): SynthCompany[] {
  const rng = new Rng(size.seed, 1);
  const slugs = new Set<string>();
  const domains = new Set<string>();
  const companies: SynthCompany[] = [];
  for (let i = 0; i < size.companies; i++) {
    let name = companyName(rng);
    for (let attempt = 0; slugs.has(slugify(name)); attempt++) {
      name = attempt < 20 ? companyName(rng) : `${companyName(rng)} ${rng.range(2, 99)}`;
    }
    const slug = slugify(name);
    slugs.add(slug);
    let domain = `${slug.replace(/-/g, '')}.${rng.weighted(TLDS)}`;
    while (domains.has(domain))
      domain = `${slug.replace(/-/g, '')}${rng.range(1, 999)}.${rng.weighted(TLDS)}`;
    domains.add(domain);

    const product = rng.pick(PRODUCTS);
    const audience = rng.pick(AUDIENCES);
    const foundedYear = rng.weighted([
      [rng.range(2019, 2025), 6],
      [rng.range(2010, 2018), 3],
      [rng.range(1995, 2009), 1],
    ]);
    const hq = rng.weighted(longTail(CITIES));
    const employeeCount = Math.round(10 * 2 ** (rng.float() * 10));
    const fundingM = Math.round(2 ** (rng.float() * 11));
    const tags: SynthCompany['tags'] = [];
    for (const dimension of TAG_DIMENSIONS) {
      const [min, max] = TAGS_PER_COMPANY[dimension];
      const chosen = new Set<string>();
      const n = rng.range(min, max);
      while (chosen.size < n) chosen.add(rng.weighted(longTail(TAG_VALUES[dimension])));
      for (const value of chosen) tags.push({ dimension, value });
    }
    companies.push({
      id: rng.uuid(),
      name,
      slug,
      domain,
      oneLiner: `${product.charAt(0).toUpperCase()}${product.slice(1)} for ${audience}`,
      description:
        `${name} builds ${product} for ${audience}. Founded in ${foundedYear} and headquartered in ${hq}, ` +
        `the team of about ${employeeCount} people works with customers from pilot to production. ` +
        `Its platform combines proprietary models with the customer's own data and workflows.`,
      category: rng.weighted(CATEGORY_MIX),
      foundedYear,
      employeeCount,
      headquarters: hq,
      fundingSummary: `${tags.find((t) => t.dimension === 'stage')?.value ?? 'Seed'}, $${fundingM}M raised`,
      totalFundingUsd: fundingM * 1_000_000,
      socialLinks: JSON.stringify({
        linkedin: `https://www.linkedin.com/company/${slug}`,
        x: `https://x.com/${slug.replace(/-/g, '')}`,
      }),
      source: rng.pick(SOURCES),
      tags,
      activeJobCount: 0,
    });
  }
  return companies;
}

/**
 * Which company each job belongs to (active jobs first, then closed ones). Company i gets a share proportional
 * to 1/(i+8): a few employers post thousands of jobs, most post a handful, some none, as on real boards.
 */
export function assignJobs(size: CatalogSize, companies: SynthCompany[]): Int32Array {
  const rng = new Rng(size.seed, 2);
  const cumulative = new Float64Array(companies.length);
  let total = 0;
  for (let i = 0; i < companies.length; i++) {
    total += 1 / (i + 8);
    cumulative[i] = total;
  }
  const inactive = Math.round(size.jobs * size.inactiveRatio);
  const owners = new Int32Array(size.jobs + inactive);
  for (let j = 0; j < owners.length; j++) {
    const x = rng.float() * total;
    let lo = 0;
    let hi = companies.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] as number) > x) hi = mid;
      else lo = mid + 1;
    }
    owners[j] = lo;
    if (j < size.jobs) (companies[lo] as SynthCompany).activeJobCount++;
  }
  return owners;
}

function jobUrl(source: string, company: SynthCompany, externalId: string, rng: Rng): string {
  switch (source) {
    case 'greenhouse':
      return `https://boards.greenhouse.io/${company.slug}/jobs/${externalId}`;
    case 'lever':
      return `https://jobs.lever.co/${company.slug}/${rng.uuid()}`;
    case 'ashby':
      return `https://jobs.ashbyhq.com/${company.slug}/${rng.uuid()}`;
    case 'workable':
      return `https://apply.workable.com/${company.slug}/j/${externalId}`;
    default:
      return `https://jobs.smartrecruiters.com/${company.slug}/${externalId}`;
  }
}

function salaryFor(category: RoleCategory, rng: Rng): string | null {
  if (!rng.chance(0.4)) return null;
  const base = category === 'engineering' || category === 'fde' ? 160 : 110;
  const low = base + rng.int(60);
  return `$${low},000 – $${low + 30 + rng.int(60)},000`;
}

/**
 * Jobs [start, end) of the catalog. Each batch seeds its own stream from its start index, so any batch can be
 * rebuilt alone and batch size never changes the data.
 */
export function buildJobs(
  size: CatalogSize,
  companies: readonly SynthCompany[],
  owners: Int32Array,
  start: number,
  end: number,
  nowMs: number,
): SynthJob[] {
  const dayStart = Math.floor(nowMs / DAY_MS) * DAY_MS;
  const jobs: SynthJob[] = [];
  const cities = CITIES.map((c, i) => [c, cityWeight(i)] as const);
  for (let j = start; j < end; j++) {
    const rng = new Rng(size.seed, 1000 + j);
    const company = companies[owners[j] as number] as SynthCompany;
    const active = j < size.jobs;
    const category = rng.weighted(CATEGORY_WEIGHTS);
    const base = rng.pick(TITLES[category]);
    let title = `${rng.weighted(SENIORITY)}${base}`;
    if (rng.chance(0.15)) title += ` (${rng.pick(TEAMS)})`;

    const remoteOnly = rng.chance(0.2);
    let location = remoteOnly ? rng.pick(REMOTE_LOCATIONS) : rng.weighted(cities);
    if (!remoteOnly && rng.chance(0.08)) location = `${location} or Remote`;
    if (!remoteOnly && rng.chance(0.05)) location = `Hybrid - ${location}`;
    if (rng.chance(0.1)) title += ` - ${location.split(',')[0]}`;
    const remote = remoteOnly || location.endsWith('or Remote');

    // Postings skew recent; first seen within two days of posting; today's discoveries fall after 00:00 UTC.
    const postedAt = Math.floor((dayStart - rng.float() ** 1.3 * POSTING_SPREAD_DAYS * DAY_MS) / 1000) * 1000;
    let firstSeenAt = postedAt + rng.int(Math.max(1, Math.min(2 * DAY_MS, dayStart - postedAt)));
    if (active && rng.chance(NEW_TODAY_SHARE))
      firstSeenAt = dayStart + rng.int(Math.max(1, nowMs - dayStart));
    const lastSeenAt = active ? Math.max(firstSeenAt, nowMs) : firstSeenAt + rng.int(30 * DAY_MS);

    const externalId = String(4_000_000 + j);
    const responsibilities = rng.sample(RESPONSIBILITIES, rng.range(4, 6));
    const requirements = rng.sample(REQUIREMENTS, rng.range(4, 6));
    jobs.push({
      id: rng.uuid(),
      companyIndex: owners[j] as number,
      source: company.source,
      externalId,
      title,
      location,
      remote,
      department: DEPARTMENTS[category],
      roleCategory: category,
      url: jobUrl(company.source, company, externalId, rng),
      description:
        `About ${company.name}\n${company.oneLiner}. ${company.description}\n\nThe role\n` +
        `As a ${base} on our ${DEPARTMENTS[category]} team in ${location}, you will work directly with ` +
        `${rng.pick(AUDIENCES)} to turn ${rng.pick(PRODUCTS)} into results they can measure.\n\n` +
        `What you will do\n${responsibilities.map((r) => `- ${r}`).join('\n')}\n\n` +
        `What we look for\n${requirements.map((r) => `- ${r}`).join('\n')}\n\n${BENEFITS}`,
      salary: salaryFor(category, rng),
      postedAt: new Date(postedAt),
      firstSeenAt: new Date(firstSeenAt),
      lastSeenAt: new Date(lastSeenAt),
      active,
    });
  }
  return jobs;
}
