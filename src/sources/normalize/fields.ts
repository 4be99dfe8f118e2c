/**
 * The fields the catalog derives from every adapter's posting alike: the list of places, the location string
 * built from it (de-duplicated), the remote flag and the workplace (the adapter's structured answer first, the text second)
 * and the pay range (the vendor's first, the description's second).
 */

import type { NormalizedPosting } from '../types.js';
import { type PostingLocation, parseLocations } from './locations.js';
import { type SalaryRange, salaryOf } from './salary.js';
import { normalizeSpace } from './text.js';
import { jobWorkplace, type Workplace } from './workplace.js';

export interface PostingFields {
  title: string;
  /** Distinct places joined with '; ', or null when the posting states none. */
  location: string | null;
  locations: PostingLocation[];
  remote: boolean | null;
  /** The vendor's structured answer first; else hybrid or on site as the text says, remote as the flag or a place says. */
  workplace: Workplace;
  salary: SalaryRange | null;
}

export function postingFields(p: NormalizedPosting): PostingFields {
  const locations = parseLocations([p.location]);
  const remote = p.remote ?? (locations.some((l) => l.remote) ? true : null);
  const workplace = jobWorkplace(p.workplace, p.location, remote);
  return {
    title: normalizeSpace(p.title),
    location: locations.length > 0 ? locations.map((l) => l.name).join('; ') : null,
    locations,
    remote,
    workplace,
    salary: salaryOf(p.salary, p.descriptionText),
  };
}
