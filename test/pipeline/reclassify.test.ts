import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertCompanyByDomain } from '../../src/catalog/company-writes.js';
import { readCatalogVersion } from '../../src/catalog/version.js';
import { formatReclassify, reclassifyJobs } from '../../src/cli/reclassify.js';
import { explainRole } from '../../src/pipeline/classify/classify.js';
import { activeBoards, markBoardScraped, upsertBoards } from '../../src/pipeline/store/boards.js';
import { type ClassifiedPosting, writeBoardPostings } from '../../src/pipeline/store/jobs.js';
import { startTestApp, type TestApp, TestClock } from '../support/app.js';

/**
 * `frontline reclassify` on a catalog written by an older classifier: stored categories and rules that the current
 * classifier decides differently are rewritten, with the job events, counts and caches a scrape's write keeps.
 */

const DAY = 86_400_000;
const clock = new TestClock(Date.UTC(2026, 10, 2, 9));
let t: TestApp;
let boardId: string;
let companyId: string;

function posting(id: string, title: string, stored: ClassifiedPosting['roleCategory'], rule: string) {
  return {
    externalId: id,
    title,
    location: 'Remote',
    remote: true,
    department: id === 'retention' ? 'Customer Success' : null,
    postedAt: null,
    url: `https://jobs.example.com/${id}`,
    descriptionText: 'A posting.',
    roleCategory: stored,
    classificationRule: rule,
  } satisfies ClassifiedPosting;
}

/** As an older classifier stored them: three wrong categories, one right category under an old rule, one right. */
const POSTINGS = [
  posting('partner', 'Partner Success Manager', 'other', 'default:other'),
  posting('deployed', 'AI/ML Engineer, Deployed', 'engineering', 'title:engineering'),
  posting('retention', 'Retention Manager', 'other', 'default:other'),
  posting('se', 'Solutions Engineer', 'solutions_engineer', 'title:old-solutions'),
  posting('ae', 'Account Executive', 'sales', 'title:sales'),
];

const json = async (url: string) => (await t.get(url)).json() as Promise<{ meta: { total: number } }>;
const events = () =>
  t.deps.db.query<{ kind: string; role_category: string; from_category: string | null }>(
    "SELECT kind, role_category, from_category FROM job_events WHERE kind = 'reclassified' ORDER BY role_category",
  );

beforeAll(async () => {
  t = await startTestApp({ clock });
  ({ id: companyId } = await t.deps.db.transaction((tx) =>
    upsertCompanyByDomain(tx, 'acme.example', { name: 'Acme' }, clock.now()),
  ));
  await t.deps.db.transaction((tx) =>
    upsertBoards(
      tx,
      companyId,
      [{ provider: 'greenhouse', token: 'acme', url: 'https://x/acme' }],
      clock.now(),
    ),
  );
  boardId = (await activeBoards(t.deps.db, companyId))[0]?.id as string;
  const write = (postings: ClassifiedPosting[]) =>
    t.deps.db.transaction(async (tx) => {
      await writeBoardPostings(
        tx,
        { companyId, companyName: 'Acme', boardId, provider: 'greenhouse', postings },
        clock.now(),
      );
      await markBoardScraped(tx, boardId, postings.length, clock.now());
    });
  await write(POSTINGS);
  // The retention posting closes before the reclassification: closed jobs are rewritten without an event.
  clock.advance(DAY);
  await write(POSTINGS.filter((p) => p.externalId !== 'retention'));
  clock.advance(DAY);
});

afterAll(async () => {
  await t?.close();
});

describe('frontline reclassify', () => {
  it('rewrites the jobs the current classifier decides differently and says how many moved per category', async () => {
    expect((await json('/api/v1/jobs?role_category=csm')).meta.total).toBe(0);
    const version = await readCatalogVersion(t.deps.db);
    const result = await reclassifyJobs(t.deps.db, clock.now());
    expect(result).toEqual({
      jobs: 5,
      recategorized: 3,
      ruleOnly: 1,
      moves: [
        { category: 'fde', out: 0, in: 1 },
        { category: 'csm', out: 0, in: 2 },
        { category: 'engineering', out: 1, in: 0 },
        { category: 'other', out: 2, in: 0 },
      ],
    });
    expect(await readCatalogVersion(t.deps.db)).toBeGreaterThan(version);
    const rows = await t.deps.db.query<{
      external_id: string;
      role_category: string;
      classification_rule: string;
    }>('SELECT external_id, role_category, classification_rule FROM jobs ORDER BY external_id');
    for (const r of rows) {
      const p = POSTINGS.find((x) => x.externalId === r.external_id) as ClassifiedPosting;
      const now = explainRole({ title: p.title, department: p.department });
      expect(r).toEqual({
        external_id: p.externalId,
        role_category: now.category,
        classification_rule: now.rule,
      });
    }
  });

  it('records reclassified events for the open jobs only, as a scrape does', async () => {
    expect(await events()).toEqual([
      { kind: 'reclassified', role_category: 'csm', from_category: 'other' },
      { kind: 'reclassified', role_category: 'fde', from_category: 'engineering' },
    ]);
  });

  it('keeps the catalog reads consistent: filters, counts and the job detail', async () => {
    expect((await json('/api/v1/jobs?role_category=csm')).meta.total).toBe(1);
    expect((await json('/api/v1/jobs?role_category=fde')).meta.total).toBe(1);
    expect((await json('/api/v1/jobs?client_facing=true')).meta.total).toBe(3);
    expect((await json('/api/v1/jobs?role_category=engineering')).meta.total).toBe(0);
  });

  it('changes nothing on a second run', async () => {
    const version = await readCatalogVersion(t.deps.db);
    expect(await reclassifyJobs(t.deps.db, clock.now())).toEqual({
      jobs: 5,
      recategorized: 0,
      ruleOnly: 0,
      moves: [],
    });
    expect(await readCatalogVersion(t.deps.db)).toBe(version);
    expect(await events()).toHaveLength(2);
  });

  it('prints one line per category that moved, or JSON', () => {
    const r = {
      jobs: 5,
      recategorized: 1,
      ruleOnly: 0,
      moves: [
        { category: 'csm' as const, out: 0, in: 1 },
        { category: 'other' as const, out: 1, in: 0 },
      ],
    };
    expect(formatReclassify(r, false)).toEqual([
      'reclassified 5 jobs: 1 changed category, 0 kept it under another rule',
      '  csm                    +1 -0',
      '  other                  +0 -1',
    ]);
    expect(JSON.parse(formatReclassify(r, true)[0] as string)).toEqual(r);
  });
});
