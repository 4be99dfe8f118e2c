import type { SalaryRange } from '../catalog/types.js';
import type { CompanyCategory, TagDimension } from '../catalog/vocabulary.js';

/** How the site names the catalog's vocabulary and the filters' parameters. */

/** The role categories' names, from the vocabulary (the feed and the MCP tools say the same). */
export { ROLE_LABELS } from '../catalog/vocabulary.js';

export const COMPANY_CATEGORY_LABELS: Record<CompanyCategory, string> = {
  enterprise_ai: 'Enterprise AI',
  public_saas: 'Public SaaS',
  ai_native: 'AI-native',
  other: 'Other',
};

export const DIMENSION_LABELS: Record<TagDimension, string> = {
  industry: 'Industry',
  stage: 'Stage',
  business_model: 'Business model',
  ai_role: 'Role of AI',
  funding_tier: 'Funding',
};

/** The label of each filter parameter the pages show (the parameter name when it has none here). */
export const PARAM_LABELS: Record<string, string> = {
  search: 'Search',
  role_category: 'Role category',
  client_facing: 'Client-facing roles only',
  company: 'Company (slug, e.g. anthropic)',
  location: 'Location',
  remote_only: 'Remote only',
  workplace: 'Workplace (remote, hybrid, onsite; comma-separated)',
  country: 'Countries (codes or names, e.g. DE, Germany; comma-separated)',
  region: 'Region',
  remote_scope: 'Remote within (country, region or worldwide)',
  department: 'Departments (comma-separated)',
  posted_since: 'Posted on or after',
  posted_before: 'Posted before',
  max_age_days: 'First posted at most this many days ago',
  salary_min: 'Salary at least (per year)',
  salary_currency: 'Salary currency (e.g. USD)',
  category: 'Company category',
  ...DIMENSION_LABELS,
};

/** Parameters the form shows as a date picker (they take an ISO 8601 date, which the picker writes). */
export const DATE_PARAMS: ReadonlySet<string> = new Set(['posted_since', 'posted_before']);

const dayDate = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' });
const longDate = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });

/**
 * A formatter remembered by the part of an ISO 8601 instant it shows (`shown` characters: the day, or the day and
 * the minute). A listing page formats two dates per job, and Intl's format was ~15 % of rendering a /jobs page;
 * its jobs fall on few days and minutes. Only four-digit years are remembered (the prefix then means the same
 * thing); the memo is emptied when it reaches MEMO_SIZE.
 */
function memoByPrefix(shown: number, format: (iso: string) => string): (iso: string) => string {
  const memo = new Map<string, string>();
  return (iso) => {
    if (iso[10] !== 'T' || (shown > 10 && iso[shown] !== ':')) return format(iso);
    const key = iso.slice(0, shown);
    let text = memo.get(key);
    if (text === undefined) {
      if (memo.size >= MEMO_SIZE) memo.clear();
      text = format(iso);
      memo.set(key, text);
    }
    return text;
  };
}
const MEMO_SIZE = 4096;

/** The UTC day of an instant, "Nov 20, 2026": what a page says before the script makes it relative. */
export const shortDate = memoByPrefix(10, (iso) => dayDate.format(new Date(iso)));

/** The exact instant, for a title on hover: "November 20, 2026 at 9:30 AM UTC". */
export const exactDate = memoByPrefix(16, (iso) => `${longDate.format(new Date(iso))} UTC`);

const PERIOD_WORDS: Record<string, string> = {
  year: 'a year',
  month: 'a month',
  week: 'a week',
  day: 'a day',
  hour: 'an hour',
};

// Formatters are made once: constructing one costs more than rendering a job card, and a page renders dozens.
const amount = new Intl.NumberFormat('en', { maximumFractionDigits: 2 });
const whole = new Intl.NumberFormat('en');

/** "USD 150,000–200,000 a year". */
export function salaryText(s: SalaryRange): string {
  const range = s.min === s.max ? amount.format(s.min) : `${amount.format(s.min)}–${amount.format(s.max)}`;
  return `${s.currency} ${range} ${PERIOD_WORDS[s.period] ?? `per ${s.period}`}`;
}

/** A count with thousands separators: "12,345". */
export const countText = (n: number): string => whole.format(n);

export const plural = (n: number, one: string, many = `${one}s`): string =>
  `${whole.format(n)} ${n === 1 ? one : many}`;

const monthYear = new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** A month's period (its first day, YYYY-MM-DD) in words: "November 2026". */
export const monthLabel = (period: string): string => monthYear.format(new Date(`${period}T00:00:00Z`));

/** A share 0–1 as a whole percentage; an em dash when there is none. */
export const percent = (share: number | null): string =>
  share === null ? '—' : `${Math.round(share * 100)}%`;
