import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSampleCatalog } from '../../src/catalog/sample.js';
import type { Db } from '../../src/db/port.js';
import { PostgresDb } from '../../src/db/postgres.js';
import { loadSampleHistory } from '../../src/signals/sample-history.js';
import { addCompany, addJobs } from '../catalog/fixtures.js';
import { startTestApp, type TestApp, TestClock } from '../support/app.js';
import { databaseUrl, freshDatabase, serverUrl, type TestDatabase } from '../support/db.js';
import { type ServiceProcess, startService } from '../support/fleet.js';

/**
 * Public reads from a read replica (DATABASE_READ_URL), through HTTP on PostgreSQL. The "replica" is a second
 * database cloned from the primary once the sample catalog is in it (as a hot standby would hold it), then made to
 * differ: a company and its job only there, the hiring history only there (the primary's is emptied), a company
 * only on the primary. Its URL carries default_transaction_read_only=on, so any write sent through it fails: the
 * admin writes succeeding is what shows they went to the primary. A change applied to it directly, as replication
 * would, shows in the public answers once the catalog_version poll (CACHE_COHERENCE_MS) sees it.
 */

const server = serverUrl();
const clock = new TestClock();
const READ_ONLY = 'options=-c%20default_transaction_read_only%3Don';
const HOOKS = 'hooks.example.com';

let primary: TestDatabase;
/** The read database's name, and a writable connection to it (what replication is in production). */
let readName: string;
let replication: PostgresDb;
let readUrl: string;

/** Clones the primary (no session may use it meanwhile: its idle pooled connections are ended first). */
async function cloneForReads(source: TestDatabase): Promise<string> {
  const name = `rr_${randomBytes(6).toString('hex')}`;
  const sourceName = new URL(source.url as string).pathname.slice(1);
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [sourceName],
    );
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${sourceName}`);
  } finally {
    await admin.end();
  }
  return name;
}

async function dropDatabase(name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}

/** A company with one active job, written to `db` (the primary, or the replica as replication would). */
async function companyWithJob(db: Db, name: string, title: string) {
  const company = await addCompany(
    db,
    { name, domain: `${name.toLowerCase().replace(/ /g, '-')}.example` },
    clock.now(),
  );
  const [jobId] = await addJobs(
    db,
    [
      {
        companyId: company.id,
        companyName: name,
        title,
        roleCategory: 'solutions_engineer',
        postedAt: new Date(clock.now() - 3_600_000),
      },
    ],
    clock.now(),
  );
  return { ...company, jobId: jobId as string };
}

/** Polls an answer until `ok` holds; the suite's hang timeout is the only bound (no duration is asserted). */
async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Copies a job row from the primary to the read database as replication would (the columns the database derives
 * are derived there again), and gives its event there the id and kind ('opened') it has on the primary.
 */
async function replicate(jobId: string, eventId: number): Promise<void> {
  const [row] = await primary.db.query<{ row: unknown }>(
    'SELECT to_jsonb(j) AS row FROM jobs j WHERE id = $1',
    [jobId],
  );
  const [cols] = await replication.query<{ list: string }>(
    `SELECT string_agg(quote_ident(column_name), ', ') AS list FROM information_schema.columns
     WHERE table_name = 'jobs' AND table_schema = current_schema() AND is_generated = 'NEVER'
       AND coalesce(column_default, '') NOT LIKE 'nextval%'`,
  );
  await replication.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO jobs (${cols?.list}) SELECT ${cols?.list} FROM jsonb_populate_record(NULL::jobs, $1::jsonb)`,
      [row?.row],
    );
    await tx.query('UPDATE catalog_version SET version = version + 1');
  });
  await openedAs(replication, jobId, eventId);
}

/** Makes the job's event an opening with this id, the sequence moved past it (the next write takes another). */
async function openedAs(db: Db, jobId: string, eventId: number): Promise<void> {
  await db.query(`UPDATE job_events SET id = $2, kind = 'opened' WHERE job_id = $1`, [jobId, eventId]);
  await db.query(`SELECT setval(pg_get_serial_sequence('job_events', 'id'), $1)`, [eventId]);
}

/** An id past every job event of both databases. */
async function nextEventId(): Promise<number> {
  const newest = async (db: Db) =>
    (await db.query<{ id: number }>('SELECT coalesce(max(id), 0)::float8 AS id FROM job_events'))[0]?.id ?? 0;
  return Math.max(await newest(primary.db), await newest(replication)) + 1;
}

const names = (res: { json(): unknown }) =>
  (res.json() as { data: { name: string }[] }).data.map((c) => c.name);

let replicaOnly: Awaited<ReturnType<typeof companyWithJob>>;
let primaryOnly: Awaited<ReturnType<typeof companyWithJob>>;

beforeAll(async () => {
  if (!server) return;
  primary = await freshDatabase(server, { prefix: 'rr_' });
  await loadSampleCatalog(primary.db, clock.now(), loadSampleHistory);
  readName = await cloneForReads(primary);
  replication = new PostgresDb({
    url: databaseUrl(server, readName),
    poolSize: 2,
    statementTimeoutMs: 30_000,
  });
  readUrl = `${databaseUrl(server, readName)}?${READ_ONLY}`;
  replicaOnly = await companyWithJob(replication, 'Replica Only Co', 'Quokka Solutions Engineer');
  primaryOnly = await companyWithJob(primary.db, 'Primary Only Co', 'Wombat Solutions Engineer');
  // The hiring history lives on the replica alone: a series or trend with openings was read there.
  await primary.db.query(
    'TRUNCATE job_events, hiring_daily, hiring_daily_all, hiring_daily_tag, hiring_daily_tag_pair, hiring_weekly, hiring_monthly',
  );
}, 600_000);

afterAll(async () => {
  if (!server) return;
  await replication?.close();
  if (readName) await dropDatabase(readName);
  await primary?.drop();
});

describe.skipIf(!server).each([
  {
    mode: 'SQL read model and search',
    env: { READ_MODEL: 'sql', SEARCH: 'sql' },
    later: 'Numbat Co',
    word: 'platypus',
  },
  {
    mode: 'in-memory read model and search',
    env: { READ_MODEL: 'memory', SEARCH: 'memory' },
    later: 'Bilby Co',
    word: 'echidna',
  },
])('public reads from DATABASE_READ_URL ($mode)', ({ env, later, word }) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      database: primary,
      clock,
      env: {
        ...env,
        DATABASE_URL: primary.url as string,
        DATABASE_READ_URL: readUrl,
        CACHE_COHERENCE_MS: '50',
        OUTBOUND_HOST_MAP: `${HOOKS}=http://127.0.0.1:9`,
      },
    });
  }, 600_000);
  afterAll(async () => {
    await t?.close();
  });

  it('opens the read database read-only, with the service own server options kept', async () => {
    const [row] = await t.deps.readDb.query<{ ro: string; jit: string }>(
      "SELECT current_setting('default_transaction_read_only') AS ro, current_setting('jit') AS jit",
    );
    expect(row).toEqual({ ro: 'on', jit: 'off' });
    await expect(t.deps.readDb.query('UPDATE catalog_version SET version = version')).rejects.toThrow(
      /read-only/,
    );
  });

  it('lists, details and searches the read database', async () => {
    const companies = await t.get('/api/v1/companies?limit=100', t.token);
    expect(companies.statusCode).toBe(200);
    expect(names(companies)).toContain('Replica Only Co');
    expect(names(companies)).toContain('Anthropic');
    expect(names(companies)).not.toContain('Primary Only Co');
    expect((await t.get(`/api/v1/companies/${replicaOnly.slug}`)).statusCode).toBe(200);
    expect((await t.get(`/api/v1/companies/${primaryOnly.slug}`)).statusCode).toBe(404);
    const job = await t.get(`/api/v1/jobs/${replicaOnly.jobId}`);
    expect(job.statusCode).toBe(200);
    expect(job.json().data.title).toBe('Quokka Solutions Engineer');
    const found = await t.get('/api/v1/jobs?search=quokka');
    expect(found.statusCode).toBe(200);
    expect(found.json().data.map((j: { id: string }) => j.id)).toEqual([replicaOnly.jobId]);
    expect((await t.get('/api/v1/jobs?search=wombat')).json().data).toEqual([]);
    // In memory, the in-process copy of the catalog was loaded from the read database too.
    const copy = t.deps.searchParts.replica;
    expect(copy === undefined).toBe(env.READ_MODEL === 'sql');
    if (copy) {
      expect(copy.companyIdBySlug(replicaOnly.slug)).toBe(replicaOnly.id);
      expect(copy.companyIdBySlug(primaryOnly.slug)).toBeUndefined();
    }
  });

  it('reads hiring series and trends from the read database', async () => {
    const opened = (series: { opened: number }[]) => series.reduce((sum, p) => sum + p.opened, 0);
    const trends = await t.get('/api/v1/trends?interval=month');
    expect(trends.statusCode).toBe(200);
    expect(opened(trends.json().data.series)).toBeGreaterThan(0);
    const hiring = await t.get('/api/v1/companies/anthropic/hiring?interval=month');
    expect(hiring.statusCode).toBe(200);
    expect(opened(hiring.json().data.series)).toBeGreaterThan(0);
    expect((await t.get(`/api/v1/companies/${replicaOnly.slug}/hiring`)).statusCode).toBe(200);
  });

  it('writes tokens and watches to the primary', async () => {
    const watch = await t.request({
      method: 'POST',
      url: '/api/v1/watches',
      token: t.token,
      payload: { search: 'solutions engineer', url: `https://${HOOKS}/replica` },
    });
    expect(watch.statusCode).toBe(201);
    const id = watch.json().data.id as string;
    const onPrimary = await primary.db.query('SELECT 1 FROM watches WHERE id = $1', [id]);
    expect(onPrimary).toHaveLength(1);
    expect(await replication.query('SELECT 1 FROM watches WHERE id = $1', [id])).toHaveLength(0);
    expect((await t.get('/api/v1/watches', t.token)).statusCode).toBe(200);
  });

  it('answers a change applied to the read database once the version poll sees it', async () => {
    const before = await t.get('/api/v1/companies?limit=100', t.token);
    expect(names(before)).not.toContain(later);
    const added = await companyWithJob(replication, later, `${later} Solutions Engineer`);
    const after = await eventually(
      () => t.get('/api/v1/companies?limit=100', t.token),
      (res) => names(res).includes(later),
    );
    expect(after.statusCode).toBe(200);
    const listed = await eventually(
      () => t.get(`/api/v1/jobs?company=${added.slug}`),
      (res) => res.json().data.length > 0,
    );
    expect(listed.json().data.map((j: { id: string }) => j.id)).toEqual([added.jobId]);
  });

  it('matches a watch search only against jobs the read database holds', async () => {
    const watch = await t.request({
      method: 'POST',
      url: '/api/v1/watches',
      token: t.token,
      payload: { search: word, url: `https://${HOOKS}/${word}` },
    });
    expect(watch.statusCode).toBe(201);
    const id = watch.json().data.id as string;
    const state = async () =>
      (
        await primary.db.query<{ cursor: number; deliveries: number }>(
          `SELECT cursor::float8 AS cursor, (SELECT count(*)::int FROM watch_deliveries WHERE watch_id = $1) AS deliveries
           FROM watches WHERE id = $1`,
          [id],
        )
      )[0];
    const before = await state();
    // A job the pipeline wrote to the primary, not yet replicated: the watch waits for it.
    const anthropic = await primary.db.query<{ id: string }>(
      `SELECT id FROM companies WHERE slug = 'anthropic'`,
    );
    const [jobId] = await addJobs(
      primary.db,
      [
        {
          companyId: anthropic[0]?.id as string,
          companyName: 'Anthropic',
          title: `${word} Deployment Strategist`,
          roleCategory: 'fde',
          postedAt: new Date(clock.now()),
        },
      ],
      clock.now(),
    );
    const eventId = await nextEventId();
    await openedAs(primary.db, jobId as string, eventId);
    await t.deps.watchMatcher.runOnce();
    expect(await state()).toEqual(before);
    // Replicated: the next round delivers it.
    await replicate(jobId as string, eventId);
    await t.deps.watchMatcher.runOnce();
    expect(await state()).toEqual({ cursor: eventId, deliveries: 1 });
  });

  it('is ready while both databases answer with every migration', async () => {
    const res = await t.get('/readyz');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'ready', database: 'ok', pendingMigrations: [] });
  });

  it('is not ready while the read database lacks a migration this build applies', async () => {
    const [last] = await replication.query<{ version: string; name: string; checksum: string }>(
      'DELETE FROM schema_migrations WHERE version = (SELECT max(version) FROM schema_migrations) RETURNING *',
    );
    try {
      const res = await t.get('/readyz');
      expect(res.statusCode).toBe(503);
      expect(res.json().data).toMatchObject({ status: 'not_ready', database: 'ok' });
      expect(res.json().data.pendingMigrations).toEqual([last?.name]);
    } finally {
      await replication.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
        last?.version,
        last?.name,
        last?.checksum,
      ]);
    }
  });

  it('reports the read pool beside the primary one', async () => {
    const body = (await t.get('/metrics')).body;
    expect(body).toMatch(/frontline_db_pool_connections\{pool="primary",state="total"\} [1-9]/);
    expect(body).toMatch(/frontline_db_pool_connections\{pool="read",state="total"\} [1-9]/);
  });
});

describe.skipIf(!server)('a served API process with DATABASE_READ_URL', () => {
  let service: ServiceProcess | undefined;
  afterAll(async () => {
    await service?.stop();
  });

  it('answers public reads from the read database and names it in its start line', async () => {
    service = await startService({
      DATABASE_URL: primary.url as string,
      DATABASE_READ_URL: readUrl,
      FRONTLINE_ROLE: 'api',
    });
    expect((await fetch(`${service.url}/api/v1/companies/${replicaOnly.slug}`)).status).toBe(200);
    expect((await fetch(`${service.url}/api/v1/companies/${primaryOnly.slug}`)).status).toBe(404);
    expect(service.output()).toContain(`public reads from ${new URL(readUrl).host}/${readName}`);
  }, 600_000);
});
