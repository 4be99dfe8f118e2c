/**
 * Reciprocal Rank Fusion (Cormack et al. 2009): score(d) = Σ weight_l / (k + rank_l(d)) over the ranked lists
 * that contain d, ranks starting at 1. A pure function: same input, same output, ties included.
 */

export interface RankedList {
  /** Ids best first; duplicates after the first occurrence are ignored. */
  ids: readonly string[];
  /** Multiplier of this list's contributions (default 1). */
  weight?: number;
  /** What the list is, for explanations (keyword, semantic, company, place ...). */
  name?: string;
}

/** A fused id with its score and, when asked for, what each list (and the boosts) contributed to it. */
export interface Scored {
  id: string;
  score: number;
  parts?: Record<string, number>;
}

export interface FusionOptions {
  /** RRF constant; larger flattens the advantage of top ranks (default 60). */
  k?: number;
  /** Extra score per id, added to its fused score (query-understanding boosts). Only fused ids are boosted. */
  boosts?: ReadonlyMap<string, number>;
  /** Ids placed first, in this order, whatever their score (exact name matches). Unknown ids are kept too. */
  pinned?: readonly string[];
  /** Maximum ids returned. */
  limit: number;
  /** Record each list's contribution by its name (Scored.parts); boosts are recorded as `boost`. */
  explain?: boolean;
}

export const DEFAULT_RRF_K = 60;

interface Entry {
  id: string;
  score: number;
  parts?: Record<string, number>;
  /** Best (smallest) rank in any list: the first tie-breaker. */
  best: number;
}

/**
 * Fuses ranked lists into one. Ties on score are broken by the best single-list rank, then by id, so the
 * order never depends on Map iteration or on which list was passed first.
 */
export function fuseRankings(lists: readonly RankedList[], opts: FusionOptions): string[] {
  return fuseScored(lists, opts).map((e) => e.id);
}

const add = (e: Entry, name: string, v: number) => {
  if (e.parts) e.parts[name] = (e.parts[name] ?? 0) + v;
};

/** fuseRankings with the scores (and, with `explain`, each list's part of them). */
export function fuseScored(lists: readonly RankedList[], opts: FusionOptions): Scored[] {
  const k = opts.k ?? DEFAULT_RRF_K;
  if (!(k >= 0) || !Number.isFinite(k)) throw new RangeError(`RRF k must be a finite number >= 0 (got ${k})`);
  const entries = new Map<string, Entry>();
  for (const list of lists) {
    const weight = list.weight ?? 1;
    const seen = new Set<string>();
    let rank = 0;
    for (const id of list.ids) {
      if (seen.has(id)) continue;
      seen.add(id);
      rank++;
      let e = entries.get(id);
      if (e) {
        e.score += weight / (k + rank);
        e.best = Math.min(e.best, rank);
      } else {
        e = { id, score: weight / (k + rank), best: rank, ...(opts.explain ? { parts: {} } : {}) };
        entries.set(id, e);
      }
      add(e, list.name ?? 'list', weight / (k + rank));
    }
  }
  if (opts.boosts) {
    for (const [id, boost] of opts.boosts) {
      const e = entries.get(id);
      if (e) {
        e.score += boost;
        add(e, 'boost', boost);
      }
    }
  }
  const ranked = [...entries.values()].sort(
    (a, b) => b.score - a.score || a.best - b.best || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  const out: Scored[] = [];
  const placed = new Set<string>();
  for (const id of opts.pinned ?? []) {
    if (placed.has(id)) continue;
    placed.add(id);
    const e = entries.get(id);
    out.push(e ? scored(e) : { id, score: 0 });
  }
  for (const e of ranked) {
    if (out.length >= opts.limit) break;
    if (!placed.has(e.id)) out.push(scored(e));
  }
  return out.slice(0, Math.max(0, opts.limit));
}

function scored(e: Entry): Scored {
  return e.parts ? { id: e.id, score: e.score, parts: e.parts } : { id: e.id, score: e.score };
}
