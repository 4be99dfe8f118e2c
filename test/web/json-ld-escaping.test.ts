import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companySite, type Fixture, hostMapEnv, startFixture } from '../pipeline/support.js';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * The JSON-LD of a job page carries the board's own text (title, company name, location) inside a <script>
 * element: a `</script>` in any of them must not end the block. Taken through the real onboarding from a fake
 * Greenhouse board, so the text reaches the page as a board sends it, never escaped on the way in.
 */

const ATTACK = '</script><script>alert(1)</script>';
const TITLE = `Solutions Engineer ${ATTACK}`;
const COMPANY = `Script Co ${ATTACK}`;
const LOCATION = `London, UK ${ATTACK}`;

let t: TestApp;
let fx: Fixture;
let jobId: string;

beforeAll(async () => {
  fx = await startFixture({
    greenhouse: {
      scriptco: [
        {
          id: '1',
          title: TITLE,
          location: LOCATION,
          department: 'Customer',
          url: 'https://job-boards.greenhouse.io/scriptco/jobs/1',
          postedAt: '2026-11-02T09:00:00Z',
        },
      ],
    },
    sites: { 'scriptco.com': companySite('Script Co', ['https://boards.greenhouse.io/scriptco']) },
  });
  t = await startTestApp({ env: { OUTBOUND_HOST_MAP: hostMapEnv(fx.hostMap) } });
  await t.deps.pipeline.start();
  const run = await t.request({
    method: 'POST',
    url: '/api/v1/onboard',
    payload: { name: COMPANY, domain: 'scriptco.com' },
    token: t.token,
  });
  expect(run.statusCode).toBe(202);
  expect((await t.deps.pipeline.engine.waitFor(run.json().data.workflowId)).status).toBe('succeeded');
  const listed = (await t.get('/api/v1/jobs?limit=50')).json().data as { id: string; title: string }[];
  const job = listed.find((j) => j.title === TITLE);
  if (!job) throw new Error(`the board's posting is listed: ${JSON.stringify(listed.map((j) => j.title))}`);
  jobId = job.id;
});
afterAll(async () => {
  await t?.close();
  await fx?.close();
});

describe('a job page whose title, company and location hold </script>', () => {
  it('has one JSON-LD block that parses back to the exact text, and no script of the board', async () => {
    const detail = (await t.get(`/api/v1/jobs/${jobId}`)).json().data;
    expect(detail.company.name).toBe(COMPANY);
    expect(detail.location).toBe(LOCATION);
    const res = await t.request({ method: 'GET', url: `/jobs/${jobId}`, headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('<script>alert');
    const blocks = [...res.body.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)];
    expect(blocks).toHaveLength(1);
    // Every <script> the page has is ours: the JSON-LD and the enhancement script.
    expect(res.body.match(/<script\b/g)).toHaveLength(2);
    const text = blocks[0]?.[1] ?? '';
    // No `<` is written as itself in the block, so nothing in it can close or open an element.
    expect(text).not.toContain('<');
    const ld = JSON.parse(text) as { title: string; hiringOrganization: { name: string } };
    expect(ld.title).toBe(TITLE);
    expect(ld.hiringOrganization.name).toBe(COMPANY);
  });
});
