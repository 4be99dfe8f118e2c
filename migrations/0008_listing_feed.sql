-- The in-process catalog replica (src/search/catalog-index.ts) now also serves GET /jobs listings from memory,
-- so every column a job list item shows or is ordered by must move the change feed: url and posted_at join the
-- columns that bump search_seq. last_seen_at and the other scrape bookkeeping still do not.
DROP TRIGGER jobs_search_seq ON jobs;
CREATE TRIGGER jobs_search_seq BEFORE UPDATE ON jobs FOR EACH ROW
  WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.company_name IS DISTINCT FROM NEW.company_name
    OR OLD.company_id IS DISTINCT FROM NEW.company_id OR OLD.location IS DISTINCT FROM NEW.location
    OR OLD.remote IS DISTINCT FROM NEW.remote OR OLD.role_category IS DISTINCT FROM NEW.role_category
    OR OLD.active IS DISTINCT FROM NEW.active OR OLD.url IS DISTINCT FROM NEW.url
    OR OLD.posted_at IS DISTINCT FROM NEW.posted_at)
  EXECUTE FUNCTION search_bump_seq();

-- TRUNCATE fires no row triggers, so it leaves no tombstones: a statement trigger records one 'truncate' marker,
-- on which in-process replicas reload everything.
ALTER TABLE search_tombstones DROP CONSTRAINT search_tombstones_kind_check;
ALTER TABLE search_tombstones ADD CONSTRAINT search_tombstones_kind_check
  CHECK (kind IN ('job', 'company', 'truncate'));
CREATE FUNCTION search_tombstone_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_tombstones (kind, id) VALUES ('truncate', '00000000-0000-0000-0000-000000000000');
  RETURN NULL;
END
$$;
CREATE TRIGGER jobs_search_truncate AFTER TRUNCATE ON jobs FOR EACH STATEMENT
  EXECUTE FUNCTION search_tombstone_truncate();
CREATE TRIGGER companies_search_truncate AFTER TRUNCATE ON companies FOR EACH STATEMENT
  EXECUTE FUNCTION search_tombstone_truncate();

-- GET /companies is served from the replica too: its list items show the domain and tag values, and its order
-- reads active_job_count (kept by the writers, see refreshActiveJobCounts), so those move the feed as well.
DROP TRIGGER companies_search_seq ON companies;
CREATE TRIGGER companies_search_seq BEFORE UPDATE ON companies FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.slug IS DISTINCT FROM NEW.slug
    OR OLD.one_liner IS DISTINCT FROM NEW.one_liner OR OLD.description IS DISTINCT FROM NEW.description
    OR OLD.research_summary IS DISTINCT FROM NEW.research_summary OR OLD.category IS DISTINCT FROM NEW.category
    OR OLD.active IS DISTINCT FROM NEW.active OR OLD.domain IS DISTINCT FROM NEW.domain
    OR OLD.active_job_count IS DISTINCT FROM NEW.active_job_count)
  EXECUTE FUNCTION search_bump_seq();

-- A tag's display value is part of every company list item carrying it.
CREATE FUNCTION search_bump_tag_companies() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE companies SET search_seq = nextval('search_change_seq')
   WHERE id IN (SELECT company_id FROM company_tags WHERE tag_id = NEW.id);
  RETURN NULL;
END
$$;
CREATE TRIGGER tags_search_seq AFTER UPDATE ON tags FOR EACH ROW
  WHEN (OLD.value IS DISTINCT FROM NEW.value OR OLD.slug IS DISTINCT FROM NEW.slug
    OR OLD.dimension IS DISTINCT FROM NEW.dimension)
  EXECUTE FUNCTION search_bump_tag_companies();
