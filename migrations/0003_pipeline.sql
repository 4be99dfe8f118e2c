-- Ingestion pipeline: job boards per company, per-company completion markers, and the board each job came from.
-- DBOS keeps its own workflow/step tables in the schema "dbos" of this same database (created by DBOS at start).

CREATE TABLE boards (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  provider text NOT NULL
    CHECK (provider IN ('greenhouse', 'lever', 'ashby', 'workable', 'smartrecruiters', 'recruitee')),
  -- The vendor's board identifier, case preserved (Ashby names may carry capitals and spaces).
  token text NOT NULL CHECK (length(token) BETWEEN 1 AND 200),
  url text NOT NULL,
  -- How discovery found it (final_url, link, iframe, script, inline, guess).
  evidence text,
  -- false once the vendor answers 404 for it: its jobs are deactivated, the row is kept for history.
  active boolean NOT NULL DEFAULT true,
  last_scraped_at timestamptz,
  last_posting_count integer,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX boards_identity_idx ON boards (company_id, provider, lower(token));

-- Completion markers of the onboarding steps (skipped when set unless force) and the freshness schedule.
CREATE TABLE company_pipeline (
  company_id uuid PRIMARY KEY REFERENCES companies (id) ON DELETE CASCADE,
  enriched_at timestamptz,
  boards_discovered_at timestamptz,
  scraped_at timestamptz,
  careers_url text,
  -- When the freshness scheduler next re-scrapes this company's boards (jittered); null = not scheduled.
  next_scrape_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX company_pipeline_due_idx ON company_pipeline (next_scrape_at) WHERE next_scrape_at IS NOT NULL;

ALTER TABLE jobs ADD COLUMN board_id uuid REFERENCES boards (id) ON DELETE SET NULL;
CREATE INDEX jobs_board_idx ON jobs (board_id, external_id) WHERE board_id IS NOT NULL;
