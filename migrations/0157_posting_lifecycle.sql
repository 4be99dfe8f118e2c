-- A posting's lifecycle as the board states it and as the catalog saw it. board_posted_at and board_updated_at
-- are the vendor's own dates (NULL where the vendor gives none; posted_at falls back to the first sighting).
-- A posting reposted under a new id is linked to its closed earlier self (reposted_from), keeps its first dates,
-- and counts the reposts of the chain (see src/pipeline/store/reposts.ts).
ALTER TABLE jobs ADD COLUMN board_posted_at timestamptz;
ALTER TABLE jobs ADD COLUMN board_updated_at timestamptz;
ALTER TABLE jobs ADD COLUMN reposted_from uuid REFERENCES jobs (id) ON DELETE SET NULL;
ALTER TABLE jobs ADD COLUMN reposts integer NOT NULL DEFAULT 0;
-- One successor per closed posting.
CREATE UNIQUE INDEX jobs_reposted_from_idx ON jobs (reposted_from) WHERE reposted_from IS NOT NULL;
-- The closed postings a new one may repeat: by requisition, and by title as reposts.ts normalises it (the same
-- expression, so the lookup is an index probe, not a pass over the company's closed jobs).
CREATE INDEX jobs_closed_requisition_idx ON jobs (company_id, lower(requisition_id))
  WHERE requisition_id IS NOT NULL AND NOT active;
CREATE INDEX jobs_closed_title_idx ON jobs (company_id, btrim(lower(regexp_replace(title, '[^[:alnum:]]+', ' ', 'g'))))
  WHERE NOT active;
-- The board's dates are shown by a job's detail only, which reads the table: like the other detail-only columns
-- they do not move the replica's change feed (a board's updated date moves on every edit at the vendor). A field
-- of src/catalog/fields/job-record.ts that reads them must take them out of this list.
CREATE OR REPLACE FUNCTION jobs_bump_seq_on_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  bookkeeping CONSTANT text[] := ARRAY['last_seen_at', 'updated_at', 'search_seq', 'search_tsv', 'description',
    'salary', 'board_posted_at', 'board_updated_at'];
BEGIN
  IF (to_jsonb(OLD) - bookkeeping) IS DISTINCT FROM (to_jsonb(NEW) - bookkeeping) THEN
    NEW.search_seq := nextval('search_change_seq');
  END IF;
  RETURN NEW;
END
$$;
