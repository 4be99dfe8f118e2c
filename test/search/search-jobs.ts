import { expect } from 'vitest';
import type { RoleCategory } from '../../src/catalog/types.js';
import { addCompany, addJobs } from '../catalog/fixtures.js';
import type { TestApp } from '../support/app.js';

const HOUR = 3_600_000;

export interface SearchCompany {
  id: string;
  name: string;
}

/** A job of a search test: its company, title, role category and location (remote when it starts "Remote"). */
export type SearchJob = readonly [
  company: SearchCompany,
  title: string,
  roleCategory: RoleCategory,
  location?: string,
];

/** Adds an active company; its id and name. */
export async function addSearchCompany(t: TestApp, name: string, domain: string): Promise<SearchCompany> {
  const { id } = await addCompany(t.deps.db, { name, domain }, t.clock.now());
  return { id, name };
}

/**
 * Adds the jobs, each posted an hour before the one listed before it (the first listed is the newest), and
 * indexes them for search.
 */
export async function addSearchJobs(t: TestApp, jobs: readonly SearchJob[]): Promise<void> {
  const now = t.clock.now();
  await addJobs(
    t.deps.db,
    jobs.map(([company, title, roleCategory, location], i) => ({
      companyId: company.id,
      companyName: company.name,
      title,
      roleCategory,
      ...(location !== undefined && { location }),
      remote: location?.startsWith('Remote') ?? false,
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
