-- Discovery: the append-only sightings log (POST /discover), the candidates grown from it, and the
-- per-run checkpoints of discovery processing (POST /promote_and_onboard).

-- One row per accepted /discover request: who sent what, when, and how it was counted. Never updated.
CREATE TABLE discovery_batches (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  label text CHECK (length(label) <= 200),
  -- request.caller.tokenId: a database token's uuid or 'env:<hash prefix>' for API_TOKENS entries.
  token_id text NOT NULL,
  received integer NOT NULL,
  inserted integer NOT NULL,
  duplicates integer NOT NULL,
  invalid integer NOT NULL,
  received_at timestamptz NOT NULL
);

-- The sightings log, in arrival order (id). Identity is (source, canonical key): key_hash is sha256 of both
-- in canonical form (object keys sorted recursively, key.domain normalized), so racing identical requests
-- insert each sighting once (INSERT ... ON CONFLICT DO NOTHING on the unique index).
CREATE TABLE sightings (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- Deferred: the batch row is written after its sightings, once the counts are known (same transaction).
  batch_id uuid NOT NULL REFERENCES discovery_batches (id) DEFERRABLE INITIALLY DEFERRED,
  source text NOT NULL CHECK (length(source) BETWEEN 1 AND 100),
  key jsonb NOT NULL,
  key_hash text NOT NULL,
  -- The normalized registrable domain of key.domain; null when the key carries none.
  domain text,
  payload jsonb,
  label text,
  token_id text NOT NULL,
  received_at timestamptz NOT NULL,
  -- Set once, when a discovery run takes the sighting in (the only columns that ever change).
  processed_at timestamptz,
  processed_by text
);
CREATE UNIQUE INDEX sightings_identity_idx ON sightings (key_hash);
CREATE INDEX sightings_unprocessed_idx ON sightings (id) WHERE processed_at IS NULL;
CREATE INDEX sightings_domain_idx ON sightings (domain) WHERE domain IS NOT NULL;

-- Append-only: rows are never deleted or truncated, logged columns never change, and the processing marker is
-- set once. Column-list triggers with WHEN clauses, so marking 1,000 sightings processed runs no PL/pgSQL at all.
CREATE FUNCTION sightings_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the sightings log is append-only (only an unprocessed sighting may be marked processed)';
END $$;
CREATE TRIGGER sightings_no_delete BEFORE DELETE ON sightings
  FOR EACH ROW EXECUTE FUNCTION sightings_append_only();
CREATE TRIGGER sightings_no_truncate BEFORE TRUNCATE ON sightings
  FOR EACH STATEMENT EXECUTE FUNCTION sightings_append_only();
CREATE TRIGGER sightings_logged_columns
  BEFORE UPDATE OF id, batch_id, source, key, key_hash, domain, payload, label, token_id, received_at ON sightings
  FOR EACH ROW EXECUTE FUNCTION sightings_append_only();
CREATE TRIGGER sightings_marked_once BEFORE UPDATE OF processed_at, processed_by ON sightings
  FOR EACH ROW WHEN (OLD.processed_at IS NOT NULL) EXECUTE FUNCTION sightings_append_only();

-- A candidate per normalized domain, with the evidence accumulated from its sightings.
CREATE TABLE discovery_candidates (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  domain text NOT NULL UNIQUE,
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'validating', 'qualified', 'onboarded', 'rejected', 'failed', 'tracked')),
  -- Distinct sources that reported the domain, sorted.
  sources text[] NOT NULL DEFAULT '{}',
  sighting_count integer NOT NULL DEFAULT 0,
  first_seen_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  -- When the last new evidence was added: a rejected/failed candidate returns to pending only then.
  evidence_at timestamptz NOT NULL,
  reason text,
  reason_message text,
  company_id uuid REFERENCES companies (id) ON DELETE SET NULL,
  careers_url text,
  site_name text,
  validation_attempts integer NOT NULL DEFAULT 0,
  validated_at timestamptz,
  -- The promote run that last claimed it, and the onboarding run it was handed to.
  run_id text,
  onboard_workflow_id text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX discovery_candidates_status_idx ON discovery_candidates (status, last_seen_at DESC, id);

-- Checkpoints of each promote run's stages: a stage re-entered after a crash returns what it recorded.
CREATE TABLE discovery_runs (
  run_id text PRIMARY KEY,
  args jsonb NOT NULL,
  intake jsonb,
  selected jsonb,
  started_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
