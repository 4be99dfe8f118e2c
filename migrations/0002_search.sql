-- Hybrid search: stored embeddings, the text they were computed from, and a change feed for in-process indexes.

-- One counter orders every change that matters to search (row attributes used by filters, embedding texts,
-- embeddings, deletions). In-process vector indexes poll "seq > last seen" instead of reloading everything.
CREATE SEQUENCE search_change_seq;

ALTER TABLE jobs ADD COLUMN search_seq bigint NOT NULL DEFAULT nextval('search_change_seq');
ALTER TABLE companies ADD COLUMN search_seq bigint NOT NULL DEFAULT nextval('search_change_seq');
CREATE INDEX jobs_search_seq_idx ON jobs (search_seq);
CREATE INDEX companies_search_seq_idx ON companies (search_seq);

-- Only columns that feed an embedding text or a search filter bump the feed: a scrape touching last_seen_at on
-- every job must not make every API process reload every job.
CREATE FUNCTION search_bump_seq() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_seq := nextval('search_change_seq');
  RETURN NEW;
END
$$;

CREATE TRIGGER jobs_search_seq BEFORE UPDATE ON jobs FOR EACH ROW
  WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.company_name IS DISTINCT FROM NEW.company_name
    OR OLD.company_id IS DISTINCT FROM NEW.company_id OR OLD.location IS DISTINCT FROM NEW.location
    OR OLD.remote IS DISTINCT FROM NEW.remote OR OLD.role_category IS DISTINCT FROM NEW.role_category
    OR OLD.active IS DISTINCT FROM NEW.active)
  EXECUTE FUNCTION search_bump_seq();

CREATE TRIGGER companies_search_seq BEFORE UPDATE ON companies FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.slug IS DISTINCT FROM NEW.slug
    OR OLD.one_liner IS DISTINCT FROM NEW.one_liner OR OLD.description IS DISTINCT FROM NEW.description
    OR OLD.research_summary IS DISTINCT FROM NEW.research_summary OR OLD.category IS DISTINCT FROM NEW.category
    OR OLD.active IS DISTINCT FROM NEW.active)
  EXECUTE FUNCTION search_bump_seq();

-- Tags are company filters and part of the company text: attaching or detaching one is a company change.
CREATE FUNCTION search_bump_company_tags() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE companies SET search_seq = nextval('search_change_seq')
   WHERE id = (CASE WHEN TG_OP = 'DELETE' THEN OLD.company_id ELSE NEW.company_id END);
  RETURN NULL;
END
$$;
CREATE TRIGGER company_tags_search_seq AFTER INSERT OR DELETE ON company_tags FOR EACH ROW
  EXECUTE FUNCTION search_bump_company_tags();

-- Hard deletions leave a tombstone so indexes drop the row (deactivation is the usual path and needs none).
CREATE TABLE search_tombstones (
  seq bigint PRIMARY KEY DEFAULT nextval('search_change_seq'),
  kind text NOT NULL CHECK (kind IN ('job', 'company')),
  id uuid NOT NULL,
  deleted_at timestamptz NOT NULL DEFAULT now()
);
CREATE FUNCTION search_tombstone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_tombstones (kind, id) VALUES (TG_ARGV[0], OLD.id);
  RETURN NULL;
END
$$;
CREATE TRIGGER jobs_search_tombstone AFTER DELETE ON jobs FOR EACH ROW EXECUTE FUNCTION search_tombstone('job');
CREATE TRIGGER companies_search_tombstone AFTER DELETE ON companies FOR EACH ROW
  EXECUTE FUNCTION search_tombstone('company');

-- The texts that are embedded, defined once here so "is this embedding stale?" is one SQL comparison of md5s.
-- Capped at 8000 characters: enough for a research summary, inside every embedding model's input limit.
CREATE VIEW search_job_texts AS
  SELECT j.id, left(j.title || ' | ' || j.company_name, 8000) AS text
    FROM jobs j WHERE j.active;

CREATE VIEW search_company_texts AS
  SELECT c.id, left(concat_ws(' | ', c.name, nullif(c.one_liner, ''), c.description,
           (SELECT string_agg(t.value, ', ' ORDER BY t.dimension, t.slug)
              FROM company_tags ct JOIN tags t ON t.id = ct.tag_id WHERE ct.company_id = c.id),
           c.research_summary), 8000) AS text
    FROM companies c WHERE c.active;

-- One embedding per row for the current model. `model` is the embedder identity and `text_hash` the md5 of the
-- text it was computed from: either differing from today's means the row is re-embedded. Vectors are
-- little-endian float32, unit length.
CREATE TABLE job_embeddings (
  job_id uuid PRIMARY KEY REFERENCES jobs (id) ON DELETE CASCADE,
  model text NOT NULL,
  text_hash text NOT NULL,
  dims integer NOT NULL CHECK (dims > 0),
  vector bytea NOT NULL CHECK (length(vector) = dims * 4),
  search_seq bigint NOT NULL DEFAULT nextval('search_change_seq'),
  embedded_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX job_embeddings_seq_idx ON job_embeddings (search_seq);

CREATE TABLE company_embeddings (
  company_id uuid PRIMARY KEY REFERENCES companies (id) ON DELETE CASCADE,
  model text NOT NULL,
  text_hash text NOT NULL,
  dims integer NOT NULL CHECK (dims > 0),
  vector bytea NOT NULL CHECK (length(vector) = dims * 4),
  search_seq bigint NOT NULL DEFAULT nextval('search_change_seq'),
  embedded_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX company_embeddings_seq_idx ON company_embeddings (search_seq);
