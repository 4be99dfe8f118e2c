-- Indexes of search ranked in the database (SEARCH=sql, src/search/sql/). Each extension is created only where the
-- server offers it, so this migration succeeds on a PostgreSQL without pgvector (keyword-only search) too.

-- Misspelled company names: word_similarity of the query against lower(name), found through trigrams.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    EXECUTE 'CREATE INDEX IF NOT EXISTS companies_name_trgm_idx ON companies USING gin (lower(name) gin_trgm_ops)';
  END IF;
END
$$;

-- Nearest neighbours with pgvector: each embedding (little-endian float32 bytea) as a vector column derived from
-- it, and an HNSW index (cosine) over the bundled embedder's 100 dimensions. Embeddings of another dimension are
-- compared exactly, without the index.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') THEN
    RETURN;
  END IF;
  CREATE EXTENSION IF NOT EXISTS vector;
  EXECUTE $f$
    CREATE OR REPLACE FUNCTION float32_vector(b bytea, dims integer) RETURNS vector
      LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $body$
    DECLARE
      out real[] := '{}';
      bits bigint;
      e integer;
      m bigint;
      v double precision;
    BEGIN
      FOR i IN 0 .. dims - 1 LOOP
        bits := get_byte(b, 4 * i)::bigint | (get_byte(b, 4 * i + 1)::bigint << 8)
              | (get_byte(b, 4 * i + 2)::bigint << 16) | (get_byte(b, 4 * i + 3)::bigint << 24);
        e := ((bits >> 23) & 255)::integer;
        m := bits & 8388607;
        IF e = 0 THEN
          v := m * 2.0 ^ -149;
        ELSE
          v := (1 + m / 8388608.0) * 2.0 ^ (e - 127);
        END IF;
        IF (bits >> 31) = 1 THEN
          v := -v;
        END IF;
        out := out || v::real;
      END LOOP;
      RETURN out::vector;
    END
    $body$
  $f$;
  EXECUTE 'ALTER TABLE job_embeddings ADD COLUMN IF NOT EXISTS vec vector
             GENERATED ALWAYS AS (float32_vector(vector, dims)) STORED';
  EXECUTE 'ALTER TABLE company_embeddings ADD COLUMN IF NOT EXISTS vec vector
             GENERATED ALWAYS AS (float32_vector(vector, dims)) STORED';
  EXECUTE 'CREATE INDEX IF NOT EXISTS job_embeddings_hnsw_100_idx ON job_embeddings
             USING hnsw ((vec::vector(100)) vector_cosine_ops) WHERE dims = 100';
  EXECUTE 'CREATE INDEX IF NOT EXISTS company_embeddings_hnsw_100_idx ON company_embeddings
             USING hnsw ((vec::vector(100)) vector_cosine_ops) WHERE dims = 100';
END
$$;
