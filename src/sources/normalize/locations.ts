/**
 * A posting's location text → a de-duplicated list of places, each with city / region / country where the
 * gazetteer (places.ts) recognises them, and remote entries with their scope ("Remote - US" → scope "US",
 * "Remote (Europe)" → "Europe", a bare "EMEA" → remote within EMEA). Unrecognised text is kept as the name with
 * null parts: nothing is guessed.
 */
import { AREA_INDEX, CITY_INDEX, type City, COUNTRIES, REGIONS } from './places.js';
import { normalizeSpace } from './text.js';

export interface PostingLocation {
  /** The place as the posting writes it (whitespace normalised). */
  name: string;
  city: string | null;
  /** State or province code for the US and Canada ("CA", "ON"); null elsewhere or when not stated. */
  region: string | null;
  /** ISO 3166-1 alpha-2 code. */
  country: string | null;
  remote: boolean;
  /** Where remote work is allowed, as the posting states it ("US", "Europe", "EMEA"); null when unstated. */
  remoteScope: string | null;
}

interface Place {
  city: string | null;
  region: string | null;
  country: string | null;
}

/** Separators between places in one location string: "A; B", "A | B", "A • B", "A / B", line breaks. */
const SPLIT = /\s*(?:;|\||•|\n|\s\/\s)\s*/;
const REMOTE_WORD = /\b(?:fully\s+)?remote(?:[- ]first)?\b|\bwork from home\b|\bwfh\b/gi;
const WORK_MODE = /\((?:hybrid|on-?site|in[- ]office)\)|\b(?:hybrid|on-?site|in[- ]office)\b/gi;
const EDGE_PUNCT = /^[\s\-–—:,/()[\]]+|[\s\-–—:,/()[\]]+$/g;

const key = (s: string) => s.toLowerCase().replace(/\.$/, '');

/** "City, Region, Country" in any of its shortened forms → its parts; unknown tokens leave parts null. */
export function parsePlace(text: string): Place {
  const tokens = text
    .split(',')
    .map((t) => t.replace(/\([^)]*\)/g, '').trim())
    .filter((t) => t !== '');
  const place: Place = { city: null, region: null, country: null };
  if (tokens.length === 0) return place;
  let known: City | undefined;
  let recognised = 0;
  tokens.forEach((token, i) => {
    const k = key(token);
    if (i === 0 && CITY_INDEX.has(k)) {
      known = CITY_INDEX.get(k);
      recognised++;
      return;
    }
    const region = REGIONS.get(k);
    const country = COUNTRIES.get(k);
    // After a city, two letters are a state or province before a country ("San Francisco, CA").
    if (region && (i > 0 || !country)) {
      place.country = region[0];
      place.region = region[1];
      recognised++;
    } else if (country) {
      place.country = country;
      recognised++;
    }
  });
  const first = tokens[0] ?? '';
  if (known) {
    const agrees = place.country === null || place.country === known.country;
    place.city = agrees ? known.city : first;
    if (agrees) {
      place.country = known.country;
      place.region ??= known.region;
    }
  } else if (recognised > 0 && tokens.length > 1 && !REGIONS.has(key(first)) && !COUNTRIES.has(key(first))) {
    place.city = first;
  }
  return place;
}

function parseOne(raw: string): PostingLocation {
  const name = normalizeSpace(raw);
  const withoutMode = normalizeSpace(name.replace(WORK_MODE, ' ')).replace(EDGE_PUNCT, '');
  const remoteWord = REMOTE_WORD.test(name);
  REMOTE_WORD.lastIndex = 0;
  const scopeText = normalizeSpace(withoutMode.replace(REMOTE_WORD, ' ')).replace(EDGE_PUNCT, '');
  const area = AREA_INDEX.get(key(scopeText));
  if (remoteWord || area) {
    const place = area ? { city: null, region: null, country: null } : parsePlace(scopeText);
    return { name, ...place, remote: true, remoteScope: area ?? (scopeText === '' ? null : scopeText) };
  }
  return { name, ...parsePlace(withoutMode), remote: false, remoteScope: null };
}

/**
 * "San Francisco, New York" where every part is a known city: several places, unless a later part is the
 * region or country of the city before it ("New York, New York", "Singapore, Singapore").
 */
function splitCityLists(piece: string): string[] {
  const parts = piece.split(',').map((p) => p.trim());
  if (parts.length < 2 || !parts.every((p) => CITY_INDEX.has(key(p)))) return [piece];
  const contains = (city: string, area: string) => {
    const c = CITY_INDEX.get(key(city));
    const region = REGIONS.get(key(area));
    return (
      c !== undefined &&
      ((region?.[0] === c.country && region[1] === c.region) || COUNTRIES.get(key(area)) === c.country)
    );
  };
  return parts.some((p, i) => i > 0 && contains(parts[i - 1] ?? '', p)) ? [piece] : parts;
}

const identity = (l: PostingLocation): string =>
  l.remote
    ? `remote|${(l.remoteScope ?? '').toLowerCase()}`
    : l.city || l.region || l.country
      ? `${l.city ?? ''}|${l.region ?? ''}|${l.country ?? ''}`
      : l.name.toLowerCase();

/** Location strings (each possibly listing several places) → distinct places, in the order first stated. */
export function parseLocations(texts: ReadonlyArray<string | null | undefined>): PostingLocation[] {
  const seen = new Set<string>();
  const out: PostingLocation[] = [];
  for (const text of texts) {
    if (!text) continue;
    for (const piece of text.split(SPLIT).flatMap(splitCityLists)) {
      if (normalizeSpace(piece) === '') continue;
      const loc = parseOne(piece);
      const id = identity(loc);
      if (seen.has(id)) continue;
      seen.add(id);
      out.push(loc);
    }
  }
  return out;
}
