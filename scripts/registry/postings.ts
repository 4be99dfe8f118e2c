/**
 * Saved job postings as identity evidence: a board whose own postings link to a domain, most of them, says by its
 * own words whose board it is. Only the links are read (hrefs of the posting HTML); no text is taken.
 */
import type { RegistryVendor } from '../../src/registry/schema.js';
import { type Facts, noFacts, type PostingLink } from './facts.js';
import { registrableDomain } from './parse.js';

/** Domains of the vendors' own pages, which every posting links to whoever the company is. */
const VENDOR_DOMAINS = new Set(['ashbyhq.com', 'greenhouse.io', 'lever.co', 'workable.com']);

/** Postings of one board as the vendor's posting API returns them (Ashby: `{jobs: [{descriptionHtml}]}`). */
interface SavedBoard {
  jobs?: { descriptionHtml?: string | null }[];
}

/** The registrable domains one posting links to. */
function linkedDomains(html: string): Set<string> {
  const out = new Set<string>();
  for (const m of html.matchAll(/href\s*=\s*"(https?:\/\/[^"\s]+)"/gi)) {
    const domain = m[1] ? registrableDomain(m[1]) : null;
    if (domain && !VENDOR_DOMAINS.has(domain)) out.add(domain);
  }
  return out;
}

/**
 * The domains a board's postings link to, one set per posting: each domain that at least half of the postings
 * link to, and two of them when the board has two or more, becomes a link fact; a domain fewer postings link to,
 * two at least, becomes a mention, which only settles a board two domains claim.
 */
export function linkFacts(
  source: string,
  vendor: RegistryVendor,
  board: string,
  postings: ReadonlySet<string>[],
): { links: PostingLink[]; mentions: PostingLink[] } {
  const out = { links: [] as PostingLink[], mentions: [] as PostingLink[] };
  const counts = new Map<string, number>();
  for (const domains of postings) for (const d of domains) counts.set(d, (counts.get(d) ?? 0) + 1);
  for (const [domain, linking] of [...counts].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const fact = { source, vendor, board, domain, linking, postings: postings.length };
    if (linking * 2 >= postings.length && linking >= Math.min(2, postings.length)) out.links.push(fact);
    else if (linking >= 2) out.mentions.push(fact);
  }
  return out;
}

/** One file per board (`<folder>/<board>.json`, the board identifier URL-encoded in the name), read by `linkFacts`. */
export function savedPostings(source: string, vendor: RegistryVendor) {
  return (files: ReadonlyMap<string, string>): Facts => {
    const facts = noFacts();
    const mentions: PostingLink[] = [];
    for (const [path, text] of files) {
      const board = decodeURIComponent(path.replace(/^.*\//, '').replace(/\.json$/, ''));
      const jobs = (JSON.parse(text) as SavedBoard).jobs ?? [];
      const found = linkFacts(
        source,
        vendor,
        board,
        jobs.map((job) => linkedDomains(job.descriptionHtml ?? '')),
      );
      facts.links.push(...found.links);
      mentions.push(...found.mentions);
    }
    return mentions.length > 0 ? { ...facts, mentions } : facts;
  };
}
