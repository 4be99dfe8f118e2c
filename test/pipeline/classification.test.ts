import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { companySite, type Fixture, hostMapEnv, startFixture } from './support.js';

/**
 * Role classification as the scrape step applies it: title, department and the description's first lines go in;
 * the category and the rule that decided it are stored with each job. A fake Greenhouse board (its job board API's
 * format, with departments and HTML content) is reached through OUTBOUND_HOST_MAP; the company is onboarded over HTTP.
 */

const CUSTOMER_LEAD =
  '<p>You will work with our customers to deploy agents in their production environments.</p>' +
  '<ul><li>Own the technical relationship.</li></ul>';
const PRODUCT_LEAD = '<p>You will build the evaluation tooling our research teams use every day.</p>';

const POSTINGS = [
  { id: 'c1', title: 'Applied AI Engineer (Startups)', department: 'Sales', descriptionHtml: PRODUCT_LEAD },
  { id: 'c2', title: 'Applied AI Engineer', department: 'Applied AI', descriptionHtml: CUSTOMER_LEAD },
  { id: 'c3', title: 'Applied AI Engineer, Evals', department: 'Research', descriptionHtml: PRODUCT_LEAD },
  { id: 'c4', title: 'Software Engineer - FDE (Healthcare)', department: 'Engineering' },
  { id: 'c5', title: 'People Consultant', department: 'People' },
  { id: 'c6', title: 'Wizard', department: 'Magic' },
].map((p) => ({ location: 'New York, NY', postedAt: '2026-11-10T09:00:00Z', ...p }));

let t: TestApp;
let fx: Fixture;

beforeAll(async () => {
  fx = await startFixture({
    greenhouse: { initech: POSTINGS },
    sites: { 'initech.ai': companySite('Initech', ['https://boards.greenhouse.io/initech']) },
  });
  t = await startTestApp({ env: { OUTBOUND_HOST_MAP: hostMapEnv(fx.hostMap) } });
  await t.deps.pipeline.start();
});
afterAll(async () => {
  await t?.close();
  await fx?.close();
});

describe('classification in the scrape step', () => {
  it('stores each job category with the rule that decided it, using department and description', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/onboard',
      payload: { name: 'Initech', domain: 'initech.ai' },
      token: t.token,
    });
    expect(res.statusCode).toBe(202);
    const view = await t.deps.pipeline.engine.waitFor(res.json().data.workflowId);
    expect(view.status, JSON.stringify(view)).toBe('succeeded');

    const rows = await t.deps.db.query<{
      external_id: string;
      role_category: string;
      classification_rule: string;
    }>('SELECT external_id, role_category, classification_rule FROM jobs ORDER BY external_id');
    expect(rows.map((r) => [r.external_id, r.role_category, r.classification_rule])).toEqual([
      ['c1', 'fde', 'department:sales'],
      ['c2', 'fde', 'description:customer-deployment'],
      ['c3', 'engineering', 'title:engineering'],
      ['c4', 'fde', 'title:fde-keyword'],
      ['c5', 'hr', 'title:hr'],
      ['c6', 'other', 'default:other'],
    ]);

    const listed = await t.get('/api/v1/jobs?company=initech&client_facing=true&limit=50', t.token);
    expect(listed.statusCode).toBe(200);
    expect(
      listed
        .json()
        .data.map((j: { title: string }) => j.title)
        .sort(),
    ).toEqual([
      'Applied AI Engineer',
      'Applied AI Engineer (Startups)',
      'Software Engineer - FDE (Healthcare)',
    ]);
  });

  it('GET /jobs/:id says which rule decided the category', async () => {
    const listed = await t.get('/api/v1/jobs?company=initech&limit=50', t.token);
    expect(listed.statusCode).toBe(200);
    const seen: Record<string, unknown> = {};
    for (const job of listed.json().data as Array<{ id: string; title: string; roleCategory: string }>) {
      const res = await t.get(`/api/v1/jobs/${job.id}`, t.token);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.roleCategory).toBe(job.roleCategory);
      seen[job.title] = res.json().data.classification;
    }
    expect(seen).toEqual({
      'Applied AI Engineer (Startups)': { category: 'fde', rule: 'department:sales' },
      'Applied AI Engineer': { category: 'fde', rule: 'description:customer-deployment' },
      'Applied AI Engineer, Evals': { category: 'engineering', rule: 'title:engineering' },
      'Software Engineer - FDE (Healthcare)': { category: 'fde', rule: 'title:fde-keyword' },
      'People Consultant': { category: 'hr', rule: 'title:hr' },
      Wizard: { category: 'other', rule: 'default:other' },
    });
  });
});
