import { negotiate } from '@fastify/accept-negotiator';
import { Type } from 'typebox';
import { errorResponses } from '../../schemas/common.js';
import type { App } from '../../types.js';

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

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(links: ReturnType<typeof entryPoints>): string {
  const items = links
    .map((l) => `<li><a href="${escapeHtml(l.href)}">${escapeHtml(l.href)}</a>: ${escapeHtml(l.title)}</li>`)
    .join('\n      ');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Frontline</title>
    <style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}</style>
  </head>
  <body>
    <h1>Frontline</h1>
    <p>${escapeHtml(DESCRIPTION)}</p>
    <ul>
      ${items}
    </ul>
  </body>
</html>
`;
}

/**
 * GET /: where the quick start's address lands. A browser (any client preferring text/html) gets a small page
 * naming the service and linking its reference and API; any other client gets the same entry points in the JSON
 * envelope. The full web site replaces the page; the JSON stays.
 */
export function homeRoute(app: App, prefix: string): void {
  const links = entryPoints(prefix);
  const html = page(links);
  const json = { data: { name: 'Frontline' as const, description: DESCRIPTION, links } };
  app.get(
    '/',
    {
      config: { access: 'public' },
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
      // JSON first: a client with no preference (curl, */*) is a program; a browser asks for text/html by name.
      const wanted = negotiate(request.headers.accept ?? '*/*', ['application/json', 'text/html']);
      if (wanted === 'text/html') return reply.type('text/html; charset=utf-8').send(html);
      return json;
    },
  );
}
