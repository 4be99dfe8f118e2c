import type { CatalogService } from '../../../catalog/service.js';
import { robotsTxt, SITEMAP_MAX_URLS, type SitemapEntry, sitemapXml } from '../../../web/sitemap.js';
import type { App } from '../../types.js';
import { originOf, pageOptions, type Site } from './page.js';

const PAGES: SitemapEntry[] = [{ path: '/' }, { path: '/jobs' }, { path: '/companies' }, { path: '/trends' }];

/** GET /sitemap.xml and /robots.txt: the home, listing and trends pages, every listed company, the newest jobs. */
export function crawlerRoutes(app: App, catalog: CatalogService, site: Site): void {
  app.get('/sitemap.xml', pageOptions(), async (request, reply) => {
    const companies = await catalog.listCompanies({}, undefined, { limit: SITEMAP_MAX_URLS, offset: 0 });
    const room = Math.max(0, SITEMAP_MAX_URLS - PAGES.length - companies.items.length);
    const jobs = await catalog.listJobs({}, undefined, { limit: room, offset: 0 });
    const entries: SitemapEntry[] = [
      ...PAGES,
      ...companies.items.map((c) => ({ path: `/companies/${c.slug}` })),
      ...jobs.items.map((j) => ({ path: `/jobs/${j.id}`, lastmod: j.postedAt })),
    ];
    return reply.type('application/xml; charset=utf-8').send(sitemapXml(originOf(site, request), entries));
  });
  app.get('/robots.txt', pageOptions(), async (request, reply) =>
    reply.type('text/plain; charset=utf-8').send(robotsTxt(originOf(site, request))),
  );
}
