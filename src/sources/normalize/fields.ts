/**
 * The fields the catalog derives from every adapter's posting alike: the list of places, the location string
 * built from it (de-duplicated), the remote flag (the adapter's structured answer first, a remote place second)
 * and the pay range (the vendor's first, the description's second).
 */

import type { NormalizedPosting } from '../types.js';
import { type PostingLocation, parseLocations } from './locations.js';
import { type SalaryRange, salaryOf } from './salary.js';
import { normalizeSpace } from './text.js';

export interface PostingFields {
  title: string;
  /** Distinct places joined with '; ', or null when the posting states none. */
  location: string | null;
  locations: PostingLocation[];
  remote: boolean | null;
  salary: SalaryRange | null;
}

export function postingFields(p: NormalizedPosting): PostingFields {
  const locations = parseLocations([p.location]);
  const remote = p.remote ?? (locations.some((l) => l.remote) ? true : null);
  return {
    title: normalizeSpace(p.title),
    location: locations.length > 0 ? locations.map((l) => l.name).join('; ') : null,
    locations,
    remote,
    salary: salaryOf(p.salary, p.descriptionText),
  };
}
