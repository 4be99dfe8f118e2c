import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { openApiOptions } from './openapi.js';

/**
 * The OpenAPI document and its browsable page at /docs. The page's CSP is the plugin's static one without
 * `upgrade-insecure-requests`: that directive makes a browser fetch the page's scripts over https, which a server
 * reached over plain HTTP (a laptop, a LAN address) does not answer, and the page stayed blank there.
 */
export async function registerDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, openApiOptions());
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    transformStaticCSP: (header) => header.replace(/\s*upgrade-insecure-requests;?/, ''),
    theme: { title: 'Frontline API' },
  });
}
