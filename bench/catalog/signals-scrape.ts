import { parseConfig } from '../../src/config.js';
import type { Db } from '../../src/db/port.js';
import { createDeps, type Deps } from '../../src/deps.js';
import { upsertBoards } from '../../src/pipeline/store/boards.js';
import { hostMapEnv } from '../../test/pipeline/support.js';
import { type FakePosting, generatePostings, startFakeAts } from '../../test/support/fake-ats.js';
import type { SynthCompany } from './catalog-model.js';

/**
 * What the hiring rollups' upkeep adds to a whole scrape: the scrape workflow of 20 of the bench catalog's
 * companies (each with its tags), one Greenhouse board of 60 postings each served by the fake ATS in the vendor's
 * wire format, run through the pipeline's engine as the freshness scheduler runs it: fetch, classify, write, embed.
 * Each day three postings open and two close on every board; days alternate between the rollup triggers on and
 * off (the job events are recorded either way), and each half is timed.
 */

const BOARDS = 20;
const POSTINGS = 60;
const DAYS = 12;
const DAY = 86_400_000;
const ROLLUP_TRIGGERS = ['job_events_hiring_insert', 'job_events_hiring_delete'];

export interface ScrapeCost {
  withRollups: number[];
  withoutRollups: number[];
}

async function scrapeOnce(deps: Deps, c: SynthCompany): Promise<number> {
  const t0 = performance.now();
  const { workflowId } = await deps.pipeline.engine.enqueue('scrape', { companyId: c.id, domain: c.domain });
  const view = await deps.pipeline.engine.waitFor(workflowId);
  if (view.status !== 'succeeded') throw new Error(`scrape of ${c.slug}: ${JSON.stringify(view)}`);
  return performance.now() - t0;
}

export async function scrapeCost(
  db: Db,
  companies: readonly SynthCompany[],
  nowMs: number,
  dataDir: string,
): Promise<ScrapeCost> {
  const pool = companies.slice(0, BOARDS);
  const listed = new Map<string, FakePosting[]>(
    pool.map((c) => [`scrape-${c.slug}`, generatePostings(POSTINGS, `${c.slug}-`)]),
  );
  const ats = await startFakeAts({ greenhouse: Object.fromEntries(listed) });
  let clock = nowMs;
  const config = parseConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    OUTBOUND_HOST_MAP: hostMapEnv(ats.hostMap),
  });
  const deps = await createDeps(config, { db, now: () => clock, deferCatchUp: true });
  const out: ScrapeCost = { withRollups: [], withoutRollups: [] };
  try {
    for (const c of pool) {
      const token = `scrape-${c.slug}`;
      await db.transaction((tx) =>
        upsertBoards(
          tx,
          c.id,
          [{ provider: 'greenhouse', token, url: `https://boards.greenhouse.io/${token}` }],
          clock,
        ),
      );
    }
    // The first scrape finds every posting (coverage); the days after it are the steady state.
    for (const c of pool) await scrapeOnce(deps, c);
    for (let day = 1; day <= DAYS; day++) {
      const on = day % 2 === 0;
      for (const t of ROLLUP_TRIGGERS)
        await db.exec(`ALTER TABLE job_events ${on ? 'ENABLE' : 'DISABLE'} TRIGGER ${t}`);
      clock += DAY;
      for (const [token, postings] of listed) {
        const fresh = generatePostings(3, `${token}-d${day}-`);
        const next = [...postings.slice(2), ...fresh];
        listed.set(token, next);
        ats.setBoard('greenhouse', token, next);
      }
      for (const c of pool) (on ? out.withRollups : out.withoutRollups).push(await scrapeOnce(deps, c));
    }
  } finally {
    for (const t of ROLLUP_TRIGGERS) await db.exec(`ALTER TABLE job_events ENABLE TRIGGER ${t}`);
    await deps.close();
    await ats.close();
  }
  // The days written without the triggers: the rollups are recomputed from the events.
  await db.query('SELECT rebuild_hiring_daily()');
  return out;
}
