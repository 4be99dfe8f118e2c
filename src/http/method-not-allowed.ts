import type { FastifyInstance } from 'fastify';

interface KnownRoute {
  pattern: RegExp;
  methods: Set<string>;
}

const toRegExp = (url: string): RegExp =>
  new RegExp(
    `^${url
      .split('/')
      .map((seg) =>
        seg.startsWith(':') ? '[^/]+' : seg === '*' ? '.*' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('/')}/?$`,
  );

/**
 * Remembers every route's path and methods so that the not-found handler can tell "no such path" (404) from
 * "path exists, wrong method" (405 with an Allow header).
 */
export function registerMethodNotAllowed(app: FastifyInstance): void {
  const routes = new Map<string, KnownRoute>();
  app.addHook('onRoute', (opts) => {
    // Docs assets are exempt from rate limits: one page view loads several of them.
    if (opts.url.startsWith('/docs')) opts.config = { ...opts.config, rateLimited: false, access: 'public' };
    // The CORS preflight catch-all matches every path and says nothing about the routes themselves.
    if (opts.url === '*' || opts.url === '/*') return;
    const methods = (Array.isArray(opts.method) ? opts.method : [opts.method]).filter((m) => m !== 'OPTIONS');
    if (methods.length === 0) return;
    const known = routes.get(opts.url) ?? { pattern: toRegExp(opts.url), methods: new Set<string>() };
    for (const m of methods) known.methods.add(m);
    routes.set(opts.url, known);
  });
  app.decorate('allowedMethods', (path: string): string[] => {
    const allowed = new Set<string>();
    for (const r of routes.values()) if (r.pattern.test(path)) for (const m of r.methods) allowed.add(m);
    return [...allowed].sort();
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Methods routed for a concrete path, e.g. ["GET", "HEAD"]; empty when the path is unknown. */
    allowedMethods(path: string): string[];
  }
}
