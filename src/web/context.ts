/**
 * What every view needs besides its data: where the site lives. Not the time: a page says dates, which the
 * enhancement script makes relative, so it stays the same (and so does its ETag) while the catalog does.
 */
export interface PageContext {
  /** The public origin, no trailing slash (PUBLIC_BASE_URL, or the request's scheme and host). */
  origin: string;
  /** The path and query of this page as canonical (the filters in declaration order, defaults left out). */
  path: string;
  /** The API's base path, e.g. /api/v1. */
  apiPrefix: string;
}

/** The head of a page: its title and summary for search engines and link previews. */
export interface PageHead {
  title: string;
  description: string;
  /** og:type: `website` unless the page is one thing (a job: `article`). */
  type?: 'website' | 'article';
  /** The Atom feed of this page's jobs: the GET /jobs query it follows ('' for all jobs). */
  feedQuery?: string;
  /** Structured data (schema.org) for the page. */
  jsonLd?: unknown;
  /** Leave the page out of search engines (error pages). */
  noindex?: boolean;
}

/** The query string of these parameters, empty values left out ('' when none remain). */
export function queryString(params: Readonly<Record<string, string | undefined>>): string {
  const kept = Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== '');
  return kept.length ? `?${new URLSearchParams(kept).toString()}` : '';
}
