-- Active jobs by id with their change-feed seq: the replica's bulk load and its version check (a full re-read,
-- src/catalog/replica/job-versions.ts) walk active jobs in id order, which jobs_pkey served by visiting every
-- closed job's row too (closed jobs outnumber active ones as history accumulates: 174k of 284k in the bench
-- catalog, where a check of 20,000 active jobs took ~95 ms, ~50 of them in heap reads).
CREATE INDEX IF NOT EXISTS jobs_active_id_idx ON jobs (id) INCLUDE (search_seq) WHERE active;
