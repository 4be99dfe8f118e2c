import { Type } from 'typebox';
import type { CatalogService } from '../../../catalog/service.js';
import { notFound } from '../../../errors.js';
import { renderPage } from '../../../web/render.js';
import { JobView } from '../../../web/views/job.js';
import type { App } from '../../types.js';
import { pageContext, pageOptions, type Site, sendHtml } from './page.js';

const Params = Type.Object({ id: Type.String() });

/** GET /jobs/:id: one posting, closed ones included (with a banner); unknown ids are a 404 page. */
export function jobPage(app: App, catalog: CatalogService, site: Site): void {
  app.get(
    '/jobs/:id',
    { ...pageOptions(), schema: { hide: true, params: Params } },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      const job = await catalog.getJob(id);
      if (!job) throw notFound(`No job with id '${id}'. It may have been removed from the catalog.`);
      // The company's logo, for the structured data: the job's company summary does not carry it.
      const company = await catalog.getCompany(job.company.slug);
      const ctx = pageContext(site, request, `/jobs/${job.id}`);
      return sendHtml(reply, renderPage(JobView({ ctx, job, logoUrl: company?.logoUrl ?? null })));
    },
  );
}
