/**
 * Facts read directly from a company's HTML: name, one-liner, description, social links, and the visible text
 * the lexicon scores. Pure functions over fetched pages.
 */
import { loadHtml } from '../../sources/normalize/html.js';
import { htmlToText } from '../../sources/normalize/text.js';
import type { FetchedPage, SocialLinks } from './types.js';

const PARSER = { xml: { xmlMode: false, decodeEntities: true } } as const;
/** A one-liner is a sentence, not a paragraph: cut at a sentence end before this many characters. */
const ONE_LINER_MAX = 200;
const DESCRIPTION_MAX = 1_200;

export interface PageFacts {
  name: string | null;
  oneLiner: string | null;
  description: string | null;
  social: SocialLinks;
  /** Title, meta and headings: weighted higher by the lexicon. */
  headline: string;
  /** Visible body text. */
  text: string;
  aboutUrl: string | null;
}

const clean = (s: string | undefined | null): string | null => {
  const t = (s ?? '').replace(/\s+/g, ' ').trim();
  return t.length > 0 ? t : null;
};

export function clip(s: string | null, max: number): string | null {
  if (!s || s.length <= max) return s;
  const cut = s.slice(0, max);
  const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('! '), cut.lastIndexOf('? '));
  return end > max / 3 ? cut.slice(0, end + 1) : `${cut.slice(0, cut.lastIndexOf(' ')).trim()}…`;
}

/** "Acme — AI for lawyers | Home" → the segment closest to the domain's label ("Acme"). */
function nameFromTitle(title: string | null, domain: string): string | null {
  if (!title) return null;
  const label = (domain.split('.')[0] ?? '').toLowerCase().replace(/[^a-z0-9]/g, '');
  const parts = title
    .split(/\s[|–—:·-]\s|\s[|]\s?/)
    .map((p) => p.trim())
    .filter(Boolean);
  const squash = (p: string) => p.toLowerCase().replace(/[^a-z0-9]/g, '');
  const exact = parts.find((p) => squash(p) === label);
  if (exact) return exact;
  const partial = parts.find(
    (p) => label.length > 2 && (squash(p).includes(label) || label.includes(squash(p))) && p.length <= 40,
  );
  return partial ?? null;
}

const SOCIAL: Array<[keyof SocialLinks, RegExp]> = [
  ['linkedin', /^https?:\/\/([a-z]{2,3}\.)?linkedin\.com\/company\/[^/?#\s]+/i],
  ['twitter', /^https?:\/\/(www\.)?(twitter|x)\.com\/(?!share|intent|home)[A-Za-z0-9_]{1,30}\/?$/i],
  ['github', /^https?:\/\/(www\.)?github\.com\/[A-Za-z0-9_.-]+\/?$/i],
  ['youtube', /^https?:\/\/(www\.)?youtube\.com\/(@|c\/|channel\/|user\/)[^?#\s]+/i],
  ['crunchbase', /^https?:\/\/(www\.)?crunchbase\.com\/organization\/[^/?#\s]+/i],
];

type Html = ReturnType<typeof loadHtml>;

/** The name of the first Organization or Corporation in the page's JSON-LD, if any. */
function jsonLdOrganizationName($: Html): string | null {
  let jsonLdName: string | null = null;
  $('script[type="application/ld+json"]').each((_, el) => {
    try {
      const data = JSON.parse($(el).text()) as unknown;
      for (const node of Array.isArray(data) ? data : [data]) {
        const n = node as { '@type'?: unknown; name?: unknown };
        if (
          !jsonLdName &&
          (n['@type'] === 'Organization' || n['@type'] === 'Corporation') &&
          typeof n.name === 'string'
        ) {
          jsonLdName = clean(n.name);
        }
      }
    } catch {
      // Broken JSON-LD is common on real sites; the other signals still apply.
    }
  });
  return jsonLdName;
}

/** Distinct paragraphs long enough to describe the company, without cookie and legal boilerplate. */
function bodyParagraphs($: Html): string[] {
  const paragraphs: string[] = [];
  $('main p, article p, section p, body p').each((_, el) => {
    const t = clean($(el).text());
    if (
      t &&
      t.length >= 60 &&
      !paragraphs.includes(t) &&
      !/cookie|privacy policy|all rights reserved/i.test(t)
    )
      paragraphs.push(t);
  });
  return paragraphs;
}

/** The first link to each social profile, and the first same-host "about" page. */
function pageLinks($: Html, pageUrl: string): { social: SocialLinks; aboutUrl: string | null } {
  const social: SocialLinks = {
    linkedin: null,
    twitter: null,
    github: null,
    youtube: null,
    crunchbase: null,
  };
  let aboutUrl: string | null = null;
  $('a[href]').each((_, el) => {
    const href = $(el).attr('href') ?? '';
    let abs: URL;
    try {
      abs = new URL(href, pageUrl);
    } catch {
      return;
    }
    for (const [key, re] of SOCIAL)
      if (!social[key] && re.test(abs.href)) social[key] = abs.href.replace(/\/$/, '');
    const text = $(el).text().trim().toLowerCase();
    const sameHost = abs.hostname.replace(/^www\./, '') === new URL(pageUrl).hostname.replace(/^www\./, '');
    if (
      !aboutUrl &&
      sameHost &&
      (/^\/(about|about-us|company|our-story)\/?$/i.test(abs.pathname) || /^about( us)?$/.test(text))
    ) {
      aboutUrl = abs.href;
    }
  });
  return { social, aboutUrl };
}

export function extractPage(page: FetchedPage, domain: string): PageFacts {
  const $ = loadHtml(page.html, PARSER);
  const meta = (sel: string) => clean($(sel).attr('content'));
  const title = clean($('title').first().text());
  const h1 = clean($('h1').first().text());
  const name =
    meta('meta[property="og:site_name"]') ??
    jsonLdOrganizationName($) ??
    meta('meta[name="application-name"]') ??
    nameFromTitle(title, domain);

  const description =
    meta('meta[name="description"]') ??
    meta('meta[property="og:description"]') ??
    meta('meta[name="twitter:description"]');
  const paragraphs = bodyParagraphs($);
  const { social, aboutUrl } = pageLinks($, page.url);

  const headline = [
    title,
    description,
    meta('meta[property="og:title"]'),
    h1,
    ...$('h2')
      .map((_, el) => $(el).text())
      .get()
      .slice(0, 6),
  ]
    .filter(Boolean)
    .join(' . ');
  $('script, style, noscript, svg, nav, footer').remove();
  const text = htmlToText($('body').html() ?? '').slice(0, 50_000);

  return {
    name: clip(name, 80),
    oneLiner: clip(description ?? h1, ONE_LINER_MAX),
    description: clip(paragraphs.slice(0, 3).join(' ') || null, DESCRIPTION_MAX),
    social,
    headline,
    text,
    aboutUrl,
  };
}
