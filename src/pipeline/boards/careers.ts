/**
 * Finding a company's careers page(s), cheapest first (docs/sources.md): links on the homepage scored by
 * keyword and host, then common paths and careers./jobs. subdomains, then the sitemap.
 */

import { getDomain } from 'tldts';
import type { HttpClient, OutboundResponse } from '../../net/types.js';
import { OutboundError } from '../../net/types.js';
import { loadHtml } from '../../sources/normalize/html.js';

const KEYWORDS =
  /\b(careers?|jobs?|join(?:[- ]us)?|work(?:ing)?[- ](?:with|for|at)[- ]us|hiring|open[- ](?:positions|roles)|opportunities|vacancies|we'?re[- ]hiring)\b/i;
const ATS_HOSTS =
  /(greenhouse\.io|lever\.co|ashbyhq\.com|workable\.com|smartrecruiters\.com|recruitee\.com|myworkdayjobs\.com|jobs\.personio\.(?:de|com)|bamboohr\.com|breezy\.hr|pinpointhq\.com|jobs\.gem\.com|api\.gem\.com|ats\.rippling\.com|api\.rippling\.com)$/i;

/** Hosts of the supported vendors: links there are detected, never fetched as pages. */
export const isAtsHost = (url: string): boolean => ATS_HOSTS.test(new URL(url).hostname);
const COMMON_PATHS = [
  '/careers',
  '/jobs',
  '/company/careers',
  '/about/careers',
  '/join-us',
  '/join',
  '/work-with-us',
  '/careers/jobs',
  '/opportunities',
  '/vacancies',
];
/** Candidate careers pages examined per company: enough for a careers page plus a jobs sub-page or two. */
export const MAX_CAREERS_PAGES = 3;
/** Careers pages are HTML; 3 MB is generous, and sitemaps get the same cap (one index + 3 children). */
const PAGE_MAX_BYTES = 3 * 1024 * 1024;

export interface ScoredLink {
  url: string;
  score: number;
}

/** Links on a page that look like careers pages, best first. */
export function careersLinks(html: string, pageUrl: string): ScoredLink[] {
  const $ = loadHtml(html, { xml: { xmlMode: false, decodeEntities: true } }, false);
  const site = getDomain(new URL(pageUrl).hostname);
  const best = new Map<string, number>();
  $('a[href]').each((_, el) => {
    const href = $(el).attr('href') ?? '';
    let url: URL;
    try {
      url = new URL(href, pageUrl);
    } catch {
      return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
    const sameSite = getDomain(url.hostname) === site;
    const atsHost = ATS_HOSTS.test(url.hostname);
    if (!sameSite && !atsHost) return;
    const text = $(el).text().trim();
    const inPath =
      KEYWORDS.test(decodeURIComponent(url.pathname).replace(/[/_]/g, ' ')) ||
      /^(careers|jobs)\./i.test(url.hostname);
    const inText = KEYWORDS.test(text);
    if (!inPath && !inText && !atsHost) return;
    const depth = url.pathname.split('/').filter(Boolean).length;
    const score = (atsHost ? 6 : 0) + (inPath ? 4 : 0) + (inText ? 2 : 0) + Math.max(0, 3 - depth);
    url.hash = '';
    const key = url.href;
    best.set(key, Math.max(best.get(key) ?? 0, score));
  });
  return [...best.entries()]
    .map(([url, score]) => ({ url, score }))
    .sort((a, b) => b.score - a.score || a.url.length - b.url.length);
}

/** Fetches a page; null for 4xx/5xx, refused and unreachable pages (one bad candidate must not end discovery). */
export async function tryFetch(client: HttpClient, url: string): Promise<OutboundResponse | null> {
  try {
    const res = await client.request(url, { maxBytes: PAGE_MAX_BYTES, timeoutMs: 20_000 });
    return res.status >= 200 && res.status < 300 ? res : null;
  } catch (err) {
    if (err instanceof OutboundError) return null;
    throw err;
  }
}

/** The first careers page found by probing common paths, then careers./jobs. subdomains; null when none. */
export async function probeCommonPaths(
  client: HttpClient,
  domain: string,
  homepageUrl: string,
): Promise<OutboundResponse | null> {
  const home = new URL(homepageUrl);
  const urls = [
    ...COMMON_PATHS.map((p) => `${home.origin}${p}`),
    `https://careers.${domain}/`,
    `https://jobs.${domain}/`,
  ];
  for (const url of urls) {
    const res = await tryFetch(client, url);
    if (!res) continue;
    // Sites that redirect unknown paths to their homepage have no careers page there.
    const landed = new URL(res.url);
    if (landed.hostname === home.hostname && landed.pathname === '/') continue;
    return res;
  }
  return null;
}

/** Careers-looking URLs from /sitemap.xml (following a sitemap index one level, at most 3 children). */
export async function sitemapCareersUrls(client: HttpClient, homepageUrl: string): Promise<string[]> {
  const origin = new URL(homepageUrl).origin;
  const root = await tryFetch(client, `${origin}/sitemap.xml`);
  if (!root) return [];
  const locs = (xml: string) => [...xml.matchAll(/<loc>\s*([^<\s]+)\s*<\/loc>/gi)].map((m) => m[1] ?? '');
  let urls = locs(root.body);
  if (/<sitemapindex/i.test(root.body)) {
    const children = urls
      .filter((u) => /career|job|page/i.test(u))
      .concat(urls)
      .slice(0, 3);
    urls = [];
    for (const child of [...new Set(children)]) {
      const res = await tryFetch(client, child);
      if (res) urls.push(...locs(res.body));
    }
  }
  return urls
    .filter((u) => /\/(careers?|jobs?|join-us|open-positions)(\/|$)/i.test(new URL(u, origin).pathname))
    .sort((a, b) => a.length - b.length)
    .slice(0, MAX_CAREERS_PAGES);
}
