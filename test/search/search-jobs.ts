import { expect } from 'vitest';
import { addJobs, type JobSpec } from '../catalog/fixtures.js';
import type { TestApp } from '../support/app.js';

const HOUR = 3_600_000;

/** A job of a search test; remote when its location starts with "Remote". */
export type SearchJob = Omit<JobSpec, 'postedAt' | 'remote'>;

/**
 * Adds the jobs, each posted an hour before the one listed before it (the first listed is the newest), and
 * indexes them for search.
 */
export async function addSearchJobs(t: TestApp, jobs: readonly SearchJob[]): Promise<void> {
  const now = t.clock.now();
  await addJobs(
    t.deps.db,
    jobs.map((j, i) => ({
      ...j,
      remote: j.location?.startsWith('Remote') ?? false,
      postedAt: new Date(now - (i + 1) * HOUR),
    })),
    now,
  );
  await t.deps.searchParts.indexer.catchUp();
}

/** The items of GET `url`, which must answer 200. */
export async function listed<T>(t: TestApp, url: string): Promise<T[]> {
  const res = await t.get(url, null);
  expect(res.statusCode).toBe(200);
  return res.json().data as T[];
}
