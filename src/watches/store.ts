import type { Queryable } from '../db/port.js';

/** Watches and their deliveries in SQL (migration 0070). Every read is scoped to the owning token. */

export type WatchFilters = Record<string, string | number | boolean>;

export interface Watch {
  id: string;
  filters: WatchFilters;
  search: string | null;
  url: string;
  description: string | null;
  status: 'active' | 'disabled';
  disabledReason: string | null;
  createdAt: string;
}

export interface StoredWatch extends Watch {
  owner: string;
  secret: string;
  cursor: number;
}

export interface Delivery {
  id: string;
  kind: 'jobs' | 'test';
  jobIds: string[];
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
  deliveredAt: string | null;
}

interface WatchRow {
  id: string;
  owner: string;
  filters: WatchFilters;
  search: string | null;
  url: string;
  description: string | null;
  secret: string;
  status: 'active' | 'disabled';
  disabled_reason: string | null;
  cursor: string | number;
  created_at: Date;
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

const toWatch = (r: WatchRow): StoredWatch => ({
  id: r.id,
  owner: r.owner,
  filters: r.filters,
  search: r.search,
  url: r.url,
  description: r.description,
  secret: r.secret,
  status: r.status,
  disabledReason: r.disabled_reason,
  cursor: Number(r.cursor),
  createdAt: r.created_at.toISOString(),
});

/** The public view: never the secret, the owner or the cursor. */
export const publicWatch = ({ secret: _s, owner: _o, cursor: _c, ...w }: StoredWatch): Watch => w;

/** Stores a watch unless its owner already holds `cap` of them (then null). */
export async function insertWatch(
  db: Queryable,
  w: { owner: string; filters: WatchFilters; search: string | null; url: string; description: string | null },
  secret: string,
  nowMs: number,
  cap: number,
): Promise<StoredWatch | null> {
  const [row] = await db.query<WatchRow>(
    `INSERT INTO watches (owner, filters, search, url, description, secret, cursor, created_at)
     SELECT $1, $2, $3, $4, $5, $6, (SELECT coalesce(max(id), 0) FROM job_events), $7
     WHERE (SELECT count(*) FROM watches WHERE owner = $1 AND deleted_at IS NULL) < $8 RETURNING *`,
    [w.owner, JSON.stringify(w.filters), w.search, w.url, w.description, secret, new Date(nowMs), cap],
    { invalidates: false },
  );
  return row ? toWatch(row) : null;
}

export async function findWatch(db: Queryable, owner: string, id: string): Promise<StoredWatch | null> {
  const [row] = await db.query<WatchRow>(
    'SELECT * FROM watches WHERE id::text = $1 AND owner = $2 AND deleted_at IS NULL',
    [id, owner],
  );
  return row ? toWatch(row) : null;
}

export async function watchById(db: Queryable, id: string): Promise<StoredWatch | null> {
  const [row] = await db.query<WatchRow>('SELECT * FROM watches WHERE id = $1', [id]);
  return row ? toWatch(row) : null;
}

/** One page of an owner's watches, newest first, and how many it holds. */
export async function listWatches(
  db: Queryable,
  owner: string,
  page: { limit: number; offset: number },
): Promise<{ items: StoredWatch[]; total: number }> {
  const rows = await db.query<WatchRow & { total: number }>(
    `SELECT *, count(*) OVER ()::int AS total FROM watches WHERE owner = $1 AND deleted_at IS NULL
     ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`,
    [owner, page.limit, page.offset],
  );
  let total = rows[0]?.total;
  if (total === undefined) {
    const [n] = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM watches WHERE owner = $1 AND deleted_at IS NULL',
      [owner],
    );
    total = n?.n ?? 0;
  }
  return { items: rows.map(({ total: _t, ...r }) => toWatch(r)), total };
}

/** Soft delete: deliveries under way finish or stop at their next attempt (see delivery.ts). */
export async function deleteWatch(db: Queryable, owner: string, id: string, nowMs: number): Promise<boolean> {
  const rows = await db.query(
    `UPDATE watches SET deleted_at = $3 WHERE id::text = $1 AND owner = $2 AND deleted_at IS NULL RETURNING id`,
    [id, owner, new Date(nowMs)],
    { invalidates: false },
  );
  return rows.length > 0;
}

export async function disableWatch(db: Queryable, id: string, reason: string): Promise<void> {
  await db.query(`UPDATE watches SET status = 'disabled', disabled_reason = $2 WHERE id = $1`, [id, reason], {
    invalidates: false,
  });
}

interface DeliveryRow {
  id: string;
  kind: 'jobs' | 'test';
  job_ids: string[];
  status: Delivery['status'];
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  created_at: Date;
  last_attempt_at: Date | null;
  delivered_at: Date | null;
  payload: unknown;
}

const toDelivery = (r: DeliveryRow): Delivery => ({
  id: r.id,
  kind: r.kind,
  jobIds: r.job_ids,
  status: r.status,
  attempts: r.attempts,
  lastStatus: r.last_status,
  lastError: r.last_error,
  createdAt: r.created_at.toISOString(),
  lastAttemptAt: iso(r.last_attempt_at),
  deliveredAt: iso(r.delivered_at),
});

export async function insertDelivery(
  db: Queryable,
  d: { id: string; watchId: string; kind: 'jobs' | 'test'; jobIds: string[]; payload: unknown },
  nowMs: number,
): Promise<void> {
  await db.query(
    `INSERT INTO watch_deliveries (id, watch_id, kind, job_ids, payload, created_at)
     VALUES ($1, $2, $3, $4::uuid[], $5, $6) ON CONFLICT (id) DO NOTHING`,
    [d.id, d.watchId, d.kind, d.jobIds, JSON.stringify(d.payload), new Date(nowMs)],
    { invalidates: false },
  );
}

export async function deliveryById(
  db: Queryable,
  id: string,
): Promise<(Delivery & { watchId: string; payload: unknown }) | null> {
  const [row] = await db.query<DeliveryRow & { watch_id: string }>(
    'SELECT * FROM watch_deliveries WHERE id = $1',
    [id],
  );
  return row ? { ...toDelivery(row), watchId: row.watch_id, payload: row.payload } : null;
}

export async function listDeliveries(db: Queryable, watchId: string, limit: number): Promise<Delivery[]> {
  const rows = await db.query<DeliveryRow>(
    'SELECT * FROM watch_deliveries WHERE watch_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2',
    [watchId, limit],
  );
  return rows.map(toDelivery);
}

export async function recordAttempt(
  db: Queryable,
  id: string,
  outcome: { status: Delivery['status']; httpStatus: number | null; error: string | null },
  nowMs: number,
): Promise<void> {
  await db.query(
    `UPDATE watch_deliveries SET attempts = attempts + 1, status = $2, last_status = $3, last_error = $4,
       last_attempt_at = $5, delivered_at = CASE WHEN $2 = 'delivered' THEN $5 ELSE delivered_at END
     WHERE id = $1`,
    [id, outcome.status, outcome.httpStatus, outcome.error, new Date(nowMs)],
    { invalidates: false },
  );
}

/** The newest job event's id in db (0 when none). */
export async function newestJobEvent(db: Queryable): Promise<number> {
  const [row] = await db.query<{ id: number }>('SELECT coalesce(max(id), 0)::float8 AS id FROM job_events');
  return row?.id ?? 0;
}
