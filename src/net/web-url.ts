/**
 * URLs that come from the world (a job board's posting and apply links, a company's pages) are data, never
 * markup: the catalog keeps and shows only absolute http(s) URLs. A board controls what it sends, and a link
 * such as `javascript:alert(1)` put in an `href` runs in the reader's browser.
 *
 * Two checks, one rule. `webUrl` parses at ingestion and returns the URL as the WHATWG parser writes it (scheme
 * lower case, whitespace and control characters gone or encoded), so what is stored starts with `http://` or
 * `https://` and a host. `isWebUrl` is the cheap test every renderer (pages, Atom, JSON-LD, API, MCP) applies
 * again to what it reads, so a value stored before the ingestion check, or written by another path, is refused
 * on the way out as well.
 */

/** Starts with an http(s) scheme and `//` followed by a host: nothing a browser can run or resolve elsewhere. */
const WEB_URL = /^https?:\/\/[^/\\?#\s]/i;

/** The longest URL kept: longer ones are not links a person follows. */
export const MAX_WEB_URL_LENGTH = 4096;

/** True when a stored or rendered value is an absolute http(s) URL (see the module comment). */
export function isWebUrl(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_WEB_URL_LENGTH && WEB_URL.test(value);
}

/**
 * The absolute http(s) URL a raw value from the world stands for, normalized; null for anything else: another
 * scheme in any case or spelling (`JaVaScRiPt:`, `java\tscript:`, `data:`, `vbscript:`), a relative or
 * protocol-relative reference (`//evil`, `&#106;avascript:` is relative text), a URL without a host, or one
 * with characters before its scheme (leading whitespace or control characters are refused, not trimmed).
 */
export function webUrl(raw: unknown): string | null {
  if (typeof raw !== 'string' || !WEB_URL.test(raw)) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return null;
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.hostname === '') return null;
  return isWebUrl(parsed.href) ? parsed.href : null;
}

/** The value when it is an absolute http(s) URL, else the fallback (a renderer's refusal). */
export const webUrlOr = <T>(value: string | null | undefined, fallback: T): string | T =>
  isWebUrl(value) ? value : fallback;

/**
 * A job's `url` as every reader sees it: the stored URL when it is an absolute http(s) URL, else the company's
 * home page. Ingestion stores nothing else; this refuses a value written before the check or around it.
 */
export const postingUrl = (url: string, companyDomain: string): string =>
  webUrlOr(url, `https://${companyDomain}/`);
