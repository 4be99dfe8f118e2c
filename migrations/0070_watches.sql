-- Job life events, written by a trigger on jobs so that every write path records them in its own transaction:
-- 'opened' (first seen), 'initial' (first seen on a board's first scrape, or loaded without a board: coverage,
-- not hiring), 'closed' (deactivated) and 'reopened' (active again). Watches deliver opened and reopened jobs.
CREATE TABLE job_events (
  id bigserial PRIMARY KEY,
  job_id uuid NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  company_id uuid NOT NULL,
  kind text NOT NULL CHECK (kind IN ('initial', 'opened', 'closed', 'reopened')),
  role_category text NOT NULL,
  at timestamptz NOT NULL
);
CREATE INDEX job_events_company_idx ON job_events (company_id, at);

CREATE FUNCTION record_job_event() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  first_scrape boolean;
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
    INSERT INTO job_events (job_id, company_id, kind, role_category, at)
    VALUES (NEW.id, NEW.company_id, CASE WHEN NEW.active THEN 'reopened' ELSE 'closed' END, NEW.role_category,
            CASE WHEN NEW.active THEN NEW.last_seen_at ELSE NEW.updated_at END);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER jobs_record_event AFTER INSERT OR UPDATE OF active ON jobs
  FOR EACH ROW EXECUTE FUNCTION record_job_event();

-- A saved search with a webhook target. `filters` holds GET /jobs query parameters as given; `cursor` is the last
-- job event considered, so a new watch delivers only jobs that open after it was created.
CREATE TABLE watches (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- The token that created it (api_tokens.id, or env:<hash prefix> for API_TOKENS): only it sees the watch.
  owner text NOT NULL,
  filters jsonb NOT NULL DEFAULT '{}',
  search text,
  url text NOT NULL,
  description text,
  -- The Standard Webhooks signing secret (whsec_…): needed to sign, so kept; shown once at creation, never logged.
  secret text NOT NULL,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
  disabled_reason text,
  cursor bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX watches_owner_idx ON watches (owner, created_at DESC) WHERE deleted_at IS NULL;

-- One delivery: a batch of jobs for one watch (or a test ping), sent until the receiver accepts it or retries run
-- out. Its id is the Standard Webhooks message id (webhook-id), identical on every attempt.
CREATE TABLE watch_deliveries (
  id text PRIMARY KEY,
  watch_id uuid NOT NULL REFERENCES watches (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('jobs', 'test')),
  job_ids uuid[] NOT NULL DEFAULT '{}',
  payload jsonb NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  last_status integer,
  last_error text,
  created_at timestamptz NOT NULL,
  last_attempt_at timestamptz,
  delivered_at timestamptz
);
CREATE INDEX watch_deliveries_watch_idx ON watch_deliveries (watch_id, created_at DESC);
