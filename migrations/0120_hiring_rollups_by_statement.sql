-- Hiring rollups, set-based: job events are recorded and rolled up once per statement (a scrape's job writes are
-- two statements), not once per row; a third rollup, hiring_daily_tag, sums the listed companies of each tag, so
-- a trend over a tag filter reads days x categories rows instead of every matching company's days; and the two
-- catalog-level rollups (hiring_daily_all, hiring_daily_tag) carry, besides each role category, its groups:
-- '(all)' (every category) and '(client_facing)' (the seven of CLIENT_FACING_CATEGORIES in
-- src/catalog/vocabulary.ts, as jobs_client_facing_idx lists them), so a trend of every category or of the
-- client-facing ones, and the role mix, read one or two rows a day instead of eighteen.

-- A trend reads one key's days (a range of them, and the sum before it): the catalog rollup is keyed by category
-- first. Its first day on record is the first day of '(all)'.
ALTER TABLE hiring_daily_all DROP CONSTRAINT hiring_daily_all_pkey;
ALTER TABLE hiring_daily_all ADD PRIMARY KEY (role_category, day);

-- The rollup keys one role category counts under in hiring_daily_all and hiring_daily_tag.
CREATE FUNCTION hiring_category_keys(p_category text) RETURNS SETOF text LANGUAGE sql IMMUTABLE AS $$
  SELECT p_category
  UNION ALL SELECT '(all)'
  UNION ALL SELECT '(client_facing)' WHERE p_category IN (
    'fde', 'solutions_engineer', 'csm', 'tam', 'sales_engineer', 'implementation', 'professional_services')
$$;

-- Per tag, UTC day and role category key: hiring_daily summed over the active companies carrying the tag. Kept by the
-- job_events triggers below (an event adds to each tag of its company) and by the company_tags and companies
-- triggers (a company gaining or losing a tag, or being listed or delisted, moves all its days). No foreign key to
-- tags: deleting a tag deletes its company_tags rows, whose trigger empties its rows here.
CREATE TABLE hiring_daily_tag (
  tag_id integer NOT NULL,
  day date NOT NULL,
  role_category text NOT NULL,
  initial integer NOT NULL DEFAULT 0,
  opened integer NOT NULL DEFAULT 0,
  reopened integer NOT NULL DEFAULT 0,
  closed integer NOT NULL DEFAULT 0,
  net integer NOT NULL DEFAULT 0,
  events integer NOT NULL DEFAULT 0,
  PRIMARY KEY (tag_id, day, role_category)
);

-- Job events from a statement's inserted jobs: 'initial' on a board's first scrape (or without a board), else
-- 'opened'. Inactive inserts are history, recorded by whoever wrote them.
CREATE FUNCTION record_job_events_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO job_events (job_id, company_id, kind, role_category, at)
    SELECT n.id, n.company_id, CASE WHEN b.last_scraped_at IS NULL THEN 'initial' ELSE 'opened' END,
           n.role_category, n.first_seen_at
    FROM new_rows n LEFT JOIN boards b ON b.id = n.board_id
    WHERE n.active ORDER BY n.first_seen_at, n.id;
  RETURN NULL;
END $$;

-- Job events from a statement's updated jobs: reopened, closed (under the category it was open under, with days
-- open when its opening was seen) and reclassified while active (from the old category to the new).
CREATE FUNCTION record_job_events_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO job_events (job_id, company_id, kind, role_category, from_category, at, open_days)
    SELECT n.id, n.company_id,
           CASE WHEN n.active = o.active THEN 'reclassified' WHEN n.active THEN 'reopened' ELSE 'closed' END,
           CASE WHEN n.active THEN n.role_category ELSE o.role_category END,
           CASE WHEN n.active = o.active THEN o.role_category END,
           CASE WHEN n.active AND NOT o.active THEN n.last_seen_at ELSE n.updated_at END,
           CASE WHEN NOT n.active AND NOT EXISTS (
                  SELECT 1 FROM job_events i WHERE i.job_id = n.id AND i.kind = 'initial')
                THEN extract(epoch FROM n.updated_at - n.first_seen_at) / 86400 END
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE n.active <> o.active OR (n.active AND n.role_category IS DISTINCT FROM o.role_category)
    ORDER BY n.id;
  RETURN NULL;
END $$;

DROP TRIGGER jobs_record_event ON jobs;
DROP FUNCTION record_job_event();
CREATE TRIGGER jobs_record_events_insert AFTER INSERT ON jobs REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION record_job_events_insert();
CREATE TRIGGER jobs_record_events_update AFTER UPDATE ON jobs REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION record_job_events_update();

-- A statement's job events (inserted: +1, deleted: -1) into the three rollups: one upsert per rollup, keys
-- sorted, then (on deletes) the rows that reached zero events go. The catalog_version row is locked first, as
-- jobs_maintain_counts does, so every job-writing transaction takes its locks in one order.
CREATE FUNCTION hiring_rollups_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s integer := CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM changed) THEN
    RETURN NULL;
  END IF;
  PERFORM 1 FROM catalog_version FOR NO KEY UPDATE;
  WITH d AS MATERIALIZED (
    SELECT e.company_id, (e.at AT TIME ZONE 'UTC')::date AS day, x.role_category, s * sum(x.initial) AS initial,
           s * sum(x.opened) AS opened, s * sum(x.reopened) AS reopened, s * sum(x.closed) AS closed,
           s * sum(x.net) AS net, s * count(*)::int AS events
    FROM changed e CROSS JOIN LATERAL hiring_deltas(e.kind, e.role_category, e.from_category) x
    GROUP BY 1, 2, 3),
  per_company AS (
    INSERT INTO hiring_daily AS h (company_id, day, role_category, initial, opened, reopened, closed, net, events)
      SELECT * FROM d ORDER BY 1, 2, 3
      ON CONFLICT (company_id, day, role_category) DO UPDATE SET
        initial = h.initial + EXCLUDED.initial, opened = h.opened + EXCLUDED.opened,
        reopened = h.reopened + EXCLUDED.reopened, closed = h.closed + EXCLUDED.closed,
        net = h.net + EXCLUDED.net, events = h.events + EXCLUDED.events),
  per_catalog AS (
    INSERT INTO hiring_daily_all AS h (day, role_category, initial, opened, reopened, closed, net, events)
      SELECT d.day, k, sum(d.initial), sum(d.opened), sum(d.reopened), sum(d.closed), sum(d.net), sum(d.events)
      FROM d CROSS JOIN LATERAL hiring_category_keys(d.role_category) k GROUP BY 1, 2 ORDER BY 2, 1
      ON CONFLICT (role_category, day) DO UPDATE SET
        initial = h.initial + EXCLUDED.initial, opened = h.opened + EXCLUDED.opened,
        reopened = h.reopened + EXCLUDED.reopened, closed = h.closed + EXCLUDED.closed,
        net = h.net + EXCLUDED.net, events = h.events + EXCLUDED.events)
  INSERT INTO hiring_daily_tag AS h (tag_id, day, role_category, initial, opened, reopened, closed, net, events)
    SELECT ct.tag_id, d.day, k, sum(d.initial), sum(d.opened), sum(d.reopened), sum(d.closed), sum(d.net),
           sum(d.events)
    FROM d JOIN companies c ON c.id = d.company_id AND c.active
    JOIN company_tags ct ON ct.company_id = d.company_id
    CROSS JOIN LATERAL hiring_category_keys(d.role_category) k
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (tag_id, day, role_category) DO UPDATE SET
      initial = h.initial + EXCLUDED.initial, opened = h.opened + EXCLUDED.opened,
      reopened = h.reopened + EXCLUDED.reopened, closed = h.closed + EXCLUDED.closed, net = h.net + EXCLUDED.net,
      events = h.events + EXCLUDED.events;
  IF s < 0 THEN
    WITH k AS MATERIALIZED (
      SELECT DISTINCT e.company_id, (e.at AT TIME ZONE 'UTC')::date AS day, g AS role_category
      FROM changed e CROSS JOIN LATERAL hiring_deltas(e.kind, e.role_category, e.from_category) x
      CROSS JOIN LATERAL hiring_category_keys(x.role_category) g),
    per_company AS (
      DELETE FROM hiring_daily h USING k
      WHERE h.company_id = k.company_id AND h.day = k.day AND h.role_category = k.role_category AND h.events = 0),
    per_catalog AS (
      DELETE FROM hiring_daily_all h USING k
      WHERE h.day = k.day AND h.role_category = k.role_category AND h.events = 0)
    DELETE FROM hiring_daily_tag h USING k JOIN company_tags ct ON ct.company_id = k.company_id
      WHERE h.tag_id = ct.tag_id AND h.day = k.day AND h.role_category = k.role_category AND h.events = 0;
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER job_events_hiring_daily ON job_events;
DROP FUNCTION hiring_daily_maintain();
DROP FUNCTION hiring_apply_event(job_events, integer);
CREATE TRIGGER job_events_hiring_insert AFTER INSERT ON job_events REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION hiring_rollups_apply();
CREATE TRIGGER job_events_hiring_delete AFTER DELETE ON job_events REFERENCING OLD TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION hiring_rollups_apply();

-- Adds (p_sign 1) or takes (-1) the days of companies to or from tags: pairs (company, tag) given as two arrays.
CREATE FUNCTION hiring_tags_shift(p_companies uuid[], p_tags integer[], p_sign integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO hiring_daily_tag AS h (tag_id, day, role_category, initial, opened, reopened, closed, net, events)
    SELECT p.tag_id, d.day, k, p_sign * sum(d.initial), p_sign * sum(d.opened), p_sign * sum(d.reopened),
           p_sign * sum(d.closed), p_sign * sum(d.net), p_sign * sum(d.events)
    FROM unnest(p_companies, p_tags) AS p(company_id, tag_id)
    JOIN hiring_daily d ON d.company_id = p.company_id
    CROSS JOIN LATERAL hiring_category_keys(d.role_category) k
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (tag_id, day, role_category) DO UPDATE SET
      initial = h.initial + EXCLUDED.initial, opened = h.opened + EXCLUDED.opened,
      reopened = h.reopened + EXCLUDED.reopened, closed = h.closed + EXCLUDED.closed, net = h.net + EXCLUDED.net,
      events = h.events + EXCLUDED.events;
  IF p_sign < 0 THEN
    DELETE FROM hiring_daily_tag h USING unnest(p_companies, p_tags) AS p(company_id, tag_id)
      JOIN hiring_daily d ON d.company_id = p.company_id
      CROSS JOIN LATERAL hiring_category_keys(d.role_category) k
      WHERE h.tag_id = p.tag_id AND h.day = d.day AND h.role_category = k AND h.events = 0;
  END IF;
END $$;

-- A listed company gaining (insert) or losing (delete) tags moves its days; a delisted one counts in no tag.
CREATE FUNCTION hiring_company_tags_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  pairs record;
BEGIN
  SELECT array_agg(x.company_id) AS companies, array_agg(x.tag_id) AS tags INTO pairs
    FROM changed x JOIN companies c ON c.id = x.company_id AND c.active;
  IF pairs.companies IS NOT NULL THEN
    PERFORM 1 FROM catalog_version FOR NO KEY UPDATE;
    PERFORM hiring_tags_shift(pairs.companies, pairs.tags, CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER company_tags_hiring_insert AFTER INSERT ON company_tags REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION hiring_company_tags_changed();
CREATE TRIGGER company_tags_hiring_delete AFTER DELETE ON company_tags REFERENCING OLD TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION hiring_company_tags_changed();

-- A company listed or delisted moves its days into or out of its tags. Before a delete: the cascade that follows
-- removes its tags and events while the company row is gone, so their triggers no longer see it as listed.
CREATE FUNCTION hiring_company_listing() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tag_ids integer[];
  sign integer := -1;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.active THEN
    sign := 1;
  END IF;
  SELECT array_agg(tag_id) INTO tag_ids FROM company_tags WHERE company_id = OLD.id;
  IF tag_ids IS NOT NULL THEN
    PERFORM 1 FROM catalog_version FOR NO KEY UPDATE;
    PERFORM hiring_tags_shift(array_fill(OLD.id, ARRAY[cardinality(tag_ids)]), tag_ids, sign);
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NULL END;
END $$;
CREATE TRIGGER companies_hiring_listing AFTER UPDATE OF active ON companies
  FOR EACH ROW WHEN (OLD.active IS DISTINCT FROM NEW.active) EXECUTE FUNCTION hiring_company_listing();
CREATE TRIGGER companies_hiring_delete BEFORE DELETE ON companies
  FOR EACH ROW WHEN (OLD.active) EXECUTE FUNCTION hiring_company_listing();

-- TRUNCATE fires no row trigger: the rollups of no events, or of no tags, are empty.
CREATE OR REPLACE FUNCTION hiring_daily_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'job_events' THEN
    DELETE FROM hiring_daily;
    DELETE FROM hiring_daily_all;
  END IF;
  DELETE FROM hiring_daily_tag;
  RETURN NULL;
END $$;
CREATE TRIGGER company_tags_hiring_truncate AFTER TRUNCATE ON company_tags
  FOR EACH STATEMENT EXECUTE FUNCTION hiring_daily_truncate();

-- Recomputes the three rollups from job_events, company_tags and the listed companies (frontline signals
-- rebuild); the triggers must agree. Returns the number of company-day rows.
CREATE OR REPLACE FUNCTION rebuild_hiring_daily() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  n integer;
BEGIN
  PERFORM 1 FROM catalog_version FOR NO KEY UPDATE;
  DELETE FROM hiring_daily;
  DELETE FROM hiring_daily_all;
  DELETE FROM hiring_daily_tag;
  -- Each in key order, so a company's, a day's or a tag's rows sit together on disk.
  INSERT INTO hiring_daily (company_id, day, role_category, initial, opened, reopened, closed, net, events)
    SELECT e.company_id, (e.at AT TIME ZONE 'UTC')::date, d.role_category, sum(d.initial), sum(d.opened),
           sum(d.reopened), sum(d.closed), sum(d.net), count(*)
    FROM job_events e CROSS JOIN LATERAL hiring_deltas(e.kind, e.role_category, e.from_category) d
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
  GET DIAGNOSTICS n = ROW_COUNT;
  INSERT INTO hiring_daily_all (day, role_category, initial, opened, reopened, closed, net, events)
    SELECT h.day, k, sum(h.initial), sum(h.opened), sum(h.reopened), sum(h.closed), sum(h.net), sum(h.events)
    FROM hiring_daily h CROSS JOIN LATERAL hiring_category_keys(h.role_category) k
    GROUP BY 1, 2 ORDER BY 2, 1;
  INSERT INTO hiring_daily_tag (tag_id, day, role_category, initial, opened, reopened, closed, net, events)
    SELECT ct.tag_id, h.day, k, sum(h.initial), sum(h.opened), sum(h.reopened), sum(h.closed), sum(h.net),
           sum(h.events)
    FROM hiring_daily h JOIN companies c ON c.id = h.company_id AND c.active
    JOIN company_tags ct ON ct.company_id = h.company_id
    CROSS JOIN LATERAL hiring_category_keys(h.role_category) k
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
  RETURN n;
END $$;

SELECT rebuild_hiring_daily();
