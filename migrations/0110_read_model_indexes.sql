-- Indexes the SQL read model needs at a million jobs (docs/performance.md, "Past one machine's memory"); the
-- filters are declared in src/catalog/fields/job-filters.ts and each index matches its condition's expression.
-- An expression index serves an index-only scan only when it also holds the columns the expression reads
-- (INCLUDE): without them each count read every matching row from the table (1.4 s for 80k rows, cold).
-- department: a listing walks it in the /jobs order and its total is an index-only count.
CREATE INDEX IF NOT EXISTS jobs_department_idx ON jobs (lower(department), posted_at DESC, id DESC)
  INCLUDE (department) WHERE active;
-- salary_min: the annualised top of the range (ANNUAL_PAY_SQL) by currency, for the total's count.
CREATE INDEX IF NOT EXISTS jobs_annual_pay_idx ON jobs (salary_currency, ((salary_max * CASE salary_period
  WHEN 'hour' THEN 2080 WHEN 'day' THEN 260 WHEN 'week' THEN 52 WHEN 'month' THEN 12 ELSE 1 END)::float8))
  INCLUDE (salary_max, salary_period) WHERE active AND salary_max IS NOT NULL;
-- updated_since: the rows changed since the instant, and the companies renamed since (their jobs changed too).
CREATE INDEX IF NOT EXISTS jobs_updated_idx ON jobs (updated_at);
CREATE INDEX IF NOT EXISTS companies_updated_idx ON companies (updated_at);
