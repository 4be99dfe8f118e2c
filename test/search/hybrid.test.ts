import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyFilterSql, companyPredicate, jobFilterSql } from '../../src/catalog/filters.js';
import { JobColumns } from '../../src/catalog/replica/job-columns.js';
import type { CompanyFilters, JobFilters } from '../../src/catalog/types.js';
import { parseConfig } from '../../src/config.js';
import { createOutboundClient, endpointClientOptions } from '../../src/net/client.js';
import { OpenAiEmbedder } from '../../src/search/embedders/openai.js';
import { HybridSearch } from '../../src/search/hybrid.js';
import { EmbeddingIndexer } from '../../src/search/indexer.js';
import { addCompany, addJobs, type JobSpec } from '../catalog/fixtures.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { SEARCH_TEST_DATA_DIR, startFakeEmbeddings } from './support.js';

let t: TestApp;
let semantic: HybridSearch;
let keyword: HybridSearch;
const co: Record<string, { id: string; slug: string }> = {};
const HOUR = 3_600_000;

beforeAll(async () => {
  // Every job scan's pass over the rows runs on the scan thread here (from 1 row), so each ranking below is checked
  // through that path; the other search suites scan on the event loop (their catalogs are below the default).
  t = await startTestApp({ env: { DATA_DIR: SEARCH_TEST_DATA_DIR, SEARCH_SCAN_THREAD_ROWS: '1' } });
  const now = t.clock.now();
  const db = t.deps.db;
  const at = (hoursAgo: number) => new Date(now - hoursAgo * HOUR);
  co.anthropic = await addCompany(
    db,
    {
      name: 'Anthropic',
      domain: 'anthropic.com',
      category: 'ai_native',
      oneLiner: 'AI safety and research company',
      tags: [{ dimension: 'industry', value: 'Foundation Models' }],
    },
    now,
  );
  co.databricks = await addCompany(
    db,
    {
      name: 'Databricks',
      domain: 'databricks.com',
      category: 'enterprise_ai',
      oneLiner: 'The data and AI platform',
      tags: [{ dimension: 'industry', value: 'Data Platforms' }],
    },
    now,
  );
  co.acme = await addCompany(db, { name: 'Acme', domain: 'acme.com', oneLiner: 'Anvils and rockets' }, now);
  co.acmeRobotics = await addCompany(
    db,
    {
      name: 'Acme Robotics',
      domain: 'acmerobotics.com',
      category: 'ai_native',
      oneLiner: 'Acme robots: the acme of acme warehouse automation, by Acme Robotics',
    },
    now,
  );
  co.bulk = await addCompany(db, { name: 'Bulkco', domain: 'bulkco.io' }, now);
  co.lisbon = await addCompany(db, { name: 'Portucloud', domain: 'portucloud.pt' }, now);
  const job = (
    c: keyof typeof co,
    name: string,
    title: string,
    roleCategory: JobSpec['roleCategory'],
    hoursAgo: number,
    extra: Partial<JobSpec> = {},
  ): JobSpec => ({
    companyId: co[c]!.id,
    companyName: name,
    title,
    roleCategory,
    postedAt: at(hoursAgo),
    ...extra,
  });
  await addJobs(
    db,
    [
      job('anthropic', 'Anthropic', 'Forward Deployed Engineer', 'fde', 5),
      job('anthropic', 'Anthropic', 'Solutions Architect', 'solutions_engineer', 5),
      job('anthropic', 'Anthropic', 'Customer Success Manager', 'csm', 5),
      job('anthropic', 'Anthropic', 'Research Scientist, Interpretability', 'other', 5),
      job('databricks', 'Databricks', 'Solutions Engineer', 'solutions_engineer', 6),
      job('databricks', 'Databricks', 'Technical Account Manager', 'tam', 6),
      job('databricks', 'Databricks', 'Data Scientist', 'data', 6),
      job('acme', 'Acme', 'Account Executive', 'sales', 7),
    ],
    now,
  );
  // 150 newer, identical "Kubernetes Engineer" postings fill any unfiltered top 100, keyword and semantic alike;
  // the 3 older Lisbon ones can only surface if filters apply inside retrieval.
  await addJobs(
    db,
    Array.from({ length: 150 }, (_, i) =>
      job('bulk', 'Bulkco', 'Kubernetes Engineer', 'engineering', 10 + i / 60, {
        location: 'Berlin, Germany',
      }),
    ),
    now,
  );
  await addJobs(
    db,
    [
      job('lisbon', 'Portucloud', 'Kubernetes Engineer (Storage)', 'engineering', 400, {
        location: 'Lisbon, Portugal',
      }),
      job('lisbon', 'Portucloud', 'Kubernetes Engineer (Networking)', 'engineering', 401, {
        location: 'Lisbon, Portugal',
        remote: true,
      }),
      job('lisbon', 'Portucloud', 'Senior Kubernetes Engineer', 'engineering', 402, {
        location: 'Lisbon, Portugal',
      }),
    ],
    now,
  );
  await t.deps.searchParts.idle();
  await t.deps.searchParts.indexer.catchUp();
  semantic = new HybridSearch({
    db,
    index: t.deps.searchParts.replica!,
    embedder: t.deps.searchParts.embedder,
    mode: 'semantic',
  });
  keyword = new HybridSearch({
    db,
    index: t.deps.searchParts.replica!,
    embedder: t.deps.searchParts.embedder,
    mode: 'keyword',
  });
});
afterAll(async () => t?.close());

interface Page<T> {
  data: T[];
  meta: { page: number; limit: number; total: number; totalPages: number };
}
type Job = { id: string; title: string; company: { name: string; slug: string }; location: string };
type Company = { id: string; name: string; slug: string };
const jobs = async (qs: string, token?: string) => {
  const res = await t.get(`/api/v1/jobs?${qs}`, token);
  expect(res.statusCode).toBe(200);
  return res.json() as Page<Job>;
};
const companies = async (qs: string) => {
  const res = await t.get(`/api/v1/companies?${qs}`);
  expect(res.statusCode).toBe(200);
  return res.json() as Page<Company>;
};
const q = encodeURIComponent;
const titles = (p: Page<Job>) => p.data.map((j) => j.title);

describe('hybrid search through GET /jobs and GET /companies', () => {
  it('embeds every active row with the current model', async () => {
    expect(await t.deps.searchParts.indexer.countStale('job')).toBe(0);
    expect(await t.deps.searchParts.indexer.countStale('company')).toBe(0);
    const [row] = await t.deps.db.query<{ n: number; models: string[] }>(
      'SELECT count(*)::int AS n, array_agg(DISTINCT model) AS models FROM job_embeddings',
    );
    expect(row).toEqual({ n: 161, models: [t.deps.searchParts.embedder.id] });
  });

  it('understands role abbreviations and taxonomy synonyms', async () => {
    expect(titles(await jobs(`search=${q('FDE')}`))[0]).toBe('Forward Deployed Engineer');
    expect(titles(await jobs(`search=${q('deployment strategist')}`))[0]).toBe('Forward Deployed Engineer');
    expect(titles(await jobs(`search=${q('engineer embedded with customers')}`))[0]).toBe(
      'Forward Deployed Engineer',
    );
    const sa = titles(await jobs(`search=${q('SA')}`));
    expect(sa.slice(0, 2).sort()).toEqual(['Solutions Architect', 'Solutions Engineer']);
    expect(titles(await jobs(`search=${q('customer success')}`))[0]).toBe('Customer Success Manager');
    expect(titles(await jobs(`search=${q('TAM')}`))[0]).toBe('Technical Account Manager');
  });

  it('finds misspelled company names (pg_trgm) for jobs and companies', async () => {
    const anthropicJobs = await jobs(`search=${q('antropic')}`);
    expect(anthropicJobs.data.slice(0, 4).every((j) => j.company.name === 'Anthropic')).toBe(true);
    expect((await jobs(`search=${q('databriks solutions engineer')}`)).data[0]).toMatchObject({
      title: 'Solutions Engineer',
      company: { name: 'Databricks' },
    });
    expect((await companies(`search=${q('databriks')}`)).data[0]?.name).toBe('Databricks');
    expect((await companies(`search=${q('antropic')}`)).data[0]?.name).toBe('Anthropic');
  });

  it('ranks an exact company name or slug first, unless a filter excludes it', async () => {
    // Keyword rank alone prefers Acme Robotics (its text repeats "acme"); the exact name pins Acme.
    const keywordOnly = await new HybridSearch({
      db: t.deps.db,
      index: t.deps.searchParts.replica!,
      embedder: t.deps.searchParts.embedder,
      mode: 'keyword',
    }).searchCompanies('acme', {}, 10);
    expect(keywordOnly[0]).toBe(co.acmeRobotics!.id);
    expect((await companies('search=acme')).data.map((c) => c.name).slice(0, 2)).toEqual([
      'Acme',
      'Acme Robotics',
    ]);
    expect((await companies('search=ACME%20')).data[0]?.name).toBe('Acme');
    expect((await companies('search=acme-robotics')).data[0]?.name).toBe('Acme Robotics');
    const filtered = await companies('search=acme&category=ai_native');
    expect(filtered.data.map((c) => c.name)).toEqual(['Acme Robotics']);
  });

  it('caps the shortlist at 100 and pages over it without overlap', async () => {
    const first = await jobs(`search=kubernetes&limit=50`, t.token);
    expect(first.meta).toEqual({ page: 1, limit: 50, total: 100, totalPages: 2 });
    const second = await jobs(`search=kubernetes&limit=50&page=2`, t.token);
    expect(second.meta.total).toBe(100);
    const ids = new Set([...first.data, ...second.data].map((j) => j.id));
    expect(ids.size).toBe(100);
    expect((await jobs(`search=kubernetes&limit=50&page=3`, t.token)).data).toEqual([]);
    // The same ranking whatever the page size: page 2 of 20 is items 21-40 of the 50-item page.
    const p2 = await jobs(`search=kubernetes&limit=20&page=2`, t.token);
    expect(p2.data.map((j) => j.id)).toEqual(first.data.slice(20, 40).map((j) => j.id));
  });

  it('applies filters inside both retrievers, so a filter never empties the shortlist', async () => {
    const lisbonIds = (await jobs(`search=kubernetes&company=${co.lisbon!.slug}`)).data.map((j) => j.id);
    expect(lisbonIds).toHaveLength(3);
    // Neither retriever's unfiltered top 100 holds a Lisbon job: post-filtering would return nothing.
    const semanticQuery = 'kubernetes engineer bulkco';
    const unfiltered = [
      await keyword.searchJobs('kubernetes', {}, 100),
      await semantic.searchJobs(semanticQuery, {}, 100),
    ];
    for (const list of unfiltered) {
      expect(list).toHaveLength(100);
      expect(list.filter((id) => lisbonIds.includes(id))).toEqual([]);
    }
    const lisbon = { companySlug: co.lisbon!.slug };
    expect((await keyword.searchJobs('kubernetes', lisbon, 100)).sort()).toEqual([...lisbonIds].sort());
    expect((await semantic.searchJobs(semanticQuery, lisbon, 100)).sort()).toEqual([...lisbonIds].sort());
    expect((await jobs('search=kubernetes&location=LISBON')).meta.total).toBe(3);
    expect(titles(await jobs('search=kubernetes&remote_only=true'))).toEqual([
      'Kubernetes Engineer (Networking)',
    ]);
    expect((await jobs('search=kubernetes&role_category=fde')).meta.total).toBe(0);
    expect(
      (await jobs('search=engineer&client_facing=true')).data.every((j) => !j.title.includes('Kubernetes')),
    ).toBe(true);
    expect((await companies('search=platform&industry=data-platforms')).data.map((c) => c.name)).toEqual([
      'Databricks',
    ]);
  });

  it('brings jobs at a place the query names to the top, past identical postings elsewhere', async () => {
    const found = await jobs(`search=${q('kubernetes engineer lisbon')}&limit=10`);
    // Without the place's own list and boost, no Lisbon job is in either retriever's top 100 (test above). With
    // them, each is within the first five, not always the first three: the boost is half a first place, and
    // among the 150 identical Berlin postings the vector list breaks ties by id, so one that is also among the
    // newest five (the keyword list's order) can come first there too, and two lists' first places outweigh it.
    const top = found.data.slice(0, 5).map((j) => j.location);
    expect(top.filter((place) => place === 'Lisbon, Portugal')).toHaveLength(3);
    expect(found.data.slice(5).map((j) => j.location)).not.toContain('Lisbon, Portugal');
  });

  it('ran the job scans above on the scan thread, with the same answers as on the event loop', async () => {
    const counts = t.deps.searchParts.replica!.jobs.scanCounts;
    expect(counts.thread).toBeGreaterThan(5);
    const metrics = await t.get('/metrics');
    expect(metrics.body).toMatch(
      new RegExp(`frontline_search_job_scans_total\\{where="thread"\\} ${counts.thread}`),
    );
    // The same rankings with every scan on the event loop.
    const here = new HybridSearch({
      db: t.deps.db,
      index: t.deps.searchParts.replica!,
      embedder: t.deps.searchParts.embedder,
      scanThread: false,
    });
    for (const [query, filters] of [
      ['kubernetes engineer lisbon', {}],
      ['forward deployed engineer', { remoteOnly: true }],
      ['customer success', { roleCategories: ['csm', 'fde'] }],
    ] as [string, JobFilters][]) {
      const threaded = await t.deps.search.searchJobs(query, filters, 100);
      const before = counts.event_loop;
      const onLoop = await here.searchJobs(query, filters, 100);
      expect(counts.event_loop).toBe(before + 1);
      expect(onLoop).toEqual(threaded);
    }
  });

  it('answers websearch operator queries with keyword semantics only', async () => {
    const res = await jobs(`search=${q('"solutions architect"')}`);
    expect(titles(res)).toEqual(['Solutions Architect']);
    const excluded = await jobs(`search=${q('kubernetes -senior')}&company=${co.lisbon!.slug}`);
    expect(titles(excluded).sort()).toEqual([
      'Kubernetes Engineer (Networking)',
      'Kubernetes Engineer (Storage)',
    ]);
  });
});

describe('coherence between writes and the in-process index', () => {
  it('sees a write at the next search; semantic sees it once embedded; deactivation and deletion remove it', async () => {
    const now = t.clock.now();
    const [id] = await addJobs(
      t.deps.db,
      [
        {
          companyId: co.databricks!.id,
          companyName: 'Databricks',
          title: 'Prompt Engineer for Agents',
          roleCategory: 'engineering',
          postedAt: new Date(now),
        },
      ],
      now,
    );
    expect(titles(await jobs('search=prompt'))).toContain('Prompt Engineer for Agents');
    expect(await semantic.searchJobs('prompt engineer agents', {}, 5)).not.toContain(id);
    expect(await t.deps.searchParts.indexer.embedIds('job', [id!])).toBe(1);
    expect(await t.deps.searchParts.indexer.embedIds('job', [id!])).toBe(0);
    expect((await semantic.searchJobs('prompt engineer agents', {}, 5))[0]).toBe(id);

    await t.deps.db.query(`UPDATE jobs SET title = 'Agent Reliability Engineer' WHERE id = $1`, [id]);
    expect(await t.deps.searchParts.indexer.countStale('job')).toBe(1);
    await t.deps.searchParts.indexer.catchUp();
    expect((await semantic.searchJobs('agent reliability', {}, 5))[0]).toBe(id);

    await t.deps.db.query('UPDATE jobs SET active = false WHERE id = $1', [id]);
    expect(await semantic.searchJobs('agent reliability', {}, 5)).not.toContain(id);
    expect(titles(await jobs('search=agent'))).not.toContain('Agent Reliability Engineer');

    await t.deps.db.query('UPDATE jobs SET active = true WHERE id = $1', [id]);
    expect((await semantic.searchJobs('agent reliability', {}, 5))[0]).toBe(id);
    await t.deps.db.query('DELETE FROM jobs WHERE id = $1', [id]);
    expect(await semantic.searchJobs('agent reliability', {}, 5)).not.toContain(id);
  });

  it('filters a job by its new location, role and remote flag from the next search after it changes', async () => {
    const [moved] = (await jobs(`search=kubernetes&company=${co.lisbon!.slug}`)).data.map((j) => j.id);
    const before = await t.deps.db.query<{ location: string; remote: boolean; role_category: string }>(
      'SELECT location, remote, role_category FROM jobs WHERE id = $1',
      [moved],
    );
    const found = async (filters: string) =>
      (await jobs(`search=kubernetes&${filters}`)).data.map((j) => j.id);
    expect(await found('location=porto')).not.toContain(moved);
    await t.deps.db.query(
      `UPDATE jobs SET location = 'Porto, Portugal', remote = true, role_category = 'fde' WHERE id = $1`,
      [moved],
    );
    for (const filters of ['location=PORTO', 'remote_only=true', 'role_category=fde', 'client_facing=true']) {
      expect(await found(filters), filters).toContain(moved);
    }
    expect(await found('location=lisbon')).not.toContain(moved);
    // Each retriever on its own, so that neither list hides the other's mistake.
    expect(await keyword.searchJobs('kubernetes', { location: 'porto' }, 100)).toEqual([moved]);
    expect(await semantic.searchJobs('kubernetes engineer bulkco', { location: 'porto' }, 100)).toContain(
      moved,
    );
    expect(
      await semantic.searchJobs('kubernetes engineer bulkco', { location: 'lisbon' }, 100),
    ).not.toContain(moved);
    const was = before[0]!;
    await t.deps.db.query('UPDATE jobs SET location = $2, remote = $3, role_category = $4 WHERE id = $1', [
      moved,
      was.location,
      was.remote,
      was.role_category,
    ]);
    expect(await found('location=porto')).not.toContain(moved);
  });

  it('answers a repeated search from its kept shortlist until the catalog changes', async () => {
    const stages: string[] = [];
    const hybrid = new HybridSearch({
      db: t.deps.db,
      index: t.deps.searchParts.replica!,
      embedder: t.deps.searchParts.embedder,
      onStage: (stage) => stages.push(stage),
    });
    const first = await hybrid.searchJobs('kubernetes engineer', {}, 100);
    expect(first.length).toBeGreaterThan(1);
    expect(stages).toContain('fuse');
    stages.length = 0;
    const index = t.deps.searchParts.replica!;
    const before = index.generation;
    expect(await hybrid.searchJobs('kubernetes engineer', {}, 100)).toEqual(first);
    // On PostgreSQL each refresh within 10 s of a write re-reads the recent changes (CatalogReplica lagMs): rows it
    // already holds unchanged must leave the generation, and so the kept shortlist, alone.
    expect(index.generation).toBe(before);
    expect(stages).toEqual(['refresh']);
    // Another filter is another shortlist.
    stages.length = 0;
    await hybrid.searchJobs('kubernetes engineer', { remoteOnly: true }, 100);
    expect(stages).toContain('fuse');
    const [gone] = first;
    await t.deps.db.query('UPDATE jobs SET active = false WHERE id = $1', [gone]);
    try {
      stages.length = 0;
      const after = await hybrid.searchJobs('kubernetes engineer', {}, 100);
      expect(stages).toContain('fuse');
      expect(after).not.toContain(gone);
      expect(after.length).toBeGreaterThan(0);
    } finally {
      await t.deps.db.query('UPDATE jobs SET active = true WHERE id = $1', [gone]);
    }
  });

  it('does not keep a shortlist ranked while the query embedding failed', async () => {
    const embedder = t.deps.searchParts.embedder;
    let down = true;
    const failures: unknown[] = [];
    const flaky = new HybridSearch({
      db: t.deps.db,
      index: t.deps.searchParts.replica!,
      // The provider is down for the first call only (an outage the next search no longer meets).
      embedder: Object.assign(Object.create(embedder), {
        embed: (texts: readonly string[]) =>
          down ? Promise.reject(new Error('embeddings endpoint down')) : embedder.embed(texts),
      }),
      mode: 'semantic',
      onSemanticError: (err) => failures.push(err),
    });
    expect(await flaky.searchJobs('kubernetes engineer', {}, 10)).toEqual([]);
    expect(failures).toHaveLength(1);
    down = false;
    expect(await flaky.searchJobs('kubernetes engineer', {}, 10)).toEqual(
      await semantic.searchJobs('kubernetes engineer', {}, 10),
    );
    expect(await flaky.searchJobs('kubernetes engineer', {}, 10)).toHaveLength(10);
  });

  it('re-embeds every row when the model changes, resumably', async () => {
    const fake = await startFakeEmbeddings(16);
    try {
      const other = new EmbeddingIndexer(
        t.deps.db,
        new OpenAiEmbedder({
          http: createOutboundClient(endpointClientOptions(parseConfig({}), fake.url)),
          baseUrl: fake.url,
          model: 'fake-16',
        }),
        t.clock.now,
        50,
      );
      const total = await other.countStale('job');
      expect(total).toBe(161);
      // The endpoint starts refusing after the first job batch: what was written stays, nothing half-written.
      await expect(
        other.catchUp((p) => {
          if (p.kind === 'job' && p.done >= 50) fake.failures.push(400);
        }),
      ).rejects.toThrow(/400/);
      expect(await other.countStale('company')).toBe(0);
      expect(await other.countStale('job')).toBe(111);
      fake.requests.length = 0;
      await other.catchUp();
      expect(await other.countStale('job')).toBe(0);
      expect(fake.requests.map((r) => r.input.length)).toEqual([50, 50, 11]);
    } finally {
      await fake.close();
      await t.deps.searchParts.indexer.catchUp();
    }
  });

  it('filters mean the same in memory as in SQL (catalog/filters.ts)', async () => {
    await t.deps.searchParts.replica!.refresh();
    const index = t.deps.searchParts.replica!;
    const jobCases: JobFilters[] = [
      {},
      { companySlug: co.lisbon!.slug },
      { companySlug: 'nope' },
      { location: 'lisbon' },
      { location: 'BERLIN, ger' },
      { location: '%' },
      { remoteOnly: true },
      { roleCategories: ['fde', 'csm'] },
      { roleCategories: [] },
      { roleCategories: ['engineering'], location: 'portugal', remoteOnly: true },
    ];
    for (const f of jobCases) {
      const where = jobFilterSql(f, 1);
      const sql = (
        await t.deps.db.query<{ id: string }>(`SELECT j.id FROM jobs j WHERE ${where.sql}`, where.params)
      )
        .map((r) => r.id)
        .sort();
      // The masks the in-memory retrievers and the /jobs listing filter with, over columns of the index's rows.
      const rows = [...index.jobs.entries()];
      const columns = new JobColumns(index.jobCodes);
      for (const [slot, [, a]] of rows.entries()) columns.set(slot, a);
      const masks = index.jobMasks(f);
      const admit = masks === null ? () => true : columns.admit(masks);
      const mem = rows
        .filter((_, slot) => admit(slot))
        .map(([id]) => id)
        .sort();
      expect(mem, JSON.stringify(f)).toEqual(sql);
    }
    const companyCases: CompanyFilters[] = [
      {},
      { category: 'ai_native' },
      { tags: { industry: ['data-platforms', 'foundation-models'] } },
      { tags: { industry: ['data-platforms'] }, category: 'ai_native' },
      { tags: { stage: ['seed'] } },
    ];
    for (const f of companyCases) {
      const where = companyFilterSql(f, 1);
      const sql = (
        await t.deps.db.query<{ id: string }>(`SELECT c.id FROM companies c WHERE ${where.sql}`, where.params)
      )
        .map((r) => r.id)
        .sort();
      const pred = companyPredicate(f);
      const mem = [...index.companies.entries()]
        .filter(([, a]) => pred(a))
        .map(([id]) => id)
        .sort();
      expect(mem, JSON.stringify(f)).toEqual(sql);
    }
  });
});
