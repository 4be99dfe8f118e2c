import type { Queryable } from '../../db/port.js';

export interface TrackedCompany {
  id: string;
  name: string;
  domain: string;
}

/** The company tracked under a normalized domain (active or not), or undefined. */
export async function findCompanyByDomain(
  db: Queryable,
  domain: string,
): Promise<TrackedCompany | undefined> {
  const rows = await db.query<TrackedCompany>('SELECT id, name, domain FROM companies WHERE domain = $1', [
    domain,
  ]);
  return rows[0];
}

/** The company's current name, or null when it was deleted since the run was enqueued. */
export async function companyName(db: Queryable, companyId: string): Promise<string | null> {
  const rows = await db.query<{ name: string }>('SELECT name FROM companies WHERE id = $1', [companyId]);
  return rows[0]?.name ?? null;
}
