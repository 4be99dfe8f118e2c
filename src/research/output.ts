import type { Competitor, Founder, FundingRound, Leader } from './dossier.js';
import type { DossierFacts } from './types.js';

/**
 * What we ask a model (OpenAI-compatible or Parallel) to return, and how its answer is read.
 *
 * The JSON Schema follows the strict subset both vendors accept: every property required, optional values as
 * ["type","null"], additionalProperties false, no format/minimum/pattern keywords (Parallel rejects them).
 * The answer is then normalised leniently and never trusted blindly: wrong types become null, out-of-range
 * years and counts are dropped, nameless people are discarded.
 */

const s = (description: string) => ({ type: 'string', description });
const ns = (description: string) => ({ type: ['string', 'null'], description });
const ni = (description: string) => ({ type: ['integer', 'null'], description });
const obj = (properties: Record<string, unknown>) => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});
const arr = (items: unknown, description: string) => ({ type: 'array', items, description });

export function dossierOutputSchema(withReport: boolean): Record<string, unknown> {
  const properties: Record<string, unknown> = {
    summary: s('What the company does, one paragraph, factual'),
    founders: arr(
      obj({
        name: s('Full name'),
        role: ns('Role, e.g. Co-founder & CEO'),
        background: ns('Prior roles or education; null if unknown'),
        links: arr({ type: 'string' }, 'Profile URLs'),
      }),
      'Founders; empty if unknown',
    ),
    leadership: arr(obj({ name: s('Full name'), title: ns('Job title') }), 'Current leadership team'),
    foundedYear: ni('Year founded (YYYY); null if unknown'),
    employeeCount: ni('Approximate current headcount; null if unknown'),
    headquarters: ns('City, region/country of the headquarters; null if unknown'),
    marketAnalysis: obj({
      market: ns('The market served'),
      positioning: ns('How the company positions itself'),
      customers: ns('Customer segments and named customers'),
      trends: ns('Trends shaping the market'),
    }),
    fundingRounds: arr(
      obj({
        date: ns('YYYY, YYYY-MM or YYYY-MM-DD'),
        round: ns('e.g. Seed, Series A'),
        amountUsd: ni('Amount in US dollars (integer); null if undisclosed'),
        investors: arr({ type: 'string' }, 'Investors, lead first'),
      }),
      'Known funding rounds, newest first; empty if unknown',
    ),
    competitors: arr(
      obj({ name: s('Competitor name'), domain: ns('Its web domain'), note: ns('How it compares') }),
      'Main competitors',
    ),
  };
  if (withReport) {
    properties.markdownReport = s(
      'A full research report in Markdown: overview, founders and leadership, funding, market, competitors; ' +
        'state explicitly what could not be established',
    );
  }
  return obj(properties);
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown, max = 4000): string | null =>
  typeof v === 'string' && v.trim() && !/^(unknown|n\/a|null|none)$/i.test(v.trim())
    ? v.trim().slice(0, max)
    : null;
const strings = (v: unknown): string[] =>
  Array.isArray(v)
    ? v
        .map((x) => text(x, 500))
        .filter((x): x is string => x !== null)
        .slice(0, 20)
    : [];
const items = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj).slice(0, 50) : []);

function integer(v: unknown, min: number, max: number): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v.replace(/[$,\s]/g, '')) : Number.NaN;
  return Number.isFinite(n) && n >= min && n <= max ? Math.round(n) : null;
}

function date(v: unknown): string | null {
  const t = text(v, 40);
  const m = t ? /^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?/.exec(t) : null;
  return m ? [m[1], m[2], m[3]].filter(Boolean).join('-') : null;
}

/** Reads a provider's answer into dossier facts; `report` is used when the answer carries none. */
export function normalizeFacts(raw: unknown, nowYear: number, report: string | null): DossierFacts {
  const o = isObj(raw) ? raw : {};
  const m = isObj(o.marketAnalysis) ? o.marketAnalysis : {};
  const founders: Founder[] = items(o.founders)
    .map((f) => ({
      name: text(f.name, 200) ?? '',
      role: text(f.role, 200),
      background: text(f.background, 1000),
      links: strings(f.links),
    }))
    .filter((f) => f.name !== '');
  const leadership: Leader[] = items(o.leadership)
    .map((l) => ({ name: text(l.name, 200) ?? '', title: text(l.title, 200) }))
    .filter((l) => l.name !== '');
  const fundingRounds: FundingRound[] = items(o.fundingRounds).map((r) => ({
    date: date(r.date),
    round: text(r.round, 100),
    amountUsd: integer(r.amountUsd, 0, 1e12),
    investors: strings(r.investors),
  }));
  const competitors: Competitor[] = items(o.competitors)
    .map((c) => ({ name: text(c.name, 200) ?? '', domain: text(c.domain, 253), note: text(c.note, 1000) }))
    .filter((c) => c.name !== '');
  return {
    summary: text(o.summary, 8000) ?? '',
    founders,
    leadership,
    foundedYear: integer(o.foundedYear, 1800, nowYear),
    employeeCount: integer(o.employeeCount, 1, 5_000_000),
    headquarters: text(o.headquarters, 300),
    marketAnalysis: {
      market: text(m.market),
      positioning: text(m.positioning),
      customers: text(m.customers),
      trends: text(m.trends),
    },
    fundingRounds,
    competitors,
    markdownReport: text(o.markdownReport, 200_000) ?? report ?? '',
    sources: [],
  };
}
