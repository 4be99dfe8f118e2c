-- Each embedding's model and change-feed seq beside its job id: the replica's version check (a full re-read,
-- src/catalog/replica/job-versions.ts) joins them to the active jobs in id order, which job_embeddings_pkey served
-- by reading every embedding's row (~1.2 KB with its vector): ~10 ms of a 2,000-job chunk's ~15 against ~2 ms
-- from this index alone.
CREATE INDEX IF NOT EXISTS job_embeddings_version_idx ON job_embeddings (job_id) INCLUDE (model, search_seq);
