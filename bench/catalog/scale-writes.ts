import pg from 'pg';
import type { IndexBuild } from './scale-indexes.js';

/**
 * What the search read model costs the database at scale (`npm run bench:scale`): the size of the indexes search
 * ranked in the database reads, and the write cost of a scrape's changes with every index and trigger maintained,
 * against the same changes with the jobs' full-text index dropped (inside the rolled-back transaction).
 */

/**
 * The indexes search ranked in the database reads (migrations 0163, 0173, 0195; the filters' indexes carrying the
 * words, 0195) and the vocabulary's counts (0176).
 */
export const SEARCH_RELATIONS = [
  'jobs_search_idx',
  'jobs_recent_search_idx',
  'jobs_place_search_idx',
  'jobs_category_covering_idx',
  'jobs_department_idx',
  'jobs_annual_pay_idx',
  'companies_search_idx',
  'companies_name_trgm_idx',
  'jobs_location_trgm_idx',
  'job_embeddings_hnsw_100_idx',
  'company_embeddings_hnsw_100_idx',
  'job_text_counts',
];

export interface RelationSize {
  name: string;
  bytes: number;
  /** ms of its build on the generated catalog, when the generator built it after the load. */
  buildMs?: number;
}

export async function searchRelationSizes(url: string, builds: IndexBuild[] = []): Promise<RelationSize[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; bytes: string }>(
      `SELECT relname AS name, pg_relation_size(oid) AS bytes FROM pg_class WHERE relname = ANY($1::text[])
        ORDER BY array_position($1::text[], relname::text)`,
      [SEARCH_RELATIONS],
    );
    return rows.map((r) => {
      const build = builds.find((b) => b.name === r.name);
      return { name: r.name, bytes: Number(r.bytes), ...(build && { buildMs: build.ms }) };
    });
  } finally {
    await client.end();
  }
}

export interface WriteCost {
  label: string;
  rows: number;
  /** ms with every index and trigger; then with jobs_search_idx dropped. */
  ms: number;
  withoutSearchIndexMs: number;
}

/**
 * A scrape's changes at the catalog's scale, each in a transaction that is rolled back (the catalog is left as
 * it was): `rows` new postings (copies of open jobs under new external ids), as many re-titled jobs (a title
 * change rewrites the full-text entry) and as many closings. Each is timed with the indexes as they are, then with
 * jobs_search_idx dropped first, so the difference is what maintaining the full-text index costs.
 */
export async function scrapeWriteCosts(url: string, rows = 1_000): Promise<WriteCost[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows: cols } = await client.query<{ name: string }>(
      `SELECT column_name AS name FROM information_schema.columns
        WHERE table_name = 'jobs' AND is_generated = 'NEVER' AND column_name NOT IN ('id', 'external_id')
          AND coalesce(column_default, '') NOT LIKE 'nextval%'`,
    );
    // Every column but the key, the external id and the sequence-numbered ones, which get new values.
    const copied = cols.map((c) => `"${c.name}"`);
    const pick = (offset: number) =>
      `SELECT id FROM jobs WHERE active ORDER BY id OFFSET ${offset} LIMIT ${rows}`;
    const statements: [string, string][] = [
      [
        `${rows} new postings`,
        `INSERT INTO jobs (${copied.join(', ')}, external_id)
         SELECT ${copied.join(', ')}, external_id || '-rescraped' FROM jobs WHERE id IN (${pick(0)})`,
      ],
      [
        `${rows} re-titled postings`,
        `UPDATE jobs SET title = title || ' II', updated_at = now() WHERE id IN (${pick(rows)})`,
      ],
      [
        `${rows} closed postings`,
        `UPDATE jobs SET active = false, updated_at = now() WHERE id IN (${pick(2 * rows)})`,
      ],
    ];
    const timed = async (sql: string, dropSearchIndex: boolean): Promise<number> => {
      await client.query('BEGIN');
      try {
        if (dropSearchIndex) await client.query('DROP INDEX jobs_search_idx');
        const t0 = performance.now();
        await client.query(sql);
        return performance.now() - t0;
      } finally {
        await client.query('ROLLBACK');
      }
    };
    const out: WriteCost[] = [];
    for (const [label, sql] of statements) {
      await timed(sql, false); // reads the rows once, so both timings find them in the buffer cache
      out.push({ label, rows, ms: await timed(sql, false), withoutSearchIndexMs: await timed(sql, true) });
    }
    return out;
  } finally {
    await client.end();
  }
}
