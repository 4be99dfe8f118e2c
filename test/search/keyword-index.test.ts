import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompanyAttrs, JobAttrs } from '../../src/catalog/replica/catalog-replica.js';
import { migrate } from '../../src/db/migrate.js';
import type { Db } from '../../src/db/port.js';
import { tsQueryParts } from '../../src/search/keyword.js';
import { KeywordIndex } from '../../src/search/keyword-index/keyword-index.js';
import { allWordsQuery, distinctLexemes, lexemes } from '../../src/search/keyword-index/lexemes.js';
import { STOP_WORDS, stem } from '../../src/search/keyword-index/stemmer.js';
import { type RankTerm, rankOr, tsRank } from '../../src/search/keyword-index/ts-rank.js';
import { joinWordForms } from '../../src/search/query/word-forms.js';
import { freshDatabase, type TestDatabase } from '../support/db.js';

/** The relevance benchmark's catalog and queries: real-looking titles, names and queries. */
const catalog = JSON.parse(
  readFileSync(new URL('../../bench/relevance/catalog.json', import.meta.url), 'utf8'),
) as { companies: { name: string; jobs: { title: string; daysAgo: number }[] }[] };
const QUERIES = (
  JSON.parse(readFileSync(new URL('../../bench/relevance/queries.json', import.meta.url), 'utf8')) as {
    queries: { query: string }[];
  }
).queries.map((q) => q.query);
const lexicon = JSON.parse(
  readFileSync(new URL('../../src/search/embedders/lexicon.json', import.meta.url), 'utf8'),
) as { terms: Record<string, string>; aliases: Record<string, string> };
const DOCS = catalog.companies.flatMap((c) => c.jobs.map((j) => ({ title: j.title, company: c.name })));
const WORDS = [
  ...new Set(
    [
      ...DOCS.flatMap((d) => [d.title, d.company]),
      ...QUERIES,
      ...Object.entries(lexicon.terms).flat(),
      ...Object.entries(lexicon.aliases).flat(),
      'generously communication arsenal universities organizations skies dying news howe cosmos inning proceeding',
      'hopping hoped hoping agreed feed sized relational conditional rationalize happily fluently',
      "generalizations electrical hopefulness goodness adjustment dependent adoption o'reilly women's",
    ]
      .join(' ')
      .toLowerCase()
      .match(/[a-z]+/g) ?? [],
  ),
];

let t: TestDatabase;
let db: Db;
beforeAll(async () => {
  t = await freshDatabase();
  db = t.db;
  await migrate(db);
});
afterAll(async () => t?.drop());

describe('lexemes like to_tsvector(english)', () => {
  it('stems and drops stop words like the english_stem dictionary', async () => {
    const rows = await db.query<{ w: string; l: string[] | null }>(
      `SELECT w, ts_lexize('english_stem', w) AS l FROM unnest($1::text[]) w`,
      [WORDS],
    );
    expect(rows.length).toBeGreaterThan(300);
    const wrong = rows
      .map((r) => ({ w: r.w, pg: r.l?.[0] ?? '', ours: STOP_WORDS.has(r.w) ? '' : stem(r.w) }))
      .filter((r) => r.pg !== r.ours);
    expect(wrong).toEqual([]);
  });

  it('gives the lexemes and positions of the database for titles without punctuation inside words', async () => {
    const texts = [...new Set(DOCS.flatMap((d) => [d.title, d.company]))].filter(
      (s) => !/\w[-./&']\w/.test(s),
    );
    const rows = await db.query<{ s: string; lexeme: string; positions: number[] }>(
      `SELECT s, v.lexeme, v.positions FROM unnest($1::text[]) s, unnest(to_tsvector('english', s)) v`,
      [texts],
    );
    for (const s of texts) {
      const pg = rows
        .filter((r) => r.s === s)
        .flatMap((r) => r.positions.map((p) => `${r.lexeme}:${p}`))
        .sort();
      expect(
        lexemes(s)
          .map((l) => `${l.lexeme}:${l.pos}`)
          .sort(),
        s,
      ).toEqual(pg);
    }
  });
});

describe('ts_rank in memory', () => {
  it('ranks title (A) + company name (B) documents like ts_rank, for all-words and any-word queries', async () => {
    const queries = QUERIES.filter((q) => !/[-"&]/.test(q));
    const rows = await db.query<{ d: number; q: number; all: number | null; any: number | null }>(
      `WITH d AS (SELECT i AS d, setweight(to_tsvector('english', t), 'A') || setweight(to_tsvector('english', c), 'B') AS v
                    FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS x(t, c, i)),
            q AS (SELECT i AS q, websearch_to_tsquery('english', w) && coalesce(to_tsquery('english', p), ''::tsquery) AS a,
                         nullif(replace(plainto_tsquery('english', f)::text, ' & ', ' | '), '')::tsquery AS o
                    FROM unnest($3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS x(w, p, f, i))
       SELECT d.d::int, q.q::int,
              CASE WHEN d.v @@ q.a THEN ts_rank(d.v, q.a)::float8 END AS all,
              CASE WHEN q.o IS NOT NULL AND d.v @@ q.o THEN ts_rank(d.v, q.o)::float8 END AS any
         FROM d, q`,
      [
        // The index reads compounds joined (query/word-forms.ts): the database, given the joined text, agrees.
        DOCS.map((d) => joinWordForms(d.title)),
        DOCS.map((d) => joinWordForms(d.company)),
        queries.map((q) => tsQueryParts(joinWordForms(q)).web),
        queries.map((q) => tsQueryParts(joinWordForms(q)).prefix),
        queries.map(joinWordForms),
      ],
    );
    let compared = 0;
    for (const r of rows) {
      const doc = DOCS[r.d - 1]!;
      const q = queries[r.q - 1]!;
      const title = lexemes(doc.title);
      const offset = title.at(-1)?.pos ?? 0;
      const all = [...title, ...lexemes(doc.company).map((l) => ({ ...l, pos: l.pos + offset }))];
      const rankDoc = { lex: all.map((l) => l.lexeme), pos: all.map((l) => l.pos), titleCount: title.length };
      const parsed = allWordsQuery(q);
      const terms: RankTerm[] = parsed.exact.map((lexeme) => ({ lexeme, prefix: false }));
      if (parsed.prefix !== null && !parsed.exact.includes(parsed.prefix))
        terms.push({ lexeme: parsed.prefix, prefix: true });
      const matchesAll =
        terms.length > 0 &&
        terms.every((t) => rankDoc.lex.some((l) => (t.prefix ? l.startsWith(t.lexeme) : l === t.lexeme)));
      expect(matchesAll, `${q} @@ ${doc.title}`).toBe(r.all !== null);
      if (r.all !== null) expect(tsRank(rankDoc, terms), `${q} / ${doc.title}`).toBeCloseTo(r.all, 5);
      if (r.any !== null) {
        const words = distinctLexemes(q).map((lexeme) => ({ lexeme, prefix: false }));
        expect(rankOr(rankDoc, words), `any ${q} / ${doc.title}`).toBeCloseTo(r.any, 5);
      }
      compared += (r.all !== null ? 1 : 0) + (r.any !== null ? 1 : 0);
    }
    expect(compared).toBeGreaterThan(1000);
  });
});

describe('KeywordIndex', () => {
  // Only what the keyword index reads; the index's attribute types carry more for other readers.
  const company = (name: string, slug: string, active = true) =>
    ({ name, slug, category: 'other', tags: new Set(), active }) as CompanyAttrs;
  const job = (companyId: string, title: string, postedAtUs: number, remote = false) =>
    ({ companyId, role: 'other', location: '', remote, title, postedAtUs }) as JobAttrs;
  const setup = () => {
    const companies = new Map<string, CompanyAttrs>();
    const k = new KeywordIndex({ attributes: (id) => companies.get(id) });
    const putCompany = (id: string, a: CompanyAttrs) => {
      const old = companies.get(id);
      companies.set(id, a);
      k.putCompany(id, a, old);
    };
    putCompany('c1', company('Anthropic', 'anthropic'));
    putCompany('c2', company('Databricks', 'databricks'));
    putCompany('c3', company('Gone Inc', 'gone', false));
    k.putJob('j1', job('c1', 'Forward Deployed Engineer', 3));
    k.putJob('j2', job('c1', 'Solutions Engineer', 2, true));
    k.putJob('j3', job('c2', 'Solutions Engineer', 4));
    k.putJob('j4', job('c2', 'Kubernetes Platform Engineer', 1));
    k.putJob('j5', job('c3', 'Solutions Architect', 5));
    return { k, putCompany };
  };
  const all = () => true;

  it('matches every word, the last as a prefix, ranks title over company name, then newest', () => {
    const { k } = setup();
    expect(k.allWords(allWordsQuery('solutions engineer'), all, 10)).toEqual(['j3', 'j2']);
    expect(k.allWords(allWordsQuery('kube'), all, 10)).toEqual(['j4']);
    expect(k.allWords(allWordsQuery('engineers'), all, 10)).toEqual(['j3', 'j1', 'j2', 'j4']);
    expect(k.allWords(allWordsQuery('engineer'), (a) => a.remote, 10)).toEqual(['j2']);
    expect(k.allWords(allWordsQuery('anthropic engineer'), all, 10)).toEqual(['j1', 'j2']);
    expect(k.allWords(allWordsQuery('the'), all, 10)).toEqual([]);
    expect(k.allWords(allWordsQuery('solutions nothing'), all, 10)).toEqual([]);
    // Any word: more words matched rank first.
    expect(k.anyWords(distinctLexemes('databricks solutions'), all, 2)).toEqual(['j3', 'j5']);
  });

  it('follows renames, removals and clears', () => {
    const { k, putCompany } = setup();
    putCompany('c2', company('Bricks', 'bricks'));
    expect(k.allWords(allWordsQuery('databricks'), all, 10)).toEqual([]);
    expect(k.allWords(allWordsQuery('bricks'), all, 10)).toEqual(['j3', 'j4']);
    k.removeJob('j3');
    expect(k.allWords(allWordsQuery('bricks'), all, 10)).toEqual(['j4']);
    k.putJob('j4', job('c2', 'Data Engineer', 1));
    expect(k.allWords(allWordsQuery('kubernetes'), all, 10)).toEqual([]);
    expect(k.allWords(allWordsQuery('data'), all, 10)).toEqual(['j4']);
    // Same words, new attributes (a re-read, a remote flag flipped): filters see the new ones.
    k.putJob('j2', job('c1', 'Solutions Engineer', 2, false));
    expect(k.allWords(allWordsQuery('engineer'), (a) => a.remote, 10)).toEqual([]);
    k.clear();
    expect(k.size).toBe(0);
    expect(k.allWords(allWordsQuery('data'), all, 10)).toEqual([]);
  });

  it('answers after heavy churn exactly as an index built from the surviving jobs', () => {
    // Slots are reused, posting entries die and lists are compacted, the lexeme arena is compacted and the codes
    // of words no job holds any more are given to new ones; none of it may show in an answer.
    const rare = ['Quantum', 'Zephyr', 'Obsidian', 'Lattice', 'Harbor', 'Meridian'];
    const titles = [
      'Solutions Engineer',
      'Forward Deployed Engineer',
      'Data Engineer',
      'Solutions Architect',
      'Customer Success Manager',
      'Sales Engineer',
      'Engineer',
    ];
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const { k } = setup();
    const live = new Map<string, JobAttrs>();
    for (let op = 0; op < 4_000; op++) {
      const id = `x${random(150)}`;
      if (random(3) === 0) {
        k.removeJob(id);
        live.delete(id);
      } else {
        // One title in ten has a word few other jobs share, so its last holder's removal frees its code.
        const title = random(10) === 0 ? `${rare[random(rare.length)]} Lead` : titles[random(titles.length)]!;
        const a = job(random(2) ? 'c1' : 'c2', title, random(50), random(2) === 0);
        k.putJob(id, a);
        live.set(id, a);
      }
    }
    const fresh = setup().k;
    for (const id of ['j1', 'j2', 'j3', 'j4', 'j5']) fresh.removeJob(id);
    for (const id of ['j1', 'j2', 'j3', 'j4', 'j5']) k.removeJob(id);
    for (const [id, a] of live) fresh.putJob(id, a);
    expect(k.size).toBe(live.size);
    for (const q of [
      'engineer',
      'solutions engineer',
      'eng',
      'data',
      'customer success',
      'sales eng',
      'anthropic',
      ...rare.map((w) => w.toLowerCase()),
      'lead',
    ]) {
      expect(k.allWords(allWordsQuery(q), all, 60)).toEqual(fresh.allWords(allWordsQuery(q), all, 60));
      expect(k.allWords(allWordsQuery(q), (a) => a.remote, 60)).toEqual(
        fresh.allWords(allWordsQuery(q), (a) => a.remote, 60),
      );
      expect(k.anyWords(distinctLexemes(q), all, 60)).toEqual(fresh.anyWords(distinctLexemes(q), all, 60));
    }
    expect(k.allWords(allWordsQuery('engineer'), all, 1_000).length).toBeGreaterThan(20);
  });

  it('finds companies by misspelled name and by exact name or slug, filters applied', () => {
    const { k } = setup();
    expect(k.similarCompanies('antropic', 0.5, all).map((m) => m.id)).toEqual(['c1']);
    expect(k.similarCompanies('gone', 0.5, (a) => a.active)).toEqual([]);
    const named = k.similarCompanies('databriks solutions engineer', 0.5, all);
    expect(k.jobsOfCompanies(named, all, 10)).toEqual(['j3', 'j4']);
    expect(k.exactCompanies('ANTHROPIC', all)).toEqual(['c1']);
    expect(k.exactCompanies('Databricks!', all)).toEqual(['c2']);
    expect(k.exactCompanies('gone', (a) => a.active)).toEqual([]);
  });
});
