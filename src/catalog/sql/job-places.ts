import type { Db } from '../../db/port.js';
import { jobPlaces } from '../../sources/normalize/job-places.js';
import { bumpCatalogVersion } from '../version.js';

/**
 * The places columns of jobs (migration 0170): how the writers pass them, and the backfill of rows stored
 * without them. Both derive them with jobPlaces from the location text, so a row backfilled and a row written
 * by a scrape hold the same.
 */

/**
 * One job's places as three comma-joined texts, for writers that pass one array per column to unnest() (arrays
 * of arrays do not unnest row by row): `string_to_array(x, ',')` gives the column back, '{}' for ''.
 */
export function placesParams(locations: readonly (string | null)[]): [string[], string[], string[]] {
  const all = locations.map(jobPlaces);
  return [
    all.map((p) => p.countries.join(',')),
    all.map((p) => p.regions.join(',')),
    all.map((p) => p.remoteScopes.join(',')),
  ];
}

const BATCH = 1000;

/**
 * Derives the places of jobs that have none yet (stored before migration 0170, or inserted by a writer that does
 * not set them), BATCH rows per short transaction that bumps catalog_version, so every process's caches and
 * replica see the change. The bump comes first: it locks the version row, so processes starting together take
 * turns and each batch reads only rows the previous one left. Idempotent: a rerun after an interruption finds
 * what is left. Returns how many rows it filled.
 */
export async function backfillJobPlaces(db: Db, nowMs: number): Promise<number> {
  const pending = 'SELECT id, location FROM jobs WHERE countries IS NULL ORDER BY id LIMIT $1';
  // Nothing to do at almost every start: one read through the pending index, and no version bump.
  if ((await db.query(pending, [1])).length === 0) return 0;
  let filled = 0;
  for (;;) {
    const n = await db.transaction(async (tx) => {
      await bumpCatalogVersion(tx, nowMs);
      const rows = await tx.query<{ id: string; location: string }>(pending, [BATCH]);
      if (rows.length === 0) return 0;
      const [countries, regions, scopes] = placesParams(rows.map((r) => r.location));
      await tx.query(
        `UPDATE jobs j SET countries = string_to_array(p.countries, ','), regions = string_to_array(p.regions, ','),
           remote_scopes = string_to_array(p.scopes, ',')
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[]) AS p(id, countries, regions, scopes)
         WHERE j.id = p.id`,
        [rows.map((r) => r.id), countries, regions, scopes],
      );
      return rows.length;
    });
    if (n === 0) return filled;
    filled += n;
  }
}
