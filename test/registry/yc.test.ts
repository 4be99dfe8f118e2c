import { describe, expect, it } from 'vitest';
import { buildRegistry } from '../../scripts/registry/identity.js';
import { ycCompanies } from '../../scripts/registry/yc.js';

/** Y Combinator's directory (yc-oss/api format) as an AI list: YC's tags decide, never the name. */

const yc = (name: string, website: string, tags: string[], industries: string[] = [], status = 'Active') => ({
  name,
  website,
  tags,
  industries,
  status,
});
const directory = [
  yc('Harvey', 'https://www.harvey.ai/', ['Artificial Intelligence', 'LegalTech'], ['B2B', 'Legal']),
  yc('Decagon', 'https://decagon.ai', ['Generative AI', 'Customer Support'], ['B2B']),
  yc('Modal', 'https://modal.com', ['Machine Learning', 'Infrastructure'], ['B2B', 'Infrastructure']),
  yc('Acme AI', 'https://acme.example.com', ['SaaS'], ['B2B']),
  yc('Wound Down', 'https://wounddown.ai', ['AI'], [], 'Inactive'),
  yc('Bought', 'https://bought.ai', ['Generative AI'], [], 'Acquired'),
  yc('No Site', '', ['AI']),
  yc('Hosted', 'https://hosted.vercel.app', ['AI']),
];
const read = () => ycCompanies('yc')(new Map([['companies/all.json', JSON.stringify(directory)]]));

describe('Y Combinator directory reader', () => {
  it('keeps operating companies YC tags as AI, with the domain of their website', () => {
    expect(read().companies).toEqual([
      { source: 'yc', name: 'Harvey', domain: 'harvey.ai', category: 'enterprise_ai' },
      { source: 'yc', name: 'Decagon', domain: 'decagon.ai', category: 'ai_native' },
      { source: 'yc', name: 'Modal', domain: 'modal.com', category: 'ai_native' },
    ]);
  });

  it('joins a YC company to a board only through the identity rules', () => {
    const yc = read();
    const r = buildRegistry(
      [
        yc,
        {
          companies: [],
          boards: [
            { source: 'boards', vendor: 'ashby', board: 'decagon', name: 'Decagon' },
            { source: 'boards', vendor: 'ashby', board: 'harvey', name: 'Harvey' },
            { source: 'boards', vendor: 'greenhouse', board: 'modal', name: 'Modal Health' },
          ],
          hints: [],
          links: [],
        },
      ],
      [
        { id: 'yc', date: '2026-08-03', discovered: false },
        { id: 'boards', date: '2026-08-17', discovered: true },
      ],
    );
    expect(
      r.entries.map((e) => `${e.domain} ${e.boards.map((b) => `${b.vendor}:${b.board}`).join()}`),
    ).toEqual(['decagon.ai ashby:decagon']);
    // A short one-word name needs a voucher beyond the name (docs/registry.md, Refusals).
    expect(r.rejected.get('short-name-unvouched')).toEqual(['harvey.ai ashby:harvey']);
    expect(r.rejected.get('names-another-company')).toEqual(['modal.com greenhouse:modal']);
  });
});
