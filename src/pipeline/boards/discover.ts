/**
 * Board discovery for one company: homepage → careers page(s) → ATS candidates → validation against the
 * vendor API. Only boards the vendor confirms are returned; a retryable vendor failure (429/5xx/timeouts)
 * propagates so the workflow step retries rather than recording "no boards".
 */
import type { HttpClient, OutboundResponse } from '../../net/types.js';
import { getAdapter } from '../../sources/index.js';
import { SourceError } from '../../sources/types.js';
import {
  careersLinks,
  isAtsHost,
  MAX_CAREERS_PAGES,
  probeCommonPaths,
  sitemapCareersUrls,
  tryFetch,
} from './careers.js';
import { type BoardCandidate, detectBoards } from './detect.js';
import type { DetectedBoard, DiscoveryResult } from './types.js';

export interface DiscoverOptions {
  /** The homepage, when the caller already fetched it (the enrich step does), to save a request. */
  homepage?: { url: string; html: string };
}

async function fetchHomepage(
  client: HttpClient,
  domain: string,
): Promise<{ url: string; html: string } | null> {
  for (const url of [`https://${domain}/`, `https://www.${domain}/`]) {
    const res = await tryFetch(client, url);
    if (res) return { url: res.url, html: res.body };
  }
  return null;
}

/** The board URL to record: the human-facing URL on the host the evidence used (keeps EU hosts EU). */
function boardUrl(c: BoardCandidate): string {
  const base = getAdapter(c.provider).boardUrl(c.token);
  if (/\.eu\.greenhouse\.io/i.test(c.source))
    return base.replace('boards.greenhouse.io', 'job-boards.eu.greenhouse.io');
  if (/\.eu\.lever\.co/i.test(c.source)) return base.replace('jobs.lever.co', 'jobs.eu.lever.co');
  return base;
}

export async function discoverBoards(
  domain: string,
  client: HttpClient,
  opts: DiscoverOptions = {},
): Promise<DiscoveryResult> {
  const home = opts.homepage ?? (await fetchHomepage(client, domain));
  const candidates: Array<BoardCandidate & { foundOn: string }> = [];
  const pagesSeen = new Set<string>();
  let careersUrl: string | null = null;

  const examine = (page: { url: string; html: string }) => {
    pagesSeen.add(page.url);
    for (const c of detectBoards(page.html, page.url)) candidates.push({ ...c, foundOn: page.url });
  };

  if (home) {
    examine(home);
    const links = careersLinks(home.html, home.url)
      .filter((l) => !isAtsHost(l.url))
      .slice(0, MAX_CAREERS_PAGES);
    let pages: OutboundResponse[] = [];
    for (const link of links) {
      if (pagesSeen.has(link.url)) continue;
      const res = await tryFetch(client, link.url);
      if (res) pages.push(res);
    }
    if (pages.length === 0) {
      const probed = await probeCommonPaths(client, domain, home.url);
      if (probed) pages = [probed];
    }
    if (pages.length === 0) {
      for (const url of await sitemapCareersUrls(client, home.url)) {
        const res = await tryFetch(client, url);
        if (res) pages.push(res);
      }
    }
    for (const page of pages) {
      careersUrl ??= page.url;
      examine({ url: page.url, html: page.body });
      // One level deeper: careers pages often link to an "Open positions" page that holds the embed.
      if (detectBoards(page.body, page.url).length === 0) {
        const next = careersLinks(page.body, page.url).find(
          (l) => !pagesSeen.has(l.url) && !isAtsHost(l.url),
        );
        const res = next ? await tryFetch(client, next.url) : null;
        if (res) examine({ url: res.url, html: res.body });
      }
    }
  }

  const boards: DetectedBoard[] = [];
  const rejected: DiscoveryResult['rejected'] = [];
  const validated = new Set<string>();
  for (const c of candidates) {
    const key = `${c.provider}:${c.token.toLowerCase()}`;
    if (validated.has(key)) continue;
    validated.add(key);
    const ref = { provider: c.provider, token: c.token, url: boardUrl(c) };
    try {
      const postingCount = await getAdapter(c.provider).countPostings(ref, client);
      boards.push({ ...ref, evidence: c.evidence, foundOn: c.foundOn, postingCount });
    } catch (err) {
      if (err instanceof SourceError && !err.retryable) {
        rejected.push({ provider: c.provider, token: c.token, reason: err.message });
        continue;
      }
      throw err;
    }
  }
  return { careersUrl, boards, rejected };
}
