import { Type } from 'typebox';
import type { CatalogService } from '../../../catalog/service.js';
import { type JobListItem, ROLE_CATEGORIES, type RoleCategory } from '../../../catalog/types.js';
import { notFound } from '../../../errors.js';
import { parseRange } from '../../../signals/periods.js';
import type { SignalsService } from '../../../signals/service.js';
import { renderPage } from '../../../web/render.js';
import { CompanyView } from '../../../web/views/company.js';
import type { App } from '../../types.js';
import { pageContext, pageOptions, type Site, sendHtml } from './page.js';

const Params = Type.Object({ slug: Type.String() });

function byCategory(jobs: JobListItem[]): { category: RoleCategory; jobs: JobListItem[] }[] {
  return ROLE_CATEGORIES.map((category) => ({
    category,
    jobs: jobs.filter((j) => j.roleCategory === category),
  })).filter((g) => g.jobs.length > 0);
}

/** GET /companies/:slug: a company with its open roles by category and its hiring chart; unknown slugs are a 404 page. */
export function companyPage(app: App, catalog: CatalogService, signals: SignalsService, site: Site): void {
  app.get(
    '/companies/:slug',
    { ...pageOptions(), schema: { hide: true, params: Params } },
    async (request, reply) => {
      const { slug } = request.params as { slug: string };
      const company = await catalog.getCompany(slug);
      if (!company) throw notFound(`No company '${slug}' in the catalog.`);
      // As many of its jobs as the caller's result window holds (a browser sends no token: the anonymous 100); the
      // page links the full listing beyond them.
      const window = request.caller.policy.resultWindow;
      const jobs = company.active
        ? (await catalog.listJobs({ companySlug: company.slug }, undefined, { limit: window, offset: 0 }))
            .items
        : [];
      // The range the chart's URL gets by default, so the page's words and the image state the same figures.
      const range = parseRange({ interval: 'week' }, site.now());
      const ref = { id: company.id, slug: company.slug, name: company.name };
      const hiring = await signals.companyHiring(ref, range);
      const ctx = pageContext(site, request, `/companies/${company.slug}`);
      const data = { company, groups: byCategory(jobs), listed: jobs.length, hiring };
      return sendHtml(reply, renderPage(CompanyView({ ctx, data })));
    },
  );
}
