-- Liveness of the processes that run workflows on a PostgreSQL server: each beats every WORKER_HEARTBEAT_MS. A
-- worker whose beat is older than WORKER_DEAD_AFTER_MS is taken for dead, and a live one hands its unfinished
-- runs back to the queue (src/pipeline/engine/takeover.ts). Database time on both sides: no clock skew.
CREATE TABLE worker_heartbeats (
  executor_id text PRIMARY KEY,
  started_at timestamptz NOT NULL DEFAULT now(),
  beat_at timestamptz NOT NULL DEFAULT now()
);
