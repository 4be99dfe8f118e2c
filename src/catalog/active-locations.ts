import { LocationPlaces } from '../sources/normalize/job-places.js';
import { placeNamedBy } from '../sources/normalize/regions.js';

/**
 * The distinct locations of active jobs (lower case), each with how many jobs have it: query understanding reads
 * them to tell place words from other words, over the replica or, with search ranked in the database, over the
 * locations it read. A region or country word holds the locations inside it ("europe": "berlin, germany").
 */
export class ActiveLocations {
  private readonly counts = new Map<string, number>();
  private readonly areas = new LocationPlaces();

  add(location: string): void {
    this.counts.set(location, (this.counts.get(location) ?? 0) + 1);
  }

  remove(location: string): void {
    const n = (this.counts.get(location) ?? 0) - 1;
    if (n > 0) this.counts.set(location, n);
    else this.counts.delete(location);
  }

  clear(): void {
    this.counts.clear();
  }

  /** The distinct locations that contain any of `terms`, or lie inside the region or country one names. */
  locationsWith(terms: readonly string[]): Set<string> {
    const out = new Set<string>();
    for (const loc of this.counts.keys()) if (terms.some((t) => this.holds(loc, t))) out.add(loc);
    return out;
  }

  /** Those of `terms` that at least one location holds (distinct locations are few). */
  placesMatching(terms: readonly string[]): string[] {
    return terms.filter((t) => {
      for (const loc of this.counts.keys()) if (this.holds(loc, t)) return true;
      return false;
    });
  }

  /** Whether some location holds this word (3+ letters) as a whole word, or it names a region or country. */
  namesPlace = (word: string): boolean => {
    if (placeNamedBy(word)) return true;
    if (word.length < 3 || !/^\p{L}+$/u.test(word)) return false;
    const w = new RegExp(`(^|[^\\p{L}])${word}($|[^\\p{L}])`, 'u');
    for (const loc of this.counts.keys()) if (w.test(loc)) return true;
    return false;
  };

  private holds(location: string, term: string): boolean {
    return location.includes(term) || this.areas.inside(location, term);
  }
}
