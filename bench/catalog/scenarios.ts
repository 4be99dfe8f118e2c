import type { CatalogManifest } from './generate.js';
import type { Rng } from './prng.js';
import { API, distinctUrls, TOKEN_JOBS, UrlFactory } from './urls.js';

/**
 * What the bench measures. Each catalog endpoint runs hot (one URL repeated: the best case for any cache) and
 * mixed (drawn at random from at least 1,000 distinct realistic URLs: the honest case). Targets:
 * hot >= 50% and mixed >= 20% of the bare route's throughput, p99 < 50 ms at 32 connections, and
 * search p99 < 30 ms for a single client.
 */

export type Mode = 'hot' | 'mixed' | 'single client';

export interface Scenario {
  id: string;
  /** The path as in the service's OpenAPI document; the scenario is skipped when the service does not serve it. */
  route: string;
  label: string;
  mode: Mode;
  paths: string[];
  connections: number;
  headers?: Record<string, string>;
  /** Minimum share of the bare route's req/s, when a target is set. */
  minRatio?: number;
  maxP99Ms?: number;
  /** Measured and reported beside the judged rows, without a target of its own (docs/bench.md, "Targets"). */
  diagnostic?: string;
}

export const TARGETS = { hotRatio: 0.5, mixedRatio: 0.2, p99Ms: 50, searchSingleP99Ms: 30 } as const;

/** A mixed run draws from at least this many distinct URLs. */
export const MIN_MIXED_URLS = 1_000;

/** A bench-only token, passed to the service through API_TOKENS. */
export const BENCH_TOKEN = 'fl_bench_catalog_token_0123456789abcdef';

interface Endpoint {
  id: string;
  route: string;
  label: string;
  hot: string;
  /** Absent: the endpoint has one URL only, so there is no mixed run. */
  mixed?: (rng: Rng) => string;
}

export function buildScenarios(
  manifest: CatalogManifest,
  connections: number,
  mixedUrls: number,
): Scenario[] {
  const urls = new UrlFactory(manifest);
  const seed = manifest.size.seed;
  const jobId = manifest.jobIds[0] as string;
  const endpoints: Endpoint[] = [
    // The service's full HTTP stack (hooks, guard, serialization) without the database: the floor under every row.
    { id: 'healthz', route: '/healthz', label: '/healthz (no database)', hot: '/healthz' },
    { id: 'jobs', route: `${API}/jobs`, label: '/jobs', hot: `${API}/jobs`, mixed: (r) => urls.anyJobs(r) },
    {
      id: 'jobs-role',
      route: `${API}/jobs`,
      label: '/jobs?role_category=',
      hot: `${API}/jobs?role_category=fde`,
      mixed: (r) => urls.jobs(r, 'role'),
    },
    {
      id: 'jobs-client-facing',
      route: `${API}/jobs`,
      label: '/jobs?client_facing=true',
      hot: `${API}/jobs?client_facing=true`,
      mixed: (r) => urls.jobs(r, 'client'),
    },
    {
      id: 'jobs-location',
      route: `${API}/jobs`,
      label: '/jobs?location=',
      hot: `${API}/jobs?location=san%20francisco`,
      mixed: (r) => urls.jobs(r, 'location'),
    },
    {
      id: 'jobs-remote',
      route: `${API}/jobs`,
      label: '/jobs?remote_only=true',
      hot: `${API}/jobs?remote_only=true`,
      mixed: (r) => urls.jobs(r, 'remote'),
    },
    {
      id: 'jobs-company',
      route: `${API}/jobs`,
      label: '/jobs?company=',
      hot: `${API}/jobs?company=${urls.topCompany}`,
      mixed: (r) => urls.jobs(r, 'company'),
    },
    {
      id: 'jobs-paginated',
      route: `${API}/jobs`,
      label: '/jobs?page= (pages 2+)',
      hot: `${API}/jobs?page=5`,
      mixed: (r) => urls.jobs(r, 'page'),
    },
    {
      id: 'jobs-search',
      route: `${API}/jobs`,
      label: '/jobs?search=',
      hot: `${API}/jobs?search=forward%20deployed%20engineer`,
      mixed: (r) => urls.search(r),
    },
    { id: 'companies', route: `${API}/companies`, label: '/companies', hot: `${API}/companies` },
    {
      id: 'companies-tags',
      route: `${API}/companies`,
      label: '/companies?<tag filters>',
      hot: `${API}/companies?industry=healthcare&stage=series-a,series-b`,
      mixed: (r) => urls.companies(r),
    },
    {
      id: 'company',
      route: `${API}/companies/{id}`,
      label: '/companies/:id',
      hot: `${API}/companies/${urls.topCompany}`,
      mixed: (r) => urls.company(r),
    },
    {
      id: 'job',
      route: `${API}/jobs/{id}`,
      label: '/jobs/:id',
      hot: `${API}/jobs/${jobId}`,
      mixed: (r) => urls.job(r),
    },
    {
      id: 'company-hiring',
      route: `${API}/companies/{id}/hiring`,
      label: '/companies/:id/hiring',
      hot: `${API}/companies/${urls.topCompany}/hiring`,
      mixed: (r) => urls.companyHiring(r),
    },
    {
      id: 'trends',
      route: `${API}/trends`,
      label: '/trends',
      hot: `${API}/trends?client_facing=true`,
      mixed: (r) => urls.trends(r),
    },
    { id: 'tags', route: `${API}/tags`, label: '/tags', hot: `${API}/tags` },
    { id: 'stats', route: `${API}/stats`, label: '/stats', hot: `${API}/stats` },
  ];

  const scenarios: Scenario[] = [];
  endpoints.forEach((e, i) => {
    scenarios.push({
      id: `${e.id}:hot`,
      route: e.route,
      label: e.label,
      mode: 'hot',
      paths: [e.hot],
      connections,
      minRatio: TARGETS.hotRatio,
      maxP99Ms: TARGETS.p99Ms,
    });
    if (e.mixed) {
      const mixed = (id: string, label: string, paths: string[], diagnostic?: string) =>
        scenarios.push({
          id,
          route: e.route,
          label,
          mode: 'mixed',
          paths,
          connections,
          ...(diagnostic ? { diagnostic } : { minRatio: TARGETS.mixedRatio, maxP99Ms: TARGETS.p99Ms }),
        });
      // Search is the one row whose result hangs on the URL count: nearly every one of 10,000 distinct searches is
      // a fresh ranking, so that row measures the ranking's CPU, not the endpoint as a mixed run is defined.
      // The row at the minimum URL count of a mixed run is the judged one and runs first, on URLs of its own,
      // so the other row's rankings do not warm it; the 10,000-URL row stays in every report, without a target.
      if (e.id === 'jobs-search' && mixedUrls > MIN_MIXED_URLS) {
        mixed(
          `${e.id}:mixed-floor`,
          `${e.label} (mixed-run minimum, ${MIN_MIXED_URLS.toLocaleString('en-US')} URLs)`,
          distinctUrls(seed, 300, e.mixed, MIN_MIXED_URLS),
        );
        mixed(
          `${e.id}:mixed`,
          `${e.label} (cold searches)`,
          distinctUrls(seed, 100 + i, e.mixed, mixedUrls),
          'capacity for searches never seen before',
        );
      } else mixed(`${e.id}:mixed`, e.label, distinctUrls(seed, 100 + i, e.mixed, mixedUrls));
    }
  });
  scenarios.push({
    id: 'jobs-search:single',
    route: `${API}/jobs`,
    label: '/jobs?search=',
    mode: 'single client',
    paths: distinctUrls(seed, 200, (r) => urls.search(r), mixedUrls),
    connections: 1,
    maxP99Ms: TARGETS.searchSingleP99Ms,
  });
  scenarios.push({
    id: 'jobs-token:mixed',
    route: `${API}/jobs`,
    label: '/jobs, token tier (limit 50, window 1,000)',
    mode: 'mixed',
    paths: distinctUrls(seed, 201, (r) => urls.anyJobs(r, TOKEN_JOBS), mixedUrls),
    connections,
    headers: { authorization: `Bearer ${BENCH_TOKEN}` },
    minRatio: TARGETS.mixedRatio,
    maxP99Ms: TARGETS.p99Ms,
  });
  // As a browser or `curl --compressed` asks: the same /jobs rows with the service's compression in the path
  // (the other rows send no Accept-Encoding, like the bare route's client).
  const compressed = {
    route: `${API}/jobs`,
    label: '/jobs, Accept-Encoding: gzip, deflate, br',
    connections,
    headers: { 'accept-encoding': 'gzip, deflate, br' },
    maxP99Ms: TARGETS.p99Ms,
  };
  scenarios.push(
    { ...compressed, id: 'jobs-br:hot', mode: 'hot', paths: [`${API}/jobs`], minRatio: TARGETS.hotRatio },
    {
      ...compressed,
      id: 'jobs-br:mixed',
      mode: 'mixed',
      paths: distinctUrls(seed, 202, (r) => urls.anyJobs(r), mixedUrls),
      minRatio: TARGETS.mixedRatio,
    },
  );
  // The web site's /jobs page as a browser asks for it (HTML, compressed), beside the API's /jobs rows: the same
  // catalog service and response cache, with rendering on a miss. Its route is the page's (see PAGE_ROUTE).
  const page = {
    route: PAGE_ROUTE,
    label: '/jobs page (HTML), as a browser asks',
    connections,
    headers: { accept: BROWSER_ACCEPT, 'accept-encoding': 'gzip, deflate, br' },
    maxP99Ms: TARGETS.p99Ms,
  };
  scenarios.push(
    { ...page, id: 'page-jobs:hot', mode: 'hot', paths: ['/jobs'], minRatio: TARGETS.hotRatio },
    {
      ...page,
      id: 'page-jobs:mixed',
      mode: 'mixed',
      paths: distinctUrls(seed, 203, (r) => urls.jobsPage(r), mixedUrls),
      minRatio: TARGETS.mixedRatio,
    },
  );
  return scenarios;
}

/** What a browser sends as Accept for a page. */
export const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
/** The web site's /jobs page: not an API operation, so not in the OpenAPI document; run.ts probes for it. */
export const PAGE_ROUTE = 'page:/jobs';

/**
 * The bare Fastify route: before the service scenarios, with per-request URL building (client cost), after; and
 * the bare route answering a hot /jobs answer's bytes (the client's cost of a catalog answer, see bare-server.ts).
 */
export function bareScenarios(connections: number): {
  before: Scenario;
  mixedClient: Scenario;
  sized: Scenario;
  after: Scenario;
} {
  const base = { route: '/bare', label: 'bare Fastify route', connections };
  return {
    before: { ...base, id: 'bare:before', mode: 'hot', paths: ['/bare'] },
    mixedClient: {
      ...base,
      id: 'bare:mixed-client',
      label: 'bare route, URL drawn per request',
      mode: 'mixed',
      paths: Array.from({ length: 2_000 }, (_, i) => `/bare?page=${i}`),
    },
    sized: {
      ...base,
      route: '/bare-sized',
      id: 'bare:sized',
      label: 'bare route sending a hot /jobs answer',
      mode: 'hot',
      paths: ['/bare-sized'],
    },
    after: { ...base, id: 'bare:after', mode: 'hot', paths: ['/bare'] },
  };
}
