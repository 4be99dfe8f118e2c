import { describe, expect, it } from 'vitest';
import { buildRegistry } from '../../scripts/registry/identity.js';
import { savedPostings } from '../../scripts/registry/postings.js';
import { board, boardsOf, company, facts, reasons, SOURCES } from './sources.js';

/** The identity rules about names, identifiers and shared boards, on small in-memory sources. */

describe('registry identity: names and identifiers', () => {
  it('reads an ending only as a word of its own: "Cambio AI Inc." on `cambio` is not camb.ai\'s', () => {
    const boards = [
      board('new-list', 'ashby', 'cambio', 'Cambio AI Inc.'),
      board('old-list', 'ashby', 'friendliai', 'FriendliAI'),
    ];
    const r = buildRegistry(
      facts([company('CAMB.AI', 'camb.ai'), company('Friendli', 'friendli.ai')], boards),
      SOURCES,
    );
    expect(boardsOf(r)).toEqual({ 'friendli.ai': ['ashby:friendliai:board-url'] });
    expect(reasons(r)['names-another-company']).toEqual(['camb.ai ashby:cambio']);
  });
  it('gives a board two domains claim to the domain its list name spells whole (Ambient.ai, not ambient.xyz)', () => {
    const claims = [company('Ambient.ai', 'ambient.ai'), company('Ambient', 'ambient.xyz')];
    const boards = [board('new-list', 'ashby', 'ambient.ai', 'Ambient.ai')];
    const extra = { ...company('Ambient', 'ambient.xyz'), source: 'hand-list' };
    const r = buildRegistry(facts([...claims, extra], boards), SOURCES);
    expect(boardsOf(r)).toEqual({ 'ambient.ai': ['ashby:ambient.ai:board-url'] });
    expect(reasons(r)['board-of-two-companies']).toEqual(['ambient.xyz ashby:ambient.ai']);
  });

  it('takes a board whose identifier is the whole domain as named by itself (nomic.ai), not the bare word', () => {
    const boards = [
      board('new-list', 'ashby', 'nomic.ai', 'Nomic'),
      board('new-list', 'ashby', 'nomicai', 'Nomic'),
      board('old-list', 'ashby', 'wordware.ai', null),
    ];
    const r = buildRegistry(
      facts([company('Nomic', 'nomic.ai'), company('Wordware', 'wordware.ai')], boards),
      SOURCES,
    );
    expect(boardsOf(r)).toEqual({
      'nomic.ai': ['ashby:nomic.ai:board-url'],
      'wordware.ai': ['ashby:wordware.ai:board-url'],
    });
    expect(reasons(r)['superseded-board']).toEqual(['nomic.ai ashby:nomicai']);
  });

  it('gives a board two domains tie for to the domain some of its saved postings link to (cohere.com)', () => {
    const job = (href: string) => ({ descriptionHtml: `<a href="${href}">site</a>` });
    const saved = savedPostings(
      'postings',
      'ashby',
    )(
      new Map([
        [
          'c/cohere.json',
          JSON.stringify({
            jobs: [job('https://cohere.com/x'), job('https://cohere.com/y'), job(''), job(''), job('')],
          }),
        ],
      ]),
    );
    expect(saved.links).toEqual([]);
    expect(saved.mentions?.map((m) => `${m.board} ${m.domain} ${m.linking}/${m.postings}`)).toEqual([
      'cohere cohere.com 2/5',
    ]);
    const claims = [company('Cohere', 'cohere.ai'), company('Cohere', 'cohere.com')];
    const boards = [board('new-list', 'ashby', 'cohere', 'Cohere')];
    const hints = [{ source: 'old-list', key: 'cohere', vendor: 'ashby' as const }];
    const r = buildRegistry([...facts(claims, boards, hints), saved], SOURCES);
    expect(boardsOf(r)).toEqual({ 'cohere.com': ['ashby:cohere:board-url'] });
    expect(reasons(r)['board-of-two-companies']).toEqual(['cohere.ai ashby:cohere']);
  });
});
