-- Search ranked in the database with a filter (src/search/sql/job-queries.ts): a list holds the newest matches of
-- its words among the jobs the filter keeps. A selective filter's own index is the planner's way in, and each entry
-- it found was a read of the job's row to test the words and sort by date: at 100,000 jobs a department's 22,198
-- jobs (410-560 ms), the 36,655 jobs paying USD 169k or more (600-980 ms), a role's jobs (up to 3.4 s under load).
-- Each index below carries search_tsv and the columns the sort and the other filters read, so the same plan is
-- index-only (docs/performance.md, "Search ranked in the database").

-- A query naming places: its place list compares lower(location) = ANY(...), one range of this index per location.
CREATE INDEX jobs_place_search_idx ON jobs (lower(location), posted_at DESC, id DESC)
  INCLUDE (location, search_tsv, role_category, remote, company_id) WHERE active;

-- department: the same walk in the /jobs order as before (listings), now testing a search's words too.
DROP INDEX IF EXISTS jobs_department_idx;
CREATE INDEX jobs_department_idx ON jobs (lower(department), posted_at DESC, id DESC)
  INCLUDE (department, search_tsv, role_category, remote, location, company_id) WHERE active;

-- salary_min: the jobs paying at least the floor, read from the index with their date and words.
DROP INDEX IF EXISTS jobs_annual_pay_idx;
CREATE INDEX jobs_annual_pay_idx ON jobs (salary_currency, ((salary_max * CASE salary_period
  WHEN 'hour' THEN 2080 WHEN 'day' THEN 260 WHEN 'week' THEN 52 WHEN 'month' THEN 12 ELSE 1 END)::float8))
  INCLUDE (salary_max, salary_period, posted_at, id, search_tsv) WHERE active AND salary_max IS NOT NULL;

-- role_category, client_facing and the roles a query describes: a role's jobs in the /jobs order with their words.
DROP INDEX IF EXISTS jobs_category_covering_idx;
CREATE INDEX jobs_category_covering_idx ON jobs (role_category, posted_at DESC, id DESC)
  INCLUDE (location, remote, company_id, search_tsv) WHERE active;

-- The walk of the newest jobs, with the department and pay columns as well, so that a walk with those filters
-- stays index-only.
DROP INDEX IF EXISTS jobs_recent_search_idx;
CREATE INDEX jobs_recent_search_idx ON jobs (posted_at DESC, id DESC)
  INCLUDE (search_tsv, role_category, remote, location, company_id, department, salary_currency, salary_max,
    salary_period) WHERE active;
