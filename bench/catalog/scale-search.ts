import { jobFacetNames } from '../../src/catalog/sql/facets.js';
import type { CatalogManifest } from './generate.js';
import { Rng } from './prng.js';
import type { Row } from './serial.js';
import { timeUrls } from './serial.js';
import { API, UrlFactory } from './urls.js';
import { DEPARTMENTS } from './vocabulary.js';

/**
 * The search rows of `npm run bench:scale`: fresh searches (each query asked once in the whole run, so neither
 * the response cache nor a kept shortlist answers it), alone, with each filter, and with every job facet; and the
 * same fresh searches asked of two API processes behind one database, which must answer alike.
 */

type Draw = (rng: Rng) => string;

/** Draws search terms none of the run's earlier rows used. */
class FreshTerms {
  private readonly seen = new Set<string>();
  constructor(private readonly urls: UrlFactory) {}

  /** `n` URLs /jobs?search=<fresh term><extra>, from stream `stream`. */
  urlsFor(seed: number, stream: number, n: number, extra: Draw = () => ''): string[] {
    const rng = new Rng(seed, stream);
    const out: string[] = [];
    for (let i = 0; i < n * 50 && out.length < n; i++) {
      const term = this.urls.searchTerm(rng);
      if (this.seen.has(term)) continue;
      this.seen.add(term);
      out.push(`${API}/jobs?search=${encodeURIComponent(term)}${extra(rng)}&limit=20`);
    }
    return out;
  }
}

/** Each search row's label and URLs. */
export function searchScenarios(
  manifest: CatalogManifest,
  seed: number,
  n: number,
): { label: string; urls: string[] }[] {
  const urls = new UrlFactory(manifest);
  const fresh = new FreshTerms(urls);
  const companies = manifest.companies.filter((c) => c.activeJobCount > 0);
  const departments = Object.values(DEPARTMENTS);
  const param = (name: string, value: string) => `&${name}=${encodeURIComponent(value)}`;
  const rows: [string, Draw][] = [
    ['', () => ''],
    ['&role_category=', (r) => param('role_category', r.pick(['fde', 'solutions_engineer', 'csm', 'sales']))],
    ['&client_facing=true', () => '&client_facing=true'],
    ['&location=', (r) => param('location', r.pick(['london', 'new york', 'remote', 'berlin', 'canada']))],
    ['&remote_only=true', () => '&remote_only=true'],
    ['&company=', (r) => param('company', r.pick(companies).slug)],
    ['&department=', (r) => param('department', r.pick(departments))],
    ['&salary_min=', (r) => `&salary_min=${r.range(150, 300) * 1000}&salary_currency=USD`],
    ['&facets=<every job facet>', () => param('facets', jobFacetNames().join(','))],
  ];
  return rows.map(([label, extra], i) => ({
    label: `/jobs?search= (fresh)${label}`,
    urls: fresh.urlsFor(seed, 900 + i, n, extra),
  }));
}

/**
 * Fresh searches asked of two processes: timed on each (half the URLs each, each URL first on its own process),
 * then every URL asked of the other one too, whose answer must list the same jobs in the same order.
 */
export async function twoProcesses(
  origins: [string, string],
  urls: string[],
): Promise<{ rows: Row[]; same: number; asked: number }> {
  const halves = [urls.filter((_, i) => i % 2 === 0), urls.filter((_, i) => i % 2 === 1)];
  const rows = await Promise.all(
    origins.map((origin, i) =>
      timeUrls(origin, `/jobs?search= (fresh) on API process ${i + 1} of 2`, halves[i]!),
    ),
  );
  let same = 0;
  for (const [i, half] of halves.entries()) {
    for (const url of half) {
      const [a, b] = await Promise.all([ids(origins[i]!, url), ids(origins[1 - i]!, url)]);
      if (a === b) same++;
    }
  }
  return { rows, same, asked: urls.length };
}

/** The ids of a page's jobs, in order, as one string. */
async function ids(origin: string, url: string): Promise<string> {
  const res = await fetch(origin + url);
  const body = (await res.json()) as { data?: { id: string }[] };
  return `${res.status}:${(body.data ?? []).map((j) => j.id).join(',')}`;
}
