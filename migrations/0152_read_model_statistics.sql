-- Statistics on the expressions the department and salary_min filters compare. The planner does not read the
-- statistics of a partial index's expressions (jobs_department_idx, jobs_annual_pay_idx), so without these it
-- guessed 0.5 % of jobs for any department or pay floor: at a million jobs it sorted all 220k jobs of the largest
-- department (2.2 s) instead of walking its index in order, and walked 670k entries of jobs_recent_idx for the
-- 1,454 jobs paying 300k or more (7.9 s) instead of reading them from the pay index (docs/performance.md).
CREATE STATISTICS IF NOT EXISTS jobs_department_stats ON (lower(department)) FROM jobs;
CREATE STATISTICS IF NOT EXISTS jobs_annual_pay_stats ON ((salary_max * CASE salary_period WHEN 'hour' THEN 2080
  WHEN 'day' THEN 260 WHEN 'week' THEN 52 WHEN 'month' THEN 12 ELSE 1 END)::float8) FROM jobs;
ANALYZE jobs;
