-- Catalog: companies, tags, jobs, API tokens.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE companies (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  slug text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  domain text NOT NULL UNIQUE,
  website text,
  one_liner text NOT NULL DEFAULT '',
  description text,
  category text NOT NULL DEFAULT 'other'
    CHECK (category IN ('enterprise_ai', 'public_saas', 'ai_native', 'other')),
  founded_year integer CHECK (founded_year BETWEEN 1800 AND 2100),
  employee_count integer CHECK (employee_count >= 0),
  headquarters text,
  funding_summary text,
  total_funding_usd bigint CHECK (total_funding_usd >= 0),
  social_links jsonb NOT NULL DEFAULT '{}'::jsonb,
  logo_url text,
  research_summary text,
  is_sample boolean NOT NULL DEFAULT false,
  active boolean NOT NULL DEFAULT true,
  -- Maintained by catalog/job-counts.ts whenever jobs change; the /companies order depends on it.
  active_job_count integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  search_tsv tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english'::regconfig, name), 'A') ||
    setweight(to_tsvector('english'::regconfig, one_liner), 'B') ||
    setweight(to_tsvector('english'::regconfig, coalesce(description, '')), 'C') ||
    setweight(to_tsvector('english'::regconfig, coalesce(research_summary, '')), 'D')
  ) STORED
);
CREATE INDEX companies_search_idx ON companies USING gin (search_tsv);
-- GET /companies order: active job count desc, then name case-insensitively (the C collation of PGlite and many
-- servers would otherwise put 'xAI' after 'Zapier'), then id for a stable tie-break.
CREATE INDEX companies_order_idx ON companies (active_job_count DESC, lower(name), id) WHERE active;
CREATE INDEX companies_category_idx ON companies (category) WHERE active;

CREATE TABLE tags (
  id serial PRIMARY KEY,
  dimension text NOT NULL
    CHECK (dimension IN ('industry', 'stage', 'business_model', 'ai_role', 'funding_tier')),
  value text NOT NULL,
  slug text NOT NULL CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  UNIQUE (dimension, slug)
);

CREATE TABLE company_tags (
  company_id uuid NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  tag_id integer NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
  PRIMARY KEY (company_id, tag_id)
);
CREATE INDEX company_tags_tag_idx ON company_tags (tag_id, company_id);

CREATE TABLE jobs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  -- Denormalised so that job search and listing need no join to rank or filter by company.
  company_name text NOT NULL,
  source text NOT NULL,
  external_id text NOT NULL,
  title text NOT NULL CHECK (length(title) BETWEEN 1 AND 500),
  location text NOT NULL DEFAULT '',
  remote boolean NOT NULL DEFAULT false,
  department text,
  role_category text NOT NULL CHECK (role_category IN (
    'fde', 'solutions_engineer', 'csm', 'tam', 'sales_engineer', 'implementation', 'professional_services',
    'engineering', 'product', 'design', 'marketing', 'data', 'operations', 'sales', 'finance', 'hr', 'legal', 'other')),
  url text NOT NULL,
  description text NOT NULL DEFAULT '',
  salary text,
  is_sample boolean NOT NULL DEFAULT false,
  posted_at timestamptz NOT NULL,
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  search_tsv tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english'::regconfig, title), 'A') ||
    setweight(to_tsvector('english'::regconfig, company_name), 'B')
  ) STORED,
  UNIQUE (company_id, source, external_id)
);
CREATE INDEX jobs_search_idx ON jobs USING gin (search_tsv) WHERE active;
CREATE INDEX jobs_recent_idx ON jobs (posted_at DESC, id DESC) WHERE active;
CREATE INDEX jobs_company_idx ON jobs (company_id, posted_at DESC, id DESC) WHERE active;
CREATE INDEX jobs_category_idx ON jobs (role_category, posted_at DESC, id DESC) WHERE active;
CREATE INDEX jobs_remote_idx ON jobs (posted_at DESC, id DESC) WHERE active AND remote;
-- client_facing=true, the catalog's main view: the planner proves `role_category = ANY($1)` with the seven values
-- implies this predicate and pages it index-only.
CREATE INDEX jobs_client_facing_idx ON jobs (posted_at DESC, id DESC) WHERE active AND role_category IN (
  'fde', 'solutions_engineer', 'csm', 'tam', 'sales_engineer', 'implementation', 'professional_services');
CREATE INDEX jobs_first_seen_idx ON jobs (first_seen_at) WHERE active;
CREATE INDEX jobs_location_trgm_idx ON jobs USING gin (lower(location) gin_trgm_ops) WHERE active;
-- Without statistics on lower(location) the planner guesses a handful of matches for any substring and sorts a
-- bitmap scan even for "london" (12% of rows); with them it walks jobs_recent_idx for common places instead.
CREATE STATISTICS jobs_location_stats ON (lower(location)) FROM jobs;

-- Active job counts per (role_category, remote), kept exact by the trigger below, so /jobs totals and /stats need
-- no count(*) over the whole table (100k rows take ~100 ms on PGlite) unless a company or location filter applies.
CREATE TABLE job_counts (
  role_category text NOT NULL,
  remote boolean NOT NULL,
  -- No CHECK (n >= 0): an upsert carrying a negative delta would trip it before ON CONFLICT applies.
  n integer NOT NULL,
  PRIMARY KEY (role_category, remote)
);

-- Statement-level, over transition tables: one upsert per statement whatever the number of rows. It bumps
-- catalog_version first, so any job write invalidates response caches, and so every transaction locks the version
-- row before a job_counts row (one lock order: no deadlock between the two).
CREATE FUNCTION jobs_maintain_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM 1 FROM new_rows LIMIT 1;
  ELSE
    PERFORM 1 FROM old_rows LIMIT 1;
  END IF;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  UPDATE catalog_version SET version = version + 1, changed_at = now();
  IF TG_OP = 'INSERT' THEN
    INSERT INTO job_counts AS jc (role_category, remote, n)
      SELECT role_category, remote, count(*) FROM new_rows WHERE active GROUP BY 1, 2
      ON CONFLICT (role_category, remote) DO UPDATE SET n = jc.n + EXCLUDED.n;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE job_counts jc SET n = jc.n - d.n
      FROM (SELECT role_category, remote, count(*) AS n FROM old_rows WHERE active GROUP BY 1, 2) d
      WHERE jc.role_category = d.role_category AND jc.remote = d.remote;
  ELSE
    INSERT INTO job_counts AS jc (role_category, remote, n)
      SELECT role_category, remote, sum(delta) FROM (
        SELECT role_category, remote, -1 AS delta FROM old_rows WHERE active
        UNION ALL
        SELECT role_category, remote, 1 FROM new_rows WHERE active) changes
      GROUP BY 1, 2 HAVING sum(delta) <> 0
      ON CONFLICT (role_category, remote) DO UPDATE SET n = jc.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER jobs_counts_insert AFTER INSERT ON jobs REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION jobs_maintain_counts();
CREATE TRIGGER jobs_counts_update AFTER UPDATE ON jobs REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION jobs_maintain_counts();
CREATE TRIGGER jobs_counts_delete AFTER DELETE ON jobs REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION jobs_maintain_counts();
CREATE FUNCTION jobs_truncate_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE catalog_version SET version = version + 1, changed_at = now();
  DELETE FROM job_counts;
  RETURN NULL;
END
$$;
CREATE TRIGGER jobs_counts_truncate AFTER TRUNCATE ON jobs FOR EACH STATEMENT EXECUTE FUNCTION jobs_truncate_counts();

CREATE TABLE api_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  -- The first characters of the secret, shown in listings so an operator can tell tokens apart.
  prefix text NOT NULL,
  -- sha256 of the whole secret; the secret itself is never stored.
  secret_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX api_tokens_prefix_idx ON api_tokens (prefix);

-- Bumped by every catalog write; per-process response caches compare it to stay exact.
CREATE TABLE catalog_version (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  version bigint NOT NULL DEFAULT 0,
  changed_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO catalog_version (id, version) VALUES (true, 0);
