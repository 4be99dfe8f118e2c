import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgliteDb } from '../../src/db/pglite.js';
import type { Db } from '../../src/db/port.js';
import type { TrackSummary } from '../../src/pipeline/track/run.js';
import type { RegistryEntry } from '../../src/registry/load.js';
import { loadRegistry } from '../../src/registry/load.js';
import { freshDatabase, freshDataDirWithVectors, type TestDatabase } from '../support/db.js';
import { startsByHost, startTrackWorld, type TrackWorld } from '../support/track-world.js';
import { type Child, startChild } from './support.js';

/**
 * `frontline track` over the whole shipped registry, as a real process against fakes of every vendor (postings
 * generated in each vendor's format, reached through OUTBOUND_HOST_MAP), with faults planted (track-world.ts): a
 * gone board, a moved board, a 429 storm and a slow host. The first run is killed with SIGKILL part-way; the
 * second resumes it and ends with every company listed and only the gone one failed, one onboarding run per
 * company; a third finds everything done. Vendor hosts see one request at a time, never closer than the gap.
 */

/**
 * Above the default gap of every vendor API host (OUTBOUND_API_GAP_MS, 100 ms): track's own setting is in force.
 * The spacing itself is proven with an injected clock in test/net/client.test.ts; arrival times seen here on a
 * loaded machine cannot prove it, so this test checks what does not depend on timing: one request in flight.
 */
const GAP_MS = 150;
const RIPPLING_GAP_MS = 400;
const POSTINGS = 2;

let registry: RegistryEntry[];
let world: TrackWorld;
let database: TestDatabase | undefined;
let dataDir: string | undefined;
const children: Child[] = [];

beforeAll(async () => {
  registry = await loadRegistry();
  world = await startTrackWorld(registry, { postings: POSTINGS });
  if (process.env.TEST_DATABASE_URL) database = await freshDatabase();
  else dataDir = await freshDataDirWithVectors();
});

afterAll(async () => {
  for (const c of children) await c.kill9().catch(() => {});
  await world?.close();
  await database?.drop();
});

function track(args: string[] = []): Promise<Child> {
  const env: Record<string, string> = {
    ...(database?.url ? { DATABASE_URL: database.url } : { DATA_DIR: dataDir as string }),
    OUTBOUND_HOST_MAP: world.hostMap,
    TRACK_VENDORS: 'all',
    TRACK_HOST_GAP_MS: String(GAP_MS),
    // A vendor's published limit, as a host's own spacing (Rippling's default, 6 s, is shortened for the test).
    OUTBOUND_HOST_GAPS: `api.rippling.com=${RIPPLING_GAP_MS}`,
    LOG_LEVEL: 'info',
  };
  return startChild(env, { command: 'track', args: ['--json', ...args] }).then((c) => {
    children.push(c);
    return c;
  });
}

const summaryOf = (out: string): TrackSummary & { excluded: unknown[] } => {
  const line = out.split('\n').find((l) => l.startsWith('{"selected"'));
  if (!line) throw new Error(`no summary in:\n${out.slice(-4000)}`);
  return JSON.parse(line);
};

async function withDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  if (database) return fn(database.db);
  const db = await PgliteDb.open(dataDir as string);
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

const boardFetches = () => world.ats.requests.filter((r) => !/robots\.txt$/.test(r.path)).length;

describe('frontline track over the whole registry, offline', () => {
  it('killed part-way, resumed: every company listed, only the planted gone board failed, nothing doubled', async () => {
    const first = await track();
    // Killed once about a third of the registry's vendor calls were answered.
    const third = Math.max(2, Math.floor(registry.length / 3));
    while (boardFetches() < third && first.proc.exitCode === null)
      await new Promise((r) => setTimeout(r, 20));
    await first.kill9();

    const second = await track();
    const code = await second.exited;
    const summary = summaryOf(second.output());
    expect(code, second.output().slice(-4000)).toBe(1);
    expect(summary.selected).toBe(registry.length);
    expect(summary.failed).toBe(1);
    expect(summary.failedByReason).toEqual({ no_board: 1 });
    expect(summary.outcomes.find((o) => !o.ok)?.domain).toBe(world.gone);
    expect(summary.tracked).toBe(registry.length - 1);
    expect(summary.jobs).toBe(world.expectedJobs);
    expect(second.output()).toContain('"msg":"company tracked"');

    await withDb(async (db) => {
      const companies = await db.query<{ domain: string }>('SELECT domain FROM companies ORDER BY domain');
      expect(companies.map((c) => c.domain)).toEqual(registry.map((e) => e.domain).sort());
      const [jobs] = await db.query<{ n: number; keys: number }>(
        `SELECT count(*)::int AS n, count(DISTINCT (board_id, external_id))::int AS keys FROM jobs WHERE active`,
      );
      expect(jobs).toEqual({ n: world.expectedJobs, keys: world.expectedJobs });
      const runs = await db.query<{ id: string }>(
        `SELECT workflow_uuid AS id FROM dbos.workflow_status WHERE name = 'onboard'`,
      );
      expect(runs).toHaveLength(registry.length);
      expect(runs.every((r) => r.id.startsWith('track:'))).toBe(true);
      const moved = await db.query<{ provider: string; evidence: string }>(
        `SELECT b.provider, b.evidence FROM boards b JOIN companies c ON c.id = b.company_id
            WHERE c.domain = $1 AND b.active`,
        [world.moved],
      );
      expect(moved).toHaveLength(1);
      expect(moved[0]?.evidence).toBe('link');
    });

    // Politeness: one request at a time per vendor host (the storm's retries too).
    const hosts = startsByHost(world.ats);
    expect(hosts.size).toBeGreaterThan(1);
    for (const host of hosts.keys()) expect(world.ats.peakInFlight.get(host), host).toBe(1);
  }, 900_000);

  it('a run over a registry already tracked finds every run finished and calls no vendor', async () => {
    const before = world.ats.requests.length;
    const again = await track();
    expect(await again.exited).toBe(1);
    const summary = summaryOf(again.output());
    expect(summary.tracked).toBe(registry.length - 1);
    expect(summary.jobs).toBe(world.expectedJobs);
    expect(world.ats.requests.length).toBe(before);
  }, 300_000);
});
