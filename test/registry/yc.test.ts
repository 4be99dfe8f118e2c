import { describe, expect, it } from 'vitest';
import { buildRegistry } from '../../scripts/registry/identity.js';
import { ycCompanies } from '../../scripts/registry/yc.js';

/**
 * Y Combinator's directory as an AI list, in both forms the reader takes: the search responses' envelope
 * (akshaybhalotia/yc_company_scraper, one file per batch) and a plain array (yc-oss/api). YC's tags decide,
 * never the name.
 */

let ids = 0;
const yc = (name: string, website: string, tags: string[], industries: string[] = [], status = 'Active') => ({
  id: ++ids,
  name,
  slug: name.toLowerCase(),
  former_names: [],
  website,
  tags,
  industries,
  status,
  batch: 'W24',
});
const vapi = yc('Vapi', 'https://vapi.ai', ['Artificial Intelligence', 'Developer Tools'], ['B2B']);
const reducto = yc('Reducto', 'https://reducto.ai/', ['Generative AI', 'Documents'], ['B2B', 'Legal']);
const scale = yc('Scale AI', 'https://scale.com', ['Machine Learning', 'Data Labeling'], ['B2B']);
const others = [
  yc('Acme AI', 'https://acme.example.com', ['SaaS'], ['B2B']),
  yc('Wound Down', 'https://wounddown.ai', ['AI'], [], 'Inactive'),
  yc('Bought', 'https://bought.ai', ['Generative AI'], [], 'Acquired'),
  yc('No Site', '', ['AI']),
  yc('Hosted', 'https://hosted.vercel.app', ['AI']),
];
/** The search's response for one query: `{"results":[{"hits":[...], ...}]}`. */
const response = (hits: unknown[]) => JSON.stringify({ results: [{ hits, nbHits: hits.length, page: 0 }] });

const expected = [
  { source: 'yc', name: 'Vapi', domain: 'vapi.ai', category: 'ai_native' },
  { source: 'yc', name: 'Reducto', domain: 'reducto.ai', category: 'enterprise_ai' },
  { source: 'yc', name: 'Scale AI', domain: 'scale.com', category: 'ai_native' },
];

describe('Y Combinator directory reader', () => {
  it('keeps operating companies YC tags as AI, with the domain of their website, from search responses', () => {
    const files = new Map([
      ['responses/W24.json', response([vapi, reducto, ...others])],
      // The same batch under its other spelling: each company is read once, by its id.
      ['responses/Winter 2024.json', response([reducto, vapi])],
      ['responses/S16.json', response([scale])],
    ]);
    expect(ycCompanies('yc')(files).companies).toEqual(expected);
  });

  it('reads the same companies from a plain array', () => {
    const files = new Map([['companies/all.json', JSON.stringify([vapi, reducto, scale, ...others])]]);
    expect(ycCompanies('yc')(files).companies).toEqual(expected);
  });

  it('joins a YC company to a board only through the identity rules', () => {
    const r = buildRegistry(
      [
        ycCompanies('yc')(new Map([['responses/W24.json', response([vapi, reducto, scale])]])),
        {
          companies: [],
          boards: [
            { source: 'boards', vendor: 'ashby', board: 'reducto', name: 'Reducto' },
            { source: 'boards', vendor: 'ashby', board: 'vapi', name: 'Vapi' },
            { source: 'boards', vendor: 'greenhouse', board: 'scale', name: 'Scale Microgrids' },
          ],
          hints: [],
          links: [],
        },
      ],
      [
        { id: 'yc', date: '2026-03-13', discovered: false },
        { id: 'boards', date: '2026-08-17', discovered: true },
      ],
    );
    expect(
      r.entries.map((e) => `${e.domain} ${e.boards.map((b) => `${b.vendor}:${b.board}`).join()}`),
    ).toEqual(['reducto.ai ashby:reducto']);
    // A short one-word name needs a voucher beyond the name (docs/registry.md, Refusals).
    expect(r.rejected.get('short-name-unvouched')).toEqual(['vapi.ai ashby:vapi']);
    expect(r.rejected.get('names-another-company')).toEqual(['scale.com greenhouse:scale']);
  });
});
