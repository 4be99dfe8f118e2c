import { describe, expect, it } from 'vitest';
import { buildRegistry } from '../../scripts/registry/identity.js';
import { SOURCES as REAL_SOURCES } from '../../scripts/registry/sources.js';
import { board, boardsOf, company, facts, reasons, SOURCES } from './sources.js';

/** The identity rules about shortened names, common words and the names the registry shows. */

describe('registry identity: shortened names, common words, shown names', () => {
  it('takes a list name that shortens the company name when the identifier spells the whole name (1910 Genetics)', () => {
    const r = buildRegistry(
      facts(
        [company('1910 Genetics', '1910genetics.com'), company('Atomic Industries', 'atomic.industries')],
        [
          board('new-list', 'greenhouse', '1910genetics', '1910'),
          // The identifier spells only the shortened name: nothing ties the board to the longer one.
          board('new-list', 'ashby', 'atomic', 'Atomic'),
        ],
      ),
      SOURCES,
    );
    expect(boardsOf(r)).toEqual({ '1910genetics.com': ['greenhouse:1910genetics:board-url'] });
    expect(r.entries[0]?.name).toBe('1910 Genetics');
    expect(reasons(r)).toEqual({ 'names-another-company': ['atomic.industries ashby:atomic'] });
  });

  it('guards a one-word name that is a common English word as a short one (Synthetic, not Roboflow)', () => {
    const r = buildRegistry(
      facts(
        [company('Synthetic', 'synthetic.new'), company('Roboflow', 'roboflow.com')],
        [
          board('new-list', 'ashby', 'synthetic', 'Synthetic'),
          board('new-list', 'ashby', 'roboflow', 'Roboflow'),
        ],
      ),
      SOURCES,
    );
    expect(boardsOf(r)).toEqual({ 'roboflow.com': ['ashby:roboflow:board-url'] });
    expect(reasons(r)).toEqual({ 'short-name-unvouched': ['synthetic.new ashby:synthetic'] });
  });

  it('vouches for a short name by a list name that is the whole domain or an identifier that adds `ai`', () => {
    const r = buildRegistry(
      facts(
        [company('You.com', 'you.com'), company('Tint', 'tint.ai'), company('Rev', 'rev.ai')],
        [
          board('new-list', 'greenhouse', 'youcom', 'You.com'),
          board('new-list', 'greenhouse', 'tintai', 'Tint'),
          board('new-list', 'ashby', 'rev', 'Rev'),
        ],
      ),
      SOURCES,
    );
    expect(boardsOf(r)).toEqual({
      'tint.ai': ['greenhouse:tintai:board-url'],
      'you.com': ['greenhouse:youcom:board-url'],
    });
    expect(reasons(r)).toEqual({ 'short-name-unvouched': ['rev.ai ashby:rev'] });
  });

  it("shows the AI list's spelling when the board list only re-cased an identifier", () => {
    const r = buildRegistry(
      facts(
        [
          company('HappyRobot', 'happyrobot.ai'),
          company('Atla', 'atla-ai.com'),
          company('TRACTIAN', 'tractian.com'),
        ],
        [
          board('new-list', 'ashby', 'happyrobot.ai', 'Happyrobot Inc.'),
          board('new-list', 'gem', 'atla-ai-com', 'Atla Ai Com'),
          // An all-capitals spelling says no more than the board list's.
          board('new-list', 'lever', 'tractian', 'Tractian'),
        ],
      ),
      SOURCES,
    );
    expect(r.entries.map((e) => `${e.domain} ${e.name}`)).toEqual([
      'atla-ai.com Atla',
      'happyrobot.ai HappyRobot',
      'tractian.com Tractian',
    ]);
  });

  it('guards a short or common word on a board that only two lists name, unless the identifier vouches', () => {
    const r = buildRegistry(
      facts(
        [company('Doe', 'doe.so'), company('Atla', 'atla-ai.com'), company('Nomi', 'nomi.so')],
        [
          board('new-list', 'ashby', 'doe', null),
          board('old-list', 'ashby', 'doe', null),
          // The identifier runs the word and the suffix together: another company's word (NomiSo).
          board('new-list', 'greenhouse', 'nomiso', 'Nomiso'),
          board('new-list', 'gem', 'atla-ai-com', null),
          board('old-list', 'gem', 'atla-ai-com', null),
        ],
      ),
      SOURCES,
    );
    expect(boardsOf(r)).toEqual({ 'atla-ai.com': ['gem:atla-ai-com:two-sources'] });
    expect(reasons(r)).toEqual({ 'short-name-unvouched': ['doe.so ashby:doe', 'nomi.so greenhouse:nomiso'] });
  });

  it("reads the board list's Gem names that re-case the identifier as no name, other vendors' as names", () => {
    const csv = (rows: string[]) => ['name,slug,url', ...rows].join('\n');
    const read = REAL_SOURCES.find((s) => s.id === 'ats-companies')?.read;
    const facts = read?.(
      new Map([
        ['ats-companies/gem.csv', csv(['Atla Ai Com,atla-ai-com,https://jobs.gem.com/atla-ai-com'])],
        ['ats-companies/ashby.csv', csv(['Two Dots,two-dots,https://jobs.ashbyhq.com/two-dots'])],
      ]),
    );
    expect(facts?.boards.map((b) => `${b.vendor}:${b.board} ${b.name}`)).toEqual([
      'gem:atla-ai-com null',
      'ashby:two-dots Two Dots',
    ]);
  });

  it('takes a short word that any list names with AI, though another list names the board by the bare word (Krea)', () => {
    const r = buildRegistry(
      facts(
        [company('KREA', 'krea.ai'), company('Alloy', 'alloy.ai')],
        [
          board('new-list', 'ashby', 'krea', 'Krea'),
          board('old-list', 'ashby', 'krea', 'Krea AI'),
          board('new-list', 'greenhouse', 'alloy', 'Alloy'),
          board('old-list', 'greenhouse', 'alloy', 'Alloy'),
        ],
      ),
      SOURCES,
    );
    expect(boardsOf(r)).toEqual({ 'krea.ai': ['ashby:krea:board-url'] });
    expect(r.entries[0]?.name).toBe('Krea');
    expect(reasons(r)).toEqual({ 'short-name-unvouched': ['alloy.ai greenhouse:alloy'] });
  });
});
