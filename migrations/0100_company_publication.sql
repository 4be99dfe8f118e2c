-- A company onboarded by domain is created unpublished and becomes public when its onboarding has produced a
-- listing (docs/pipeline.md, Publication): published_at is NULL until then, and the company is kept inactive, so
-- every public read that lists active companies leaves it out and none of its jobs exists yet. Companies already
-- in the catalog, and rows written by any other path (the sample catalog, fixtures), are published.
ALTER TABLE companies ADD COLUMN published_at timestamptz DEFAULT now();
ALTER TABLE companies ADD CONSTRAINT companies_unpublished_inactive CHECK (published_at IS NOT NULL OR NOT active);
