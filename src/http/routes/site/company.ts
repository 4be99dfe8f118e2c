import { Type } from 'typebox';
import type { CatalogService } from '../../../catalog/service.js';
import { type JobListItem, ROLE_CATEGORIES, type RoleCategory } from '../../../catalog/types.js';
import { notFound } from '../../../errors.js';
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

/** GET /companies/:slug: a company with its open roles by category; unknown slugs are a 404 page. */
export function companyPage(app: App, catalog: CatalogService, site: Site): void {
  app.get(
    '/companies/:slug',
    { ...pageOptions(), schema: { hide: true, params: Params } },
    async (request, reply) => {
      const { slug } = request.params as { slug: string };
      const company = await catalog.getCompany(slug);
      if (!company) throw notFound(`No company '${slug}' in the catalog.`);
      // As many of its jobs as the anonymous result window holds; the page links the full listing beyond them.
      const window = request.caller.policy.resultWindow;
      const jobs = company.active
        ? (await catalog.listJobs({ companySlug: company.slug }, undefined, { limit: window, offset: 0 }))
            .items
        : [];
      const ctx = pageContext(site, request, `/companies/${company.slug}`);
      const data = { company, groups: byCategory(jobs), listed: jobs.length };
      return sendHtml(reply, renderPage(CompanyView({ ctx, data })));
    },
  );
}
