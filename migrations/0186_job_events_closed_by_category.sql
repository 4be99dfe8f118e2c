-- Time to close over the catalog (GET /signals/time-to-close without `company`) takes the median days open per
-- category, and over all of them, of the closed events whose opening was seen in a range of days. Read in this
-- index's order the events come grouped by category, with what the medians need, so the statement reads one range
-- per category and sorts no more than each median's own values (about 520,000 events a year at a million jobs).
CREATE INDEX job_events_closed_category_idx ON job_events (role_category, at) INCLUDE (open_days)
  WHERE kind = 'closed' AND open_days IS NOT NULL;
