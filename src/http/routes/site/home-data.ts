import type { CatalogService } from '../../../catalog/service.js';
import { CLIENT_FACING_CATEGORIES } from '../../../catalog/types.js';
import type { HomeData } from '../../../web/views/home.js';

const CLIENT_FACING = [...CLIENT_FACING_CATEGORIES];
const NEWEST = 10;
const HIRING = 8;
/** Companies considered for "hiring most": those with the most active jobs overall. */
const CANDIDATES = 50;

/**
 * The home page's numbers, all through the catalog service: each client-facing category's count, the newest such
 * jobs, the totals, and the companies with the most client-facing openings among the CANDIDATES companies with the
 * most active jobs.
 */
export async function homeData(catalog: CatalogService): Promise<HomeData> {
  const one = { limit: 1, offset: 0 };
  const [counts, newest, stats, top] = await Promise.all([
    Promise.all(CLIENT_FACING.map((c) => catalog.listJobs({ roleCategories: [c] }, undefined, one))),
    catalog.listJobs({ roleCategories: CLIENT_FACING }, undefined, { limit: NEWEST, offset: 0 }),
    catalog.stats(),
    catalog.listCompanies({}, undefined, { limit: CANDIDATES, offset: 0 }),
  ]);
  const hiring = await Promise.all(
    top.items.map(async (c) => ({
      name: c.name,
      slug: c.slug,
      count: (await catalog.listJobs({ roleCategories: CLIENT_FACING, companySlug: c.slug }, undefined, one))
        .total,
    })),
  );
  return {
    categories: CLIENT_FACING.map((category, i) => ({ category, count: counts[i]?.total ?? 0 })),
    newest: newest.items,
    companies: hiring
      .filter((c) => c.count > 0)
      .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name))
      .slice(0, HIRING),
    stats,
  };
}
