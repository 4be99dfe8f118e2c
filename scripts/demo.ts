/**
 * `npm run demo`: the real ingestion pipeline with no internet. Starts fake company websites and fake ATS
 * boards on loopback, starts Frontline (embedded database in a temporary directory, SAMPLE_DATA=1, the host map
 * pointing the vendors' and companies' hosts at the fakes), onboards a few companies through POST /onboard,
 * follows their workflows and prints what happened. Keeps serving afterwards so you can browse
 * http://127.0.0.1:<port>/docs; pass --exit to stop at the end. PORT picks the port (3000 by default; 0: any free
 * one). Whatever it started and its temporary data directory go away when it ends: at the end with --exit, on
 * Ctrl-C or SIGTERM at any point, and when it fails.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../src/config.js';
import { runServer } from '../src/server.js';
import { generatePostings, startFakeAts } from '../test/support/fake-ats.js';
import { startFakeSites } from '../test/support/fake-site.js';

const COMPANIES = [
  { name: 'Northwind AI', domain: 'northwind.ai', board: 'https://boards.greenhouse.io/northwind' },
  { name: 'Helios Labs', domain: 'helios.dev', board: 'https://jobs.lever.co/helios' },
  { name: 'Quanta', domain: 'quanta.io', board: 'https://jobs.ashbyhq.com/quanta' },
];

const site = (name: string, board: string) => ({
  '/': `<!doctype html><html><head><title>${name}</title>
    <meta name="description" content="${name} builds AI agents that enterprises deploy for customer support.">
    </head><body><h1>${name}</h1><p>An AI-native company. Series A.</p><a href="/careers">Careers</a></body></html>`,
  '/careers': `<html><body><h1>Careers at ${name}</h1><a href="${board}">See open roles</a></body></html>`,
  '/robots.txt': 'User-agent: *\nAllow: /\n',
});

const out = (line: string) => process.stdout.write(`${line}\n`);

/** What the demo started, closed in reverse order once, however it ends. */
const cleanups: (() => Promise<unknown> | unknown)[] = [];
let cleaning: Promise<void> | undefined;
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    for (const close of cleanups.reverse())
      await Promise.resolve()
        .then(close)
        .catch(() => {});
  })();
  return cleaning;
}

/** Ctrl-C or SIGTERM, at any point: clean up, then exit as a signal-stopped process does. */
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.once(signal, () => {
    process.stderr.write(`\n${signal}: stopping the demo and removing its temporary data\n`);
    void cleanUp().finally(() => process.exit(code));
  });
}

async function main(): Promise<void> {
  const exitAtEnd = process.argv.includes('--exit');
  const ats = await startFakeAts({
    greenhouse: { northwind: generatePostings(120, 'nw') },
    lever: { helios: generatePostings(45, 'he') },
    ashby: { quanta: generatePostings(30, 'qu') },
  });
  cleanups.push(() => ats.close());
  const sites = await startFakeSites(
    Object.fromEntries(COMPANIES.map((c) => [c.domain, site(c.name, c.board)])),
  );
  cleanups.push(() => sites.close());
  const hostMap = { ...sites.hostMap, ...ats.hostMap };
  const dataDir = mkdtempSync(join(tmpdir(), 'frontline-demo-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const token = 'fl_demo_token_for_the_local_demo_only';
  const config = parseConfig({
    PORT: '3000',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    // The demo's own choices first; the operator's environment (PORT, LOG_LEVEL...) overrides them.
    ...Object.fromEntries(
      Object.entries(process.env).filter(([k]) => ['PORT', 'HOST', 'LOG_LEVEL'].includes(k)),
    ),
    DATA_DIR: dataDir,
    SAMPLE_DATA: '1',
    API_TOKENS: token,
    OUTBOUND_HOST_MAP: Object.entries(hostMap)
      .map(([h, o]) => `${h}=${o}`)
      .join(','),
  });
  const server = await runServer(config).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EADDRINUSE') throw err;
    throw new DemoError(
      `port ${config.port} on ${config.host} is already in use: stop what is listening there, or pick another ` +
        `port with PORT (PORT=${config.port + 1} npm run demo; PORT=0 takes any free one)`,
    );
  });
  // Before the data directory's removal (cleanups run in reverse): the database closes first.
  cleanups.push(() => server.stop());
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as { data: Record<string, unknown> } };
  };
  out(`Frontline is serving ${server.url} (data in ${dataDir}); fake sites and ATS boards on loopback.`);
  const started = Date.now();
  const runs = [];
  for (const c of COMPANIES) {
    const res = await api('POST', '/onboard', { name: c.name, domain: `https://www.${c.domain}/` });
    out(`POST /onboard ${c.domain} -> ${res.status} ${JSON.stringify(res.body.data)}`);
    runs.push({ company: c, workflowId: String(res.body.data.workflowId) });
  }
  for (const run of runs) {
    let view: Record<string, unknown> = {};
    for (;;) {
      view = (await api('GET', `/workflows/${run.workflowId}`)).body.data;
      if (view.status !== 'enqueued' && view.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    out(`\n${run.company.name}: workflow ${run.workflowId} ${String(view.status)}`);
    for (const step of view.steps as Array<{ name: string; status: string; error?: string }>) {
      out(`  ${step.status.padEnd(9)} ${step.name}${step.error ? `  (${step.error})` : ''}`);
    }
    if (view.error) out(`  error: ${String(view.error)}`);
  }
  out(`\nall onboardings finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  for (const c of COMPANIES) {
    const slug = c.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    const company = await api('GET', `/companies/${slug}`);
    const d = company.body.data as { activeJobCount?: number; oneLiner?: string; tags?: unknown[] };
    out(
      `${c.name}: ${d.activeJobCount ?? 0} active jobs, ${d.tags?.length ?? 0} tags, "${d.oneLiner ?? ''}"`,
    );
  }
  const stats = await api('GET', '/stats');
  out(`catalog: ${JSON.stringify(stats.body.data)}`);
  out(
    `\ntry: curl -H 'Authorization: Bearer ${token}' '${server.url}/api/v1/jobs?client_facing=true&limit=5'`,
  );
  if (exitAtEnd) {
    await cleanUp();
    return;
  }
  out('Ctrl-C to stop.');
}

/** A failure the demo explains itself: its message is the whole story, no stack. */
class DemoError extends Error {}

await main().catch(async (err: unknown) => {
  process.stderr.write(
    err instanceof DemoError ? `npm run demo: ${err.message}\n` : `npm run demo failed: ${String(err)}\n`,
  );
  await cleanUp();
  process.exit(1);
});
