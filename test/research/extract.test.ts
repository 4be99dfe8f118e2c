import { describe, expect, it } from 'vitest';
import { fundingSummary } from '../../src/research/apply.js';
import { readPage } from '../../src/research/evidence.js';
import { extractFacts } from '../../src/research/extract.js';
import { normalizeFacts } from '../../src/research/output.js';

/** The local composer's extraction rules on small pages (pure functions, no database). */

const page = (url: string, kind: string, body: string, head = '') =>
  readPage(url, kind, `<html><head>${head}</head><body>${body}</body></html>`, 20_000);

describe('people on team pages', () => {
  it('reads "Name, Title" list items and JSON-LD founders, and ignores navigation headings', () => {
    const p = page(
      'https://x.com/team',
      'team',
      `<h2>Our Team</h2><ul><li>Jane Doe, Co-founder &amp; CEO</li><li>John Roe — Head of Sales</li>
       <li>Pricing</li></ul><h3>Meet Us</h3><p>Chief Happiness Officer</p>`,
      `<script type="application/ld+json">{"@type":"Organization","founder":[{"@type":"Person","name":"Jane Doe"},
        {"@type":"Person","name":"Max Mustermann"}],"numberOfEmployees":{"@type":"QuantitativeValue","value":120},
        "foundingDate":"2016"}</script>`,
    );
    const x = extractFacts([p], 2026);
    expect(x.founders.map((f) => [f.name, f.role])).toEqual([
      ['Jane Doe', 'Co-founder & CEO'],
      ['Max Mustermann', 'Founder'],
    ]);
    expect(x.leadership.map((l) => l.name)).toEqual(['Jane Doe', 'John Roe']);
    expect(x.employeeCount?.value).toBe(120);
    expect(x.foundedYear).toMatchObject({ value: 2016, how: 'structured data' });
  });

  it('reads "founded by" sentences and never takes a future or implausible year', () => {
    const p = page(
      'https://x.com/about',
      'about',
      '<p>Acme was co-founded by Alice Smith and Bob Jones in 2031.</p>',
    );
    const x = extractFacts([p], 2026);
    expect(x.founders.map((f) => f.name)).toEqual(['Alice Smith', 'Bob Jones']);
    expect(x.foundedYear).toBeNull();
  });

  it('leaves everything unknown on a page that states nothing', () => {
    const x = extractFacts(
      [page('https://x.com/', 'home', '<h1>Welcome</h1><p>We make software people love.</p>')],
      2026,
    );
    expect(x).toEqual({
      foundedYear: null,
      headquarters: null,
      employeeCount: null,
      founders: [],
      leadership: [],
      fundingRounds: [],
    });
  });
});

describe('funding', () => {
  it('reads rounds from press text and summarises them for the company page', () => {
    const p = page(
      'https://x.com/press',
      'press',
      '<p>June 2022: Acme closed a $4.5M Seed round.</p><p>Acme raised $30 million in a Series A led by Big Fund and Other Capital.</p>',
    );
    const rounds = extractFacts([p], 2026).fundingRounds;
    expect(rounds.map(({ url: _u, ...r }) => r)).toEqual([
      { date: '2022-06', round: 'Seed', amountUsd: 4_500_000, investors: [] },
      { date: null, round: 'Series A', amountUsd: 30_000_000, investors: ['Big Fund', 'Other Capital'] },
    ]);
    expect(fundingSummary(rounds)).toEqual({
      summary: 'Seed (2022-06), $34.5M total over 2 rounds',
      totalUsd: 34_500_000,
    });
    expect(fundingSummary([])).toEqual({ summary: null, totalUsd: null });
  });
});

describe('provider answers', () => {
  it('turns placeholders and wrong types into null and drops nameless entries', () => {
    const f = normalizeFacts(
      {
        summary: 'Acme makes anvils.',
        founders: [
          { name: '', role: 'CEO' },
          { name: 'Wile E.', role: 'unknown', links: ['https://l.in/w', 3] },
        ],
        foundedYear: 1700,
        employeeCount: '1,200',
        headquarters: 'N/A',
        marketAnalysis: 'not an object',
        fundingRounds: [
          { date: '2021-05-03T00:00:00Z', round: 'Seed', amountUsd: '$2,000,000', investors: 'x' },
        ],
        competitors: [{ name: 'Roadrunner Inc', domain: null }],
      },
      2026,
      null,
    );
    expect(f.founders).toEqual([
      { name: 'Wile E.', role: null, background: null, links: ['https://l.in/w'] },
    ]);
    expect(f.foundedYear).toBeNull();
    expect(f.employeeCount).toBe(1200);
    expect(f.headquarters).toBeNull();
    expect(f.marketAnalysis).toEqual({ market: null, positioning: null, customers: null, trends: null });
    expect(f.fundingRounds).toEqual([
      { date: '2021-05-03', round: 'Seed', amountUsd: 2_000_000, investors: [] },
    ]);
    expect(f.competitors).toEqual([{ name: 'Roadrunner Inc', domain: null, note: null }]);
  });
});
