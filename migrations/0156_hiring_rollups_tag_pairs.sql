-- Hiring rollups per pair of tags of one dimension: hiring_daily summed over the listed companies carrying both
-- tags. A trend over several tags of one dimension counts each company once by inclusion-exclusion: the tags' rows,
-- less their pairs' rows (plus, with three tags or more, the days of the rare companies carrying three of them), so
-- `industry=a,b` reads three ranges instead of the days of every company carrying both. Kept by the triggers that
-- keep hiring_daily_tag, and by the rebuild.

CREATE TABLE hiring_daily_tag_pair (
  tag_id integer NOT NULL,
  other_tag_id integer NOT NULL,
  day date NOT NULL,
  role_category text NOT NULL,
  initial integer NOT NULL DEFAULT 0,
  opened integer NOT NULL DEFAULT 0,
  reopened integer NOT NULL DEFAULT 0,
  closed integer NOT NULL DEFAULT 0,
  net integer NOT NULL DEFAULT 0,
  events integer NOT NULL DEFAULT 0,
  PRIMARY KEY (tag_id, other_tag_id, day, role_category),
  CHECK (tag_id < other_tag_id)
);

-- The pairs of tags of one dimension each company carries, the lower id first. A tag's dimension is never updated
-- (tags are inserted by slug and dimension, src/catalog/tags.ts), so a pair stays a pair while both are carried.
CREATE VIEW company_tag_pairs AS
  SELECT a.company_id, a.tag_id, b.tag_id AS other_tag_id
  FROM company_tags a JOIN tags ta ON ta.id = a.tag_id
  JOIN company_tags b ON b.company_id = a.company_id AND b.tag_id > a.tag_id
  JOIN tags tb ON tb.id = b.tag_id AND tb.dimension = ta.dimension;

-- A statement's job events into the four rollups (as in 0120, plus the pairs of the company's tags).
CREATE OR REPLACE FUNCTION hiring_rollups_apply() RETURNS trigger LANGUAGE plpgsql AS $$
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
        net = h.net + EXCLUDED.net, events = h.events + EXCLUDED.events),
  listed AS MATERIALIZED (
    SELECT d.* FROM d JOIN companies c ON c.id = d.company_id AND c.active),
  per_tag AS (
    INSERT INTO hiring_daily_tag AS h (tag_id, day, role_category, initial, opened, reopened, closed, net, events)
      SELECT ct.tag_id, d.day, k, sum(d.initial), sum(d.opened), sum(d.reopened), sum(d.closed), sum(d.net),
             sum(d.events)
      FROM listed d JOIN company_tags ct ON ct.company_id = d.company_id
      CROSS JOIN LATERAL hiring_category_keys(d.role_category) k
      GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (tag_id, day, role_category) DO UPDATE SET
        initial = h.initial + EXCLUDED.initial, opened = h.opened + EXCLUDED.opened,
        reopened = h.reopened + EXCLUDED.reopened, closed = h.closed + EXCLUDED.closed, net = h.net + EXCLUDED.net,
        events = h.events + EXCLUDED.events)
  INSERT INTO hiring_daily_tag_pair AS h
    (tag_id, other_tag_id, day, role_category, initial, opened, reopened, closed, net, events)
    SELECT p.tag_id, p.other_tag_id, d.day, k, sum(d.initial), sum(d.opened), sum(d.reopened), sum(d.closed),
           sum(d.net), sum(d.events)
    FROM listed d JOIN company_tag_pairs p ON p.company_id = d.company_id
    CROSS JOIN LATERAL hiring_category_keys(d.role_category) k
    GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (tag_id, other_tag_id, day, role_category) DO UPDATE SET
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
      WHERE h.day = k.day AND h.role_category = k.role_category AND h.events = 0),
    per_tag AS (
      DELETE FROM hiring_daily_tag h USING k JOIN company_tags ct ON ct.company_id = k.company_id
      WHERE h.tag_id = ct.tag_id AND h.day = k.day AND h.role_category = k.role_category AND h.events = 0)
    DELETE FROM hiring_daily_tag_pair h USING k JOIN company_tag_pairs p ON p.company_id = k.company_id
      WHERE h.tag_id = p.tag_id AND h.other_tag_id = p.other_tag_id AND h.day = k.day
        AND h.role_category = k.role_category AND h.events = 0;
  END IF;
  RETURN NULL;
END $$;

-- Adds (p_sign 1) or takes (-1) the days of companies to or from pairs of tags: (company, tag, other tag) given
-- as three arrays, each triple once.
CREATE FUNCTION hiring_pairs_shift(p_companies uuid[], p_tags integer[], p_others integer[], p_sign integer)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO hiring_daily_tag_pair AS h
    (tag_id, other_tag_id, day, role_category, initial, opened, reopened, closed, net, events)
    SELECT p.tag_id, p.other_tag_id, d.day, k, p_sign * sum(d.initial), p_sign * sum(d.opened),
           p_sign * sum(d.reopened), p_sign * sum(d.closed), p_sign * sum(d.net), p_sign * sum(d.events)
    FROM unnest(p_companies, p_tags, p_others) AS p(company_id, tag_id, other_tag_id)
    JOIN hiring_daily d ON d.company_id = p.company_id
    CROSS JOIN LATERAL hiring_category_keys(d.role_category) k
    GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (tag_id, other_tag_id, day, role_category) DO UPDATE SET
      initial = h.initial + EXCLUDED.initial, opened = h.opened + EXCLUDED.opened,
      reopened = h.reopened + EXCLUDED.reopened, closed = h.closed + EXCLUDED.closed, net = h.net + EXCLUDED.net,
      events = h.events + EXCLUDED.events;
  IF p_sign < 0 THEN
    DELETE FROM hiring_daily_tag_pair h
      USING unnest(p_companies, p_tags, p_others) AS p(company_id, tag_id, other_tag_id)
      JOIN hiring_daily d ON d.company_id = p.company_id
      CROSS JOIN LATERAL hiring_category_keys(d.role_category) k
      WHERE h.tag_id = p.tag_id AND h.other_tag_id = p.other_tag_id AND h.day = d.day AND h.role_category = k
        AND h.events = 0;
  END IF;
END $$;

-- A listed company gaining (insert) or losing (delete) tags moves its days into or out of those tags, and of the
-- pairs they make with its other tags of their dimension: after an insert, the pairs now carried that hold a new
-- tag; after a delete, the pairs of what it carried before (its tags now and the deleted ones) that hold a deleted
-- tag. Pairs with a deleted tag itself are emptied by tags_hiring_delete below (its dimension is gone by now).
CREATE OR REPLACE FUNCTION hiring_company_tags_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign integer := CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END;
  pairs record;
  tag_pairs record;
BEGIN
  SELECT array_agg(x.company_id) AS companies, array_agg(x.tag_id) AS tags INTO pairs
    FROM changed x JOIN companies c ON c.id = x.company_id AND c.active;
  IF pairs.companies IS NULL THEN
    RETURN NULL;
  END IF;
  PERFORM 1 FROM catalog_version FOR NO KEY UPDATE;
  PERFORM hiring_tags_shift(pairs.companies, pairs.tags, sign);
  WITH carried AS (
    SELECT ct.company_id, ct.tag_id FROM company_tags ct
    WHERE ct.company_id IN (SELECT x.company_id FROM changed x)
    UNION SELECT x.company_id, x.tag_id FROM changed x WHERE TG_OP = 'DELETE')
  SELECT array_agg(a.company_id) AS companies, array_agg(a.tag_id) AS tags, array_agg(b.tag_id) AS others
    INTO tag_pairs
    FROM carried a JOIN tags ta ON ta.id = a.tag_id
    JOIN carried b ON b.company_id = a.company_id AND b.tag_id > a.tag_id
    JOIN tags tb ON tb.id = b.tag_id AND tb.dimension = ta.dimension
    JOIN companies c ON c.id = a.company_id AND c.active
    WHERE EXISTS (SELECT 1 FROM changed x WHERE x.company_id = a.company_id AND x.tag_id IN (a.tag_id, b.tag_id));
  IF tag_pairs.companies IS NOT NULL THEN
    PERFORM hiring_pairs_shift(tag_pairs.companies, tag_pairs.tags, tag_pairs.others, sign);
  END IF;
  RETURN NULL;
END $$;

-- A deleted tag's pairs go with it: no company carries it any more.
CREATE FUNCTION hiring_tag_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM hiring_daily_tag_pair WHERE tag_id = OLD.id OR other_tag_id = OLD.id;
  RETURN OLD;
END $$;
CREATE TRIGGER tags_hiring_delete BEFORE DELETE ON tags
  FOR EACH ROW EXECUTE FUNCTION hiring_tag_deleted();

-- A company listed or delisted (or deleted while listed) moves its days into or out of its tags and their pairs.
CREATE OR REPLACE FUNCTION hiring_company_listing() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tag_ids integer[];
  pair_tags record;
  sign integer := -1;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.active THEN
    sign := 1;
  END IF;
  SELECT array_agg(tag_id) INTO tag_ids FROM company_tags WHERE company_id = OLD.id;
  IF tag_ids IS NOT NULL THEN
    PERFORM 1 FROM catalog_version FOR NO KEY UPDATE;
    PERFORM hiring_tags_shift(array_fill(OLD.id, ARRAY[cardinality(tag_ids)]), tag_ids, sign);
    SELECT array_agg(p.tag_id) AS tags, array_agg(p.other_tag_id) AS others INTO pair_tags
      FROM company_tag_pairs p WHERE p.company_id = OLD.id;
    IF pair_tags.tags IS NOT NULL THEN
      PERFORM hiring_pairs_shift(
        array_fill(OLD.id, ARRAY[cardinality(pair_tags.tags)]), pair_tags.tags, pair_tags.others, sign);
    END IF;
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NULL END;
END $$;

-- TRUNCATE fires no row trigger: the rollups of no events, or of no tags, are empty.
CREATE OR REPLACE FUNCTION hiring_daily_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'job_events' THEN
    DELETE FROM hiring_daily;
    DELETE FROM hiring_daily_all;
  END IF;
  DELETE FROM hiring_daily_tag;
  DELETE FROM hiring_daily_tag_pair;
  RETURN NULL;
END $$;

-- Recomputes the four rollups from job_events, company_tags and the listed companies (frontline signals rebuild);
-- the triggers must agree. Returns the number of company-day rows.
CREATE OR REPLACE FUNCTION rebuild_hiring_daily() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  n integer;
BEGIN
  PERFORM 1 FROM catalog_version FOR NO KEY UPDATE;
  DELETE FROM hiring_daily;
  DELETE FROM hiring_daily_all;
  DELETE FROM hiring_daily_tag;
  DELETE FROM hiring_daily_tag_pair;
  -- Each in key order, so a company's, a day's, a tag's or a pair's rows sit together on disk.
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
  INSERT INTO hiring_daily_tag_pair
    (tag_id, other_tag_id, day, role_category, initial, opened, reopened, closed, net, events)
    SELECT p.tag_id, p.other_tag_id, h.day, k, sum(h.initial), sum(h.opened), sum(h.reopened), sum(h.closed),
           sum(h.net), sum(h.events)
    FROM hiring_daily h JOIN companies c ON c.id = h.company_id AND c.active
    JOIN company_tag_pairs p ON p.company_id = h.company_id
    CROSS JOIN LATERAL hiring_category_keys(h.role_category) k
    GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4;
  RETURN n;
END $$;

SELECT rebuild_hiring_daily();
