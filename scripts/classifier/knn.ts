/**
 * The alternative the learned role model was chosen against (docs/sources.md): a k-nearest-neighbour vote over the
 * same features (src/pipeline/classify/features.ts), by cosine similarity of the feature sets, measured beside the
 * linear model by `npm run train:classifier -- --report`. Not shipped.
 */
import { roleFeatures } from '../../src/pipeline/classify/features.js';
import type { Example } from './fit.js';

const K = 5;

export interface Neighbours {
  predict(title: string, department?: string): string;
}

export function nearestNeighbours(training: Example[]): Neighbours {
  const rows = training.map((e) => ({ f: new Set(roleFeatures(e.title, e.department)), y: e.category }));
  const index = new Map<string, number[]>();
  rows.forEach((r, i) => {
    for (const f of r.f) index.set(f, [...(index.get(f) ?? []), i]);
  });
  return {
    predict(title, department) {
      const query = roleFeatures(title, department);
      const shared = new Map<number, number>();
      for (const f of query) for (const i of index.get(f) ?? []) shared.set(i, (shared.get(i) ?? 0) + 1);
      const ranked = [...shared]
        .map(([i, n]) => ({ i, sim: n / Math.sqrt(query.length * (rows[i]?.f.size ?? 1)) }))
        .sort((a, b) => b.sim - a.sim || a.i - b.i)
        .slice(0, K);
      const votes = new Map<string, number>();
      for (const { i, sim } of ranked) {
        const y = rows[i]?.y ?? 'other';
        votes.set(y, (votes.get(y) ?? 0) + sim);
      }
      let best = 'other';
      for (const [y, v] of votes) if (v > (votes.get(best) ?? 0)) best = y;
      return best;
    },
  };
}
