import { ROLE_CATEGORIES, TAG_DIMENSIONS } from '../../src/catalog/types.js';
import type { CatalogManifest } from './generate.js';
import { Rng } from './prng.js';
import { CITIES, REMOTE_LOCATIONS, TITLES } from './vocabulary.js';

/**
 * Realistic request URLs drawn from the generated data: real slugs, ids and tag slugs, location words people
 * type, pages inside the tier's result window. Every URL here is valid (a 2xx is expected), so non-2xx answers
 * in the bench are service failures, not bad input.
 */

export const API = '/api/v1';

/** Page-size and result-window ceilings of a tier (spec section 8), for /jobs. */
export interface TierShape {
  maxLimit: number;
  window: number;
}
export const ANONYMOUS: TierShape = { maxLimit: 20, window: 100 };
export const TOKEN_JOBS: TierShape = { maxLimit: 50, window: 1_000 };

type Params = [string, string][];
type JobsKind = 'plain' | 'role' | 'client' | 'location' | 'remote' | 'company' | 'page';

const query = (params: Params): string =>
  params.length === 0 ? '' : `?${params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}`;

/** What people type into a location box: city names, countries, regions, in varying case. */
export function locationTerms(): string[] {
  const terms = new Set<string>();
  for (const city of CITIES) {
    const [name, region] = city.split(', ');
    terms.add((name as string).toLowerCase());
    if (region && region.length > 2) terms.add(region.toLowerCase());
  }
  for (const r of REMOTE_LOCATIONS) terms.add(r.toLowerCase());
  for (const extra of ['emea', 'europe', 'hybrid', 'apac', 'bay area', 'ny']) terms.add(extra);
  return [...terms].flatMap((t) => [t, t.replace(/\b\w/g, (c) => c.toUpperCase())]);
}

export class UrlFactory {
  private readonly locations = locationTerms();
  private readonly companiesWithJobs: CatalogManifest['companies'];

  constructor(private readonly manifest: CatalogManifest) {
    this.companiesWithJobs = manifest.companies.filter((c) => c.activeJobCount > 0);
  }

  /** The slug of the company with the most active jobs (the heaviest company page and filter). */
  get topCompany(): string {
    return (this.manifest.companies[0] as { slug: string }).slug;
  }

  /** page and limit inside the tier's window; `deep` skips page 1. */
  private paging(rng: Rng, tier: TierShape, deep: boolean): Params {
    const limit = rng.weighted<number | undefined>([
      [undefined, 6],
      [10, 2.5],
      [tier.maxLimit, 1],
      [5, 0.5],
    ]);
    const size = limit ?? 20;
    const lastPage = Math.floor((tier.window - 1) / size) + 1;
    const page = deep || rng.chance(0.5) ? rng.range(2, lastPage) : 1;
    const out: Params = [];
    if (page > 1) out.push(['page', String(page)]);
    if (limit !== undefined) out.push(['limit', String(limit)]);
    return out;
  }

  private filter(rng: Rng, kind: JobsKind): Params {
    switch (kind) {
      case 'role':
        return [['role_category', rng.pick(ROLE_CATEGORIES)]];
      case 'client':
        return [['client_facing', 'true']];
      case 'location':
        return [['location', rng.pick(this.locations)]];
      case 'remote':
        return [['remote_only', 'true']];
      case 'company':
        return [['company', rng.pick(this.companiesWithJobs).slug]];
      default:
        return [];
    }
  }

  /** A /jobs URL whose main filter is `kind`, sometimes narrowed by a second filter, on some page. */
  jobs(rng: Rng, kind: JobsKind, tier: TierShape = ANONYMOUS): string {
    const params = this.filter(rng, kind);
    if (kind !== 'plain' && kind !== 'page' && rng.chance(0.4)) {
      const compatible: JobsKind[] = (['role', 'location', 'remote'] as JobsKind[]).filter(
        (k) => k !== kind && !(kind === 'client' && k === 'role'),
      );
      params.push(...this.filter(rng, rng.pick(compatible)));
    }
    if (kind === 'page')
      params.push(...this.filter(rng, rng.pick<JobsKind>(['plain', 'role', 'client', 'location', 'remote'])));
    params.push(...this.paging(rng, tier, kind === 'page'));
    return `${API}/jobs${query(params)}`;
  }

  /**
   * A /jobs page of the web site, in the same mix: the page takes the listing's filters and `page`, with the
   * anonymous page size (20) and window (5 pages).
   */
  jobsPage(rng: Rng): string {
    const url = new URL(this.anyJobs(rng), 'http://bench');
    url.searchParams.delete('limit');
    const page = Number(url.searchParams.get('page') ?? '1');
    if (page > 5) url.searchParams.set('page', String(((page - 1) % 5) + 1));
    if (url.searchParams.get('page') === '1') url.searchParams.delete('page');
    return `/jobs${url.search}`;
  }

  /** Any /jobs listing URL, in the mix a browsing client produces. */
  anyJobs(rng: Rng, tier: TierShape = ANONYMOUS): string {
    const kind = rng.weighted<JobsKind>([
      ['plain', 3],
      ['role', 3],
      ['client', 2],
      ['location', 2],
      ['remote', 1],
      ['company', 2],
      ['page', 2],
    ]);
    return this.jobs(rng, kind, tier);
  }

  searchTerm(rng: Rng): string {
    const company = rng.pick(this.manifest.companies).name;
    const kind = rng.weighted([
      ['company', 3],
      ['title', 3],
      ['role', 1.5],
      ['place', 1],
      ['typo', 1],
    ] as const);
    switch (kind) {
      case 'company':
        return rng.chance(0.3) ? (company.split(' ')[0] as string) : company.toLowerCase();
      case 'title': {
        const title = rng.pick(TITLES[rng.pick(ROLE_CATEGORIES)]);
        return rng.chance(0.5) ? title.toLowerCase() : `senior ${title.toLowerCase()}`;
      }
      case 'role':
        return rng.pick([
          'forward deployed',
          'fde',
          'solutions architect',
          'customer success',
          'sales engineer',
          'implementation',
          'technical account manager',
          'machine learning',
          'product manager',
          'recruiter',
        ]);
      case 'place':
        return `${rng.pick(['solutions engineer', 'account executive', 'software engineer', 'customer success'])} ${rng.pick(this.locations).toLowerCase()}`;
      default: {
        // One letter dropped: the misspelled company names trigram matching is meant to catch.
        const i = 1 + rng.int(Math.max(1, company.length - 2));
        return (company.slice(0, i) + company.slice(i + 1)).toLowerCase();
      }
    }
  }

  /** /jobs?search=..., sometimes with a filter or a later page of the shortlist. */
  search(rng: Rng): string {
    const params: Params = [['search', this.searchTerm(rng)]];
    if (rng.chance(0.25))
      params.push(...this.filter(rng, rng.pick<JobsKind>(['role', 'client', 'location', 'remote'])));
    params.push(...this.paging(rng, ANONYMOUS, false));
    return `${API}/jobs${query(params)}`;
  }

  /** /companies with one to three tag dimensions (one or two slugs each), sometimes a category, on some page. */
  companies(rng: Rng): string {
    const params: Params = [];
    for (const dimension of rng.sample(
      TAG_DIMENSIONS,
      rng.weighted([
        [1, 5],
        [2, 3],
        [3, 1],
      ] as const),
    )) {
      const tags = this.manifest.tags[dimension];
      const weighted = tags.map((t) => [t.slug, t.companies] as const);
      const slugs = new Set([rng.weighted(weighted)]);
      if (rng.chance(0.3)) slugs.add(rng.weighted(weighted));
      params.push([dimension, [...slugs].join(',')]);
    }
    if (rng.chance(0.2))
      params.push(['category', rng.pick(['enterprise_ai', 'public_saas', 'ai_native', 'other'])]);
    params.push(...this.paging(rng, ANONYMOUS, false));
    return `${API}/companies${query(params)}`;
  }

  /** A company page by slug (mostly) or by UUID. */
  company(rng: Rng): string {
    const c = rng.pick(this.manifest.companies);
    return `${API}/companies/${rng.chance(0.8) ? c.slug : c.id}`;
  }

  /** A hiring series' range: an interval, a start within its longest span (before the anchor day), a role filter. */
  private signalRange(rng: Rng): Params {
    const interval = rng.pick(['day', 'week', 'week', 'month'] as const);
    const back = rng.int(interval === 'day' ? 366 : 730);
    const from = new Date(Date.parse(this.manifest.anchorDay) - back * 86_400_000).toISOString().slice(0, 10);
    const params: Params = [
      ['interval', interval],
      ['from', from],
    ];
    const role = rng.float();
    if (role < 0.3) params.push(['client_facing', 'true']);
    else if (role < 0.5) params.push(['role_category', rng.pick(ROLE_CATEGORIES)]);
    return params;
  }

  /** One company's hiring series, by slug. */
  companyHiring(rng: Rng): string {
    return `${API}/companies/${rng.pick(this.manifest.companies).slug}/hiring${query(this.signalRange(rng))}`;
  }

  /** The catalog's trends, sometimes over the companies of one tag. */
  trends(rng: Rng): string {
    const params = this.signalRange(rng);
    if (rng.chance(0.3)) {
      const dimension = rng.pick(TAG_DIMENSIONS);
      params.push([
        dimension,
        rng.weighted(this.manifest.tags[dimension].map((t) => [t.slug, t.companies] as const)),
      ]);
    }
    return `${API}/trends${query(params)}`;
  }

  job(rng: Rng): string {
    return `${API}/jobs/${rng.pick(this.manifest.jobIds)}`;
  }
}

/**
 * At least `min` distinct URLs from `draw` (drawn until `target` distinct or 20x attempts), in draw order.
 * The bench then picks from them uniformly at random, so popular shapes recur as in real traffic.
 */
export function distinctUrls(
  seed: number,
  stream: number,
  draw: (rng: Rng) => string,
  target = 2_000,
): string[] {
  const rng = new Rng(seed, stream);
  const out = new Set<string>();
  for (let i = 0; i < target * 20 && out.size < target; i++) out.add(draw(rng));
  return [...out];
}
