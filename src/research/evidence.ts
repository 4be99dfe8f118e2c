import { parse as parseDomain } from 'tldts';
import { type HttpClient, OutboundError } from '../net/types.js';
import { loadHtml } from '../sources/normalize/html.js';
import type { ResearchMode } from './dossier.js';
import { peopleOf } from './people.js';
import { type EvidencePage, ResearchError, type ResearchSubject } from './types.js';

/**
 * Evidence gathering for the LLM and local providers: the homepage, then the company's own about / team / press
 * / blog pages, found through the homepage's links and the sitemap. Only pages on the company's registrable
 * domain are read, through the guarded outbound client (robots.txt, SSRF checks, size caps).
 */

export interface GatherOptions {
  http: HttpClient;
  /** Pages read per mode, homepage included (defaults: full 8, fast 3). */
  maxPages?: Record<ResearchMode, number>;
  /** Characters of visible text kept per page (default 20000): enough for a team page, bounded for prompts. */
  maxTextChars?: number;
  /** Per-page budget, ms (default 15000). */
  pageTimeoutMs?: number;
}

export interface GatheredPages {
  pages: EvidencePage[];
  failures: { url: string; reason: string }[];
}

/** Path/text keywords by page kind, most useful kind first: team pages name founders and leaders. */
const KINDS: { kind: string; re: RegExp }[] = [
  { kind: 'team', re: /\b(team|leadership|founders?|people|management|our-team|who-we-are)\b/i },
  { kind: 'about', re: /\b(about|about-us|company|story|mission)\b/i },
  { kind: 'press', re: /\b(press|news|newsroom|media|announcements?)\b/i },
  { kind: 'blog', re: /\b(blog)\b/i },
  { kind: 'contact', re: /\b(contact|contact-us|locations?|offices?)\b/i },
];
const KIND_RANK = new Map(KINDS.map((k, i) => [k.kind, i]));

function kindOf(url: URL, text: string): string | null {
  const path = url.pathname.replace(/[/_.]+/g, ' ');
  for (const { kind, re } of KINDS) if (re.test(path)) return kind;
  for (const { kind, re } of KINDS) if (re.test(text)) return kind;
  return null;
}

const sameSite = (url: URL, domain: string): boolean =>
  parseDomain(url.hostname, { allowPrivateDomains: true }).domain === domain;

/** Drops fragments and query strings so one page is read once. */
const canonical = (url: URL): string => `${url.origin}${url.pathname.replace(/\/+$/, '') || '/'}`;

export function readPage(url: string, kind: string, html: string, maxTextChars: number): EvidencePage {
  const $ = loadHtml(html);
  const jsonLd: unknown[] = [];
  $('script[type="application/ld+json"]').each((_, el) => {
    try {
      const parsed = JSON.parse($(el).text()) as unknown;
      for (const item of Array.isArray(parsed) ? parsed : [parsed]) {
        const graph = (item as { '@graph'?: unknown })?.['@graph'];
        if (Array.isArray(graph)) jsonLd.push(...graph);
        else jsonLd.push(item);
      }
    } catch {
      // Malformed JSON-LD is common on real sites; the rest of the page still counts.
    }
  });
  const people = peopleOf($, url);
  const meta =
    $('meta[name="description"]').attr('content') ??
    $('meta[property="og:description"]').attr('content') ??
    null;
  $('script, style, noscript, svg, template').remove();
  // Block elements end with a newline so sentences of different cards do not run together.
  $('p, li, h1, h2, h3, h4, h5, h6, div, section, article, br, tr').append('\n');
  const text = $('body')
    .text()
    .replace(/[ \t\r\f\v]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim();
  return {
    url,
    kind,
    title: $('title').first().text().trim() || null,
    metaDescription: meta?.trim() || null,
    text: text.slice(0, maxTextChars),
    jsonLd,
    people,
  };
}

function linksOf(html: string, base: string): { url: URL; text: string }[] {
  const $ = loadHtml(html);
  const out: { url: URL; text: string }[] = [];
  $('a[href]').each((_, el) => {
    try {
      const url = new URL($(el).attr('href') ?? '', base);
      if (url.protocol === 'http:' || url.protocol === 'https:') out.push({ url, text: $(el).text().trim() });
    } catch {
      // An unparsable href is skipped.
    }
  });
  return out;
}

function sitemapUrls(xml: string): string[] {
  return [...xml.matchAll(/<loc>\s*([^<\s]+)\s*<\/loc>/gi)].map((m) => m[1] ?? '').filter(Boolean);
}

export async function gatherPages(
  subject: ResearchSubject,
  mode: ResearchMode,
  opts: GatherOptions,
): Promise<GatheredPages> {
  const maxPages = (opts.maxPages ?? { full: 8, fast: 3 })[mode];
  const maxText = opts.maxTextChars ?? 20_000;
  const timeoutMs = opts.pageTimeoutMs ?? 15_000;
  const failures: { url: string; reason: string }[] = [];
  const home = subject.website ?? `https://${subject.domain}/`;

  /** Whether the last failure may pass on a later attempt (429/5xx, timeouts, resets). */
  let transient = false;
  /** A failed fetch is recorded (the report lists it) unless `quiet`: a missing sitemap is normal. */
  const fetchHtml = async (url: string, quiet = false): Promise<{ url: string; html: string } | null> => {
    try {
      const res = await opts.http.request(url, { kind: 'page', timeoutMs, maxBytes: 2 * 1024 * 1024 });
      if (res.status >= 200 && res.status <= 299) return { url: res.url, html: res.body };
      transient = res.status === 429 || res.status >= 500;
      if (!quiet) failures.push({ url, reason: `HTTP ${res.status}` });
    } catch (err) {
      transient = err instanceof OutboundError && err.retryable;
      if (!quiet) failures.push({ url, reason: err instanceof Error ? err.message : String(err) });
    }
    return null;
  };

  const homepage = await fetchHtml(home);
  // Without the homepage there is nothing of the company's own to read.
  if (!homepage) {
    throw new ResearchError(`could not read ${home}: ${failures[0]?.reason ?? 'no response'}`, transient);
  }
  const pages = [readPage(homepage.url, 'home', homepage.html, maxText)];
  const seen = new Set([canonical(new URL(homepage.url))]);

  const candidates = new Map<string, { url: string; kind: string; fromLink: boolean }>();
  const consider = (url: URL, text: string, fromLink: boolean) => {
    if (!sameSite(url, subject.domain)) return;
    const key = canonical(url);
    if (seen.has(key) || candidates.has(key)) return;
    const kind = kindOf(url, text);
    if (kind) candidates.set(key, { url: key, kind, fromLink });
  };
  for (const link of linksOf(homepage.html, homepage.url)) consider(link.url, link.text, true);
  if (mode === 'full' || candidates.size < maxPages - 1) {
    const sitemap = await fetchHtml(new URL('/sitemap.xml', homepage.url).href, true);
    for (const loc of sitemap ? sitemapUrls(sitemap.html).slice(0, 5_000) : []) {
      try {
        consider(new URL(loc), '', false);
      } catch {
        // Bad <loc> entries are skipped.
      }
    }
  }
  // Team and about pages first; among equals, pages linked from the homepage, then the shortest path.
  const ranked = [...candidates.values()].sort(
    (a, b) =>
      (KIND_RANK.get(a.kind) ?? 99) - (KIND_RANK.get(b.kind) ?? 99) ||
      Number(b.fromLink) - Number(a.fromLink) ||
      a.url.length - b.url.length,
  );
  for (const c of ranked) {
    if (pages.length >= maxPages) break;
    const got = await fetchHtml(c.url);
    if (!got) continue;
    seen.add(canonical(new URL(got.url)));
    pages.push(readPage(got.url, c.kind, got.html, maxText));
  }
  return { pages, failures };
}
