-- Active jobs per title and per company name, kept exact by statement-level triggers like job_place_counts. Search
-- ranked in the database (src/search/sql/vocabulary.ts) reads its words for typo tolerance from here: a read of
-- one row per distinct title or company name, where grouping the jobs themselves read every active job (seconds at
-- a million jobs, on each process's start and after each catalog change).
CREATE TABLE job_text_counts (
  -- true: a job title; false: a company name as the job carries it.
  title boolean NOT NULL,
  text text NOT NULL,
  n integer NOT NULL,
  PRIMARY KEY (title, text)
);

INSERT INTO job_text_counts (title, text, n)
  SELECT true, title, count(*) FROM jobs WHERE active GROUP BY title
  UNION ALL
  SELECT false, company_name, count(*) FROM jobs WHERE active GROUP BY company_name;

-- Named to sort after the jobs_counts_* triggers, which lock catalog_version first: every writer takes that row
-- before any count row, so concurrent writers cannot deadlock on these upserts.
CREATE FUNCTION jobs_maintain_text_counts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  texts CONSTANT text := $t$SELECT true AS title, title AS text, %1$s AS delta FROM %2$s WHERE active
    UNION ALL SELECT false, company_name, %1$s FROM %2$s WHERE active$t$;
  deltas text;
BEGIN
  deltas := CASE TG_OP
    WHEN 'INSERT' THEN format(texts, 1, 'new_rows')
    WHEN 'DELETE' THEN format(texts, -1, 'old_rows')
    ELSE format(texts, -1, 'old_rows') || ' UNION ALL ' || format(texts, 1, 'new_rows') END;
  EXECUTE format($q$INSERT INTO job_text_counts AS c (title, text, n)
    SELECT title, text, sum(delta) FROM (%s) d GROUP BY 1, 2 HAVING sum(delta) <> 0
    ON CONFLICT (title, text) DO UPDATE SET n = c.n + EXCLUDED.n$q$, deltas);
  RETURN NULL;
END
$$;
CREATE TRIGGER jobs_text_counts_insert AFTER INSERT ON jobs REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION jobs_maintain_text_counts();
CREATE TRIGGER jobs_text_counts_update AFTER UPDATE ON jobs REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION jobs_maintain_text_counts();
CREATE TRIGGER jobs_text_counts_delete AFTER DELETE ON jobs REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION jobs_maintain_text_counts();
CREATE FUNCTION jobs_truncate_text_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM job_text_counts;
  RETURN NULL;
END
$$;
CREATE TRIGGER jobs_text_counts_truncate AFTER TRUNCATE ON jobs FOR EACH STATEMENT
  EXECUTE FUNCTION jobs_truncate_text_counts();
