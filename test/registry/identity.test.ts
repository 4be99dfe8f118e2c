import { describe, expect, it } from 'vitest';
import { buildRegistry } from '../../scripts/registry/identity.js';
import { savedPostings } from '../../scripts/registry/postings.js';
import { board, boardsOf, company, facts, link, reasons, SOURCES } from './sources.js';

/** The identity rules of the registry build, on small in-memory sources: the known traps of public lists. */

describe('registry identity rules', () => {
  it("keeps a board whose identifier spells the domain's word and whose listed name is the company's", () => {
    const r = buildRegistry(
      facts(
        [company('ElevenLabs', 'elevenlabs.io')],
        [board('new-list', 'ashby', 'elevenlabs', 'ElevenLabs')],
      ),
      SOURCES,
    );
    expect(r.entries).toEqual([
      {
        name: 'ElevenLabs',
        domain: 'elevenlabs.io',
        category: 'ai_native',
        boards: [
          {
            vendor: 'ashby',
            board: 'elevenlabs',
            lastSeen: '2026-06-30',
            evidence: 'board-url',
            sources: ['ai-list', 'new-list'],
          },
        ],
      },
    ]);
    expect(r.candidates).toBe(1);
  });

  it("refuses a board of the same word that a list gives another company's name (Leonardo.ai, Leonardo DRS)", () => {
    const r = buildRegistry(
      facts(
        [company('Leonardo.Ai', 'leonardo.ai')],
        [
          board('new-list', 'greenhouse', 'leonardo', 'Leonardo DRS'),
          board('old-list', 'ashby', 'leonardo.ai', 'Leonardo.Ai'),
        ],
      ),
      SOURCES,
    );
    expect(boardsOf(r)).toEqual({ 'leonardo.ai': ['ashby:leonardo.ai:board-url'] });
    expect(reasons(r)).toEqual({ 'names-another-company': ['leonardo.ai greenhouse:leonardo'] });
  });

  it('keeps the board the newest discovered list names when a company moved vendor (Runway)', () => {
    const r = buildRegistry(
      facts(
        [company('Runway', 'runwayml.com')],
        [
          board('new-list', 'ashby', 'runway-ml', 'Runway'),
          board('old-list', 'greenhouse', 'runwayml', null),
          board('hand-list', 'greenhouse', 'runwayml', 'Runway'),
          board('new-list', 'ashby', 'runway', 'Runway Financial'),
        ],
      ),
      SOURCES,
    );
    expect(boardsOf(r)).toEqual({ 'runwayml.com': ['ashby:runway-ml:board-url'] });
    expect(reasons(r)).toEqual({ 'superseded-board': ['runwayml.com greenhouse:runwayml'] });
  });

  it('refuses a vendor one list claims without a name or a second source (Anthropic "on Ashby")', () => {
    const r = buildRegistry(
      facts(
        [company('Anthropic', 'anthropic.com')],
        [
          board('old-list', 'ashby', 'anthropic', null),
          board('new-list', 'greenhouse', 'anthropic', 'Anthropic'),
        ],
      ),
      SOURCES,
    );
    expect(boardsOf(r)).toEqual({ 'anthropic.com': ['greenhouse:anthropic:board-url'] });
    expect(reasons(r)).toEqual({ 'one-source-without-name': ['anthropic.com ashby:anthropic'] });
  });

  it('accepts a board without a listed name when two independent sources name it', () => {
    const r = buildRegistry(
      facts(
        [company('Acme Robotics', 'acmerobotics.com')],
        [board('old-list', 'lever', 'acmerobotics', null)],
        [{ source: 'hand-list', key: 'acmerobotics', vendor: 'lever' }],
      ),
      SOURCES,
    );
    expect(boardsOf(r)).toEqual({ 'acmerobotics.com': ['lever:acmerobotics:two-sources'] });
  });

  it('takes a short one-word name only when its list says AI, an AI list names the vendor, or a hand list picks it', () => {
    const r = buildRegistry(
      facts(
        [
          company('Rocket', 'rocket.new'),
          company('Zeta', 'zeta.ai'),
          company('Suno', 'suno.com'),
          company('Ramp', 'ramp.com'),
          company('Guild', 'guild.com'),
        ],
        [
          board('new-list', 'workday', 'rocket.wd5/careers', 'Rocket'),
          board('new-list', 'ashby', 'zeta', 'Zeta AI'),
          board('new-list', 'ashby', 'suno', 'Suno'),
          board('hand-list', 'ashby', 'ramp', 'Ramp'),
          board('new-list', 'greenhouse', 'guild', 'Guild'),
          board('old-list', 'greenhouse', 'guild', null),
        ],
        [{ source: 'old-list', key: 'suno', vendor: 'ashby' }],
      ),
      SOURCES,
    );
    expect(Object.keys(boardsOf(r))).toEqual(['ramp.com', 'suno.com', 'zeta.ai']);
    expect(reasons(r)).toEqual({
      'short-name-unvouched': ['guild.com greenhouse:guild', 'rocket.new workday:rocket.wd5/careers'],
    });
  });

  it('refuses a board named by the bare word of a company the lists call by its whole domain (Bolt.new, Bolt)', () => {
    const r = buildRegistry(
      facts(
        [
          company('Bolt.new', 'bolt.new'),
          company('Osmosis.Studio', 'osmosis.studio'),
          company('Fireflies.ai', 'fireflies.ai'),
        ],
        [
          board('hand-list', 'ashby', 'bolt', 'Bolt'),
          board('new-list', 'greenhouse', 'osmosis', 'Osmosis'),
          board('new-list', 'ashby', 'fireflies', 'Fireflies'),
        ],
      ),
      SOURCES,
    );
    // ".ai" is a name ending ("Fireflies.ai" goes by "Fireflies"); ".new" and ".studio" are not.
    expect(boardsOf(r)).toEqual({ 'fireflies.ai': ['ashby:fireflies:board-url'] });
    expect(reasons(r)).toEqual({
      'names-another-company': ['bolt.new ashby:bolt', 'osmosis.studio greenhouse:osmosis'],
    });
  });

  it("prefers a board a list names by the company's whole domain to another identifier named by the bare word (Proton.ai)", () => {
    const r = buildRegistry(
      facts(
        [company('Proton.ai', 'proton.ai'), company('Seamless.AI', 'seamless.ai')],
        [
          // The `proton` board is newer and an AI list names its vendor, but its name is only the word.
          board('new-list', 'greenhouse', 'proton', 'Proton'),
          board('old-list', 'greenhouse', 'proton', null),
          board('old-list', 'greenhouse', 'protonai', 'Proton.ai'),
          // One identifier on two vendors is a vendor choice, not a homonym: more sources still decide.
          board('new-list', 'greenhouse', 'seamlessai', 'Seamless'),
          board('old-list', 'greenhouse', 'seamlessai', null),
          board('new-list', 'smartrecruiters', 'seamlessai', 'Seamless.AI'),
        ],
        [{ source: 'old-list', key: 'proton', vendor: 'greenhouse' }],
      ),
      SOURCES,
    );
    expect(boardsOf(r)).toEqual({
      'proton.ai': ['greenhouse:protonai:board-url'],
      'seamless.ai': ['greenhouse:seamlessai:board-url'],
    });
    expect(reasons(r)).toEqual({
      'superseded-board': ['proton.ai greenhouse:proton', 'seamless.ai smartrecruiters:seamlessai'],
    });
  });

  it('leaves out a platform domain and a tie between two vendors', () => {
    const r = buildRegistry(
      facts(
        [company('Amazon Q', 'amazon.com'), company('Alloyance', 'alloyance.ai')],
        [
          board('new-list', 'breezy', 'amazon', 'Amazon'),
          board('new-list', 'greenhouse', 'alloyance', 'Alloyance'),
          board('new-list', 'lever', 'alloyance', 'Alloyance'),
        ],
      ),
      SOURCES,
    );
    expect(r.entries).toEqual([]);
    expect(reasons(r)).toEqual({
      'platform-domain': ['amazon.com breezy:amazon'],
      'ambiguous-boards': ['alloyance.ai greenhouse:alloyance', 'alloyance.ai lever:alloyance'],
    });
  });

  it('gives a board two domains claim to the one more sources name, and to neither on a tie', () => {
    const both = [
      company('Cohere', 'cohere.com'),
      company('Cohere', 'cohere.ai'),
      { ...company('Cohere', 'cohere.com'), source: 'hand-list' },
    ];
    const boards = [
      board('new-list', 'ashby', 'cohere', 'Cohere'),
      board('old-list', 'ashby', 'cohere', null),
    ];
    const hints = [{ source: 'old-list', key: 'cohere', vendor: 'ashby' as const }];
    const r = buildRegistry(facts(both, boards, hints), SOURCES);
    expect(boardsOf(r)).toEqual({ 'cohere.com': ['ashby:cohere:board-url'] });
    const tie = buildRegistry(facts(both.slice(0, 2), boards, hints), SOURCES);
    expect(tie.entries).toEqual([]);
    expect(reasons(tie)['board-of-two-companies']).toHaveLength(2);
  });

  it('gives the same registry whatever order the facts come in', () => {
    const companies = [
      company('Baseten', 'baseten.co'),
      company('Cartesia', 'cartesia.ai'),
      company('Replit', 'replit.com'),
    ];
    const boards = [
      board('new-list', 'ashby', 'baseten', 'Baseten'),
      board('new-list', 'ashby', 'cartesia', 'Cartesia'),
      board('old-list', 'ashby', 'replit', null),
      board('hand-list', 'ashby', 'replit', 'Replit'),
    ];
    const a = buildRegistry(facts(companies, boards), SOURCES);
    const b = buildRegistry(facts([...companies].reverse(), [...boards].reverse()), SOURCES);
    expect(b.entries).toEqual(a.entries);
    expect(a.entries.map((e) => e.domain)).toEqual(['baseten.co', 'cartesia.ai', 'replit.com']);
  });

  it("keeps a board whose own postings link to the company's site, though no list names it", () => {
    const r = buildRegistry(
      facts(
        [company('Cursor', 'cursor.com')],
        [board('old-list', 'ashby', 'cursor', null)],
        [],
        [link('cursor', 'cursor.com')],
      ),
      SOURCES,
    );
    expect(boardsOf(r)).toEqual({ 'cursor.com': ['ashby:cursor:postings'] });
    expect(r.entries[0]?.boards[0]?.sources).toEqual(['ai-list', 'old-list', 'postings']);
    expect(r.entries[0]?.boards[0]?.lastSeen).toBe('2025-12-24');
  });

  it('takes an AI company from a named board whose postings link to an .ai domain, or whose name says AI', () => {
    const r = buildRegistry(
      facts(
        [],
        [
          board('new-list', 'ashby', 'harvey', 'Harvey'),
          board('new-list', 'ashby', 'radai', 'Rad AI'),
          board('new-list', 'ashby', 'ramp', 'Ramp'),
          board('new-list', 'ashby', 'juicebox', 'Juicebox'),
        ],
        [],
        [
          link('harvey', 'harvey.ai', 57, 100),
          link('radai', 'radai.com'),
          // A .com whose board name does not say AI is not taken as an AI company.
          link('ramp', 'ramp.com'),
          // A board no list names gives no name, so no company.
          link('continua', 'continua.ai'),
          // The identifier must spell the domain's word: a link to an investor's site says nothing.
          link('juicebox', 'sequoia.ai'),
        ],
      ),
      SOURCES,
    );
    expect(boardsOf(r)).toEqual({
      'harvey.ai': ['ashby:harvey:postings'],
      'radai.com': ['ashby:radai:postings'],
    });
    expect(r.entries.map((e) => [e.name, e.category, e.boards[0]?.sources])).toEqual([
      ['Harvey', 'ai_native', ['new-list', 'postings']],
      ['Rad AI', 'ai_native', ['new-list', 'postings']],
    ]);
  });

  it('refuses a board whose postings link to another domain its identifier spells, and joins one with an affix', () => {
    const r = buildRegistry(
      facts(
        [
          company('Cursor', 'cursor.sh'),
          company('Lambda', 'lambdalabs.com'),
          company('Monday', 'monday.com'),
        ],
        [board('new-list', 'ashby', 'cursor', 'Cursor')],
        [],
        // Postings link to the company's site and to the tools it uses: only the first is an identity.
        [
          link('cursor', 'cursor.com'),
          link('Lambda', 'lambdalabs.com'),
          link('prodigy-education', 'monday.com'),
        ],
      ),
      SOURCES,
    );
    expect(boardsOf(r)).toEqual({ 'lambdalabs.com': ['ashby:Lambda:postings'] });
    expect(reasons(r)['links-another-domain']).toEqual(['cursor.sh ashby:cursor']);
    expect(r.candidates).toBe(2);
  });

  it('takes a link fact from saved postings only when most of them, and two at least, link there', () => {
    const posting = (...urls: string[]) => ({
      descriptionHtml: urls.map((u) => `<a href="${u}">x</a>`).join(' '),
    });
    const read = savedPostings('postings', 'ashby');
    const files = new Map([
      [
        'ashby/companies/Acme%20AI.json',
        JSON.stringify({
          jobs: [
            posting('https://www.acme.ai/about', 'https://jobs.ashbyhq.com/acme'),
            posting('https://acme.ai/'),
            posting('https://github.com/acme', 'https://acme.ai/team'),
          ],
        }),
      ],
      [
        'ashby/companies/solo.json',
        JSON.stringify({ jobs: [posting('https://solo.dev'), posting('https://other.dev')] }),
      ],
    ]);
    expect(read(files).links).toEqual([
      { source: 'postings', vendor: 'ashby', board: 'Acme AI', domain: 'acme.ai', linking: 3, postings: 3 },
    ]);
  });
});
