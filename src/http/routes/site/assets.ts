import { STYLESHEET, STYLESHEET_PATH } from '../../../web/styles.js';
import type { App } from '../../types.js';
import { pageOptions } from './page.js';

/** A year: the name carries the content's hash, so a changed stylesheet is a new URL. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** GET /assets/site.<hash>.css: the site's one stylesheet, from our own origin, cached for good. */
export function assetRoutes(app: App): void {
  const { config, schema } = pageOptions();
  app.get(STYLESHEET_PATH, { config, schema }, async (_request, reply) =>
    reply.header('cache-control', IMMUTABLE).type('text/css; charset=utf-8').send(STYLESHEET),
  );
}
