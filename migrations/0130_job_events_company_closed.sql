-- A company series reads the median days open of that company's jobs closed in its range: the closed events whose
-- opening was seen, per company and time, carrying what the median needs (an index-only read of a few rows).
CREATE INDEX job_events_company_closed_idx ON job_events (company_id, at) INCLUDE (role_category, open_days)
  WHERE kind = 'closed' AND open_days IS NOT NULL;
