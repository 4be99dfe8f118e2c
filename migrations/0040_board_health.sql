-- More job-board vendors, the health of each board, and employers' requisition ids on jobs.

-- The vendors with an adapter in src/sources/ (PROVIDERS).
ALTER TABLE boards DROP CONSTRAINT IF EXISTS boards_provider_check;
ALTER TABLE boards ADD CONSTRAINT boards_provider_check CHECK (provider IN (
  'greenhouse', 'lever', 'ashby', 'workable', 'smartrecruiters', 'recruitee',
  'workday', 'personio', 'bamboohr', 'breezy', 'pinpoint'));

-- Board health, read by `frontline boards`: when the board last answered with its postings, when and why it last
-- failed, how many scrapes in a row failed, and the last scrape's outcome (ok, error, gone, moved, empty_held,
-- emptied). empty_scrapes counts scrapes in a row that listed nothing where the board had postings: such a board
-- keeps its jobs until the emptiness is confirmed (src/pipeline/boards/redetect.ts).
ALTER TABLE boards ADD COLUMN last_success_at timestamptz;
ALTER TABLE boards ADD COLUMN last_error_at timestamptz;
ALTER TABLE boards ADD COLUMN consecutive_failures integer NOT NULL DEFAULT 0;
ALTER TABLE boards ADD COLUMN last_outcome text;
ALTER TABLE boards ADD COLUMN empty_scrapes integer NOT NULL DEFAULT 0;
UPDATE boards SET last_success_at = last_scraped_at, last_outcome = 'ok' WHERE last_scraped_at IS NOT NULL;

-- The employer's requisition id when the board gives one: the same opening listed by two boards of a company (a
-- move between vendors) is one posting (src/pipeline/store/duplicates.ts).
ALTER TABLE jobs ADD COLUMN requisition_id text;
CREATE INDEX jobs_company_requisition_idx ON jobs (company_id, lower(requisition_id))
  WHERE requisition_id IS NOT NULL AND active;
