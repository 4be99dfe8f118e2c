/**
 * The regions a job's places fall in, declared once: each region's member countries (ISO 3166-1 alpha-2) and the
 * words that name it, and the remote-scope areas of the gazetteer (places.ts AREA_INDEX) that lie inside it. A
 * place is in a region when all of it is: a country inside the region, or an area that is the region or lies
 * inside it ("Remote - Europe" is in europe and emea; "Remote - EMEA" is in emea but not in europe, since EMEA
 * is more than Europe). Country names and codes come from the gazetteer's country table.
 */
import { COUNTRIES, COUNTRY_NAMES_INDEX, countryName } from './places.js';

export const REGION_IDS = [
  'europe',
  'emea',
  'dach',
  'nordics',
  'uk_ireland',
  'north_america',
  'latam',
  'americas',
  'apac',
] as const;
export type RegionId = (typeof REGION_IDS)[number];

interface Region {
  /** How a sentence names it: "jobs in Europe". */
  readonly label: string;
  /** Member countries; a region listed in `within` also holds every member of this one. */
  readonly countries: readonly string[];
  /** Larger regions that contain this one. */
  readonly within: readonly RegionId[];
  /** Words and phrases (lower case) that name the region in a query or a remote scope. */
  readonly words: readonly string[];
}

const EUROPE_ONLY = ['FR', 'NL', 'BE', 'LU', 'ES', 'PT', 'IT', 'PL', 'CZ', 'RO', 'GR', 'EE', 'UA'];
const MIDDLE_EAST_AFRICA = ['IL', 'AE', 'SA', 'TR', 'ZA', 'NG', 'KE', 'EG'];

const REGIONS: Record<RegionId, Region> = {
  europe: { label: 'Europe', countries: EUROPE_ONLY, within: ['emea'], words: ['europe', 'eu', 'european'] },
  emea: { label: 'EMEA', countries: MIDDLE_EAST_AFRICA, within: [], words: ['emea'] },
  dach: { label: 'DACH', countries: ['DE', 'AT', 'CH'], within: ['europe', 'emea'], words: ['dach'] },
  nordics: {
    label: 'the Nordics',
    countries: ['SE', 'NO', 'DK', 'FI', 'IS'],
    within: ['europe', 'emea'],
    words: ['nordics', 'nordic', 'scandinavia'],
  },
  uk_ireland: {
    label: 'the UK and Ireland',
    countries: ['GB', 'IE'],
    within: ['europe', 'emea'],
    words: ['uk & ireland', 'uk and ireland', 'uki', 'british isles'],
  },
  north_america: {
    label: 'North America',
    countries: ['US', 'CA'],
    within: ['americas'],
    words: ['north america', 'na'],
  },
  latam: {
    label: 'Latin America',
    countries: ['MX', 'BR', 'AR', 'CO', 'CL'],
    within: ['americas'],
    words: ['latam', 'latin america', 'south america'],
  },
  americas: { label: 'the Americas', countries: [], within: [], words: ['americas', 'amer'] },
  apac: {
    label: 'APAC',
    countries: ['IN', 'SG', 'JP', 'KR', 'CN', 'HK', 'TW', 'AU', 'NZ', 'PH', 'ID', 'VN', 'MY', 'TH'],
    within: [],
    words: ['apac', 'apj', 'asia pacific', 'asia-pacific'],
  },
};

/** A region and every region containing it, transitively. */
function enclosing(id: RegionId): RegionId[] {
  return [id, ...REGIONS[id].within.flatMap(enclosing)];
}

/** Country code → the regions it lies in. */
const COUNTRY_REGIONS = new Map<string, RegionId[]>();
for (const id of REGION_IDS) {
  for (const code of REGIONS[id].countries) {
    const known = COUNTRY_REGIONS.get(code) ?? [];
    COUNTRY_REGIONS.set(code, [...new Set([...known, ...enclosing(id)])]);
  }
}

/** A word or phrase naming a region → the region. */
const REGION_WORDS = new Map<string, RegionId>(
  REGION_IDS.flatMap((id) => [[id, id] as const, ...REGIONS[id].words.map((w) => [w, id] as const)]),
);

/** The regions a country (ISO code) lies in. */
export const regionsOfCountry = (code: string): readonly RegionId[] => COUNTRY_REGIONS.get(code) ?? [];

/** The regions an area of a remote scope ("Europe", "EMEA", "LATAM") lies in; none for "Worldwide" or "Asia". */
export function regionsOfArea(area: string): readonly RegionId[] {
  const id = REGION_WORDS.get(area.toLowerCase());
  return id ? enclosing(id) : [];
}

/** Whether a remote-scope area means anywhere ("Worldwide", "Global", "Anywhere"). */
export const isWorldwide = (area: string): boolean => area.toLowerCase() === 'worldwide';

/** A region id or a word naming it ("Europe", "north america", "LATAM") → the region id. */
export function regionOf(text: string): RegionId | undefined {
  const t = text.trim().toLowerCase();
  return REGION_WORDS.get(t) ?? REGION_WORDS.get(t.replace(/_/g, ' '));
}

/** An ISO 3166-1 alpha-2 code or a country name ("de", "Germany", "UK") → the code. */
export const countryOf = (text: string): string | undefined => COUNTRIES.get(text.trim().toLowerCase());

/**
 * A word or phrase as a person types it in a search ("europe", "north america", "germany", "uk") → the place it
 * names. Two-letter country codes other than the written abbreviations ("uk", "us") are not taken from a query:
 * "de", "in", "it" are words too.
 */
export function placeNamedBy(word: string): { region: RegionId } | { country: string } | undefined {
  const w = word.trim().toLowerCase();
  if (AMBIGUOUS.has(w)) return undefined;
  const region = REGION_WORDS.get(w);
  if (region) return { region };
  const country = COUNTRY_NAMES_INDEX.get(w);
  return country ? { country } : undefined;
}

/** Words that name a place in a location but rarely in a query ("na": not applicable; "america": of "latin america"). */
const AMBIGUOUS = new Set(['na', 'america']);

/** Each region's name as a list shows it: "Europe", "Nordics", "UK and Ireland". */
export const REGION_NAMES: Readonly<Record<RegionId, string>> = Object.fromEntries(
  REGION_IDS.map((id) => [id, REGIONS[id].label.replace(/^the /, '')]),
) as Record<RegionId, string>;

/** How a sentence names a region id or a country code or name: "Europe", "Germany". */
export function placeLabel(place: string): string {
  const region = regionOf(place);
  if (region) return REGIONS[region].label;
  const code = countryOf(place);
  return (code && countryName(code)) ?? place;
}
