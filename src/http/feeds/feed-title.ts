import { ROLE_LABELS, type RoleCategory } from '../../catalog/vocabulary.js';
import { WORLDWIDE } from '../../sources/normalize/job-places.js';
import { placeLabel } from '../../sources/normalize/regions.js';

/**
 * A feed's title in words, from the listing's query: "Client-facing remote jobs at anthropic", "Forward deployed
 * engineer jobs matching "agents"". A reader shows it beside other subscriptions, so it says what the feed follows.
 */

/** Words for the qualifiers a listing's query may carry; any other parameter is named as it is spelled. */
const QUALIFIERS: Record<string, (value: string) => string> = {
  company: (v) => `at ${v}`,
  location: (v) => `in ${v}`,
  country: (v) => `in ${v.split(',').map(placeLabel).join(' or ')}`,
  region: (v) => `in ${placeLabel(v)}`,
  remote_scope: (v) =>
    v.toLowerCase() === WORLDWIDE ? 'remote from anywhere' : `remote within ${placeLabel(v)}`,
  search: (v) => `matching "${v}"`,
  department: (v) => `in ${v.split(',').join(' or ')}`,
  posted_since: (v) => `posted on or after ${v}`,
  posted_before: (v) => `posted before ${v}`,
  max_age_days: (v) => `posted in the last ${v} days`,
  salary_min: (v) => `paying at least ${v} a year`,
  salary_currency: (v) => `paid in ${v}`,
  updated_since: (v) => `changed after ${v}`,
};

/** Parameters that shape the page or the answer, not what the feed follows. */
const NOT_A_FILTER = new Set(['page', 'limit', 'facets', 'explain', 'after_id']);

/** A label's first letter in lower case, unless the label starts with an acronym ("People / HR" stays). */
const inSentence = (label: string): string =>
  /^[A-Z][a-z]/.test(label) ? label.charAt(0).toLowerCase() + label.slice(1) : label;

export function feedTitle(query: Record<string, unknown>, site: string): string {
  const given = Object.entries(query).filter(
    ([key, value]) => !NOT_A_FILTER.has(key) && value !== undefined && value !== '' && value !== false,
  );
  const adjectives: string[] = [];
  let noun = 'jobs';
  const qualifiers: string[] = [];
  for (const [key, raw] of given) {
    const value = String(raw);
    if (key === 'client_facing') adjectives.push('client-facing');
    else if (key === 'remote_only') adjectives.push('remote');
    else if (key === 'role_category')
      noun = `${inSentence(ROLE_LABELS[value as RoleCategory] ?? value)} jobs`;
    else qualifiers.push(QUALIFIERS[key]?.(value) ?? `${key.replace(/_/g, ' ')} ${value}`);
  }
  const words = [...adjectives, noun].join(' ');
  const title = [`${words.charAt(0).toUpperCase()}${words.slice(1)}`, ...qualifiers].join(' ');
  return `${title} · ${site}`;
}
