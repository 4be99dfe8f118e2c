import { jobFilterSql } from '../catalog/filters.js';
import type { JobFilters } from '../catalog/types.js';
import type { Db, Queryable } from '../db/port.js';
import { newMessageId } from './signing.js';
import { insertDelivery, type StoredWatch, type WatchFilters } from './store.js';

/**
 * Turns job events into deliveries. For each active watch it reads the events past the watch's cursor, keeps the
 * jobs that opened or reopened and match the watch's filters (the catalog's own SQL) and search (the catalog's
 * own ranked shortlist), stores one delivery with them, and moves the cursor, all in one transaction with the
 * watch row locked (SKIP LOCKED: several workers share the work, none delivers a batch twice).
 */

export interface MatcherOptions {
  db: Db;
  now: () => number;
  /** The watch's stored query parameters as catalog filters. */
  parseFilters: (filters: WatchFilters) => JobFilters;
  /** The ids in the catalog's shortlist for this search under these filters. */
  searchIds: (filters: JobFilters, search: string) => Promise<Set<string>>;
  /**
   * The newest job event searchIds can see, where searches read another database than db (a read replica that
   * lags it); unset: every event. A watch with a search matches no event past it, so the cursor never moves past
   * a job the shortlist could not yet hold.
   */
  searchedUpTo?: () => Promise<number>;
  /** Starts delivering (idempotent per delivery id). */
  enqueue: (deliveryId: string) => Promise<void>;
  pollMs: number;
  onError: (err: unknown) => void;
}

/** Events read per watch and round: a backlog is worked through over successive rounds. */
const EVENTS_PER_ROUND = 5_000;

interface EventRow {
  id: string | number;
  job_id: string;
  kind: string;
}

export class WatchMatcher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;

  constructor(private readonly o: MatcherOptions) {}

  start(): void {
    this.stopped = false;
    const tick = () => {
      this.running = this.runOnce()
        .catch(this.o.onError)
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, this.o.pollMs).unref();
        });
    };
    this.timer = setTimeout(tick, this.o.pollMs).unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One round over every watch with events past its cursor; the deliveries it created. */
  async runOnce(): Promise<string[]> {
    const due = await this.o.db.query<{ id: string }>(
      `SELECT id FROM watches WHERE status = 'active' AND deleted_at IS NULL
         AND cursor < (SELECT coalesce(max(id), 0) FROM job_events)`,
    );
    const created: string[] = [];
    for (const { id } of due) {
      const delivery = await this.matchWatch(id);
      if (delivery) created.push(delivery);
    }
    // A delivery stored by a round that stopped before enqueueing it (a crash) is enqueued by the next.
    const stranded = await this.o.db.query<{ id: string }>(
      `SELECT d.id FROM watch_deliveries d WHERE d.status = 'pending' AND d.attempts = 0 AND d.created_at < $1`,
      [new Date(this.o.now() - 2 * this.o.pollMs)],
    );
    for (const id of [...created, ...stranded.map((r) => r.id)]) await this.o.enqueue(id);
    return created;
  }

  /**
   * Matching reads outside any transaction (a search reads the catalog through the same database, which on the
   * embedded one serves a single connection); the delivery and the cursor are then written in one transaction that
   * holds the watch row and finds its cursor where the reading left it, else another worker took the batch.
   */
  private async matchWatch(id: string): Promise<string | null> {
    const [row] = await this.o.db.query<{
      cursor: string | number;
      filters: WatchFilters;
      search: string | null;
    }>(
      `SELECT cursor, filters, search FROM watches WHERE id = $1 AND status = 'active' AND deleted_at IS NULL`,
      [id],
    );
    if (!row) return null;
    const upTo = row.search && this.o.searchedUpTo ? await this.o.searchedUpTo() : null;
    const events = await this.o.db.query<EventRow>(
      `SELECT id, job_id, kind FROM job_events WHERE id > $1 AND ($3::bigint IS NULL OR id <= $3)
       ORDER BY id LIMIT $2`,
      [row.cursor, EVENTS_PER_ROUND, upTo],
    );
    const last = events.at(-1);
    if (!last) return null;
    const candidates = [
      ...new Set(events.filter((e) => e.kind === 'opened' || e.kind === 'reopened').map((e) => e.job_id)),
    ];
    const filters = this.o.parseFilters(row.filters);
    let matched = candidates.length ? await matchingIds(this.o.db, candidates, filters) : [];
    if (row.search && matched.length) {
      const shortlist = await this.o.searchIds(filters, row.search);
      matched = matched.filter((jobId) => shortlist.has(jobId));
    }
    const jobs = matched.length ? await listed(this.o.db, matched) : [];
    return this.o.db.transaction(async (tx) => {
      const [held] = await tx.query<{ cursor: string | number }>(
        `SELECT cursor FROM watches WHERE id = $1 AND status = 'active' AND deleted_at IS NULL
         FOR UPDATE SKIP LOCKED`,
        [id],
      );
      if (!held || String(held.cursor) !== String(row.cursor)) return null;
      let deliveryId: string | null = null;
      if (jobs.length) {
        deliveryId = newMessageId();
        const payload = {
          type: 'jobs.matched',
          timestamp: new Date(this.o.now()).toISOString(),
          data: { watch: { id, filters: row.filters, search: row.search }, jobs },
        };
        await insertDelivery(
          tx,
          { id: deliveryId, watchId: id, kind: 'jobs', jobIds: matched, payload },
          this.o.now(),
        );
      }
      await tx.query('UPDATE watches SET cursor = $2 WHERE id = $1', [id, last.id], { invalidates: false });
      return deliveryId;
    });
  }
}

async function matchingIds(tx: Queryable, ids: string[], filters: JobFilters): Promise<string[]> {
  const where = jobFilterSql(filters, 2, 'j');
  const rows = await tx.query<{ id: string }>(
    `SELECT j.id FROM jobs j WHERE j.id = ANY($1::uuid[]) AND ${where.sql}`,
    [ids, ...where.params],
  );
  return rows.map((r) => r.id);
}

/** The jobs as GET /jobs lists them, newest first. */
async function listed(tx: Queryable, ids: string[]): Promise<unknown[]> {
  const rows = await tx.query<{
    id: string;
    title: string;
    company_name: string;
    slug: string;
    location: string;
    remote: boolean;
    role_category: string;
    url: string;
    posted_at: Date;
  }>(
    `SELECT j.id, j.title, j.company_name, c.slug, j.location, j.remote, j.role_category, j.url, j.posted_at
     FROM jobs j JOIN companies c ON c.id = j.company_id WHERE j.id = ANY($1::uuid[])
     ORDER BY j.posted_at DESC, j.id DESC`,
    [ids],
  );
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    company: { name: r.company_name, slug: r.slug },
    location: r.location,
    remote: r.remote,
    roleCategory: r.role_category,
    url: r.url,
    postedAt: r.posted_at.toISOString(),
  }));
}

export type { StoredWatch };
