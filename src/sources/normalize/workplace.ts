/**
 * Where a job is done: remote, hybrid, on site, or not stated. Vendors send it as one structured field of three
 * values (Ashby and Lever `workplaceType`, Workable `workplace`, Gem `location_type`, Pinpoint `workplace_type`,
 * Workday `remoteType`, ...); postings without one say it in the location text ("San Francisco (Hybrid)",
 * "Remote - US", "On-site").
 */
export const WORKPLACES = ['remote', 'hybrid', 'onsite', 'unknown'] as const;
export type Workplace = (typeof WORKPLACES)[number];

/** A vendor's work-arrangement value ("Remote", "OnSite", "on_site", "in_office", "Hybrid") → a workplace, or null. */
export function workplaceOf(value: string | null | undefined): Workplace | null {
  const v = (value ?? '').toLowerCase().replace(/[^a-z]/g, '');
  if (v.includes('remote')) return 'remote';
  if (v.includes('hybrid') || v === 'flexible') return 'hybrid';
  if (v.includes('onsite') || v.includes('office') || v === 'site') return 'onsite';
  return null;
}

const HYBRID = /\bhybrid\b/i;
const ONSITE = /\bon-?\s?site\b|\bin[- ]office\b|\boffice[- ]based\b/i;

/** What location text says of the arrangement beyond a remote place: hybrid, on site, or null. */
export function workplaceInText(...texts: Array<string | null | undefined>): Workplace | null {
  const joined = texts.filter(Boolean).join(' ');
  if (HYBRID.test(joined)) return 'hybrid';
  if (ONSITE.test(joined)) return 'onsite';
  return null;
}

/** A job's workplace: the vendor's structured answer, else the text's hybrid or on site, else the remote flag. */
export function jobWorkplace(
  structured: Workplace | null | undefined,
  location: string | null,
  remote: boolean | null,
): Workplace {
  return structured ?? workplaceInText(location) ?? (remote === true ? 'remote' : 'unknown');
}
