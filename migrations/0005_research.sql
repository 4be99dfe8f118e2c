-- Deep research: every dossier ever produced, newest per company served by GET /deep-research/:domain.
-- Rows are never updated or deleted by the service: the history of runs (processor, mode, provider, cost,
-- duration, time) stays queryable.
CREATE TABLE research_runs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  -- Chosen once per workflow run (its first checkpointed step): a replayed store step inserts nothing twice.
  run_key text NOT NULL UNIQUE,
  mode text NOT NULL CHECK (mode IN ('full', 'fast')),
  processor text NOT NULL CHECK (processor IN ('lite', 'base', 'core', 'core2x', 'pro', 'ultra')),
  provider text NOT NULL CHECK (provider IN ('parallel', 'llm', 'local')),
  -- The vendor's own processor name (core-fast...) and run id, for support requests and audits.
  provider_processor text,
  provider_run_id text,
  cost_usd double precision CHECK (cost_usd >= 0),
  duration_ms integer NOT NULL CHECK (duration_ms >= 0),
  dossier jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Insertion order, the tie-break when two runs carry the same timestamp.
  seq bigint GENERATED ALWAYS AS IDENTITY
);
CREATE INDEX research_runs_company_idx ON research_runs (company_id, created_at DESC, seq DESC);
