-- Where a job is done: remote, hybrid, on site, or not stated. Vendors send three values (Ashby and Lever
-- workplaceType, Workable workplace, ...), which one remote flag could not hold: hybrid postings were flagged
-- remote. Stored rows take it from what they hold: "hybrid" or "on-site" in the location text, else the remote
-- flag; the remote flag then means remote only. The writers set both from each scrape.
ALTER TABLE jobs ADD COLUMN workplace text NOT NULL DEFAULT 'unknown'
  CHECK (workplace IN ('remote', 'hybrid', 'onsite', 'unknown'));

UPDATE jobs SET workplace = CASE
    WHEN location ~* '\mhybrid\M' THEN 'hybrid'
    WHEN remote THEN 'remote'
    WHEN location ~* '\mon-? ?site\M|\min[- ]office\M|\moffice[- ]based\M' THEN 'onsite'
    WHEN location ~* '\mremote\M' THEN 'remote'
    ELSE 'unknown'
  END;

UPDATE jobs SET remote = (workplace = 'remote') WHERE remote IS DISTINCT FROM (workplace = 'remote');

CREATE INDEX jobs_workplace_idx ON jobs (workplace, posted_at DESC, id DESC) WHERE active;
