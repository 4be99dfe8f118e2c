import type { Queryable } from '../db/port.js';

/**
 * catalog_version is one counter bumped inside every transaction that writes the catalog. A per-process response
 * cache compares it to stay exact: a committed write changes the number the next read sees. The single row is
 * locked by the UPDATE until commit, which also orders concurrent catalog writes; keep those transactions short.
 */
export async function bumpCatalogVersion(tx: Queryable, nowMs: number): Promise<number> {
  const rows = await tx.query<{ version: number }>(
    'UPDATE catalog_version SET version = version + 1, changed_at = $1 RETURNING version::float8 AS version',
    [new Date(nowMs)],
  );
  return rows[0]?.version ?? 0;
}

/** The current catalog version (a bigint read as a JS number: exact up to 2^53 bumps). */
export async function readCatalogVersion(db: Queryable): Promise<number> {
  const rows = await db.query<{ version: number }>(
    'SELECT version::float8 AS version FROM catalog_version WHERE id',
  );
  return rows[0]?.version ?? 0;
}
