import type { Founder, FundingRound, Leader } from './dossier.js';
import { isPersonName } from './people.js';
import type { EvidencePage } from './types.js';

/**
 * Deterministic fact extraction from the company's own pages: schema.org JSON-LD first (the site's own
 * structured statement), then conservative text patterns. Every fact records where it was found so the report
 * can cite it; anything not found stays null.
 */

export interface Fact<T> {
  value: T;
  url: string;
  how: 'structured data' | 'page text' | 'team page';
}

export interface Extraction {
  foundedYear: Fact<number> | null;
  headquarters: Fact<string> | null;
  employeeCount: Fact<number> | null;
  founders: (Founder & { url: string })[];
  leadership: (Leader & { url: string })[];
  fundingRounds: (FundingRound & { url: string })[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

const ORG_TYPES =
  /^(Organization|Corporation|LocalBusiness|OnlineBusiness|NGO|EducationalOrganization|Company)$/i;
const typesOf = (o: Obj): string[] => list(o['@type']).filter((t): t is string => typeof t === 'string');

function organizations(pages: EvidencePage[]): { org: Obj; url: string }[] {
  const out: { org: Obj; url: string }[] = [];
  for (const page of pages) {
    for (const item of page.jsonLd) {
      if (isObj(item) && typesOf(item).some((t) => ORG_TYPES.test(t))) out.push({ org: item, url: page.url });
    }
  }
  return out;
}

function yearOf(v: unknown, nowYear: number): number | null {
  const m = /\b(1[89]\d{2}|20\d{2})\b/.exec(String(v ?? ''));
  const year = m?.[1] ? Number(m[1]) : null;
  return year !== null && year <= nowYear ? year : null;
}

function addressOf(v: unknown): string | null {
  for (const a of list(v)) {
    if (typeof a === 'string' && a.trim()) return a.trim();
    if (!isObj(a)) continue;
    const country = isObj(a.addressCountry) ? str(a.addressCountry.name) : str(a.addressCountry);
    const parts = [str(a.addressLocality), str(a.addressRegion), country].filter(
      (p): p is string => p !== null,
    );
    if (parts.length > 0) return [...new Set(parts)].join(', ');
  }
  return null;
}

function employeesOf(v: unknown): number | null {
  for (const e of list(v)) {
    const n = isObj(e) ? (e.value ?? e.maxValue ?? e.minValue) : e;
    const num =
      typeof n === 'number' ? n : typeof n === 'string' ? Number(n.replace(/[,+\s]/g, '')) : Number.NaN;
    if (Number.isInteger(num) && num > 0 && num < 5_000_000) return num;
  }
  return null;
}

const FOUNDED_RE =
  /\b(?:founded|established|started|incorporated|launched)\b(?:\s+(?:in|back in))?\s+(?:(?:early|late|mid-?)\s+)?(?:(?:January|February|March|April|May|June|July|August|September|October|November|December)\s+)?((?:18|19|20)\d{2})\b/i;
const SINCE_RE = /\b(?:since|est\.?)\s+((?:19|20)\d{2})\b/i;
const HQ_RE =
  /\b(?:headquartered|headquarters(?:\s+is)?|HQ(?:'d)?|based)\s+(?:in|:)\s+([A-Z][\w.'’-]+(?:(?:,\s*|\s+)[A-Z][\w.'’-]+){0,3})/;
const HQ_LABEL_RE = /\bHeadquarters\s*[:\n]\s*([A-Z][^\n]{2,60})/;
const EMPLOYEES_RE =
  /\b(?:team of|over|more than|nearly|about|around)\s+(\d{1,3}(?:,\d{3})+|\d{1,6})\+?\s+(?:employees|people|team members|staff|engineers and researchers)\b/i;
const EMPLOYEES_PLAIN_RE = /\b(\d{1,3}(?:,\d{3})+|\d{1,6})\+?\s+(?:employees|team members)\b/i;
const FOUNDED_BY_RE = /\b(?:co-?)?founded\b[^.]{0,40}?\bby\s+([^.;:]{3,160})/i;
const FUNDING_RE =
  /\b(?:[Rr]aise[sd]|[Cc]losed|[Aa]nnounced|[Ss]ecured)\s+(?:an?\s+|its\s+)?(?:(Pre-Seed|Seed|Series [A-H])\s+(?:round\s+)?(?:of\s+)?)?\$\s?(\d+(?:\.\d+)?)\s*(million|billion|[MBmb])\b(?:\s+(?:in\s+)?(?:(?:a|its)\s+)?(Pre-Seed|Seed|Series [A-H]))?(?:[^.]{0,80}?\bled by\s+([A-Z][\w&'’.-]*(?:\s+(?:[A-Z][\w&'’.-]*|and|&))*))?/g;
const MONTH_YEAR_RE =
  /\b(January|February|March|April|May|June|July|August|September|October|November|December)\s+((?:19|20)\d{2})\b/;
const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

function pagesByPriority(pages: EvidencePage[]): EvidencePage[] {
  const order = ['about', 'team', 'home', 'contact', 'press', 'blog'];
  return [...pages].sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
}

function firstMatch<T>(pages: EvidencePage[], fn: (text: string) => T | null): Fact<T> | null {
  for (const page of pagesByPriority(pages)) {
    const value = fn(page.text);
    if (value !== null) return { value, url: page.url, how: 'page text' };
  }
  return null;
}

/** "Alice Smith and Bob Jones in 2019" -> the leading capitalised words of each part. */
function splitNames(s: string): string[] {
  return s
    .split(/,|\band\b|&/)
    .map((n) => /^\s*([A-Z][\w'’-]*\.?(?:\s+[A-Z][\w'’-]*\.?){1,3})/.exec(n)?.[1]?.trim() ?? '')
    .filter((n) => isPersonName(n));
}

function fundingOf(pages: EvidencePage[]): (FundingRound & { url: string })[] {
  const rounds = new Map<string, FundingRound & { url: string }>();
  for (const page of pages) {
    for (const m of page.text.matchAll(FUNDING_RE)) {
      const unit = (m[3] ?? '').toLowerCase();
      const amount = Math.round(Number(m[2]) * (unit.startsWith('b') ? 1e9 : 1e6));
      const round = m[1] ?? m[4] ?? null;
      const investors = m[5] ? splitInvestors(m[5]) : [];
      const key = `${round ?? ''}|${amount}`;
      // A date stated in the same line as the announcement ("March 2024: ... raised ...").
      const start = m.index ?? 0;
      const end = page.text.indexOf('\n', start);
      const line = page.text.slice(page.text.lastIndexOf('\n', start) + 1, end === -1 ? undefined : end);
      const when = MONTH_YEAR_RE.exec(line);
      const date =
        when?.[1] && when[2]
          ? `${when[2]}-${String(MONTHS.indexOf(when[1].toLowerCase()) + 1).padStart(2, '0')}`
          : null;
      if (!rounds.has(key)) rounds.set(key, { date, round, amountUsd: amount, investors, url: page.url });
    }
  }
  return [...rounds.values()];
}

const splitInvestors = (s: string): string[] =>
  s
    .split(/,|\band\b|&/)
    .map((n) =>
      n
        .replace(/\s+/g, ' ')
        .replace(/^with\s+/i, '')
        .replace(/[.,;:]+$/, '')
        .trim(),
    )
    .filter((n) => /^[A-Z0-9]/.test(n) && n.length <= 60);

export function extractFacts(pages: EvidencePage[], nowYear: number): Extraction {
  const orgs = organizations(pages);
  const structured = <T>(pick: (o: Obj) => T | null): Fact<T> | null => {
    for (const { org, url } of orgs) {
      const value = pick(org);
      if (value !== null) return { value, url, how: 'structured data' };
    }
    return null;
  };

  const foundedYear =
    structured((o) => yearOf(o.foundingDate, nowYear)) ??
    firstMatch(
      pages,
      (t) => yearOf(FOUNDED_RE.exec(t)?.[1], nowYear) ?? yearOf(SINCE_RE.exec(t)?.[1], nowYear),
    );
  const headquarters =
    structured((o) => addressOf(o.address) ?? addressOf(isObj(o.location) ? o.location.address : null)) ??
    firstMatch(pages, (t) => {
      const m = HQ_RE.exec(t) ?? HQ_LABEL_RE.exec(t);
      // The capture may run past the sentence ("Austin, Texas. We..."): cut at the first full stop.
      return m?.[1] ? (m[1].split(/\.(?:\s|$)/)[0] ?? '').replace(/[\s,]+$/, '').trim() || null : null;
    });
  const employeeCount =
    structured((o) => employeesOf(o.numberOfEmployees)) ??
    firstMatch(pages, (t) => employeesOf((EMPLOYEES_RE.exec(t) ?? EMPLOYEES_PLAIN_RE.exec(t))?.[1] ?? null));

  const { founders, leadership } = peopleOf(pages, orgs);
  return {
    foundedYear,
    headquarters,
    employeeCount,
    founders,
    leadership,
    fundingRounds: fundingOf(pages),
  };
}

/** Founders and leaders named by the organisations' structured data, the pages' people and their sentences. */
function peopleOf(
  pages: EvidencePage[],
  orgs: { org: Obj; url: string }[],
): Pick<Extraction, 'founders' | 'leadership'> {
  const founders = new Map<string, Founder & { url: string }>();
  // One entry per name; a specific role ("Co-founder & CTO") beats the generic "Founder" of a sentence.
  const addFounder = (f: Founder & { url: string }) => {
    const key = f.name.toLowerCase();
    const prior = founders.get(key);
    if (!prior) {
      founders.set(key, f);
      return;
    }
    founders.set(key, {
      ...prior,
      role: prior.role && prior.role !== 'Founder' ? prior.role : (f.role ?? prior.role),
      background: prior.background ?? f.background,
      links: [...new Set([...(prior.links ?? []), ...(f.links ?? [])])],
    });
  };
  for (const { org, url } of orgs) {
    for (const f of list(org.founder ?? org.founders)) {
      const name = isObj(f) ? str(f.name) : str(f);
      if (name)
        addFounder({
          name,
          role: (isObj(f) && str(f.jobTitle)) || 'Founder',
          background: null,
          links: [],
          url,
        });
    }
  }
  const leadership = new Map<string, Leader & { url: string }>();
  for (const page of pages) {
    for (const p of page.people) {
      if (p.title && /founder|founding/i.test(p.title)) {
        addFounder({ name: p.name, role: p.title, background: p.bio, links: p.links, url: page.url });
      }
      if (!leadership.has(p.name.toLowerCase())) {
        leadership.set(p.name.toLowerCase(), { name: p.name, title: p.title, url: page.url });
      }
    }
    for (const item of page.jsonLd) {
      if (isObj(item) && typesOf(item).includes('Person') && str(item.name) && str(item.jobTitle)) {
        const name = str(item.name) as string;
        const title = str(item.jobTitle);
        if (!leadership.has(name.toLowerCase()))
          leadership.set(name.toLowerCase(), { name, title, url: page.url });
        if (title && /founder/i.test(title))
          addFounder({ name, role: title, background: null, links: [], url: page.url });
      }
    }
    const by = FOUNDED_BY_RE.exec(page.text);
    for (const name of by?.[1] ? splitNames(by[1]) : []) {
      addFounder({ name, role: 'Founder', background: null, links: [], url: page.url });
    }
  }
  return { founders: [...founders.values()], leadership: [...leadership.values()] };
}
