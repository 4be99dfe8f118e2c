/**
 * open-jobs-data's company list (`ConorsCode/open-jobs-data/companies.json`: a display name, the vendor and the
 * board identifier, or a Workday tenant, shard and site) with the run summary its daily fetch commits beside it
 * (`ConorsCode/open-jobs-data/data/summary.json`: per company and vendor, whether the board answered and how
 * many postings it listed). A board is taken only when the summary of the pinned commit says it answered with
 * postings: the list is edited by hand, and its daily run is what shows the board alive.
 */
import { REGISTRY_VENDORS, type RegistryVendor } from '../../src/registry/schema.js';
import { type Facts, noFacts } from './facts.js';

interface ListedCompany {
  name?: string;
  platform?: string;
  slug?: string;
  workday?: { tenant?: string; site?: string; shard?: string };
}

interface RunStatus {
  company?: string;
  platform?: string;
  status?: string;
  jobs?: number;
}

/** The identifier the registry uses for the entry (docs/sources.md): the slug, or `tenant.shard/site` on Workday. */
function boardOf(c: ListedCompany): string | null {
  if (c.platform !== 'workday') return c.slug?.trim() || null;
  const w = c.workday;
  return w?.tenant && w.shard && w.site ? `${w.tenant}.${w.shard}/${w.site}` : null;
}

export function openJobsData(source: string) {
  return (files: ReadonlyMap<string, string>): Facts => {
    const facts = noFacts();
    const runs = (JSON.parse(files.get('data/summary.json') ?? '{}') as { perCompanyStatus?: RunStatus[] })
      .perCompanyStatus;
    const live = new Set(
      (runs ?? [])
        .filter((r) => r.status === 'ok' && (r.jobs ?? 0) > 0)
        .map((r) => `${r.platform}|${r.company}`),
    );
    for (const c of JSON.parse(files.get('companies.json') ?? '[]') as ListedCompany[]) {
      const vendor = (REGISTRY_VENDORS as readonly string[]).includes(c.platform ?? '')
        ? (c.platform as RegistryVendor)
        : null;
      const board = boardOf(c);
      const name = c.name?.trim();
      if (!vendor || !board || !name || !live.has(`${c.platform}|${c.name}`)) continue;
      facts.boards.push({ source, vendor, board, name });
    }
    return facts;
  };
}
