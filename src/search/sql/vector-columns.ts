import type { Db } from '../../db/port.js';

/**
 * The embeddings' pgvector columns, made where the database offers `vector` and they are missing: a PostgreSQL
 * server that gained the extension after migration 0163 ran without it, or an embedded data directory first
 * opened for in-memory search (which loads no `vector`) and now opened for search ranked in the database. Each
 * embedding (little-endian IEEE-754 float32 bytea) becomes a generated `vec` column, indexed with HNSW for the
 * bundled embedder's 100 dimensions. Idempotent; processes starting together take turns on an advisory lock.
 * Where the database offers no `vector`, nothing changes and search ranked in it stays keyword-only.
 */
export async function ensureVectorColumns(db: Db): Promise<void> {
  // Checked first, without a lock: once the columns exist, a start takes no ALTER TABLE lock at all.
  const [state] = await db.query<{ offered: boolean; made: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS offered,
            (SELECT count(*) = 2 FROM information_schema.columns
              WHERE table_name IN ('job_embeddings', 'company_embeddings') AND column_name = 'vec') AS made`,
  );
  if (!state?.offered || state.made) return;
  await db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('frontline:vector-columns'))`);
    await tx.query(VECTOR_COLUMNS);
  });
}

const VECTOR_COLUMNS = `
DO $$
DECLARE
  t text;
BEGIN
  PERFORM 1 FROM pg_available_extensions WHERE name = 'vector';
  IF NOT FOUND THEN
    RETURN;
  END IF;
  CREATE EXTENSION IF NOT EXISTS vector;
  -- An embedding (little-endian IEEE-754 float32 bytea) as a vector: sign, exponent and mantissa of each value
  -- read from its four bytes, one set-based statement (0163 defined the same function as a loop).
  EXECUTE $f$
    CREATE OR REPLACE FUNCTION float32_vector(b bytea, dims integer) RETURNS vector
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $body$
      SELECT array_agg(
               (CASE WHEN bits >> 31 = 1 THEN -1 ELSE 1 END)
             * (CASE WHEN (bits >> 23) & 255 = 0 THEN (bits & 8388607) * 2::float8 ^ -149
                     ELSE (1 + (bits & 8388607) / 8388608.0::float8) * 2::float8 ^ (((bits >> 23) & 255) - 127)
                END)::real
             ORDER BY i)::vector
        FROM (SELECT i, get_byte(b, 4 * i)::bigint | (get_byte(b, 4 * i + 1)::bigint << 8)
                        | (get_byte(b, 4 * i + 2)::bigint << 16) | (get_byte(b, 4 * i + 3)::bigint << 24) AS bits
                FROM generate_series(0, dims - 1) AS i) AS v
    $body$
  $f$;
  FOREACH t IN ARRAY ARRAY['job_embeddings', 'company_embeddings'] LOOP
    EXECUTE format('ALTER TABLE %I ADD COLUMN IF NOT EXISTS vec vector
                      GENERATED ALWAYS AS (float32_vector(vector, dims)) STORED', t);
    EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %I
                      USING hnsw ((vec::vector(100)) vector_cosine_ops) WHERE dims = 100', t || '_hnsw_100_idx', t);
  END LOOP;
END
$$`;
