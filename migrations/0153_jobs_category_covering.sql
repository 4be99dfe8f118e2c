-- A role's jobs in the /jobs order with the location and remote flag, so a role narrowed by a place walks the
-- role's entries index-only: at a million jobs, role_category=legal&location=canada walked the whole
-- jobs_recent_covering_idx (1M entries, 260 ms) for its 626 jobs (docs/performance.md).
CREATE INDEX IF NOT EXISTS jobs_category_covering_idx ON jobs (role_category, posted_at DESC, id DESC)
  INCLUDE (location, remote) WHERE active;
