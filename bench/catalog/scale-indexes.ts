import type { Queryable } from '../../src/db/port.js';

/**
 * Bulk loading a catalog of a million jobs: the jobs table carries some thirty secondary indexes (full text,
 * trigrams, places, covering listings...), and keeping each one up to date row by row made the load take over an
 * hour. Dropping them for the load and building each once afterwards writes the same rows and the same indexes
 * (their definitions are read back from the catalog, so they follow the migrations) in a fraction of the time,
 * and times each build: what `CREATE INDEX` costs on a catalog of that size.
 */

export interface IndexBuild {
  name: string;
  ms: number;
  bytes: number;
}

/**
 * Drops the secondary indexes of `table` (those backing no constraint) and returns a function that builds them
 * again, one at a time, reporting each build's time and size. Runs inside the caller's transaction.
 */
export async function deferIndexes(tx: Queryable, table: string): Promise<() => Promise<IndexBuild[]>> {
  const defs = await tx.query<{ name: string; def: string }>(
    `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS def
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE i.indrelid = $1::regclass
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
      ORDER BY c.relname`,
    [table],
  );
  for (const d of defs) await tx.query(`DROP INDEX ${quoteIdent(d.name)}`);
  return async () => {
    const built: IndexBuild[] = [];
    for (const d of defs) {
      const t0 = performance.now();
      await tx.query(d.def);
      const ms = performance.now() - t0;
      const [size] = await tx.query<{ bytes: string }>('SELECT pg_relation_size($1::regclass) AS bytes', [
        d.name,
      ]);
      built.push({ name: d.name, ms, bytes: Number(size?.bytes ?? 0) });
    }
    return built;
  };
}

const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;
