-- Hiring signals: job life events become daily rollups per company and role category, kept exact by a trigger on
-- job_events as the pipeline writes, and recomputable from the events alone (rebuild_hiring_daily()).

-- A job reclassified while active moves from one category to another: 'reclassified' carries the new category in
-- role_category and the old one in from_category. Every event names the category whose active count it moves:
-- opened, reopened and initial the job's category then, closed the category it was open under.
ALTER TABLE job_events DROP CONSTRAINT IF EXISTS job_events_kind_check;
ALTER TABLE job_events ADD CONSTRAINT job_events_kind_check
  CHECK (kind IN ('initial', 'opened', 'closed', 'reopened', 'reclassified'));
ALTER TABLE job_events ADD COLUMN from_category text;
-- On 'closed': days from first seen to this closing, for jobs whose opening we saw ('opened', not 'initial': a job
-- found already open has no known start). Time to close is the median of these.
ALTER TABLE job_events ADD COLUMN open_days real;
CREATE INDEX job_events_job_idx ON job_events (job_id, id);
-- Newly hiring: a company's first event in a category.
CREATE INDEX job_events_category_idx ON job_events (role_category, company_id, at);
CREATE INDEX job_events_closed_idx ON job_events (at) WHERE kind = 'closed' AND open_days IS NOT NULL;

-- Jobs older than the events table have no events: each gets the events its row implies, as coverage ('initial'
-- at first seen, 'closed' at its last change when inactive), so active counts start right.
INSERT INTO job_events (job_id, company_id, kind, role_category, at)
  SELECT j.id, j.company_id, 'initial', j.role_category, j.first_seen_at FROM jobs j
  WHERE NOT EXISTS (SELECT 1 FROM job_events e WHERE e.job_id = j.id);
INSERT INTO job_events (job_id, company_id, kind, role_category, at)
  SELECT j.id, j.company_id, 'closed', j.role_category, greatest(j.updated_at, j.first_seen_at) FROM jobs j
  WHERE NOT j.active
    AND (SELECT e.kind FROM job_events e WHERE e.job_id = j.id ORDER BY e.id DESC LIMIT 1) <> 'closed';
UPDATE job_events c SET open_days = extract(epoch FROM c.at - j.first_seen_at) / 86400
  FROM jobs j
  WHERE c.kind = 'closed' AND j.id = c.job_id
    AND NOT EXISTS (SELECT 1 FROM job_events i WHERE i.job_id = c.job_id AND i.kind = 'initial');

CREATE OR REPLACE FUNCTION record_job_event() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  first_scrape boolean;
  seen_open boolean;
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NOT NEW.active THEN
      RETURN NULL;
    END IF;
    SELECT b.last_scraped_at IS NULL INTO first_scrape FROM boards b WHERE b.id = NEW.board_id;
    INSERT INTO job_events (job_id, company_id, kind, role_category, at)
    VALUES (NEW.id, NEW.company_id, CASE WHEN coalesce(first_scrape, true) THEN 'initial' ELSE 'opened' END,
            NEW.role_category, NEW.first_seen_at);
  ELSIF NEW.active IS DISTINCT FROM OLD.active THEN
    IF NEW.active THEN
      INSERT INTO job_events (job_id, company_id, kind, role_category, at)
      VALUES (NEW.id, NEW.company_id, 'reopened', NEW.role_category, NEW.last_seen_at);
    ELSE
      seen_open := NOT EXISTS (SELECT 1 FROM job_events e WHERE e.job_id = NEW.id AND e.kind = 'initial');
      INSERT INTO job_events (job_id, company_id, kind, role_category, at, open_days)
      VALUES (NEW.id, NEW.company_id, 'closed', OLD.role_category, NEW.updated_at,
              CASE WHEN seen_open THEN extract(epoch FROM NEW.updated_at - NEW.first_seen_at) / 86400 END);
    END IF;
  ELSIF NEW.active AND NEW.role_category IS DISTINCT FROM OLD.role_category THEN
    INSERT INTO job_events (job_id, company_id, kind, role_category, from_category, at)
    VALUES (NEW.id, NEW.company_id, 'reclassified', NEW.role_category, OLD.role_category, NEW.updated_at);
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS jobs_record_event ON jobs;
CREATE TRIGGER jobs_record_event AFTER INSERT OR UPDATE OF active, role_category ON jobs
  FOR EACH ROW EXECUTE FUNCTION record_job_event();

-- Per company, UTC day and role category: what happened that day. `net` is the change in active jobs (initial,
-- opened, reopened and reclassified in add one; closed and reclassified out take one), so active at the end of a
-- day is the running sum of net. `events` counts the events behind the row: the row goes when it reaches zero, so
-- the incremental table and a rebuild hold the same rows.
CREATE TABLE hiring_daily (
  company_id uuid NOT NULL,
  day date NOT NULL,
  role_category text NOT NULL,
  initial integer NOT NULL DEFAULT 0,
  opened integer NOT NULL DEFAULT 0,
  reopened integer NOT NULL DEFAULT 0,
  closed integer NOT NULL DEFAULT 0,
  net integer NOT NULL DEFAULT 0,
  events integer NOT NULL DEFAULT 0,
  PRIMARY KEY (company_id, day, role_category)
);

-- The same summed over every company, so catalog-wide trends read days x categories rows, not days x companies.
CREATE TABLE hiring_daily_all (
  day date NOT NULL,
  role_category text NOT NULL,
  initial integer NOT NULL DEFAULT 0,
  opened integer NOT NULL DEFAULT 0,
  reopened integer NOT NULL DEFAULT 0,
  closed integer NOT NULL DEFAULT 0,
  net integer NOT NULL DEFAULT 0,
  events integer NOT NULL DEFAULT 0,
  PRIMARY KEY (day, role_category)
);

-- One event's contribution, as (role_category, initial, opened, reopened, closed, net) rows: two for a
-- reclassification (in and out), one otherwise.
CREATE FUNCTION hiring_deltas(p_kind text, p_category text, p_from text)
RETURNS TABLE (role_category text, initial integer, opened integer, reopened integer, closed integer, net integer)
LANGUAGE sql IMMUTABLE AS $$
  SELECT $2, ($1 = 'initial')::int, ($1 = 'opened')::int, ($1 = 'reopened')::int, ($1 = 'closed')::int,
         CASE WHEN $1 = 'closed' THEN -1 ELSE 1 END
  UNION ALL
  SELECT $3, 0, 0, 0, 0, -1 WHERE $1 = 'reclassified'
$$;

CREATE FUNCTION hiring_apply_event(e job_events, sign integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  d record;
  d_day date := (e.at AT TIME ZONE 'UTC')::date;
BEGIN
  FOR d IN SELECT * FROM hiring_deltas(e.kind, e.role_category, e.from_category) LOOP
    INSERT INTO hiring_daily AS h (company_id, day, role_category, initial, opened, reopened, closed, net, events)
    VALUES (e.company_id, d_day, d.role_category, sign * d.initial, sign * d.opened, sign * d.reopened,
            sign * d.closed, sign * d.net, sign)
    ON CONFLICT (company_id, day, role_category) DO UPDATE SET
      initial = h.initial + EXCLUDED.initial, opened = h.opened + EXCLUDED.opened,
      reopened = h.reopened + EXCLUDED.reopened, closed = h.closed + EXCLUDED.closed, net = h.net + EXCLUDED.net,
      events = h.events + EXCLUDED.events;
    INSERT INTO hiring_daily_all AS h (day, role_category, initial, opened, reopened, closed, net, events)
    VALUES (d_day, d.role_category, sign * d.initial, sign * d.opened, sign * d.reopened, sign * d.closed,
            sign * d.net, sign)
    ON CONFLICT (day, role_category) DO UPDATE SET
      initial = h.initial + EXCLUDED.initial, opened = h.opened + EXCLUDED.opened,
      reopened = h.reopened + EXCLUDED.reopened, closed = h.closed + EXCLUDED.closed, net = h.net + EXCLUDED.net,
      events = h.events + EXCLUDED.events;
    IF sign < 0 THEN
      DELETE FROM hiring_daily
        WHERE company_id = e.company_id AND day = d_day AND role_category = d.role_category AND events = 0;
      DELETE FROM hiring_daily_all WHERE day = d_day AND role_category = d.role_category AND events = 0;
    END IF;
  END LOOP;
END $$;

-- Row-level: a scrape writes few events (only jobs that open, close or move), and each is two upserts. The
-- catalog_version row is locked first, as jobs_maintain_counts does, so every job-writing transaction takes its
-- locks in one order and two concurrent scrapes cannot deadlock on the shared hiring_daily_all rows.
CREATE FUNCTION hiring_daily_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM catalog_version FOR NO KEY UPDATE;
  IF TG_OP = 'INSERT' THEN
    PERFORM hiring_apply_event(NEW, 1);
  ELSE
    PERFORM hiring_apply_event(OLD, -1);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER job_events_hiring_daily AFTER INSERT OR DELETE ON job_events
  FOR EACH ROW EXECUTE FUNCTION hiring_daily_maintain();

-- TRUNCATE fires no row trigger: the rollups of no events are empty.
CREATE FUNCTION hiring_daily_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM hiring_daily;
  DELETE FROM hiring_daily_all;
  RETURN NULL;
END $$;
CREATE TRIGGER job_events_hiring_daily_truncate AFTER TRUNCATE ON job_events
  FOR EACH STATEMENT EXECUTE FUNCTION hiring_daily_truncate();

-- Recomputes both rollups from job_events (frontline signals rebuild); the incremental trigger must agree.
CREATE FUNCTION rebuild_hiring_daily() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  n integer;
BEGIN
  PERFORM 1 FROM catalog_version FOR NO KEY UPDATE;
  DELETE FROM hiring_daily;
  DELETE FROM hiring_daily_all;
  INSERT INTO hiring_daily (company_id, day, role_category, initial, opened, reopened, closed, net, events)
    SELECT e.company_id, (e.at AT TIME ZONE 'UTC')::date, d.role_category, sum(d.initial), sum(d.opened),
           sum(d.reopened), sum(d.closed), sum(d.net), count(*)
    FROM job_events e CROSS JOIN LATERAL hiring_deltas(e.kind, e.role_category, e.from_category) d
    GROUP BY 1, 2, 3;
  GET DIAGNOSTICS n = ROW_COUNT;
  INSERT INTO hiring_daily_all (day, role_category, initial, opened, reopened, closed, net, events)
    SELECT day, role_category, sum(initial), sum(opened), sum(reopened), sum(closed), sum(net), sum(events)
    FROM hiring_daily GROUP BY 1, 2;
  RETURN n;
END $$;

SELECT rebuild_hiring_daily();
