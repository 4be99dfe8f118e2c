/**
 * A posting's pay as one range: the vendor's structured range when it sends one, else a range stated in the
 * description in US dollars, euros or pounds ("$280,000—$320,000 USD", "€70k–90k", "£50,000 - £60,000",
 * "$60/hour"). Nothing is guessed: ranges in other currencies, ranges in several currencies or periods, and
 * amounts whose period is neither stated nor clear from their size give null.
 */
import type { Salary } from '../types.js';

export const PAY_PERIODS = ['year', 'month', 'week', 'day', 'hour'] as const;
export type PayPeriod = (typeof PAY_PERIODS)[number];

export interface SalaryRange {
  min: number;
  max: number;
  /** ISO 4217 code. */
  currency: string;
  period: PayPeriod;
  source: 'structured' | 'description';
}

const PERIODS = new Set<string>(PAY_PERIODS);

/** Plausible amounts per period; outside them a number is something else (a budget, a headcount, a year). */
const BOUNDS: Record<PayPeriod, [number, number]> = {
  year: [10_000, 5_000_000],
  month: [500, 500_000],
  week: [100, 100_000],
  day: [20, 20_000],
  hour: [5, 2_000],
};

/**
 * The period of amounts stated without one, from their size: from 15,000 a salary is yearly (no monthly or
 * hourly pay reaches it); smaller amounts could be hourly, daily or monthly rates, or not pay at all, so they
 * have no answer.
 */
function periodBySize(max: number): PayPeriod | null {
  return max >= 15_000 ? 'year' : null;
}

function checked(
  min: number,
  max: number,
  currency: string,
  period: PayPeriod | null,
  source: SalaryRange['source'],
): SalaryRange | null {
  const p = period ?? periodBySize(max);
  if (!p || !Number.isFinite(min) || !Number.isFinite(max) || min <= 0 || max < min) return null;
  if (!/^[A-Z]{3}$/.test(currency)) return null;
  const [lo, hi] = BOUNDS[p];
  if (min < lo || max > hi) return null;
  // A vendor's range is what the employer entered, however wide; in free text a wide span is two numbers
  // that are not one range ("$20k signing bonus ... $150k").
  if (source === 'description' && max > min * 3) return null;
  return { min, max, currency, period: p, source };
}

/** The adapter's structured pay (vendor-stated numbers) as a range, or null when it lacks numbers. */
export function structuredSalary(s: Salary | undefined): SalaryRange | null {
  if (!s) return null;
  if (s.min === null && s.max === null) {
    // Only the vendor's summary ("$81K – $87K"): read like a description, still the vendor's statement.
    const fromText = s.text ? descriptionSalary(s.text) : null;
    return fromText && { ...fromText, source: 'structured' };
  }
  if (!s.currency) return null;
  const min = s.min ?? s.max ?? 0;
  const max = s.max ?? s.min ?? 0;
  const period = s.interval && PERIODS.has(s.interval) ? (s.interval as PayPeriod) : null;
  if (s.interval && !period) return null;
  return checked(min, max, s.currency.toUpperCase(), period, 'structured');
}

const SYMBOLS: Record<string, string> = { $: 'USD', us$: 'USD', '€': 'EUR', '£': 'GBP' };
const CODES = new Set(['USD', 'EUR', 'GBP']);
/** Dollars of other countries: a "$" next to one of these is not a US dollar. */
const OTHER_DOLLAR = /\b(?:CAD|AUD|NZD|SGD|HKD|MXN|C\$|CA\$|A\$|AU\$|S\$|NZ\$|HK\$)/i;

const CUR = String.raw`(?:US\$|\$|€|£)`;
const NUM = String.raw`\d{1,3}(?:[,.\u00a0 ]\d{3})+(?:\.\d{1,2})?|\d+(?:\.\d{1,2})?`;
/** Not millions or billions ("$10-20M in revenue"). */
const NOT_BIG = String.raw`(?!\s?(?:[mMbB]n?\b|million|billion))`;
const AMOUNT = String.raw`(${CUR})?\s?(?<![\d.,])(${NUM})(?![\d,.]\d)\s?([kK]\b)?${NOT_BIG}\s?(${CUR})?`;
const CODE = String.raw`(?:\s?\b(USD|EUR|GBP)\b)?`;
const DASH = String.raw`\s*(?:-|–|—|‒|to|and)\s*`;
const RANGE = new RegExp(String.raw`(\b(?:USD|EUR|GBP)\s?)?${AMOUNT}(?:${DASH}${AMOUNT})?${CODE}`, 'g');

const PERIOD_WORDS: Array<[RegExp, PayPeriod]> = [
  [/^\s*(?:\/|per|an|a|each)\s*(?:hour|hr)\b|^\s*hourly\b/i, 'hour'],
  [/^\s*(?:\/|per|a|an)\s*(?:year|yr|annum)\b|^\s*(?:annually|annual|yearly)\b/i, 'year'],
  [/^\s*(?:\/|per|a)\s*(?:month|mo)\b|^\s*monthly\b/i, 'month'],
  [/^\s*(?:\/|per|a)\s*(?:week|wk)\b|^\s*weekly\b/i, 'week'],
  [/^\s*(?:\/|per|a)\s*day\b|^\s*daily\b/i, 'day'],
];

/** "120,000" "120.000" "120 000" "62.50" → number (a separator before exactly three digits groups thousands). */
function parseNumber(text: string): number {
  const grouped = /^\d{1,3}(?:[,.\u00a0 ]\d{3})+(?:\.\d{1,2})?$/.test(text);
  if (!grouped) return Number(text);
  const m = /^(.*?)(?:\.(\d{1,2}))?$/.exec(text);
  return Number((m?.[1] ?? '').replace(/[,.\u00a0 ]/g, '')) + Number(`0.${m?.[2] ?? '0'}`);
}

interface Found {
  min: number;
  max: number;
  currency: string;
  period: PayPeriod | null;
}

function fromMatch(m: RegExpExecArray, text: string): Found | null {
  const [whole, leadCode, cur1, n1, k1, post1, cur2, n2, k2, post2, tailCode] = m;
  const symbol = cur1 ?? post1 ?? cur2 ?? post2;
  const code = (leadCode?.trim() ?? tailCode)?.toUpperCase();
  const bySymbol = symbol ? SYMBOLS[symbol.toLowerCase()] : undefined;
  if (!symbol && !code) return null;
  if (bySymbol && code && bySymbol !== code) return null;
  const around = text.slice(Math.max(0, m.index - 4), m.index + whole.length + 4);
  if (symbol === '$' && !code && OTHER_DOLLAR.test(around)) return null;
  const currency = code ?? bySymbol;
  if (!currency || !CODES.has(currency) || !n1) return null;
  // "€70k–90k": a "k" on either end applies to both.
  const k = k1 || k2 ? 1000 : 1;
  const min = parseNumber(n1) * k;
  const max = n2 ? parseNumber(n2) * k : min;
  const after = text.slice(m.index + whole.length, m.index + whole.length + 24);
  const period = PERIOD_WORDS.find(([re]) => re.test(after))?.[1] ?? null;
  // A lone amount is a salary only with its period ("$60/hour"); otherwise it is a budget, a bonus, a round.
  if (!n2 && !period) return null;
  return { min, max, currency, period };
}

/** The one pay range a description states, or null when it states none or several that disagree. */
export function descriptionSalary(text: string): SalaryRange | null {
  const found: SalaryRange[] = [];
  for (const m of text.matchAll(RANGE)) {
    const f = fromMatch(m, text);
    const range = f && checked(f.min, f.max, f.currency, f.period, 'description');
    if (range) found.push(range);
  }
  const [first] = found;
  if (!first) return null;
  if (found.some((r) => r.currency !== first.currency || r.period !== first.period)) return null;
  // Ranges per level or per location in one currency and period: the span they cover together.
  return checked(
    Math.min(...found.map((r) => r.min)),
    Math.max(...found.map((r) => r.max)),
    first.currency,
    first.period,
    'description',
  );
}

/** The posting's pay: structured first, the description second. */
export function salaryOf(structured: Salary | undefined, description: string): SalaryRange | null {
  return structuredSalary(structured) ?? descriptionSalary(description);
}
