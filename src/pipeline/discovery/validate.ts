import { type HttpClient, OutboundError, type OutboundResponse } from '../../net/types.js';
import { loadHtml } from '../../sources/normalize/html.js';
import type { DiscoveryResult } from '../boards/types.js';
import { DomainError, normalizeDomain } from '../domain.js';
import { messageOf } from '../engine/view.js';
import blocklist from './blocklist.json' with { type: 'json' };

/**
 * Stage 3 of a promote run for one candidate: is the domain a company we can onboard? In order, cheapest first:
 * not a blocklisted platform; the site answers over HTTPS (through the guarded client, so SSRF rules, robots.txt
 * and the host map apply) without landing on another company or a platform; a careers page or job board is
 * found (board discovery, the same code onboarding uses). The first failed check is the reason.
 */

/** Machine-readable rejection reasons, stored on the candidate and counted in the run result. */
export const REJECTION_REASONS = [
  'blocklisted',
  'dns_unresolved',
  'unreachable',
  'timeout',
  'blocked_address',
  'robots_disallowed',
  'http_error',
  'redirects_elsewhere',
  'no_careers_page',
  'validation_error',
] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

export type Validation =
  | { qualified: true; siteName: string; careersUrl: string | null; boards: number }
  | { qualified: false; reason: RejectionReason; message: string };

export interface ValidatorOptions {
  http: HttpClient;
  /** Careers-page and ATS detection for a domain (src/pipeline/boards), given the homepage already fetched. */
  discoverBoards(domain: string, homepage: { url: string; html: string }): Promise<DiscoveryResult>;
  /** Budget of the homepage request including redirects, ms (default 15000): a live site answers in seconds. */
  fetchTimeoutMs?: number;
  /** Budget of the whole validation, ms (default 60000): board discovery probes several pages and vendors. */
  totalTimeoutMs?: number;
}

type Category = keyof Omit<typeof blocklist, '$comment'>;
const CATEGORY_NAMES: Record<Category, string> = {
  job_board: 'a job board or applicant-tracking vendor',
  social_network: 'a social network or directory',
  code_host: 'a code host',
  url_shortener: 'a URL shortener or link-in-bio page',
  personal_pages: 'a blog, personal-page or hosting platform',
};
const BLOCKED = new Map<string, Category>();
for (const [category, domains] of Object.entries(blocklist)) {
  if (category === '$comment' || !Array.isArray(domains)) continue;
  for (const d of domains) BLOCKED.set(d, category as Category);
}

/** The blocklist category of a domain or any parent of it, or null. */
export function blocklistCategory(domain: string): string | null {
  const labels = domain.split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    const hit = BLOCKED.get(labels.slice(i).join('.'));
    if (hit) return CATEGORY_NAMES[hit];
  }
  return null;
}

const HOMEPAGE_BYTES = 1024 * 1024;

function fromOutbound(err: OutboundError, what: string): Validation {
  const map: Partial<Record<OutboundError['reason'], RejectionReason>> = {
    dns: 'dns_unresolved',
    timeout: 'timeout',
    blocked_address: 'blocked_address',
    blocked_port: 'blocked_address',
    robots_disallowed: 'robots_disallowed',
    http_status: 'http_error',
  };
  return { qualified: false, reason: map[err.reason] ?? 'unreachable', message: `${what}: ${err.message}` };
}

/** og:site_name, else the <title>'s first segment, else the domain's first label capitalized. */
export function siteNameOf(html: string, domain: string): string {
  const $ = loadHtml(html);
  const og = $('meta[property="og:site_name"]').attr('content')?.trim();
  const title = $('title')
    .first()
    .text()
    .split(/\s+[|\u2013\u2014:·-]\s+/)[0]
    ?.trim();
  const fallback = domain.split('.')[0] ?? domain;
  const name = og || title || fallback.charAt(0).toUpperCase() + fallback.slice(1);
  return name.slice(0, 200);
}

const MAX_HOPS = 5;

/**
 * GET https://<domain>/, following redirects by hand: hops within the registrable domain are followed (the
 * client re-vets each), a hop to another domain ends the check without fetching it, so a platform or another
 * company's site is never crawled on this domain's behalf.
 */
async function fetchHomepage(domain: string, o: ValidatorOptions): Promise<OutboundResponse | Validation> {
  const deadline = Date.now() + (o.fetchTimeoutMs ?? 15_000);
  let url = `https://${domain}/`;
  for (let hop = 0; ; hop++) {
    let res: OutboundResponse;
    try {
      res = await o.http.request(url, {
        kind: 'page',
        timeoutMs: Math.max(1, deadline - Date.now()),
        maxBytes: HOMEPAGE_BYTES,
        followRedirects: false,
      });
    } catch (err) {
      if (err instanceof OutboundError) return fromOutbound(err, url);
      throw err;
    }
    const location = res.headers.location;
    if (res.status < 300 || res.status >= 400 || !location) {
      if (res.status >= 400) {
        return { qualified: false, reason: 'http_error', message: `${url} answered HTTP ${res.status}` };
      }
      return res;
    }
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      return { qualified: false, reason: 'unreachable', message: `${url} redirects to an invalid URL` };
    }
    let landed: string | null = null;
    try {
      landed = normalizeDomain(next.href);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
    }
    if (landed !== domain) {
      const where = landed ?? next.href;
      const platform = landed ? blocklistCategory(landed) : null;
      return platform
        ? { qualified: false, reason: 'blocklisted', message: `${domain} redirects to ${where}, ${platform}` }
        : {
            qualified: false,
            reason: 'redirects_elsewhere',
            message: `${domain} redirects to ${where}; submit that domain instead`,
          };
    }
    if (hop >= MAX_HOPS) {
      return {
        qualified: false,
        reason: 'unreachable',
        message: `${domain} redirects more than ${MAX_HOPS} times`,
      };
    }
    url = next.href;
  }
}

async function check(domain: string, o: ValidatorOptions): Promise<Validation> {
  const blocked = blocklistCategory(domain);
  if (blocked) return { qualified: false, reason: 'blocklisted', message: `${domain} is ${blocked}` };

  const home = await fetchHomepage(domain, o);
  if ('qualified' in home) return home;

  let boards: DiscoveryResult;
  try {
    boards = await o.discoverBoards(domain, { url: home.url, html: home.body });
  } catch (err) {
    if (err instanceof OutboundError) return fromOutbound(err, 'careers page discovery');
    // A vendor API failing mid-discovery (SourceError) or a bug: recorded, never fatal to the whole run.
    return {
      qualified: false,
      reason: 'validation_error',
      message: `careers page discovery failed: ${messageOf(err)}`,
    };
  }
  if (!boards.careersUrl && boards.boards.length === 0) {
    return {
      qualified: false,
      reason: 'no_careers_page',
      message: `no careers page or job board found on ${domain}`,
    };
  }
  return {
    qualified: true,
    siteName: siteNameOf(home.body, domain),
    careersUrl: boards.careersUrl,
    boards: boards.boards.length,
  };
}

/** Validates one domain within the total budget; running past it is a 'timeout' rejection. */
export async function validateDomain(domain: string, o: ValidatorOptions): Promise<Validation> {
  const budget = o.totalTimeoutMs ?? 60_000;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<Validation>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({ qualified: false, reason: 'timeout', message: `validation took longer than ${budget} ms` }),
      budget,
    );
  });
  try {
    return await Promise.race([check(domain, o), expired]);
  } finally {
    clearTimeout(timer);
  }
}
