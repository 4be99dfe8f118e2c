import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { companySite, hostMapEnv, startFixture, titled } from '../../test/pipeline/support.js';
import { startTestApp, TestClock } from '../../test/support/app.js';

/**
 * `npm run bench:watches`: delivery latency of watches. One process on PostgreSQL (a fresh database, dropped at the
 * end) runs the API, the workflow worker and the watch matcher with their default settings (WATCH_POLL_MS 2 s,
 * QUEUE_POLL_MS 200 ms, WORKER_CONCURRENCY 4). A company is onboarded from a fake Greenhouse board, 20 watches are
 * created (10 on `client_facing`, 10 on the company), then ROUNDS re-scrapes each open JOBS/ROUNDS new client-facing
 * postings that all of them match. A local receiver records when each webhook arrives. Latency of a (job, watch)
 * pair: from the job's first_seen_at (the clock reading of the scrape transaction that opened it) to the arrival of
 * the first webhook naming it for that watch. Options (environment): WATCH_BENCH_JOBS (1000), WATCH_BENCH_WATCHES
 * (20), WATCH_BENCH_ROUNDS (10), BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres). Writes
 * bench/results/latest-watches.md.
 */

const env = process.env;
const JOBS = Number(env.WATCH_BENCH_JOBS ?? 1000);
const WATCHES = Number(env.WATCH_BENCH_WATCHES ?? 20);
const ROUNDS = Number(env.WATCH_BENCH_ROUNDS ?? 10);
process.env.TEST_DATABASE_URL = env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const log = (m: string) => process.stderr.write(`${m}\n`);

/** The service's clock is the wall clock here: latencies are real. */
class WallClock extends TestClock {
  override now = (): number => Date.now();
}

interface Arrival {
  at: number;
  watchId: string;
  webhookId: string;
  jobIds: string[];
}

async function startRecorder() {
  const arrivals: Arrival[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      const at = Date.now();
      const p = JSON.parse(body) as { data: { watch: { id: string }; jobs: { id: string }[] } };
      arrivals.push({
        at,
        watchId: p.data.watch.id,
        webhookId: String(req.headers['webhook-id']),
        jobIds: p.data.jobs.map((j) => j.id),
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

async function main(): Promise<void> {
  const rx = await startRecorder();
  let postings = titled(['Backend Engineer'], 'base');
  const fx = await startFixture({
    greenhouse: { benchco: postings },
    sites: { 'benchco.com': companySite('BenchCo', ['https://boards.greenhouse.io/benchco']) },
  });
  const t = await startTestApp({
    clock: new WallClock(),
    env: {
      OUTBOUND_HOST_MAP: hostMapEnv(fx.hostMap, { 'hooks.example.com': rx.origin }),
      LOG_LEVEL: 'silent',
    },
  });
  try {
    await t.deps.pipeline.start();
    t.deps.watchMatcher.start();
    const onboard = await t.request({
      method: 'POST',
      url: '/api/v1/onboard',
      payload: { name: 'BenchCo', domain: 'benchco.com' },
      token: t.token,
    });
    const first = await t.deps.pipeline.engine.waitFor(onboard.json().data.workflowId, 300_000);
    if (first.status !== 'succeeded') throw new Error(`onboarding ${first.status}`);
    const [company] = await t.deps.db.query<{ id: string }>(
      "SELECT id FROM companies WHERE slug = 'benchco'",
    );
    if (!company) throw new Error('no company');

    const watchIds: string[] = [];
    for (let i = 0; i < WATCHES; i++) {
      const body =
        i % 2 === 0
          ? { filters: { client_facing: true }, url: `https://hooks.example.com/w${i}` }
          : { filters: { company: 'benchco' }, url: `https://hooks.example.com/w${i}` };
      const res = await t.request({ method: 'POST', url: '/api/v1/watches', payload: body, token: t.token });
      if (res.statusCode !== 201) throw new Error(`watch: ${res.statusCode} ${res.body}`);
      watchIds.push(res.json().data.id);
    }

    const started = Date.now();
    const perRound = Math.ceil(JOBS / ROUNDS);
    for (let r = 0; r < ROUNDS; r++) {
      const titles = Array.from({ length: perRound }, (_, i) =>
        i % 2 ? `Solutions Engineer ${r}-${i}` : `Forward Deployed Engineer ${r}-${i}`,
      );
      postings = [...postings, ...titled(titles, `r${r}-`)];
      fx.ats.setBoard('greenhouse', 'benchco', postings);
      const run = await t.deps.pipeline.engine.enqueue('scrape', {
        companyId: company.id,
        domain: 'benchco.com',
      });
      const view = await t.deps.pipeline.engine.waitFor(run.workflowId, 300_000);
      if (view.status !== 'succeeded') throw new Error(`scrape ${view.status}: ${view.error}`);
      log(`round ${r + 1}/${ROUNDS}: ${perRound} postings opened`);
    }
    const opened = await t.deps.db.query<{ id: string; seen: number }>(
      `SELECT id, (extract(epoch FROM first_seen_at) * 1000)::float8 AS seen FROM jobs
        WHERE company_id = $1 AND external_id LIKE 'r%'`,
      [company.id],
    );
    const expected = opened.length * WATCHES;
    const firstArrival = new Map<string, number>();
    const deadline = Date.now() + 600_000;
    while (firstArrival.size < expected && Date.now() < deadline) {
      for (const a of rx.arrivals.splice(0)) {
        for (const j of a.jobIds) {
          const key = `${a.watchId}/${j}`;
          if (!firstArrival.has(key)) firstArrival.set(key, a.at);
        }
        seenIds.push(a.webhookId);
      }
      await new Promise((ok) => setTimeout(ok, 50));
    }
    const seenAt = new Map(opened.map((o) => [o.id, o.seen]));
    const latencies: number[] = [];
    for (const [key, at] of firstArrival) {
      const seen = seenAt.get(key.split('/')[1] as string);
      if (seen !== undefined) latencies.push(at - seen);
    }
    latencies.sort((a, b) => a - b);
    const [deliveries] = await t.deps.db.query<{ n: number; delivered: number; attempts: number }>(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE status = 'delivered')::int AS delivered,
              coalesce(sum(attempts), 0)::int AS attempts FROM watch_deliveries`,
    );
    const report = render({
      jobs: opened.length,
      watches: WATCHES,
      rounds: ROUNDS,
      pairs: latencies.length,
      expected,
      latencies,
      webhooks: seenIds.length,
      distinctWebhooks: new Set(seenIds).size,
      deliveries: deliveries ?? { n: 0, delivered: 0, attempts: 0 },
      wallS: (Date.now() - started) / 1000,
      load: loadavg()[0] ?? 0,
    });
    writeFileSync(resolve(import.meta.dirname, '../results/latest-watches.md'), report);
    process.stdout.write(report);
    if (latencies.length < expected) process.exitCode = 1;
  } finally {
    await t.close();
    await fx.close();
    await rx.close();
  }
}

const seenIds: string[] = [];

function render(r: {
  jobs: number;
  watches: number;
  rounds: number;
  pairs: number;
  expected: number;
  latencies: number[];
  webhooks: number;
  distinctWebhooks: number;
  deliveries: { n: number; delivered: number; attempts: number };
  wallS: number;
  load: number;
}): string {
  const ms = (v: number) => `${Math.round(v)} ms`;
  const l = r.latencies;
  return `# Watch delivery latency (\`npm run bench:watches\`)

${new Date().toISOString()}, Node ${process.version}, ${cpus().length} cores, load average ${r.load.toFixed(1)} at the
end (a shared machine: other work ran meanwhile, so treat the figures as upper bounds). PostgreSQL, one process
(API + worker + matcher), default settings: WATCH_POLL_MS 2000, QUEUE_POLL_MS 200, WORKER_CONCURRENCY 4.

${r.jobs} new client-facing jobs opened in ${r.rounds} re-scrapes, ${r.watches} watches matching every one of them
(half on \`client_facing\`, half on the company): ${r.expected} (job, watch) pairs.

| Measure | Value |
|---|---|
| pairs delivered | ${r.pairs} of ${r.expected} |
| latency p50 | ${ms(pct(l, 50))} |
| latency p90 | ${ms(pct(l, 90))} |
| latency p99 | ${ms(pct(l, 99))} |
| latency max | ${ms(l.at(-1) ?? Number.NaN)} |
| deliveries (batches) | ${r.deliveries.n}, ${r.deliveries.delivered} delivered, ${r.deliveries.attempts} attempts |
| webhooks received | ${r.webhooks} (${r.distinctWebhooks} distinct webhook-ids) |
| wall time, first re-scrape to last arrival | ${r.wallS.toFixed(1)} s |

Latency: from the job's first_seen_at (the scrape transaction's clock reading) to the receiver's arrival time of
the first webhook naming the job for that watch. It includes the rest of the scrape transaction, the matcher's
poll (up to WATCH_POLL_MS), the queue poll and the signed POST.
`;
}

main().catch((err) => {
  log(String(err instanceof Error ? (err.stack ?? err.message) : err));
  process.exit(1);
});
