import { describe, expect, it } from 'vitest';
import { openJobsData } from '../../scripts/registry/open-jobs.js';

/** open-jobs-data's hand-edited company list, taken only where the daily run committed beside it saw the board live. */

const companies = [
  { name: 'Scale AI', platform: 'greenhouse', slug: 'scaleai' },
  { name: 'Gone Co', platform: 'ashby', slug: 'goneco' },
  { name: 'Empty Board', platform: 'lever', slug: 'emptyboard' },
  { name: 'Unlisted', platform: 'workable', slug: 'unlisted' },
  { name: 'Intel', platform: 'workday', workday: { tenant: 'intel', site: 'External', shard: 'wd1' } },
  { name: 'Half Workday', platform: 'workday', workday: { tenant: 'half', shard: 'wd5' } },
  { name: 'Other ATS', platform: 'teamtailor', slug: 'other' },
];
const summary = {
  perCompanyStatus: [
    { company: 'Scale AI', platform: 'greenhouse', status: 'ok', jobs: 208 },
    { company: 'Gone Co', platform: 'ashby', status: 'not-found', jobs: 0 },
    { company: 'Empty Board', platform: 'lever', status: 'ok', jobs: 0 },
    { company: 'Intel', platform: 'workday', status: 'ok', jobs: 500 },
    { company: 'Half Workday', platform: 'workday', status: 'ok', jobs: 3 },
    { company: 'Other ATS', platform: 'teamtailor', status: 'ok', jobs: 9 },
  ],
};
const read = (withSummary = true) =>
  openJobsData('ojd')(
    new Map([
      ['companies.json', JSON.stringify(companies)],
      ...(withSummary ? ([['data/summary.json', JSON.stringify(summary)]] as const) : []),
    ]),
  );

describe('open-jobs-data reader', () => {
  it('takes the boards the run found answering with postings, with their display names', () => {
    expect(read().boards).toEqual([
      { source: 'ojd', vendor: 'greenhouse', board: 'scaleai', name: 'Scale AI' },
      { source: 'ojd', vendor: 'workday', board: 'intel.wd1/External', name: 'Intel' },
    ]);
    expect(read().companies).toEqual([]);
  });

  it('takes nothing without the run summary: the list alone does not show a board alive', () => {
    expect(read(false).boards).toEqual([]);
  });
});
