-- The in-process replica keeps the job fields declared in src/catalog/fields/job-record.ts, and any of them that
-- changes must move the change feed. Instead of listing those columns here (and again for each field declared
-- later), the feed moves on a change to any column except the bookkeeping a scrape or the feed itself writes
-- (last_seen_at on every pass, updated_at, search_seq, the generated search_tsv) and the long texts only a job's
-- detail shows (description, salary), which the detail reads from the table. The comparison sits in the
-- function because a WHEN condition may not read a generated column of NEW, even to drop it.
CREATE FUNCTION jobs_bump_seq_on_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  bookkeeping CONSTANT text[] := ARRAY['last_seen_at', 'updated_at', 'search_seq', 'search_tsv', 'description',
    'salary'];
BEGIN
  IF (to_jsonb(OLD) - bookkeeping) IS DISTINCT FROM (to_jsonb(NEW) - bookkeeping) THEN
    NEW.search_seq := nextval('search_change_seq');
  END IF;
  RETURN NEW;
END
$$;
DROP TRIGGER jobs_search_seq ON jobs;
CREATE TRIGGER jobs_search_seq BEFORE UPDATE ON jobs FOR EACH ROW EXECUTE FUNCTION jobs_bump_seq_on_change();
