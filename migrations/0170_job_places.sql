-- A job's places as data: the countries of its places (ISO 3166-1 alpha-2), the regions they lie in, and where
-- its remote places are open to (country codes, region ids, 'worldwide'). They are derived from the location text
-- by src/sources/normalize/job-places.ts, which lives in JavaScript, so the writers set them
-- with each job and rows stored before them stay NULL until the backfill at start (src/catalog/sql/job-places.ts)
-- derives them; the filters read NULL as no place.
ALTER TABLE jobs ADD COLUMN countries text[], ADD COLUMN regions text[], ADD COLUMN remote_scopes text[];

CREATE INDEX jobs_countries_idx ON jobs USING gin (countries) WHERE active;
CREATE INDEX jobs_regions_idx ON jobs USING gin (regions) WHERE active;
CREATE INDEX jobs_remote_scopes_idx ON jobs USING gin (remote_scopes) WHERE active;
-- The backfill finds the rows it has left without reading the table.
CREATE INDEX jobs_places_pending_idx ON jobs (id) WHERE countries IS NULL;
