-- Totals of the filters whose matches are too many to count per request at a million jobs (docs/performance.md,
-- "Past one machine's memory"): active jobs per (key, role category, remote) for the department, the annual pay
-- and the posting day, kept exact by statement-level triggers like job_counts and job_place_counts. A listing's
-- total is then a sum over a few hundred rows instead of an index-only count of up to every job (a department
-- of 220k jobs, a posted_since window of 900k). The filters name their table in src/catalog/fields/job-filters.ts.
CREATE TABLE job_department_counts (
  -- lower(department), as the department filter compares; jobs naming no department are not counted here.
  department text NOT NULL,
  role_category text NOT NULL,
  remote boolean NOT NULL,
  n integer NOT NULL,
  PRIMARY KEY (department, role_category, remote)
);

CREATE TABLE job_pay_counts (
  currency text NOT NULL,
  -- The top of the stated pay range per year (ANNUAL_PAY_SQL in src/catalog/fields/job-record.ts).
  pay float8 NOT NULL,
  role_category text NOT NULL,
  remote boolean NOT NULL,
  n integer NOT NULL,
  PRIMARY KEY (currency, pay, role_category, remote)
);

CREATE TABLE job_day_counts (
  -- The UTC day of posted_at.
  day date NOT NULL,
  role_category text NOT NULL,
  remote boolean NOT NULL,
  n integer NOT NULL,
  PRIMARY KEY (day, role_category, remote)
);

INSERT INTO job_department_counts (department, role_category, remote, n)
  SELECT lower(department), role_category, remote, count(*) FROM jobs WHERE active AND department IS NOT NULL
  GROUP BY 1, 2, 3;
INSERT INTO job_pay_counts (currency, pay, role_category, remote, n)
  SELECT salary_currency, (salary_max * CASE salary_period WHEN 'hour' THEN 2080 WHEN 'day' THEN 260
      WHEN 'week' THEN 52 WHEN 'month' THEN 12 ELSE 1 END)::float8, role_category, remote, count(*)
  FROM jobs WHERE active AND salary_max IS NOT NULL GROUP BY 1, 2, 3, 4;
INSERT INTO job_day_counts (day, role_category, remote, n)
  SELECT (posted_at AT TIME ZONE 'UTC')::date, role_category, remote, count(*) FROM jobs WHERE active
  GROUP BY 1, 2, 3;

-- The keys of each active job in the statement's old rows (-1) and new rows (+1), then one upsert per table. The
-- transition tables a statement has differ by operation, so the one statement is assembled here. Named to sort
-- after the jobs_counts_* triggers, which lock catalog_version first: every writer takes that row before any count
-- row, so concurrent writers cannot deadlock on these upserts.
CREATE FUNCTION jobs_maintain_key_counts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  keys CONSTANT text := $k$SELECT lower(department) AS department, salary_currency AS currency,
    (salary_max * CASE salary_period WHEN 'hour' THEN 2080 WHEN 'day' THEN 260 WHEN 'week' THEN 52
      WHEN 'month' THEN 12 ELSE 1 END)::float8 AS pay,
    (posted_at AT TIME ZONE 'UTC')::date AS day, role_category, remote, %s AS delta FROM %s WHERE active$k$;
  deltas text;
BEGIN
  deltas := CASE TG_OP
    WHEN 'INSERT' THEN format(keys, 1, 'new_rows')
    WHEN 'DELETE' THEN format(keys, -1, 'old_rows')
    ELSE format(keys, -1, 'old_rows') || ' UNION ALL ' || format(keys, 1, 'new_rows') END;
  EXECUTE format($q$WITH d AS MATERIALIZED (%s),
    departments AS (
      INSERT INTO job_department_counts AS c (department, role_category, remote, n)
      SELECT department, role_category, remote, sum(delta) FROM d WHERE department IS NOT NULL
      GROUP BY 1, 2, 3 HAVING sum(delta) <> 0
      ON CONFLICT (department, role_category, remote) DO UPDATE SET n = c.n + EXCLUDED.n),
    pays AS (
      INSERT INTO job_pay_counts AS c (currency, pay, role_category, remote, n)
      SELECT currency, pay, role_category, remote, sum(delta) FROM d WHERE pay IS NOT NULL
      GROUP BY 1, 2, 3, 4 HAVING sum(delta) <> 0
      ON CONFLICT (currency, pay, role_category, remote) DO UPDATE SET n = c.n + EXCLUDED.n)
    INSERT INTO job_day_counts AS c (day, role_category, remote, n)
    SELECT day, role_category, remote, sum(delta) FROM d GROUP BY 1, 2, 3 HAVING sum(delta) <> 0
    ON CONFLICT (day, role_category, remote) DO UPDATE SET n = c.n + EXCLUDED.n$q$, deltas);
  RETURN NULL;
END
$$;
CREATE TRIGGER jobs_key_counts_insert AFTER INSERT ON jobs REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION jobs_maintain_key_counts();
CREATE TRIGGER jobs_key_counts_update AFTER UPDATE ON jobs REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION jobs_maintain_key_counts();
CREATE TRIGGER jobs_key_counts_delete AFTER DELETE ON jobs REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION jobs_maintain_key_counts();
CREATE FUNCTION jobs_truncate_key_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM job_department_counts;
  DELETE FROM job_pay_counts;
  DELETE FROM job_day_counts;
  RETURN NULL;
END
$$;
CREATE TRIGGER jobs_key_counts_truncate AFTER TRUNCATE ON jobs FOR EACH STATEMENT
  EXECUTE FUNCTION jobs_truncate_key_counts();
