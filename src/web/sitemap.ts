import { isWebUrl } from '../net/web-url.js';
/** The sitemaps protocol (sitemaps.org): at most 50,000 URLs in one file. */
export const SITEMAP_MAX_URLS = 50_000;

const escapeXml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!,
  );

export interface SitemapEntry {
  path: string;
  /** ISO 8601; absent when unknown. */
  lastmod?: string;
}

export function sitemapXml(origin: string, entries: readonly SitemapEntry[]): string {
  const urls = entries
    .filter((e) => isWebUrl(`${origin}${e.path}`))
    .map(
      (e) =>
        `<url><loc>${escapeXml(`${origin}${e.path}`)}</loc>${e.lastmod ? `<lastmod>${escapeXml(e.lastmod)}</lastmod>` : ''}</url>`,
    );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

export const robotsTxt = (origin: string): string =>
  `User-agent: *\nAllow: /\nDisallow: /api/\n\nSitemap: ${origin}/sitemap.xml\n`;
