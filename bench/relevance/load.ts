import { upsertCompanyByDomain } from '../../src/catalog/company-writes.js';
import { setCompanyTags } from '../../src/catalog/tags.js';
import type { CompanyCategory, RoleCategory } from '../../src/catalog/types.js';
import type { PgliteDb } from '../../src/db/pglite.js';

/** A judged set's catalog and queries, loaded into a database, and the judging of rows by a query's rules. */

export interface CatalogFile {
  companies: {
    name: string;
    domain: string;
    oneLiner: string;
    category: CompanyCategory;
    industry: string[];
    jobs: { title: string; role: RoleCategory; location: string; remote: boolean; daysAgo: number }[];
  }[];
}
export interface Rule {
  grade: number;
  title?: string;
  company?: string;
  role?: string;
  location?: string;
  /** Only rows of this kind (the mixed list of jobs and companies). */
  type?: 'job' | 'company';
}
export interface Query {
  query: string;
  kind: string;
  target: 'jobs' | 'companies' | 'mixed';
  judgments: Rule[];
}
export interface Row {
  id: string;
  title: string;
  company: string;
  role: string;
  location: string;
  /** A company's one-liner (the baseline indexes it with the name). */
  text?: string;
  type: 'job' | 'company';
}

export async function load(
  db: PgliteDb,
  catalog: CatalogFile,
  now: number,
): Promise<{ jobs: Row[]; companies: Row[] }> {
  const jobs: Row[] = [];
  const companies: Row[] = [];
  await db.transaction(async (tx) => {
    for (const c of catalog.companies) {
      const { id } = await upsertCompanyByDomain(
        tx,
        c.domain,
        { name: c.name, oneLiner: c.oneLiner, category: c.category },
        now,
      );
      await setCompanyTags(
        tx,
        id,
        c.industry.map((value) => ({ dimension: 'industry' as const, value })),
        now,
      );
      companies.push({
        id,
        title: c.name,
        company: c.name,
        role: '',
        location: '',
        text: c.oneLiner,
        type: 'company',
      });
      for (const [i, j] of c.jobs.entries()) {
        const [row] = await tx.query<{ id: string }>(
          `INSERT INTO jobs (company_id, company_name, source, external_id, title, location, remote, role_category, url, posted_at)
           VALUES ($1, $2, 'bench', $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
          [
            id,
            c.name,
            `${c.domain}-${i}`,
            j.title,
            j.location,
            j.remote,
            j.role,
            `https://${c.domain}/careers#${i}`,
            new Date(now - j.daysAgo * 86_400_000 - i * 60_000),
          ],
        );
        jobs.push({
          id: row!.id,
          title: j.title,
          company: c.name,
          role: j.role,
          location: j.location,
          type: 'job',
        });
      }
    }
  });
  return { jobs, companies };
}

export function judge(q: Query, rows: Row[]): Map<string, number> {
  const grades = new Map<string, number>();
  for (const row of rows) {
    let grade = 0;
    for (const r of q.judgments) {
      const ok =
        (r.type === undefined || r.type === row.type) &&
        (r.title === undefined || new RegExp(r.title, 'i').test(row.title)) &&
        (r.company === undefined || new RegExp(r.company, 'i').test(row.company)) &&
        (r.role === undefined || r.role === row.role) &&
        (r.location === undefined || row.location.toLowerCase().includes(r.location.toLowerCase()));
      if (ok) grade = Math.max(grade, r.grade);
    }
    if (grade > 0) grades.set(row.id, grade);
  }
  return grades;
}
