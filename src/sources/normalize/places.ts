/**
 * The small gazetteer behind location parsing (locations.ts): countries by ISO 3166-1 alpha-2 code with the
 * names and abbreviations job boards write, US states and Canadian provinces, the cities AI companies hire in
 * most, and the macro-regions boards use as remote scopes. Keys are lower case.
 */

/** Country code → names and abbreviations as boards write them (the first is the display name). */
const COUNTRY_NAMES: Record<string, string[]> = {
  US: ['United States', 'usa', 'us', 'u.s.', 'u.s.a.', 'united states of america', 'america'],
  CA: ['Canada'],
  MX: ['Mexico'],
  BR: ['Brazil', 'brasil'],
  AR: ['Argentina'],
  CO: ['Colombia'],
  CL: ['Chile'],
  GB: ['United Kingdom', 'uk', 'u.k.', 'great britain', 'britain', 'england', 'scotland', 'wales'],
  IE: ['Ireland'],
  FR: ['France'],
  DE: ['Germany', 'deutschland'],
  NL: ['Netherlands', 'the netherlands', 'holland'],
  BE: ['Belgium'],
  LU: ['Luxembourg'],
  CH: ['Switzerland'],
  AT: ['Austria'],
  ES: ['Spain'],
  PT: ['Portugal'],
  IT: ['Italy'],
  SE: ['Sweden'],
  NO: ['Norway'],
  DK: ['Denmark'],
  FI: ['Finland'],
  PL: ['Poland'],
  CZ: ['Czech Republic', 'czechia'],
  RO: ['Romania'],
  GR: ['Greece'],
  EE: ['Estonia'],
  UA: ['Ukraine'],
  IL: ['Israel'],
  AE: ['United Arab Emirates', 'uae'],
  SA: ['Saudi Arabia'],
  TR: ['Turkey', 'türkiye'],
  IN: ['India'],
  SG: ['Singapore'],
  JP: ['Japan'],
  KR: ['South Korea', 'korea', 'republic of korea'],
  CN: ['China'],
  HK: ['Hong Kong'],
  TW: ['Taiwan'],
  AU: ['Australia'],
  NZ: ['New Zealand'],
  ZA: ['South Africa'],
  NG: ['Nigeria'],
  KE: ['Kenya'],
  EG: ['Egypt'],
  PH: ['Philippines'],
  ID: ['Indonesia'],
  VN: ['Vietnam'],
  MY: ['Malaysia'],
  TH: ['Thailand'],
};

/** Region codes of the two countries whose boards write them ("Austin, TX", "Toronto, ON"). */
const REGION_NAMES: Record<string, Record<string, string>> = {
  US: {
    AL: 'Alabama',
    AK: 'Alaska',
    AZ: 'Arizona',
    AR: 'Arkansas',
    CA: 'California',
    CO: 'Colorado',
    CT: 'Connecticut',
    DE: 'Delaware',
    DC: 'District of Columbia',
    FL: 'Florida',
    GA: 'Georgia',
    HI: 'Hawaii',
    ID: 'Idaho',
    IL: 'Illinois',
    IN: 'Indiana',
    IA: 'Iowa',
    KS: 'Kansas',
    KY: 'Kentucky',
    LA: 'Louisiana',
    ME: 'Maine',
    MD: 'Maryland',
    MA: 'Massachusetts',
    MI: 'Michigan',
    MN: 'Minnesota',
    MS: 'Mississippi',
    MO: 'Missouri',
    MT: 'Montana',
    NE: 'Nebraska',
    NV: 'Nevada',
    NH: 'New Hampshire',
    NJ: 'New Jersey',
    NM: 'New Mexico',
    NY: 'New York',
    NC: 'North Carolina',
    ND: 'North Dakota',
    OH: 'Ohio',
    OK: 'Oklahoma',
    OR: 'Oregon',
    PA: 'Pennsylvania',
    RI: 'Rhode Island',
    SC: 'South Carolina',
    SD: 'South Dakota',
    TN: 'Tennessee',
    TX: 'Texas',
    UT: 'Utah',
    VT: 'Vermont',
    VA: 'Virginia',
    WA: 'Washington',
    WV: 'West Virginia',
    WI: 'Wisconsin',
    WY: 'Wyoming',
  },
  CA: {
    AB: 'Alberta',
    BC: 'British Columbia',
    MB: 'Manitoba',
    NB: 'New Brunswick',
    NL: 'Newfoundland and Labrador',
    NS: 'Nova Scotia',
    ON: 'Ontario',
    PE: 'Prince Edward Island',
    QC: 'Quebec',
    SK: 'Saskatchewan',
  },
};

/** City → [display name, region code or null, country code]; aliases map to the same entry. */
const CITIES: Array<[string[], string | null, string]> = [
  [['San Francisco', 'sf', 'san francisco bay area', 'sf bay area', 'bay area'], 'CA', 'US'],
  [['New York', 'new york city', 'nyc', 'manhattan', 'brooklyn'], 'NY', 'US'],
  [['Seattle'], 'WA', 'US'],
  [['Bellevue'], 'WA', 'US'],
  [['Redmond'], 'WA', 'US'],
  [['Los Angeles'], 'CA', 'US'],
  [['Palo Alto'], 'CA', 'US'],
  [['Mountain View'], 'CA', 'US'],
  [['Menlo Park'], 'CA', 'US'],
  [['San Mateo'], 'CA', 'US'],
  [['San Jose'], 'CA', 'US'],
  [['Sunnyvale'], 'CA', 'US'],
  [['Oakland'], 'CA', 'US'],
  [['San Diego'], 'CA', 'US'],
  [['Boston'], 'MA', 'US'],
  [['Cambridge, MA'], 'MA', 'US'],
  [['Chicago'], 'IL', 'US'],
  [['Austin'], 'TX', 'US'],
  [['Dallas'], 'TX', 'US'],
  [['Houston'], 'TX', 'US'],
  [['Denver'], 'CO', 'US'],
  [['Boulder'], 'CO', 'US'],
  [['Atlanta'], 'GA', 'US'],
  [['Miami'], 'FL', 'US'],
  [['Washington', 'washington dc', 'washington d.c.'], 'DC', 'US'],
  [['Arlington'], 'VA', 'US'],
  [['Pittsburgh'], 'PA', 'US'],
  [['Philadelphia'], 'PA', 'US'],
  [['Salt Lake City'], 'UT', 'US'],
  [['Portland'], 'OR', 'US'],
  [['Toronto'], 'ON', 'CA'],
  [['Montreal', 'montréal'], 'QC', 'CA'],
  [['Vancouver'], 'BC', 'CA'],
  [['Waterloo'], 'ON', 'CA'],
  [['London'], null, 'GB'],
  [['Edinburgh'], null, 'GB'],
  [['Manchester'], null, 'GB'],
  [['Dublin'], null, 'IE'],
  [['Paris'], null, 'FR'],
  [['Berlin'], null, 'DE'],
  [['Munich', 'münchen'], null, 'DE'],
  [['Hamburg'], null, 'DE'],
  [['Amsterdam'], null, 'NL'],
  [['Zurich', 'zürich'], null, 'CH'],
  [['Geneva'], null, 'CH'],
  [['Madrid'], null, 'ES'],
  [['Barcelona'], null, 'ES'],
  [['Lisbon'], null, 'PT'],
  [['Milan'], null, 'IT'],
  [['Stockholm'], null, 'SE'],
  [['Copenhagen'], null, 'DK'],
  [['Warsaw'], null, 'PL'],
  [['Tel Aviv'], null, 'IL'],
  [['Dubai'], null, 'AE'],
  [['Bangalore', 'bengaluru'], null, 'IN'],
  [['Singapore'], null, 'SG'],
  [['Tokyo'], null, 'JP'],
  [['Seoul'], null, 'KR'],
  [['Sydney'], null, 'AU'],
  [['Melbourne'], null, 'AU'],
  [['São Paulo', 'sao paulo'], null, 'BR'],
];

/** Remote-scope areas larger than a country, as boards write them → canonical label. */
const AREAS: Record<string, string> = {
  emea: 'EMEA',
  apac: 'APAC',
  apj: 'APJ',
  latam: 'LATAM',
  amer: 'AMER',
  americas: 'Americas',
  'north america': 'North America',
  'south america': 'South America',
  'latin america': 'LATAM',
  europe: 'Europe',
  eu: 'EU',
  asia: 'Asia',
  'asia pacific': 'APAC',
  worldwide: 'Worldwide',
  global: 'Worldwide',
  anywhere: 'Worldwide',
  international: 'Worldwide',
};

export interface City {
  city: string;
  region: string | null;
  country: string;
}

const lower = (s: string) => s.toLowerCase();

export const COUNTRIES: ReadonlyMap<string, string> = new Map(
  Object.entries(COUNTRY_NAMES).flatMap(([code, names]) => [
    ...names.map((n) => [lower(n), code] as const),
    [lower(code), code] as const,
  ]),
);

/** Country names and the abbreviations boards write ("uk", "usa"), lower case → code; bare codes are not in it. */
export const COUNTRY_NAMES_INDEX: ReadonlyMap<string, string> = new Map(
  Object.entries(COUNTRY_NAMES).flatMap(([code, names]) => names.map((n) => [lower(n), code] as const)),
);

/** A country's display name by ISO code ("DE" → "Germany"). */
export const countryName = (code: string): string | undefined => COUNTRY_NAMES[code]?.[0];

export const CITY_INDEX: ReadonlyMap<string, City> = new Map(
  CITIES.flatMap(([names, region, country]) => {
    const city = (names[0] ?? '').replace(/, [A-Z]{2}$/, '');
    return names.map((n) => [lower(n), { city, region, country }] as const);
  }),
);

/** Region code or name (lower case) → [country code, region code]. */
export const REGIONS: ReadonlyMap<string, readonly [string, string]> = new Map(
  Object.entries(REGION_NAMES).flatMap(([country, regions]) =>
    Object.entries(regions).flatMap(([code, name]) => [
      [lower(code), [country, code] as const] as const,
      [lower(name), [country, code] as const] as const,
    ]),
  ),
);

export const AREA_INDEX: ReadonlyMap<string, string> = new Map(Object.entries(AREAS));
