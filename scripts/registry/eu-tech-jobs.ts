/**
 * eu-tech-jobs' company list and the postings its daily run found (Aramente/eu-tech-jobs, data CC BY 4.0):
 * `companies/<category>/<slug>.yaml` gives a display name, the vendor and the board's handle (on Workday, the
 * URL of the tenant's job search); `data/diffs/<day>-diff.jsonl` gives each new posting with the company's slug
 * and the posting's URL, as the vendor's API returned it. A Greenhouse posting's URL is the page the company set
 * for its board (`stripe.com/jobs/search?gh_jid=…`), so the domains of those URLs are the board's own word, as
 * the links of saved Ashby postings are (postings.ts). Only names, handles and the URLs' domains are read.
 */
import { parse as parseYaml } from 'yaml';
import { REGISTRY_VENDORS, type RegistryVendor } from '../../src/registry/schema.js';
import { boardFromUrl } from './boards.js';
import { type Facts, noFacts, type PostingLink } from './facts.js';
import { registrableDomain } from './parse.js';
import { linkFacts } from './postings.js';

interface ListedCompany {
  name?: string;
  ats?: { provider?: string; handle?: string };
}

interface DiffEvent {
  event?: string;
  id?: string;
  company_slug?: string;
  url?: string;
}

/** The board of a Workday search URL (`https://acme.wd5.myworkdayjobs.com/wday/cxs/acme/Site/jobs`). */
function workdayBoard(url: string): string | null {
  const m = /^https:\/\/([a-z0-9-]+)\.(wd\d+)\.myworkdayjobs\.com\/wday\/cxs\/[^/]+\/([^/?#]+)/i.exec(url);
  return m?.[1] && m[2] && m[3] ? `${m[1].toLowerCase()}.${m[2]}/${m[3]}` : null;
}

function boardOf(c: ListedCompany): { vendor: RegistryVendor; board: string } | null {
  const provider = c.ats?.provider ?? '';
  const handle = c.ats?.handle?.trim();
  if (!handle || !(REGISTRY_VENDORS as readonly string[]).includes(provider)) return null;
  const vendor = provider as RegistryVendor;
  const board = vendor === 'workday' ? workdayBoard(handle) : /\s|\//.test(handle) ? null : handle;
  return board ? { vendor, board } : null;
}

export function euTechJobs(source: string) {
  return (files: ReadonlyMap<string, string>): Facts => {
    const facts = noFacts();
    const bySlug = new Map<string, { vendor: RegistryVendor; board: string }>();
    for (const [path, text] of files) {
      if (!path.startsWith('companies/') || !path.endsWith('.yaml')) continue;
      const c = (parseYaml(text) ?? {}) as ListedCompany;
      const id = boardOf(c);
      const name = c.name?.trim();
      if (!id || !name) continue;
      bySlug.set(path.replace(/^.*\//, '').replace(/\.yaml$/, ''), id);
      facts.boards.push({ source, ...id, name });
    }
    // Each posting once, by its id: a posting the run saw on two days is one posting.
    const postings = new Map<string, { slug: string; url: string }>();
    for (const [path, text] of files) {
      if (!path.startsWith('data/diffs/')) continue;
      for (const line of text.split('\n')) {
        if (!line.trim()) continue;
        const e = JSON.parse(line) as DiffEvent;
        if (e.event === 'new' && e.id && e.company_slug && e.url)
          postings.set(e.id, { slug: e.company_slug, url: e.url });
      }
    }
    const byBoard = new Map<
      string,
      { id: { vendor: RegistryVendor; board: string }; domains: Set<string>[] }
    >();
    for (const { slug, url } of postings.values()) {
      const id = bySlug.get(slug);
      if (!id) continue;
      const at = byBoard.get(slug) ?? { id, domains: [] };
      // A URL on a vendor's board page names no company's site; any other URL is the company's own page.
      const domain = boardFromUrl(url) ? null : registrableDomain(url);
      at.domains.push(new Set(domain ? [domain] : []));
      byBoard.set(slug, at);
    }
    const mentions: PostingLink[] = [];
    for (const { id, domains } of byBoard.values()) {
      const found = linkFacts(source, id.vendor, id.board, domains);
      facts.links.push(...found.links);
      mentions.push(...found.mentions);
    }
    return mentions.length > 0 ? { ...facts, mentions } : facts;
  };
}
