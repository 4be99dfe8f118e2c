import type { FastifyInstance } from 'fastify';

/**
 * Request bodies are JSON only. Fastify also parses text/plain by default, which let a JSON endpoint read a
 * plain-text body as a string and answer 400 about its shape; removing the parser makes it 415 like form and XML.
 */
export function registerContentTypes(app: FastifyInstance): void {
  app.removeContentTypeParser('text/plain');
}
