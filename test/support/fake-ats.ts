/**
 * A fake of six ATS vendors' public APIs on one real node:http server (127.0.0.1, port 0), dispatching on the
 * Host header the outbound client preserves. Point the client at it with the returned `hostMap`
 * (OUTBOUND_HOST_MAP). Usable from tests and from scripts (the demo):
 *
 *   const ats = await startFakeAts({ greenhouse: { acme: generatePostings(20) } });
 *   createOutboundClient({ userAgentContact, hostMap: ats.hostMap });
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Provider } from '../../src/sources/types.js';
import { rateLimitHeaders, shapeForRequest } from './fake-ats-flags.js';
import {
  ashbyJob,
  type FakePosting,
  greenhouseJob,
  leverPosting,
  recruiteeOffer,
  smartRecruitersDetail,
  smartRecruitersPosting,
  workableV3Job,
  workableWidgetJob,
} from './fake-ats-render.js';

import { VENDOR_FAKES, vendorFakeFor, vendorIo } from './fake-vendors.js';

export type { FakePosting } from './fake-ats-render.js';

export type FakeAtsSpec = Partial<Record<Provider, Record<string, FakePosting[]>>>;

export interface FakeFailure {
  status: number;
  retryAfter?: string;
  body?: string;
}

export interface FakeAts {
  origin: string;
  /** host → origin for every vendor host; '.recruitee.com' covers every Recruitee subdomain. */
  hostMap: Record<string, string>;
  /** Every request received, in order, with when it arrived (performance.now(), ms). */
  requests: Array<{ host: string; method: string; path: string; at: number }>;
  /** The most requests one host (without port) had in flight at once. */
  peakInFlight: Map<string, number>;
  /** Every later response of the vendor is sent this many ms late (a slow host). */
  slow(provider: Provider, ms: number): void;
  setBoard(provider: Provider, token: string, postings: FakePosting[]): void;
  removeBoard(provider: Provider, token: string): void;
  /** Serves `body` verbatim (status 200 unless given) for the board's list endpoint: recorded fixtures, malformed payloads. */
  setRaw(provider: Provider, token: string, body: string, status?: number): void;
  /** The next requests to the vendor's host get these responses, one per request, before normal service. */
  failNext(provider: Provider, ...failures: FakeFailure[]): void;
  /** Serves `body` verbatim for one posting's detail call (SmartRecruiters, Workable v3) of a board set raw. */
  setRawDetail(provider: Provider, token: string, id: string, body: string): void;
  /** Makes the Workable v1 widget answer 404 for an account so the adapter falls back to the v3 API. */
  disableWorkableWidget(token: string): void;
  close(): Promise<void>;
}

const HOSTS: Partial<Record<Provider, string>> = {
  greenhouse: 'boards-api.greenhouse.io',
  lever: 'api.lever.co',
  ashby: 'api.ashbyhq.com',
  workable: 'apply.workable.com',
  smartrecruiters: 'api.smartrecruiters.com',
};
const WORKABLE_V3_PAGE = 10;
const SR_MAX_LIMIT = 100;

/** EU API hosts answer like the global ones (docs/sources.md). */
const EU_HOSTS: Record<string, Provider> = {
  'boards-api.eu.greenhouse.io': 'greenhouse',
  'api.eu.lever.co': 'lever',
};

function providerOf(host: string): { provider: Provider; sub?: string } | null {
  const h = host.toLowerCase().replace(/:\d+$/, '');
  for (const [p, name] of Object.entries(HOSTS)) if (name === h) return { provider: p as Provider };
  const eu = EU_HOSTS[h];
  if (eu) return { provider: eu };
  const m = /^([a-z0-9-]+)\.recruitee\.com$/.exec(h);
  const vendor = vendorFakeFor(h);
  return m ? { provider: 'recruitee', sub: m[1] } : vendor ? { provider: vendor.provider, sub: h } : null;
}

/** The JSON value of a recorded body, or undefined when it is not JSON (malformed payloads are served verbatim). */
function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

export async function startFakeAts(spec: FakeAtsSpec = {}): Promise<FakeAts> {
  const boards = new Map<string, FakePosting[]>();
  const raw = new Map<string, { body: string; status: number }>();
  const rawDetails = new Map<string, string>();
  const failures = new Map<Provider, FakeFailure[]>();
  const noWidget = new Set<string>();
  const requests: FakeAts['requests'] = [];
  const inFlight = new Map<string, number>();
  const peakInFlight = new Map<string, number>();
  const slowMs = new Map<Provider, number>();
  const key = (p: Provider, t: string) => `${p}:${decodeURIComponent(t).toLowerCase()}`;
  for (const [p, byToken] of Object.entries(spec)) {
    for (const [t, postings] of Object.entries(byToken ?? {})) boards.set(key(p as Provider, t), postings);
  }

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };

  const handle = (req: IncomingMessage, res: ServerResponse, reqBody: string) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const host = req.headers.host ?? '';
    requests.push({
      host,
      method: req.method ?? 'GET',
      path: `${url.pathname}${url.search}`,
      at: performance.now(),
    });
    const who = providerOf(host);
    if (!who) return send(res, 404, { error: `fake ATS does not serve host ${host}` });
    const late = slowMs.get(who.provider);
    if (late) return void setTimeout(() => respond(req, res, reqBody, url, who), late);
    return respond(req, res, reqBody, url, who);
  };

  const respond = (
    req: IncomingMessage,
    res: ServerResponse,
    reqBody: string,
    url: URL,
    who: { provider: Provider; sub?: string },
  ) => {
    const { provider } = who;
    const fail = failures.get(provider)?.shift();
    if (fail) {
      const headers =
        fail.status === 429
          ? rateLimitHeaders(provider, fail.retryAfter)
          : fail.retryAfter
            ? { 'retry-after': fail.retryAfter }
            : {};
      return send(res, fail.status, fail.body ?? { error: 'fake failure' }, headers);
    }
    const seg = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const board = (token: string) => boards.get(key(provider, token));
    const rawFor = (token: string) => raw.get(key(provider, token));
    const notFound = () =>
      send(
        res,
        404,
        provider === 'lever'
          ? { ok: false, error: 'Document not found' }
          : { status: 404, error: 'Not found' },
      );
    /** Answers with the board's JSON as the request's flags shape it (fake-ats-flags.ts). */
    const answer = (body: unknown) => {
      const shaped = shapeForRequest(provider, url, body, provider === 'workable');
      if ('html' in shaped) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(shaped.html);
      }
      return send(res, 200, shaped.json);
    };
    const serve = (token: string, render: (postings: FakePosting[]) => unknown) => {
      const r = rawFor(token);
      if (r) {
        const parsed = r.status === 200 ? parseJson(r.body) : undefined;
        return parsed === undefined ? send(res, r.status, r.body) : answer(parsed);
      }
      const postings = board(token);
      return postings ? answer(render(postings)) : notFound();
    };

    switch (provider) {
      case 'greenhouse':
        if (seg[0] === 'v1' && seg[1] === 'boards' && seg[2] && seg[3] === 'jobs' && seg.length === 4) {
          const token = seg[2];
          return serve(token, (ps) => ({
            jobs: ps.map((p) => greenhouseJob(token, p)),
            meta: { total: ps.length },
          }));
        }
        return notFound();
      case 'lever':
        if (seg[0] === 'v0' && seg[1] === 'postings' && seg[2] && seg.length === 3) {
          const site = seg[2];
          const skip = Number(url.searchParams.get('skip') ?? 0);
          const limit = Number(url.searchParams.get('limit') ?? 1000);
          return serve(site, (ps) => ps.slice(skip, skip + limit).map((p) => leverPosting(site, p)));
        }
        return notFound();
      case 'ashby':
        if (seg[0] === 'posting-api' && seg[1] === 'job-board' && seg[2] && seg.length === 3) {
          const name = seg[2];
          return serve(name, (ps) => ({ apiVersion: '1', jobs: ps.map((p) => ashbyJob(name, p)) }));
        }
        return notFound();
      case 'workable': {
        if (
          seg[0] === 'api' &&
          seg[1] === 'v1' &&
          seg[2] === 'widget' &&
          seg[3] === 'accounts' &&
          seg[4] &&
          seg.length === 5
        ) {
          const sub = seg[4];
          if (noWidget.has(key(provider, sub))) return notFound();
          return serve(sub, (ps) => ({ name: sub, description: null, jobs: ps.map(workableWidgetJob) }));
        }
        if (seg[0] === 'api' && seg[1] === 'v3' && seg[2] === 'accounts' && seg[3] && seg[4] === 'jobs') {
          const postings = board(seg[3]);
          if (!postings) return notFound();
          if (seg.length === 5 && req.method === 'POST') {
            const token = (JSON.parse(reqBody || '{}') as { token?: string }).token;
            const start = token ? Number(token) : 0;
            const slice = postings.slice(start, start + WORKABLE_V3_PAGE);
            const next =
              start + WORKABLE_V3_PAGE < postings.length ? String(start + WORKABLE_V3_PAGE) : undefined;
            return send(res, 200, {
              total: postings.length,
              results: slice.map(workableV3Job),
              ...(next ? { nextPage: next } : {}),
            });
          }
          const one = seg.length === 6 ? postings.find((p) => p.id === seg[5]) : undefined;
          if (one) {
            return send(res, 200, {
              ...workableV3Job(one),
              description: one.descriptionHtml ?? '',
              requirements: '<ul><li>Curiosity</li></ul>',
              benefits: '',
            });
          }
        }
        return notFound();
      }
      case 'smartrecruiters': {
        if (seg[0] === 'v1' && seg[1] === 'companies' && seg[2] && seg[3] === 'postings') {
          const company = seg[2];
          if (seg.length === 4) {
            const offset = Number(url.searchParams.get('offset') ?? 0);
            const limit = Math.min(SR_MAX_LIMIT, Number(url.searchParams.get('limit') ?? 10));
            return serve(company, (ps) => ({
              offset,
              limit,
              totalFound: ps.length,
              content: ps.slice(offset, offset + limit).map((p) => smartRecruitersPosting(company, p)),
            }));
          }
          const recorded =
            seg.length === 5 ? rawDetails.get(`${key(provider, company)}/${seg[4]}`) : undefined;
          if (recorded) return send(res, 200, recorded);
          const one = seg.length === 5 ? board(company)?.find((p) => p.id === seg[4]) : undefined;
          if (one) return send(res, 200, smartRecruitersDetail(company, one));
        }
        return notFound();
      }
      case 'recruitee':
        if (seg[0] === 'api' && seg[1] === 'offers' && seg.length === 2 && who.sub) {
          const sub = who.sub;
          return serve(sub, (ps) => ({ offers: ps.map((p) => recruiteeOffer(sub, p)) }));
        }
        return notFound();
      default:
        return vendorFakeFor(who.sub ?? '')?.handle(
          { host: who.sub ?? '', method: req.method ?? 'GET', url, seg, body: reqBody },
          vendorIo({ board, raw: rawFor, send: (st, b, h) => send(res, st, b, h), notFound }),
        );
    }
  };

  const server = createServer((req, res) => {
    const h = (req.headers.host ?? '').toLowerCase().replace(/:\d+$/, '');
    const now = (inFlight.get(h) ?? 0) + 1;
    inFlight.set(h, now);
    peakInFlight.set(h, Math.max(peakInFlight.get(h) ?? 0, now));
    res.on('close', () => inFlight.set(h, (inFlight.get(h) ?? 1) - 1));
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const hostMap: Record<string, string> = {};
  for (const h of [...Object.values(HOSTS), ...Object.keys(EU_HOSTS)]) hostMap[h] = origin;
  // Every Recruitee subdomain, present or not, so an unknown board answers 404 from the fake.
  hostMap['.recruitee.com'] = origin;
  for (const host of VENDOR_FAKES.flatMap((f) => f.hosts)) hostMap[host] = origin;

  return {
    origin,
    hostMap,
    requests,
    peakInFlight,
    slow(provider, ms) {
      slowMs.set(provider, ms);
    },
    setBoard(provider, token, postings) {
      boards.set(key(provider, token), postings);
    },
    removeBoard(provider, token) {
      boards.delete(key(provider, token));
      raw.delete(key(provider, token));
    },
    setRaw(provider, token, body, status = 200) {
      raw.set(key(provider, token), { body, status });
    },
    failNext(provider, ...list) {
      failures.set(provider, [...(failures.get(provider) ?? []), ...list]);
    },
    setRawDetail(provider, token, id, body) {
      rawDetails.set(`${key(provider, token)}/${id}`, body);
    },
    disableWorkableWidget(token) {
      noWidget.add(key('workable', token));
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

const TITLES = [
  'Forward Deployed Engineer',
  'Solutions Architect',
  'Senior Software Engineer, Backend',
  'Customer Success Manager',
  'Technical Account Manager',
  'Account Executive, Enterprise',
  'Product Designer',
  'Implementation Manager',
  'Data Scientist',
  'Sales Engineer',
  'Product Manager, Platform',
  'Recruiter',
  'Engagement Manager',
  'Machine Learning Engineer',
  'Product Marketing Manager',
  'Senior Accountant',
  'Legal Counsel',
];
const DEPARTMENTS = [
  'Engineering',
  'Go To Market',
  'Customer Success',
  'Product',
  'Sales',
  'People',
  'Finance',
  'Legal',
];
const LOCATIONS = [
  'San Francisco, CA, United States',
  'New York, NY, United States',
  'London, England, United Kingdom',
  'Berlin, Berlin, Germany',
];

/** Deterministic, realistic-looking postings for throughput tests and the demo. */
export function generatePostings(count: number, prefix = ''): FakePosting[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `${prefix}${100000 + i}`,
    title: TITLES[i % TITLES.length] ?? 'Engineer',
    department: DEPARTMENTS[i % DEPARTMENTS.length],
    location: LOCATIONS[i % LOCATIONS.length],
    remote: i % 3 === 0,
    postedAt: new Date(Date.UTC(2026, 9, 1) + i * 3_600_000).toISOString(),
    descriptionHtml: `<h2>About the role</h2><p>Join us &amp; help customers adopt AI (posting ${i}).</p><ul><li>Build</li><li>Ship</li></ul>`,
    ...(i % 4 === 0 ? { salary: { min: 150000, max: 190000, currency: 'USD' } } : {}),
  }));
}
