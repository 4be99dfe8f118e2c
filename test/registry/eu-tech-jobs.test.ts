import { describe, expect, it } from 'vitest';
import { euTechJobs } from '../../scripts/registry/eu-tech-jobs.js';
import { buildRegistry, type SourceInfo } from '../../scripts/registry/identity.js';
import { board, boardsOf, company, facts, link, reasons, SOURCES } from './sources.js';

/** eu-tech-jobs' company files and the postings of its daily run, and the rules that weigh what it says. */

const files = new Map([
  ['companies/ai/acme.yaml', 'name: Acme AI\nats:\n  provider: greenhouse\n  handle: acme\n'],
  [
    'companies/tech/bigco.yaml',
    'name: BigCo\nats:\n  provider: workday\n  handle: https://bigco.wd5.myworkdayjobs.com/wday/cxs/bigco/External/jobs\n',
  ],
  ['companies/ai/zed.yaml', 'name: Zed\nats:\n  provider: ashby\n  handle: zed\n'],
  [
    'companies/tech/chipco.yaml',
    'name: ChipCo\nats:\n  provider: phenom\n  handle: https://careers.chipco.com/api\n',
  ],
  ['companies/tech/plain.yaml', 'name: Plain\ncareer_url: https://plain.example/careers\n'],
  [
    'data/diffs/2026-05-01-diff.jsonl',
    [
      { event: 'new', id: 'a1', company_slug: 'acme', url: 'https://careers.acme.ai/jobs?gh_jid=1' },
      { event: 'new', id: 'a2', company_slug: 'acme', url: 'https://acme.ai/careers?gh_jid=2' },
      { event: 'new', id: 'a3', company_slug: 'acme', url: 'https://job-boards.greenhouse.io/acme/jobs/3' },
      { event: 'new', id: 'z1', company_slug: 'zed', url: 'https://jobs.ashbyhq.com/zed/0b1c' },
      { event: 'new', id: 'z2', company_slug: 'zed', url: 'https://jobs.ashbyhq.com/zed/0b1d' },
      { event: 'removed', id: 'z3' },
      { event: 'changed', job_id: 'z1', field: 'seniority', old: null, new: 'senior' },
    ]
      .map((e) => JSON.stringify(e))
      .join('\n'),
  ],
  [
    'data/diffs/2026-05-02-diff.jsonl',
    JSON.stringify({
      event: 'new',
      id: 'a1',
      company_slug: 'acme',
      url: 'https://careers.acme.ai/jobs?gh_jid=1',
    }),
  ],
]);

describe('eu-tech-jobs reader', () => {
  it('takes each board of a supported vendor with its display name, a Workday board from its search URL', () => {
    expect(euTechJobs('eu')(files).boards).toEqual([
      { source: 'eu', vendor: 'greenhouse', board: 'acme', name: 'Acme AI' },
      { source: 'eu', vendor: 'workday', board: 'bigco.wd5/External', name: 'BigCo' },
      { source: 'eu', vendor: 'ashby', board: 'zed', name: 'Zed' },
    ]);
  });

  it("links a board to the site its postings' own URLs sit on, each posting once, never to the vendor's pages", () => {
    expect(euTechJobs('eu')(files).links).toEqual([
      { source: 'eu', vendor: 'greenhouse', board: 'acme', domain: 'acme.ai', linking: 2, postings: 3 },
    ]);
  });
});

describe('eu-tech-jobs in the identity rules', () => {
  const sources: SourceInfo[] = [
    ...SOURCES,
    { id: 'eu', date: '2026-05-03', discovered: false, picks: false },
  ];

  it('does not vouch for a short word as a hand-picked list does: its names carry no website', () => {
    const r = buildRegistry(
      facts(
        [company('Ramp', 'ramp.com'), company('Hume', 'hume.ai')],
        [board('eu', 'ashby', 'ramp', 'Ramp'), board('hand-list', 'greenhouse', 'hume', 'Hume')],
      ),
      sources,
    );
    expect(boardsOf(r)).toEqual({ 'hume.ai': ['greenhouse:hume:board-url'] });
    expect(reasons(r)).toEqual({ 'short-name-unvouched': ['ramp.com ashby:ramp'] });
  });

  it("prefers the board whose postings link to the company's site to one only a name ties to it", () => {
    const r = buildRegistry(
      facts(
        [company('Reducto', 'reducto.ai')],
        [
          board('new-list', 'ashby', 'reducto', null),
          board('new-list', 'smartrecruiters', 'reducto', 'Reducto'),
        ],
        [],
        [link('reducto', 'reducto.ai')],
      ),
      sources,
    );
    expect(boardsOf(r)).toEqual({ 'reducto.ai': ['ashby:reducto:postings'] });
    expect(reasons(r)).toEqual({ 'superseded-board': ['reducto.ai smartrecruiters:reducto'] });
  });
});
