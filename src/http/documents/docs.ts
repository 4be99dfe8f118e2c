import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { openApiOptions } from './openapi.js';

/**
 * The policy of the browsable page at /docs, stated here rather than derived from the plugin's default. Scripts
 * come from this origin only, as on every page (src/http/security-headers.ts). Styles also allow inline ones: Swagger
 * UI writes `style` attributes as it renders (Chromium logs each as a violation otherwise), and the page shows
 * only our own OpenAPI document, no text from the world. No `upgrade-insecure-requests`: that directive makes a
 * browser fetch the page's scripts over https, which a server reached over plain HTTP (a laptop, a LAN address)
 * does not answer, and the page stayed blank there. Framing is refused as everywhere else.
 */
export const DOCS_CSP = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'object-src': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/** The OpenAPI document and its browsable page at /docs, under DOCS_CSP. */
export async function registerDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, openApiOptions());
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: DOCS_CSP,
    theme: { title: 'Frontline API' },
    uiConfig: {
      layout: 'BaseLayout',
      docExpansion: 'none',
      defaultModelsExpandDepth: -1,
      syntaxHighlight: false,
    },
  });
}
