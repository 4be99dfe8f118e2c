/**
 * A job's places as data, derived from its location text alone (the text is what is stored, so a stored row and
 * a fresh scrape derive the same): the countries of its places, the regions they lie in (regions.ts) and, for its
 * remote places, the countries and regions remote work is open to ("worldwide" for anywhere). The country and
 * region filters read the first two, remote_scope the third; a job matches when any of its places does.
 */
import { parseLocations } from './locations.js';
import { isWorldwide, placeNamedBy, type RegionId, regionsOfArea, regionsOfCountry } from './regions.js';

export interface JobPlaces {
  /** ISO 3166-1 alpha-2 codes, sorted. */
  countries: string[];
  regions: RegionId[];
  /** Country codes, region ids and "worldwide": where the job's remote places are open to, sorted. */
  remoteScopes: string[];
}

export const WORLDWIDE = 'worldwide';

export function jobPlaces(location: string | null | undefined): JobPlaces {
  const countries = new Set<string>();
  const regions = new Set<RegionId>();
  const remote = new Set<string>();
  for (const place of parseLocations([location])) {
    const inside = place.country
      ? regionsOfCountry(place.country)
      : place.remote && place.remoteScope
        ? regionsOfArea(place.remoteScope)
        : [];
    if (place.country) countries.add(place.country);
    for (const r of inside) regions.add(r);
    if (!place.remote) continue;
    if (place.country) remote.add(place.country);
    for (const r of inside) remote.add(r);
    if (place.remoteScope && isWorldwide(place.remoteScope)) remote.add(WORLDWIDE);
  }
  return { countries: [...countries].sort(), regions: [...regions].sort(), remoteScopes: [...remote].sort() };
}

/**
 * Location texts → their places, each derived once: the places a search names are matched against the distinct
 * locations of the catalog, which are few beside its jobs. Bounded: past MAX_KNOWN it starts over.
 */
const MAX_KNOWN = 50_000;

export class LocationPlaces {
  private readonly known = new Map<string, JobPlaces>();

  of(location: string): JobPlaces {
    let places = this.known.get(location);
    if (places === undefined) {
      if (this.known.size >= MAX_KNOWN) this.known.clear();
      places = jobPlaces(location);
      this.known.set(location, places);
    }
    return places;
  }

  /** Whether the location lies inside the region or country a query word names (false when it names none). */
  inside(location: string, word: string): boolean {
    const named = placeNamedBy(word);
    if (named === undefined) return false;
    const places = this.of(location);
    return 'region' in named
      ? places.regions.includes(named.region)
      : places.countries.includes(named.country);
  }
}
