import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PostingLocation } from '../../src/sources/normalize/locations.js';
import type { SalaryRange } from '../../src/sources/normalize/salary.js';
import { companySite, type Fixture, hostMapEnv, startFixture } from '../pipeline/support.js';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * Descriptions, remote, pay and places of postings in each vendor's real wire format (test/fixtures/sources/
 * *-fields.json: structure of real board responses, our own text), from the fake boards through onboarding
 * (adapter, pipeline, store) to GET /jobs/:id.
 */

const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/sources/${name}`, import.meta.url), 'utf8');

interface Detail {
  title: string;
  location: string;
  remote: boolean;
  description: string;
  salary: SalaryRange | null;
  locations: PostingLocation[];
}

let t: TestApp;
let fx: Fixture;
const jobs = new Map<string, Detail>();

const job = (title: string): Detail => {
  const found = jobs.get(title);
  if (!found) throw new Error(`no job titled ${JSON.stringify(title)} among ${[...jobs.keys()].join(' | ')}`);
  return found;
};
const place = (
  name: string,
  city: string | null,
  region: string | null,
  country: string | null,
  remoteScope: string | null = null,
) => ({ name, city, region, country, remote: remoteScope !== null || /remote/i.test(name), remoteScope });

const pay = (min: number, max: number, currency: string, period: string, source: string) => ({
  min,
  max,
  currency,
  period,
  source,
});

beforeAll(async () => {
  const boards = [
    'https://boards.greenhouse.io/northwind',
    'https://jobs.ashbyhq.com/northwind',
    'https://jobs.lever.co/northwind',
    'https://apply.workable.com/northwind/',
  ];
  fx = await startFixture({ greenhouse: {}, sites: { 'northwind.ai': companySite('Northwind', boards) } });
  fx.ats.setRaw('greenhouse', 'northwind', fixture('greenhouse-fields.json'));
  fx.ats.setRaw('ashby', 'northwind', fixture('ashby-fields.json'));
  fx.ats.setRaw('lever', 'northwind', fixture('lever-fields.json'));
  fx.ats.setRaw('workable', 'northwind', fixture('workable-fields.json'));
  t = await startTestApp({ env: { OUTBOUND_HOST_MAP: hostMapEnv(fx.hostMap) } });
  await t.deps.pipeline.start();
  const started = await t.request({
    method: 'POST',
    url: '/api/v1/onboard',
    payload: { name: 'Northwind', domain: 'northwind.ai' },
    token: t.token,
  });
  expect(started.statusCode).toBe(202);
  const view = await t.deps.pipeline.engine.waitFor(started.json().data.workflowId);
  expect(view.status, JSON.stringify(view)).toBe('succeeded');
  const list = await t.get('/api/v1/jobs?company=northwind&limit=50', t.token);
  expect(list.statusCode).toBe(200);
  for (const item of list.json().data as Array<{ id: string }>) {
    const res = await t.get(`/api/v1/jobs/${item.id}`, t.token);
    expect(res.statusCode).toBe(200);
    const d = res.json().data as Detail;
    jobs.set(d.title, d);
  }
});
afterAll(async () => {
  await t?.close();
  await fx?.close();
});

describe('greenhouse', () => {
  it('entity-escaped content: headings, nested lists of paragraphs, tables and <br> as clean markdown', () => {
    expect(job('Forward Deployed Engineer (Public Sector)').description).toBe(
      [
        'Northwind AI puts models to work in government agencies.',
        '',
        "## What you'll do",
        '',
        '- Deploy agents inside customer networks',
        '- Own outcomes & iterate',
        '  - weekly demos',
        '  - field reports',
        '',
        '### Compensation',
        '',
        'The salary range for this role is $190,000 — $240,000 USD.',
      ].join('\n'),
    );
    expect(job('Customer Success Manager, EMEA').description).toBe(
      [
        'Help customers in Europe succeed.',
        'Travel up to 20%.',
        '',
        '| Level | Scope |',
        '| ----- | ----- |',
        '| CSM II | Mid-market |',
        '| Senior CSM | Enterprise |',
        '',
        'Salary: £50,000 - £60,000 plus bonus.',
      ]
        .join('\n')
        .replace('| CSM II | Mid-market |', '| CSM II     | Mid-market |')
        .replace('| Level | Scope |', '| Level      | Scope      |')
        .replace('| ----- | ----- |', '| ---------- | ---------- |'),
    );
  });

  it('metadata "Location Type" decides remote before the location text', () => {
    const fde = job('Forward Deployed Engineer (Public Sector)');
    expect(fde.remote).toBe(true);
    expect(job('Customer Success Manager, EMEA').remote).toBe(false);
    // The structured field wins over a location text that says otherwise.
    expect(job('Partner Manager').remote).toBe(false);
    expect(job('Partner Manager').locations).toEqual([place('Remote - US', null, null, 'US', 'US')]);
    // No metadata: the location text.
    expect(job('Data Annotation Specialist').remote).toBe(true);
  });

  it('pay: pay_input_ranges over the description; else the description; places split and de-duplicated', () => {
    const fde = job('Forward Deployed Engineer (Public Sector)');
    expect(fde.salary).toEqual(pay(170000, 240000, 'USD', 'year', 'structured'));
    expect(job('Customer Success Manager, EMEA').salary).toEqual(
      pay(50000, 60000, 'GBP', 'year', 'description'),
    );
    expect(job('Data Annotation Specialist').salary).toEqual(pay(60, 60, 'USD', 'hour', 'description'));
    // Two periods in one text: no single range.
    expect(job('Partner Manager').salary).toBeNull();
    expect(fde.location).toBe('San Francisco, CA; New York, NY');
    expect(fde.locations).toEqual([
      place('San Francisco, CA', 'San Francisco', 'CA', 'US'),
      place('New York, NY', 'New York', 'NY', 'US'),
    ]);
    const csm = job('Customer Success Manager, EMEA');
    expect(csm.location).toBe('London, UK');
    expect(csm.locations).toEqual([place('London, UK', 'London', null, 'GB')]);
    expect(job('Data Annotation Specialist').locations).toEqual([
      place('Remote - EMEA', null, null, null, 'EMEA'),
    ]);
  });
});

describe('ashby', () => {
  it('<li><p>…</p></li> items are plain bullets: no lone bullet, no blank line inside the list', () => {
    expect(job('Solutions Engineer').description).toBe(
      [
        '## About the team',
        '',
        'We help enterprises adopt agents.',
        '',
        '### You will',
        '',
        '- Run technical discovery with buyers',
        '- Build proofs of concept',
        '  - in Python',
        '  - on customer data',
        '',
        'Questions? Write to us.',
      ].join('\n'),
    );
    expect(job('Technical Account Manager').description).toBe(
      'Be the technical partner of our largest accounts.\n\n- Quarterly reviews\n- Escalations',
    );
  });

  it('a remote secondary location makes an on-site posting remote; Hybrid and Remote workplace types', () => {
    expect(job('Solutions Engineer').remote).toBe(true);
    expect(job('Solutions Engineer').locations).toEqual([
      place('San Francisco', 'San Francisco', 'CA', 'US'),
      place('Remote', null, null, null),
    ]);
    expect(job('Technical Account Manager').remote).toBe(false);
    expect(job('Forward Deployed Engineer').remote).toBe(true);
  });

  it('pay from summary components, from tiers in one currency, and from the description when hidden', () => {
    expect(job('Solutions Engineer').salary).toEqual(pay(180000, 230000, 'USD', 'year', 'structured'));
    expect(job('Technical Account Manager').salary).toEqual(pay(85000, 120000, 'GBP', 'year', 'structured'));
    expect(job('Forward Deployed Engineer').salary).toEqual(pay(70000, 90000, 'EUR', 'year', 'description'));
    // London listed twice (primary and secondary): once.
    expect(job('Technical Account Manager').location).toBe('London; Dublin');
    expect(job('Forward Deployed Engineer').locations).toEqual([
      place('Remote (Europe)', null, null, null, 'Europe'),
    ]);
  });
});

describe('lever', () => {
  it('description, lists (HTML titles, wrapped or bare items) and additional as one clean text', () => {
    expect(job('Implementation Specialist').description).toBe(
      [
        'Implementation partner for new customers.',
        'You report to the delivery lead.',
        '',
        "## What you'll do",
        '- Configure workflows',
        '- Train admins',
        '',
        '## Requirements',
        '- SQL',
        '- APIs',
        '',
        'Benefits',
        '- Health cover',
        '- Learning budget',
      ].join('\n'),
    );
  });

  it('workplaceType as sent: onsite, hybrid, remote; unspecified falls back to the location text', () => {
    expect(job('Implementation Specialist').remote).toBe(false);
    expect(job('Sales Engineer').remote).toBe(false);
    expect(job('Customer Success Manager').remote).toBe(true);
    expect(job('Platform Engineer').remote).toBe(true);
    expect(job('Platform Engineer').locations).toEqual([
      place('Remote (Canada)', null, null, 'CA', 'Canada'),
    ]);
  });

  it('salaryRange per hour and per year; a European-formatted range in the description', () => {
    expect(job('Implementation Specialist').salary).toEqual(pay(45, 55, 'USD', 'hour', 'structured'));
    expect(job('Customer Success Manager').salary).toEqual(pay(120000, 150000, 'USD', 'year', 'structured'));
    expect(job('Sales Engineer').salary).toEqual(pay(70000, 90000, 'EUR', 'year', 'description'));
    expect(job('Platform Engineer').salary).toBeNull();
    expect(job('Implementation Specialist').location).toBe('Austin, TX');
    expect(job('Sales Engineer').locations).toEqual([place('Paris, France', 'Paris', null, 'FR')]);
  });
});

describe('workable', () => {
  it('widget descriptions, telecommuting, places and a pay range stated with its currency code', () => {
    const impl = job('Implementation Manager');
    expect(impl.description).toBe(
      [
        'The role',
        '',
        'Lead customer rollouts from kickoff to go-live.',
        '',
        '- Plan projects with customers',
        '- Unblock integrations',
        '',
        '### Pay',
        '',
        'GBP 65,000 - 75,000 per year',
      ].join('\n'),
    );
    expect(impl.remote).toBe(false);
    expect(impl.salary).toEqual(pay(65000, 75000, 'GBP', 'year', 'description'));
    expect(impl.locations).toEqual([place('London, England, United Kingdom', 'London', null, 'GB')]);
    const support = job('Support Engineer');
    expect(support.remote).toBe(true);
    expect(support.description).toBe(
      'Answer technical questions from customers.\n\nSalary depends on experience.',
    );
    expect(support.salary).toBeNull();
  });
});
