import type { FastifyRequest } from 'fastify';
import { renderPage } from '../../../web/render.js';
import { ErrorView } from '../../../web/views/error.js';
import type { PageErrorRenderer } from '../../error-handler.js';
import { pageContext, type Site } from './page.js';

/** An error of a page route as a page: the status's title and the message that names what was wrong. */
export function pageErrorRenderer(site: Site): PageErrorRenderer {
  return (request: FastifyRequest, status: number, message: string) => {
    const path = request.url.split('?')[0] ?? '/';
    return renderPage(ErrorView({ ctx: pageContext(site, request, path), status, message }));
  };
}
