import { existsSync, mkdirSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  readSnapshot,
  readWholeSnapshot,
  writeSnapshot,
} from '../../src/catalog/replica/sync/index-snapshot.js';
import { parseConfig } from '../../src/config.js';
import { PgliteDb } from '../../src/db/pglite.js';
import { createDeps, type Deps } from '../../src/deps.js';
import { freshDataDir, serverUrl } from '../support/db.js';
import { SEARCH_TEST_CACHE_DIR } from './support.js';

/**
 * The embedded service saves its search index beside the database and reads it at the next start instead of
 * bulk-loading every vector; the change feed then applies whatever changed while it was down. Embedded only:
 * a PostgreSQL-backed process never writes one.
 */
describe.skipIf(serverUrl())('search index snapshot (embedded database)', () => {
  let dir: string;
  const snapshotFile = () => join(dir, 'search-index.snapshot');

  async function start(): Promise<Deps> {
    const config = parseConfig({
      DATA_DIR: dir,
      SAMPLE_DATA: '1',
      LOG_LEVEL: 'silent',
      FRONTLINE_ROLE: 'all',
    });
    const deps = await createDeps(config);
    await deps.searchParts.idle();
    await deps.searchParts.replica!.refresh();
    return deps;
  }

  /** Active job ids with a current embedding, as the database has them. */
  async function expectedJobs(deps: Deps): Promise<string[]> {
    const rows = await deps.db.query<{ id: string }>(
      `SELECT j.id FROM jobs j JOIN job_embeddings e ON e.job_id = j.id AND e.model = $1 WHERE j.active ORDER BY j.id`,
      [deps.searchParts.embedder.id],
    );
    return rows.map((r) => r.id);
  }

  const indexedJobs = (deps: Deps) =>
    [...deps.searchParts.replica!.jobs.entries()]
      .filter(([id]) => deps.searchParts.replica!.jobs.storedOf(id) !== null)
      .map(([id]) => id)
      .sort();

  beforeAll(async () => {
    dir = await freshDataDir();
    // Share the word-vector cache instead of rebuilding it (~10 s) for this data directory.
    mkdirSync(SEARCH_TEST_CACHE_DIR, { recursive: true });
    symlinkSync(SEARCH_TEST_CACHE_DIR, join(dir, 'cache'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads from the database the first time and leaves a snapshot on close', async () => {
    const deps = await start();
    expect(deps.searchParts.replica!.loadedFrom).toBe('database');
    const expected = await expectedJobs(deps);
    expect(expected.length).toBeGreaterThan(100);
    expect(indexedJobs(deps)).toEqual(expected);
    await deps.close();
    expect(existsSync(snapshotFile())).toBe(true);
  });

  it('starts from the snapshot and applies the changes made while the service was down', async () => {
    // Another writer (an operator's script) changes the catalog while the service is stopped.
    const db = await PgliteDb.open(dir);
    const [closed] = await db.query<{ id: string }>(
      'UPDATE jobs SET active = false WHERE id = (SELECT id FROM jobs WHERE active ORDER BY id LIMIT 1) RETURNING id',
    );
    const [deleted] = await db.query<{ id: string }>(
      'DELETE FROM jobs WHERE id = (SELECT id FROM jobs WHERE active ORDER BY id DESC LIMIT 1) RETURNING id',
    );
    const [moved] = await db.query<{ id: string; location: string }>(
      `UPDATE jobs SET location = 'Reykjavik, Iceland'
        WHERE id = (SELECT id FROM jobs WHERE active ORDER BY id OFFSET 5 LIMIT 1) RETURNING id, location`,
    );
    await db.close();

    const deps = await start();
    try {
      expect(deps.searchParts.replica!.loadedFrom).toBe('snapshot');
      const index = deps.searchParts.replica!;
      expect(index.jobs.attributes(closed!.id)).toBeUndefined();
      expect(index.jobs.attributes(deleted!.id)).toBeUndefined();
      expect(index.jobs.attributes(moved!.id)?.location).toBe('reykjavik, iceland');
      expect(indexedJobs(deps)).toEqual(await expectedJobs(deps));
    } finally {
      await deps.close();
    }
  });

  it('ignores a corrupt snapshot, loads from the database and writes a good one', async () => {
    writeFileSync(snapshotFile(), 'FLSNAP02 not really a snapshot');
    const deps = await start();
    const model = deps.searchParts.embedder.id;
    try {
      expect(deps.searchParts.replica!.loadedFrom).toBe('database');
      expect(indexedJobs(deps)).toEqual(await expectedJobs(deps));
    } finally {
      await deps.close();
    }
    expect((await readWholeSnapshot(snapshotFile(), model))?.jobs.length).toBeGreaterThan(100);
  });

  it('ignores a snapshot that is ahead of the database (a restored backup) and one for another model', async () => {
    const deps = await start();
    const model = deps.searchParts.embedder.id;
    await deps.close();
    const good = await readWholeSnapshot(snapshotFile(), model);
    expect(good).toBeDefined();
    writeSnapshot(snapshotFile(), { ...good!, seen: good!.seen + 1_000_000 });
    const ahead = await start();
    expect(ahead.searchParts.replica!.loadedFrom).toBe('database');
    await ahead.close();
    writeSnapshot(snapshotFile(), { ...good!, model: 'another-model' });
    const other = await start();
    expect(other.searchParts.replica!.loadedFrom).toBe('database');
    expect(indexedJobs(other)).toEqual(await expectedJobs(other));
    await other.close();
  });

  it('refuses a snapshot written under another job-record declaration and rebuilds it from the database', async () => {
    const deps = await start();
    const model = deps.searchParts.embedder.id;
    await deps.close();
    const good = await readWholeSnapshot(snapshotFile(), model);
    expect(good).toBeDefined();
    // What a build with one more (or one fewer) declared job field wrote.
    writeSnapshot(snapshotFile(), good!, 'another-declaration');
    expect(await readSnapshot(snapshotFile(), model)).toBeUndefined();
    expect(existsSync(snapshotFile())).toBe(false);
    writeSnapshot(snapshotFile(), good!, 'another-declaration');
    const rebuilt = await start();
    expect(rebuilt.searchParts.replica!.loadedFrom).toBe('database');
    expect(indexedJobs(rebuilt)).toEqual(await expectedJobs(rebuilt));
    await rebuilt.close();
    // The rebuilt index wrote a snapshot under the current declaration, which the next start reads.
    const again = await start();
    expect(again.searchParts.replica!.loadedFrom).toBe('snapshot');
    await again.close();
  });

  it('streams the vectors from the file, and a file cut short while it is read fails the read', async () => {
    const deps = await start();
    const model = deps.searchParts.embedder.id;
    const expected = new Map(
      [...deps.searchParts.replica!.jobs.entries()].map(([id]) => {
        const stored = deps.searchParts.replica!.jobs.storedOf(id);
        return [id, stored && { scale: stored.scale, values: stored.values.slice() }];
      }),
    );
    await deps.close();
    const whole = await readWholeSnapshot(snapshotFile(), model);
    expect(whole?.jobs.length).toBe(expected.size);
    for (const job of whole!.jobs) expect(job.vector).toEqual(expected.get(job.id) ?? null);

    const reader = await readSnapshot(snapshotFile(), model);
    expect(reader).toBeDefined();
    truncateSync(snapshotFile(), statSync(snapshotFile()).size - 4);
    await expect(async () => {
      for await (const _ of reader!.jobs()) {
        // reading to the end
      }
    }).rejects.toThrow('ended early');
    await reader!.close();
    // Cut short before it is opened: detected from the header, deleted, and the next start loads from the database.
    expect(await readSnapshot(snapshotFile(), model)).toBeUndefined();
    expect(existsSync(snapshotFile())).toBe(false);
  });
});

describe('snapshot file format', () => {
  it('round-trips jobs across chunk boundaries, with and without vectors, and refuses a file cut mid-chunk', async () => {
    const dir = await freshDataDir();
    const path = join(dir, 'search-index.snapshot');
    try {
      const dims = 10;
      const vector = (i: number) => ({
        scale: (i + 1) / 1_000,
        values: Int8Array.from({ length: dims }, (_, d) => ((i * 7 + d * 13) % 255) - 127),
      });
      const jobs = Array.from({ length: 12_345 }, (_, i) => ({
        id: `job-${i}`,
        companyId: `co-${i % 17}`,
        role: i % 3 === 0 ? 'fde' : 'csm',
        place: i % 5 === 0 ? 'Zürich, CH — "HQ"' : 'Remote',
        remote: i % 2 === 0,
        title: `Title ${i}\twith\\escapes`,
        url: `https://jobs.example/${i}`,
        postedAtUs: 1_700_000_000_000_000 + i,
        department: i % 4 === 0 ? null : `Sales\tOps ${i % 3}`,
        departmentKey: i % 4 === 0 ? null : `sales\tops ${i % 3}`,
        payYearMax: i % 2 === 0 ? -1 : 150_000 + i,
        payCurrency: i % 2 === 0 ? null : 'USD',
        payRange: i % 2 === 0 ? null : `100000.00 ${150_000 + i}.50 year structured`,
        firstSeenAtUs: 1_700_000_000_000_000 + 2 * i,
        workplace: ['remote', 'hybrid', 'onsite', 'unknown'][i % 4]!,
        countries: i % 3 === 0 ? '' : 'DE,FR',
        regions: i % 3 === 0 ? '' : 'emea,europe',
        remoteScopes: i % 2 === 0 ? 'worldwide' : '',
        vector: i % 11 === 0 ? null : vector(i),
      }));
      const companies = [
        {
          id: 'co-0',
          name: 'Zero',
          slug: 'zero',
          category: 'other',
          active: true,
          domain: 'zero.example',
          oneLiner: 'z',
          activeJobCount: 3,
          nameKey: 'zero',
          tagList: [],
          detail: {} as never,
          vector: vector(99),
        },
      ];
      writeSnapshot(path, { model: 'm', dims, seen: 42, companies, jobs });
      const read = await readWholeSnapshot(path, 'm');
      expect(read?.seen).toBe(42);
      expect(read?.companies).toEqual(companies);
      expect(read?.jobs).toEqual(jobs);
      // Cut inside the second chunk: refused before anything is read, and deleted.
      truncateSync(path, Math.floor(statSync(path).size / 2));
      expect(await readSnapshot(path, 'm')).toBeUndefined();
      expect(existsSync(path)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
