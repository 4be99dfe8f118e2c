-- The newest active jobs with their full-text vector (and the columns the commonest filters read), for search
-- ranked in the database (src/search/sql/job-queries.ts): a common word's list walks the newest jobs and tests
-- each job's search_tsv until it has its window of matches. Through jobs_recent_idx each test read the job's row
-- (thousands of heap pages per list); through this index the walk reads index pages only.
CREATE INDEX jobs_recent_search_idx ON jobs (posted_at DESC, id DESC)
  INCLUDE (search_tsv, role_category, remote, location, company_id) WHERE active;
