import type { CheerioAPI } from 'cheerio';
import type { PersonMention } from './types.js';

/**
 * People on a company page, read from the markup of team cards: a short element holding a person's name,
 * followed by (or sharing its card with) a short element holding a job title. Deterministic and conservative:
 * a name needs a title beside it, so navigation labels and testimonials do not turn into leaders.
 */

/** Titles that mark leadership (and founders). Matched on short strings only. */
export const ROLE_RE =
  /\b(co-?founder|founder|founding|ceo|cto|coo|cfo|cpo|cmo|cro|ciso|chief\b[\w\s&]*\bofficer|president|vice president|vp\b|svp\b|evp\b|head of|director|general counsel|chair(?:man|woman|person)?|managing partner|partner|lead\b|principal)/i;

/** 2 to 4 capitalised words, middle initials allowed: "Ada Lovelace", "Grace B. Hopper", "Jean-Luc Picard". */
export const NAME_RE = /^[A-Z][a-zà-ÿ'’-]+(?: (?:[A-Z]\.|[A-Z][a-zà-ÿ'’-]+)){1,3}$/;

/** Words that look like names in navigation or headings but never are. */
const NOT_NAMES =
  /\b(Our|The|Team|About|Contact|Careers|Company|Leadership|Meet|Join|Board|Advisors|Investors|Press|Blog|News|Privacy|Terms|Home|Product|Pricing|Customers|Platform|Solutions|Resources|Learn|More|Read|View|All|Get|Started|Sign|Log|In|Up|Inc|LLC|Ltd)\b/;

const PROFILE_RE = /(linkedin\.com|twitter\.com|x\.com|github\.com|scholar\.google|medium\.com)/i;

const clean = (s: string): string => s.replace(/\s+/g, ' ').trim();

export function isPersonName(text: string): boolean {
  return text.length <= 40 && NAME_RE.test(text) && !NOT_NAMES.test(text) && !ROLE_RE.test(text);
}

const isTitle = (text: string): boolean => text.length >= 2 && text.length <= 90 && ROLE_RE.test(text);

/** "Jane Doe, Co-founder & CEO" / "Jane Doe — CTO" / "Jane Doe | Head of Sales" in one element. */
const INLINE_RE = /^([^,|–—]{3,40}?)\s*(?:,|\||–|—| - )\s*(.{2,90})$/;

export function peopleOf($: CheerioAPI, pageUrl: string): PersonMention[] {
  const found = new Map<string, PersonMention>();
  const add = (p: PersonMention) => {
    const key = p.name.toLowerCase();
    const prior = found.get(key);
    if (!prior) found.set(key, p);
    else if (!prior.title && p.title)
      found.set(key, { ...p, links: [...new Set([...prior.links, ...p.links])] });
  };

  $('h1, h2, h3, h4, h5, h6, strong, b, span, p, div, a, figcaption, dt, dd, li, td').each((_, node) => {
    const el = $(node);
    if (el.children().not('br, em, i, span').length > 0) return;
    const text = clean(el.text());
    if (text.length === 0 || text.length > 140) return;

    const inline = INLINE_RE.exec(text);
    if (inline?.[1] && inline[2] && isPersonName(clean(inline[1])) && isTitle(clean(inline[2]))) {
      add({ name: clean(inline[1]), title: clean(inline[2]), bio: null, links: [] });
      return;
    }
    if (!isPersonName(text)) return;

    // The title is the next short sibling, or another short element of the same card (the parent).
    let title: string | null = null;
    let bio: string | null = null;
    for (let sib = el.next(); sib.length > 0; sib = sib.next()) {
      const t = clean(sib.text());
      if (!title && isTitle(t)) title = t;
      else if (title && !bio && t.length > 40) bio = t.slice(0, 400);
      if (title && bio) break;
      if (isPersonName(t)) break; // the next card started
    }
    const card = el.parent();
    if (!title) {
      card.find('*').each((_, other) => {
        const t = clean($(other).text());
        if (!title && other !== node && $(other).children().length === 0 && isTitle(t)) title = t;
      });
    }
    if (!title) return;
    const links: string[] = [];
    card.find('a[href]').each((_, a) => {
      const href = $(a).attr('href') ?? '';
      try {
        const url = new URL(href, pageUrl);
        if (PROFILE_RE.test(url.hostname)) links.push(url.href);
      } catch {
        // Not a URL.
      }
    });
    add({ name: text, title, bio, links: [...new Set(links)] });
  });
  return [...found.values()].slice(0, 50);
}
