import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundClient } from '../../src/net/client.js';
import { discoverBoards } from '../../src/pipeline/boards/discover.js';
import { beginRun, intake } from '../../src/pipeline/discovery/intake.js';
import { selectForValidation, validateCandidate } from '../../src/pipeline/discovery/stages.js';
import { blocklistCategory, siteNameOf, validateDomain } from '../../src/pipeline/discovery/validate.js';
import { type PromoteContext, runPromote } from '../../src/pipeline/discovery/workflow.js';
import type { StepRunner } from '../../src/pipeline/engine/types.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { type FakeSites, startFakeSites } from '../support/fake-site.js';

/**
 * Discovery processing stage by stage (intake, selection, validation, checkpoints) against a real database and
 * fake company sites on a real HTTP server. The whole run through the workflow engine is in promote.test.ts.
 */

let t: TestApp;
let sites: FakeSites;
const stalled: Array<() => void> = [];

const page = (title: string, body = '') =>
  `<html><head><title>${title}</title></head><body>${body}</body></html>`;

beforeAll(async () => {
  sites = await startFakeSites({
    'qualified.ai': {
      '/': page('Qualified AI | Agents for the enterprise', '<a href="/careers">Careers</a>'),
      '/careers': page(
        'Careers at Qualified AI',
        '<h1>Open roles</h1><a href="/careers/fde">Forward Deployed Engineer</a>',
      ),
    },
    'nocareers.ai': { '/': page('No Careers', '<p>We make things.</p>') },
    'slow.ai': {
      '/': {
        handler: (_req, res) => {
          stalled.push(() => res.destroy());
        },
      },
    },
    'down.ai': { '/': { status: 500, body: 'oops' } },
    'moved.ai': { '/': { status: 301, location: 'https://acquirer.com/' } },
    'acquirer.com': { '/': page('Acquirer') },
    'toprofile.ai': { '/': { status: 302, location: 'https://www.linkedin.com/company/toprofile' } },
    'linkedin.com': { '/company/toprofile': page('LinkedIn') },
    'alpha.ai': { '/': page('Alpha', '<a href="/careers">Careers</a>'), '/careers': page('Jobs at Alpha') },
    'beta.ai': { '/': page('Beta', '<a href="/jobs">Jobs</a>'), '/jobs': page('Work at Beta') },
    'gamma.ai': { '/': page('Gamma') },
    'epsilon.ai': {
      '/': page('Epsilon', '<a href="/careers">Careers</a>'),
      '/careers': page('Epsilon jobs'),
    },
  });
  t = await startTestApp();
});
afterAll(async () => {
  for (const release of stalled) release();
  await sites.close();
  await t.close();
});

const discover = (payload: unknown) =>
  t.request({ method: 'POST', url: '/api/v1/discover', payload: payload as object, token: t.token });

const http = () =>
  createOutboundClient({
    userAgentContact: 'https://example.com/bot',
    hostMap: sites.hostMap,
    maxAttempts: 1,
    perHostDelayMs: 0,
    resolver: async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    },
  });

/**
 * The healthy sites get budgets no loaded machine reaches; the stalled site never answers, so it times out
 * whatever its budget, and a short one keeps it quick.
 */
const validator = () => {
  const client = http();
  return (domain: string) => {
    const stalls = domain === 'slow.ai';
    return validateDomain(domain, {
      http: client,
      discoverBoards: (d, homepage) => discoverBoards(d, client, { homepage }),
      fetchTimeoutMs: stalls ? 2_000 : 120_000,
      totalTimeoutMs: stalls ? 15_000 : 240_000,
    });
  };
};

const candidate = async (domain: string) =>
  (
    await t.deps.db.query<Record<string, unknown>>('SELECT * FROM discovery_candidates WHERE domain = $1', [
      domain,
    ])
  )[0];

describe('validation rules', () => {
  it('knows platforms from the blocklist, subdomains included', () => {
    expect(blocklistCategory('linkedin.com')).toMatch(/job board/);
    expect(blocklistCategory('someone.github.io')).toMatch(/personal-page/);
    expect(blocklistCategory('bit.ly')).toMatch(/shortener/);
    expect(blocklistCategory('github.com')).toMatch(/code host/);
    expect(blocklistCategory('acme.ai')).toBeNull();
  });

  it('reads a site name from og:site_name, the title, or the domain', () => {
    expect(siteNameOf('<meta property="og:site_name" content="Acme AI"><title>x</title>', 'acme.ai')).toBe(
      'Acme AI',
    );
    expect(siteNameOf('<title>Acme AI | Home</title>', 'acme.ai')).toBe('Acme AI');
    expect(siteNameOf('<p>nothing</p>', 'acme.ai')).toBe('Acme');
  });

  it('qualifies a live company site with a careers page and rejects the rest with reasons', async () => {
    const validate = validator();
    const before = sites.requests.length;
    const results = Object.fromEntries(
      await Promise.all(
        [
          'qualified.ai',
          'nocareers.ai',
          'slow.ai',
          'down.ai',
          'moved.ai',
          'toprofile.ai',
          'linkedin.com',
          'gone.ai',
        ].map(async (d) => [d, await validate(d)] as const),
      ),
    );
    expect(results['qualified.ai']).toMatchObject({ qualified: true, siteName: 'Qualified AI' });
    expect(results['nocareers.ai']).toMatchObject({ qualified: false, reason: 'no_careers_page' });
    expect(results['slow.ai']).toMatchObject({ qualified: false, reason: 'timeout' });
    expect(results['down.ai']).toMatchObject({ qualified: false, reason: 'http_error' });
    expect(results['moved.ai']).toMatchObject({ qualified: false, reason: 'redirects_elsewhere' });
    expect(results['toprofile.ai']).toMatchObject({ qualified: false, reason: 'blocklisted' });
    expect(results['linkedin.com']).toMatchObject({ qualified: false, reason: 'blocklisted' });
    expect(results['gone.ai']).toMatchObject({ qualified: false, reason: 'dns_unresolved' });
    // Platforms are never fetched: neither a blocklisted domain nor a redirect target on another domain.
    const elsewhere = sites.requests
      .slice(before)
      .filter((r) => ['linkedin.com', 'acquirer.com'].includes(r.host));
    expect(elsewhere).toEqual([]);
  });
});

describe('intake, candidates and selection', () => {
  it('takes sightings in arrival order, groups them by domain and checkpoints per run', async () => {
    await t.deps.db.query(
      `INSERT INTO companies (name, slug, domain) VALUES ('Tracked', 'tracked', 'tracked.ai')`,
    );
    await discover({
      label: 'first',
      items: [
        { source: 'hn', key: { domain: 'qualified.ai', id: 1 } },
        { source: 'hn', key: { domain: 'nocareers.ai' } },
        { source: 'hn', key: { note: 'no domain here' } },
        { source: 'hn', key: { domain: 'tracked.ai' } },
      ],
    });
    t.clock.advance(60_000);
    await discover([
      { source: 'yc', key: { domain: 'https://www.qualified.ai/about' } },
      { source: 'hn', key: { domain: 'slow.ai' } },
      { source: 'hn', key: { domain: 'down.ai' } },
    ]);

    const at = new Date(t.clock.ms);
    await beginRun(t.deps.db, 'run-a', { limit: 3, maxValidations: 2 }, at);
    const first = await intake(t.deps.db, 'run-a', 3, at);
    expect(first).toEqual({
      takenIn: 3,
      withoutDomain: 1,
      domains: 2,
      candidatesCreated: 2,
      candidatesUpdated: 0,
      reopened: 0,
      tracked: 0,
    });
    const taken = await t.deps.db.query<{ domain: string | null }>(
      "SELECT domain FROM sightings WHERE processed_by = 'run-a' ORDER BY id",
    );
    expect(taken.map((r) => r.domain)).toEqual(['qualified.ai', 'nocareers.ai', null]);
    // Re-entering the stage (a crash after its commit) returns the checkpoint and takes nothing more.
    expect(await intake(t.deps.db, 'run-a', 3, at)).toEqual(first);
    expect((await t.deps.db.query('SELECT 1 FROM sightings WHERE processed_at IS NULL')).length).toBe(4);

    await beginRun(t.deps.db, 'run-b', { limit: 1000, maxValidations: 2 }, at);
    const second = await intake(t.deps.db, 'run-b', 1000, at);
    expect(second).toMatchObject({
      takenIn: 4,
      withoutDomain: 0,
      candidatesCreated: 3,
      candidatesUpdated: 1,
      tracked: 1,
    });
    expect(await candidate('qualified.ai')).toMatchObject({
      status: 'pending',
      sources: ['hn', 'yc'],
      sighting_count: 2,
      first_seen_at: new Date(t.clock.ms - 60_000),
      last_seen_at: new Date(t.clock.ms),
    });
    expect(await candidate('tracked.ai')).toMatchObject({
      status: 'tracked',
      company_id: expect.any(String),
    });
  });

  it('selects the best evidence first, claims it, and checkpoints the selection', async () => {
    const at = new Date(t.clock.ms);
    await beginRun(t.deps.db, 'run-c', { limit: 1, maxValidations: 2 }, at);
    const picked = await selectForValidation(t.deps.db, 'run-c', 2, at);
    // qualified.ai has two sources; then most recently seen (slow.ai, down.ai at the later time), then domain.
    expect(picked.map((p) => p.domain)).toEqual(['qualified.ai', 'down.ai']);
    expect(await candidate('qualified.ai')).toMatchObject({ status: 'validating', run_id: 'run-c' });
    expect(await selectForValidation(t.deps.db, 'run-c', 2, at)).toEqual(picked);
    // Another run does not take candidates this run holds.
    await beginRun(t.deps.db, 'run-d', { limit: 1, maxValidations: 10 }, at);
    const other = await selectForValidation(t.deps.db, 'run-d', 10, at);
    expect(other.map((p) => p.domain).sort()).toEqual(['nocareers.ai', 'slow.ai']);
  });

  it('records validation outcomes once per run and does not repeat a recorded validation', async () => {
    const validate = validator();
    const outcome = await validateCandidate(t.deps.db, 'run-c', 'down.ai', validate, t.clock.now);
    expect(outcome).toMatchObject({ status: 'rejected', reason: 'http_error' });
    const hits = sites.requests.filter((r) => r.host === 'down.ai').length;
    const again = await validateCandidate(t.deps.db, 'run-c', 'down.ai', validate, t.clock.now);
    expect(again).toEqual(outcome);
    expect(sites.requests.filter((r) => r.host === 'down.ai').length).toBe(hits);
    expect(await candidate('down.ai')).toMatchObject({
      status: 'rejected',
      reason: 'http_error',
      validation_attempts: 1,
      reason_message: expect.stringMatching(/HTTP 500/),
    });
    // A run that does not hold the claim cannot record an outcome.
    expect(await validateCandidate(t.deps.db, 'run-d', 'qualified.ai', validate, t.clock.now)).toEqual({
      domain: 'qualified.ai',
      status: 'skipped',
    });
  });

  it('retries a rejected candidate only when new evidence arrives', async () => {
    const at = new Date(t.clock.ms);
    await beginRun(t.deps.db, 'run-e', { limit: 1000, maxValidations: 100 }, at);
    await intake(t.deps.db, 'run-e', 1000, at);
    const picked = await selectForValidation(t.deps.db, 'run-e', 100, at);
    expect(picked.map((p) => p.domain)).not.toContain('down.ai');

    t.clock.advance(1000);
    await discover({ source: 'funding-news', key: { domain: 'down.ai' } });
    const later = new Date(t.clock.ms);
    await beginRun(t.deps.db, 'run-f', { limit: 1000, maxValidations: 100 }, later);
    expect(await intake(t.deps.db, 'run-f', 1000, later)).toMatchObject({ takenIn: 1, reopened: 1 });
    expect(await candidate('down.ai')).toMatchObject({
      status: 'pending',
      reason: 'http_error',
      sources: ['funding-news', 'hn'],
    });
    const picked2 = await selectForValidation(t.deps.db, 'run-f', 100, later);
    expect(picked2.map((p) => p.domain)).toEqual(['down.ai']);
  });
});

describe('GET /candidates', () => {
  it('lists candidates with evidence, newest sighting first, filtered by status and paginated', async () => {
    const res = await t.get('/api/v1/candidates?limit=2', t.token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.meta).toEqual({ page: 1, limit: 2, total: 5, totalPages: 3 });
    expect(body.data[0]).toMatchObject({
      domain: 'down.ai',
      status: 'validating',
      evidence: { sources: ['funding-news', 'hn'], sightingCount: 2 },
      reason: 'http_error',
      reasonMessage: expect.stringMatching(/HTTP 500/),
      validationAttempts: 1,
    });
    const all = (await t.get('/api/v1/candidates?limit=100', t.token)).json().data as {
      evidence: { lastSeenAt: string };
    }[];
    const seen = all.map((c) => c.evidence.lastSeenAt);
    expect([...seen].sort().reverse()).toEqual(seen);

    const tracked = await t.get('/api/v1/candidates?status=tracked', t.token);
    expect(tracked.json().data.map((c: { domain: string }) => c.domain)).toEqual(['tracked.ai']);
    expect(tracked.json().data[0].companyId).toEqual(expect.any(String));
    const two = await t.get('/api/v1/candidates?status=tracked,%20validating', t.token);
    expect(two.json().meta.total).toBe(5);
    const page3 = await t.get('/api/v1/candidates?limit=2&page=4', t.token);
    expect(page3.json()).toEqual({ data: [], meta: { page: 4, limit: 2, total: 5, totalPages: 3 } });
  });

  it('refuses unknown statuses, deep pages and anonymous callers', async () => {
    const bad = await t.get('/api/v1/candidates?status=pending,bogus', t.token);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/'status'.*'bogus'/);
    const deep = await t.get('/api/v1/candidates?limit=100&page=11', t.token);
    expect(deep.statusCode).toBe(400);
    expect(deep.json().error.code).toBe('RESULT_WINDOW_EXCEEDED');
    expect((await t.get('/api/v1/candidates?sort=x', t.token)).statusCode).toBe(400);
    expect((await t.get('/api/v1/candidates')).statusCode).toBe(401);
  });
});

describe('POST /promote_and_onboard: argument checks', () => {
  const promote = (payload: unknown, token: string | null = t.token) =>
    t.request({
      method: 'POST',
      url: '/api/v1/promote_and_onboard',
      payload: JSON.stringify(payload),
      headers: { 'content-type': 'application/json' },
      token,
    });

  it('refuses out-of-range, non-integer, unknown and conflicting fields with a 400 naming the field', async () => {
    const cases: [unknown, RegExp][] = [
      [{ limit: 0 }, /'limit'.*between 1 and 1000/],
      [{ limit: 1001 }, /'limit'.*between 1 and 1000/],
      [{ limit: '10' }, /'limit'.*integer/],
      [{ limit: 2.5 }, /'limit'.*integer/],
      [{ limit: true }, /'limit'.*integer/],
      [{ maxValidations: 101 }, /'maxValidations'.*between 1 and 100/],
      [{ maxValidations: -1 }, /'maxValidations'/],
      [{ maxOnboards: 101 }, /'maxOnboards'.*between 1 and 100/],
      [{ maxValidations: 5, maxOnboards: 6 }, /Conflicting fields.*maxOnboards.*maxValidations/],
      [{ limit: 5, extra: 1 }, /Unknown field 'extra'/],
      [[1, 2], /expected a JSON object/],
      ['text', /expected a JSON object/],
    ];
    for (const [body, message] of cases) {
      const res = await promote(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toEqual({ code: 'BAD_REQUEST', message: expect.stringMatching(message) });
    }
    const broken = await t.request({
      method: 'POST',
      url: '/api/v1/promote_and_onboard',
      payload: '{"limit": ',
      headers: { 'content-type': 'application/json' },
      token: t.token,
    });
    expect(broken.statusCode).toBe(400);
  });

  it('requires a valid token', async () => {
    expect((await promote({}, null)).statusCode).toBe(401);
    expect((await promote({}, 'fl_not-a-real-token-at-all')).statusCode).toBe(403);
  });
});

describe('a run resumed after a crash in the middle of validation', () => {
  it('re-enters finished stages from their checkpoints and validates only what was not recorded', async () => {
    await discover({
      items: [
        { source: 'crash', key: { domain: 'alpha.ai' } },
        { source: 'crash', key: { domain: 'beta.ai' } },
        { source: 'crash-2', key: { domain: 'beta.ai' } },
        { source: 'crash', key: { domain: 'gamma.ai' } },
      ],
    });
    // The engine port, in memory: records hand-offs; every onboarding run reports success at once.
    const onboards: string[] = [];
    const c: PromoteContext = {
      db: t.deps.db,
      now: t.clock.now,
      validate: validator(),
      startOnboard: async (domain, name) => {
        onboards.push(`${domain}:${name}`);
        await t.deps.db.query('INSERT INTO companies (name, slug, domain) VALUES ($1, $2, $3)', [
          name,
          domain.replace('.', '-'),
          domain,
        ]);
        return `onboard-${domain}`;
      },
      onboardState: async () => ({ state: 'onboarded', error: null }),
      validationConcurrency: 1,
      pollMs: 1,
    };
    const steps: string[] = [];
    const plain: StepRunner = async (name, fn) => {
      steps.push(name);
      return fn();
    };
    // The process dies when the second validation starts: its request never completes, nothing is recorded.
    let validations = 0;
    const crashing: StepRunner = async (name, fn) => {
      if (name.startsWith('validate:') && ++validations === 2) throw new Error('process killed');
      return plain(name, fn);
    };
    const args = { limit: 1000, maxValidations: 3 };
    await expect(runPromote(c, 'run-crash', args, crashing)).rejects.toThrow('process killed');
    expect(steps).toEqual(['intake', 'reconcile', 'select', 'validate:beta.ai']);
    expect(await candidate('beta.ai')).toMatchObject({ status: 'qualified', run_id: 'run-crash' });
    expect(await candidate('alpha.ai')).toMatchObject({ status: 'validating', run_id: 'run-crash' });

    // Sightings that arrive meanwhile belong to the next run, not to the resumed one.
    await discover({ source: 'late', key: { domain: 'delta-late.ai' } });
    const betaHits = sites.requests.filter((r) => r.host === 'beta.ai').length;
    steps.length = 0;
    const result = await runPromote(c, 'run-crash', args, plain);
    expect(sites.requests.filter((r) => r.host === 'beta.ai').length).toBe(betaHits);
    expect(result.intake).toMatchObject({ takenIn: 4, domains: 3, candidatesCreated: 3 });
    expect(result.validation).toMatchObject({
      selected: 3,
      qualified: 2,
      rejected: 1,
      reasons: { no_careers_page: 1 },
      rejections: [{ domain: 'gamma.ai', reason: 'no_careers_page' }],
    });
    expect(result.onboarding).toMatchObject({ handedOff: 2, onboarded: 2, failed: 0, running: 0 });
    expect(onboards.sort()).toEqual(['alpha.ai:Alpha', 'beta.ai:Beta']);
    expect(await candidate('alpha.ai')).toMatchObject({
      status: 'onboarded',
      company_id: expect.any(String),
    });
    expect(await candidate('gamma.ai')).toMatchObject({ status: 'rejected', reason: 'no_careers_page' });
    expect(
      (await t.deps.db.query("SELECT 1 FROM sightings WHERE processed_at IS NULL AND source = 'late'"))
        .length,
    ).toBe(1);

    // A third entry (the engine replaying after the last step) changes nothing and hands off nothing again.
    const again = await runPromote(c, 'run-crash', args, plain);
    expect(again.validation).toEqual(result.validation);
    expect(onboards).toHaveLength(2);
  });
});

describe('onboarding outcomes', () => {
  it('leaves a still-running onboarding to the next run, which records its failure; new evidence reopens it', async () => {
    await discover({ source: 'outcomes', key: { domain: 'epsilon.ai' } });
    let state: 'running' | 'failed' = 'running';
    const started: string[] = [];
    const c: PromoteContext = {
      db: t.deps.db,
      now: t.clock.now,
      validate: validator(),
      startOnboard: async (domain) => {
        started.push(domain);
        return `onboard-${domain}`;
      },
      onboardState: async () => ({ state, error: state === 'failed' ? 'enrich step failed: boom' : null }),
      onboardWaitMs: 0,
    };
    const plain: StepRunner = (_name, fn) => fn();
    const first = await runPromote(c, 'run-outcome-1', { limit: 1000, maxValidations: 5 }, plain);
    expect(first.onboarding).toMatchObject({ handedOff: 1, running: 1, onboarded: 0 });
    expect(await candidate('epsilon.ai')).toMatchObject({
      status: 'qualified',
      onboard_workflow_id: 'onboard-epsilon.ai',
    });

    state = 'failed';
    const second = await runPromote(c, 'run-outcome-2', { limit: 1000, maxValidations: 5 }, plain);
    expect(second.reconciled).toEqual({ onboarded: 0, failed: 1 });
    expect(second.validation.selected).toBe(0);
    expect(started).toEqual(['epsilon.ai']);
    expect(await candidate('epsilon.ai')).toMatchObject({
      status: 'failed',
      reason: 'onboarding_failed',
      reason_message: 'enrich step failed: boom',
    });

    t.clock.advance(1000);
    await discover({ source: 'outcomes-2', key: { domain: 'epsilon.ai' } });
    const third = await runPromote(c, 'run-outcome-3', { limit: 1000, maxValidations: 5 }, plain);
    expect(third.intake).toMatchObject({ takenIn: 1, reopened: 1 });
    expect(third.validation).toMatchObject({ selected: 1, qualified: 1 });
    // Handed to onboarding again, not matched to the earlier failed run.
    expect(started).toEqual(['epsilon.ai', 'epsilon.ai']);
    expect(third.onboarding).toMatchObject({ handedOff: 1, failed: 1 });
  });
});
