-- A posting's pay as one range (src/sources/salary.ts): the vendor's structured range, else one stated in the
-- description. All five columns are set together or all null; amounts are in the currency's units per period, so
-- a filter on pay compares numbers instead of reading the `salary` text (the vendor's own summary, kept as shown).
ALTER TABLE jobs
  ADD COLUMN IF NOT EXISTS salary_min numeric(12, 2),
  ADD COLUMN IF NOT EXISTS salary_max numeric(12, 2),
  ADD COLUMN IF NOT EXISTS salary_currency text,
  ADD COLUMN IF NOT EXISTS salary_period text,
  ADD COLUMN IF NOT EXISTS salary_source text;

ALTER TABLE jobs DROP CONSTRAINT IF EXISTS jobs_salary_range_check;
ALTER TABLE jobs ADD CONSTRAINT jobs_salary_range_check CHECK (
  (salary_min IS NULL AND salary_max IS NULL AND salary_currency IS NULL AND salary_period IS NULL
    AND salary_source IS NULL)
  OR (salary_min > 0 AND salary_max >= salary_min AND salary_currency ~ '^[A-Z]{3}$'
    AND salary_period IN ('year', 'month', 'week', 'day', 'hour')
    AND salary_source IN ('structured', 'description')));
