import { Type } from 'typebox';
import type { CatalogService } from '../../../catalog/service.js';
import { renderPage } from '../../../web/render.js';
import { HomeView } from '../../../web/views/home.js';
import { isPage } from '../../route-config.js';
import { errorResponses } from '../../schemas/common.js';
import type { App } from '../../types.js';
import { homeData } from './home-data.js';
import { pageContext, type Site, sendHtml } from './page.js';

/** The addresses a newcomer starts from, each with what it is; the page and the JSON list the same ones. */
function entryPoints(prefix: string) {
  return [
    { rel: 'docs', href: '/docs', title: 'Interactive API reference' },
    { rel: 'openapi', href: `${prefix}/openapi.json`, title: 'OpenAPI 3.1 document' },
    { rel: 'jobs', href: `${prefix}/jobs`, title: 'Job listings (filters, search, pagination)' },
    { rel: 'companies', href: `${prefix}/companies`, title: 'Companies' },
    { rel: 'tags', href: `${prefix}/tags`, title: 'Tags by dimension' },
    { rel: 'stats', href: `${prefix}/stats`, title: 'Catalog statistics' },
    { rel: 'health', href: '/healthz', title: 'Liveness probe' },
  ];
}

const Home = Type.Object({
  data: Type.Object({
    name: Type.Literal('Frontline'),
    description: Type.String(),
    links: Type.Array(
      Type.Object({
        rel: Type.String({ examples: ['jobs'] }),
        href: Type.String({ examples: ['/api/v1/jobs'] }),
        title: Type.String(),
      }),
    ),
  }),
});

const DESCRIPTION = "A catalog of AI companies' client-facing job listings, with an API to search it.";

/**
 * GET /: where the quick start's address lands. A browser (any client preferring text/html) gets the site's home
 * page; any other client gets the API's entry points in the JSON envelope. Both are cached, apart (the response
 * cache keys an Accept naming HTML), and the page counts against the page budget.
 */
export function homeRoute(app: App, catalog: CatalogService, site: Site): void {
  const links = entryPoints(site.apiPrefix);
  const json = { data: { name: 'Frontline' as const, description: DESCRIPTION, links } };
  app.get(
    '/',
    {
      config: { access: 'public', page: 'negotiated', cache: true },
      schema: {
        tags: ['system'],
        operationId: 'getHome',
        summary: 'Where to start: the API entry points, or an HTML page for a client preferring text/html',
        produces: ['text/html', 'application/json'],
        response: {
          200: {
            description: 'The landing page, or the entry points',
            content: {
              'text/html': { schema: Type.String() },
              'application/json': { schema: Home },
            },
          },
          ...errorResponses(),
        },
      },
    },
    async (request, reply) => {
      // Vary: the same URL answers two representations, so caches keep them apart.
      reply.header('vary', 'accept');
      if (!isPage(request)) return json;
      const ctx = pageContext(site, request, '/');
      return sendHtml(reply, renderPage(HomeView({ ctx, data: await homeData(catalog) })));
    },
  );
}
