/**
 * PostgreSQL's ts_rank (its tsrank.c, default weights, no normalisation) over an in-memory
 * document, so the in-memory keyword lists order matches as the SQL ones did: a query of one term scores its
 * occurrences by weight (title A = 1.0 over company name B = 0.4); a query of several scores how close each pair
 * of matched terms stands.
 */

/** A document: its lexemes in word order, their positions, and how many of them come from the title (weight A). */
export interface RankDoc {
  readonly lex: readonly string[];
  readonly pos: ArrayLike<number>;
  readonly titleCount: number;
}

export interface RankTerm {
  lexeme: string;
  /** Matches every lexeme starting with `lexeme`. */
  prefix: boolean;
}

const WEIGHT_A = 1.0;
const WEIGHT_B = 0.4;
/** Σ 1/i², the normaliser of calc_rank_or. */
const ZETA2 = 1.64493406685;

const weightAt = (doc: RankDoc, i: number) => (i < doc.titleCount ? WEIGHT_A : WEIGHT_B);
const matches = (t: RankTerm, lexeme: string) =>
  t.prefix ? lexeme.startsWith(t.lexeme) : lexeme === t.lexeme;

function wordDistance(d: number): number {
  return d > 100 ? 1e-30 : 1 / (1.005 + 0.05 * Math.exp(d / 1.5 - 2));
}

export function tsRank(doc: RankDoc, terms: readonly RankTerm[]): number {
  const res = terms.length >= 2 ? rankAnd(doc, terms) : rankOr(doc, terms);
  return res < 0 ? 1e-20 : res;
}

/**
 * calc_rank_or: per matched lexeme, Σ w_j / j² over its positions (the heaviest counted first), normalised by
 * π²/6, averaged over the query terms. Used for one term and for OR queries.
 */
export function rankOr(doc: RankDoc, terms: readonly RankTerm[]): number {
  let res = 0;
  const { lex } = doc;
  for (const t of terms) {
    // A prefix term counts every distinct lexeme it matches, each on its own.
    const done = t.prefix ? new Set<string>() : undefined;
    for (let i = 0; i < lex.length; i++) {
      const l = lex[i]!;
      if (!matches(t, l) || done?.has(l)) continue;
      done?.add(l);
      let resj = 0;
      let wjm = -1;
      let jm = 0;
      let j = 0;
      for (let x = i; x < lex.length; x++) {
        if (lex[x] !== l) continue;
        const w = weightAt(doc, x);
        resj += w / ((j + 1) * (j + 1));
        if (w > wjm) {
          wjm = w;
          jm = j;
        }
        j++;
      }
      res += (wjm + resj - wjm / ((jm + 1) * (jm + 1))) / ZETA2;
      if (!t.prefix) break;
    }
  }
  return terms.length > 0 ? res / terms.length : res;
}

/**
 * calc_rank_and: for every pair of terms and every pair of their positions, a closeness sqrt(w1·w2·f(distance))
 * combined as 1 − Π(1 − closeness). A prefix term uses its first matching lexeme in lexeme order, as tsrank.c
 * does. Returns a negative number when no pair scores (tsRank maps it to 1e-20).
 */
export function rankAnd(doc: RankDoc, terms: readonly RankTerm[]): number {
  const { lex, pos } = doc;
  let res = -1;
  for (let i = 1; i < terms.length; i++) {
    const a = lexemeOf(doc, terms[i]!);
    if (a === undefined) continue;
    for (let k = 0; k < i; k++) {
      const b = lexemeOf(doc, terms[k]!);
      if (b === undefined) continue;
      // Titles are a handful of words: a double loop over the document beats collecting positions.
      for (let x = 0; x < lex.length; x++) {
        if (lex[x] !== a) continue;
        for (let y = 0; y < lex.length; y++) {
          if (lex[y] !== b) continue;
          const dist = Math.abs(pos[x]! - pos[y]!);
          if (dist === 0) continue;
          const curw = Math.sqrt(weightAt(doc, x) * weightAt(doc, y) * wordDistance(dist));
          res = res < 0 ? curw : 1 - (1 - res) * (1 - curw);
        }
      }
    }
  }
  return res;
}

/** The document's lexeme a term stands for: itself, or for a prefix the smallest matching lexeme. */
function lexemeOf(doc: RankDoc, t: RankTerm): string | undefined {
  if (!t.prefix) return t.lexeme;
  let lexeme: string | undefined;
  for (const l of doc.lex) if (l.startsWith(t.lexeme) && (lexeme === undefined || l < lexeme)) lexeme = l;
  return lexeme;
}
