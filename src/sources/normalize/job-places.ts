/**
 * A job's places as data, derived from its location text alone (the text is what is stored, so a stored row and
 * a fresh scrape derive the same): the countries of its places, the regions they lie in (regions.ts) and, for its
 * remote places, the countries and regions remote work is open to ("worldwide" for anywhere). The country and
 * region filters read the first two, remote_scope the third; a job matches when any of its places does.
 */
import { parseLocations } from './locations.js';
import { isWorldwide, type RegionId, regionsOfArea, regionsOfCountry } from './regions.js';

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
