import { webUrl } from '../../../net/web-url.js';
import type { NormalizedPosting } from '../../../sources/types.js';

/** What became of postings whose URL was not an absolute http(s) URL (net/web-url.ts). */
export interface RefusedUrls {
  /** Linked to the board's own page instead. */
  replaced: number;
  /** Left out: the board's page is not an http(s) URL either, so the posting has no link a reader may follow. */
  dropped: number;
}

/**
 * A board's postings with every URL checked before it is stored: a posting URL the board sent as anything but an
 * absolute http(s) URL (`javascript:`, `data:`, a relative or protocol-relative reference...) is replaced by the
 * board's own page, and the posting is dropped when that is not one either. Kept URLs are stored as the URL
 * parser writes them.
 */
export function withWebUrls(
  boardUrl: string,
  postings: readonly NormalizedPosting[],
): { postings: NormalizedPosting[]; refused: RefusedUrls } {
  const board = webUrl(boardUrl);
  const refused: RefusedUrls = { replaced: 0, dropped: 0 };
  const kept: NormalizedPosting[] = [];
  for (const p of postings) {
    const url = webUrl(p.url);
    if (url !== null) kept.push(url === p.url ? p : { ...p, url });
    else if (board === null) refused.dropped++;
    else {
      refused.replaced++;
      kept.push({ ...p, url: board });
    }
  }
  return { postings: kept, refused };
}
