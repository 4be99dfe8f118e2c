import { FAVICON, FAVICON_PATH } from '../../../web/favicon.js';
import { STYLESHEET, STYLESHEET_PATH } from '../../../web/styles.js';
import type { App } from '../../types.js';
import { pageOptions } from './page.js';

/** A year: the name carries the content's hash, so a changed stylesheet is a new URL. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** A week: the icon's URL is fixed (browsers ask for /favicon.ico), so a changed icon must be able to arrive. */
const A_WEEK = 'public, max-age=604800';

/**
 * GET /assets/site.<hash>.css: the site's one stylesheet, from our own origin, cached for good; GET /favicon.ico:
 * its icon, cached for a week (and revalidated by its ETag after).
 */
export function assetRoutes(app: App): void {
  const { config, schema } = pageOptions();
  app.get(STYLESHEET_PATH, { config, schema }, async (_request, reply) =>
    reply.header('cache-control', IMMUTABLE).type('text/css; charset=utf-8').send(STYLESHEET),
  );
  app.get(FAVICON_PATH, { config, schema }, async (_request, reply) =>
    reply.header('cache-control', A_WEEK).type('image/x-icon').send(FAVICON),
  );
}
