import type { FastifyInstance } from 'fastify';
import type { RouteConfig } from './route-config.js';

interface KnownRoute {
  pattern: RegExp;
  /** Each routed method and its route's config. */
  methods: Map<string, RouteConfig>;
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
 * Remembers every route's path, methods and config so that the not-found handler can tell "no such path" (404)
 * from "path exists, wrong method" (405 with an Allow header), and a URL the router rejects (bad encoding, an
 * over-long parameter) is still guarded by the access its route declares.
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
    const known = routes.get(opts.url) ?? { pattern: toRegExp(opts.url), methods: new Map() };
    for (const m of methods) known.methods.set(m, { ...opts.config, url: opts.url });
    routes.set(opts.url, known);
  });
  app.decorate('allowedMethods', (path: string): string[] => {
    const allowed = new Set<string>();
    for (const r of routes.values())
      if (r.pattern.test(path)) for (const m of r.methods.keys()) allowed.add(m);
    return [...allowed].sort();
  });
  app.decorate('routeConfigFor', (method: string, path: string): RouteConfig | undefined => {
    for (const r of routes.values()) {
      const config = r.pattern.test(path) ? r.methods.get(method) : undefined;
      if (config) return config;
    }
    return undefined;
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Methods routed for a concrete path, e.g. ["GET", "HEAD"]; empty when the path is unknown. */
    allowedMethods(path: string): string[];
    /** The config of the route a method and concrete path would reach, matched without decoding the path. */
    routeConfigFor(method: string, path: string): RouteConfig | undefined;
  }
}
