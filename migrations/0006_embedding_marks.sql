-- Where the embedding catch-up got to, per kind and model. A process starting with the model recorded here only
-- embeds rows whose search_seq passed the mark (an indexed read) instead of scanning the whole catalog for stale
-- rows; a different model (or no row) means a full pass, which records a new mark when it completes.
CREATE TABLE search_embedding_marks (
  kind text PRIMARY KEY CHECK (kind IN ('job', 'company')),
  model text NOT NULL,
  seq bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
