/**
 * Fake company websites on one real node:http server (127.0.0.1, port 0), dispatching on the Host header the
 * outbound client preserves. Each site is a table of path → page; a route can also redirect, fail, stall or be
 * a raw handler, which is how the SSRF, timeout and robots tests build hostile servers.
 *
 *   const sites = await startFakeSites({ 'acme.ai': { '/': '<html>…', '/careers': { status: 301, location: '/jobs' } } });
 *   createOutboundClient({ userAgentContact, hostMap: sites.hostMap });
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeRoute =
  | string
  | {
      status?: number;
      headers?: Record<string, string>;
      body?: string | Buffer;
      /** Sets status 302 (unless given) and the Location header. */
      location?: string;
      handler?: (req: IncomingMessage, res: ServerResponse) => void;
    };

export type FakeSiteSpec = Record<string, Record<string, FakeRoute>>;

export interface FakeSites {
  origin: string;
  /** Each site's host and its www. variant → origin. */
  hostMap: Record<string, string>;
  requests: Array<{ host: string; method: string; path: string; headers: IncomingMessage['headers'] }>;
  setRoute(host: string, path: string, route: FakeRoute): void;
  close(): Promise<void>;
}

export async function startFakeSites(spec: FakeSiteSpec = {}): Promise<FakeSites> {
  const sites = new Map<string, Map<string, FakeRoute>>();
  const setRoute = (host: string, path: string, route: FakeRoute) => {
    const h = host.toLowerCase();
    if (!sites.has(h)) sites.set(h, new Map());
    sites.get(h)?.set(path, route);
  };
  for (const [host, routes] of Object.entries(spec))
    for (const [path, r] of Object.entries(routes)) setRoute(host, path, r);
  const requests: FakeSites['requests'] = [];

  const server = createServer((req, res) => {
    const host = (req.headers.host ?? '')
      .toLowerCase()
      .replace(/:\d+$/, '')
      .replace(/^www\./, '');
    const url = new URL(req.url ?? '/', 'http://fake');
    requests.push({
      host,
      method: req.method ?? 'GET',
      path: `${url.pathname}${url.search}`,
      headers: req.headers,
    });
    const routes = sites.get(host);
    const route = routes?.get(`${url.pathname}${url.search}`) ?? routes?.get(url.pathname);
    if (route === undefined) {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html><body>Not found</body></html>');
      return;
    }
    if (typeof route === 'string') {
      res.writeHead(200, {
        'content-type': url.pathname.endsWith('.xml') ? 'application/xml' : 'text/html; charset=utf-8',
      });
      res.end(route);
      return;
    }
    if (route.handler) {
      route.handler(req, res);
      return;
    }
    const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8', ...route.headers };
    if (route.location) headers.location = route.location;
    res.writeHead(route.status ?? (route.location ? 302 : 200), headers);
    res.end(route.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const hostMap: Record<string, string> = {};
  for (const host of Object.keys(spec)) {
    hostMap[host.toLowerCase()] = origin;
    hostMap[`www.${host.toLowerCase()}`] = origin;
  }
  return {
    origin,
    hostMap,
    requests,
    setRoute,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
