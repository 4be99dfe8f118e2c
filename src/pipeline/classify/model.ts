/**
 * The learned part of role classification: a multinomial logistic regression over the features of features.ts,
 * trained by `npm run train:classifier` from the labelled training sets (bench/classification, never the held-out
 * ones) and shipped as model.json. Scoring is a sparse dot product per category. A decision names the features that
 * carried it most, so `rule` stays an explanation: "model:h:success manager+d:customer".
 */
import { ROLE_CATEGORIES, type RoleCategory } from '../../catalog/types.js';
import { roleFeatures } from './features.js';
import model from './model.json' with { type: 'json' };

export interface RoleModel {
  /** Category of each weight column, in ROLE_CATEGORIES order. */
  classes: string[];
  bias: number[];
  /** Feature name → column, weight, column, weight...; features and weights below the trainer's thresholds are left out. */
  weights: Record<string, number[]>;
}

export interface ModelDecision {
  category: RoleCategory;
  /** Probability of the chosen category. */
  probability: number;
  /** The features that added most to the chosen category, strongest first. */
  evidence: string[];
}

/** How many of the strongest features a decision keeps as its evidence (classify.ts names the first two). */
const EVIDENCE = 3;

export function predictWith(m: RoleModel, features: string[]): ModelDecision {
  const scores = [...m.bias];
  for (const f of features) {
    const pairs = m.weights[f] ?? [];
    for (let i = 0; i + 1 < pairs.length; i += 2) {
      const c = pairs[i] ?? 0;
      scores[c] = (scores[c] ?? 0) + (pairs[i + 1] ?? 0);
    }
  }
  let best = 0;
  for (let c = 1; c < scores.length; c += 1) if ((scores[c] ?? 0) > (scores[best] ?? 0)) best = c;
  const top = scores[best] ?? 0;
  const total = scores.reduce((sum, s) => sum + Math.exp(s - top), 0);
  const weightFor = (f: string) => {
    const pairs = m.weights[f] ?? [];
    for (let i = 0; i + 1 < pairs.length; i += 2) if (pairs[i] === best) return pairs[i + 1] ?? 0;
    return 0;
  };
  const evidence = features
    .map((f) => ({ f, w: weightFor(f) }))
    .filter((x) => x.w > 0)
    .sort((a, b) => b.w - a.w || a.f.localeCompare(b.f))
    .slice(0, EVIDENCE)
    .map((x) => x.f);
  return { category: m.classes[best] as RoleCategory, probability: 1 / total, evidence };
}

const shipped = model as unknown as RoleModel;
if (shipped.classes.some((c) => !(ROLE_CATEGORIES as readonly string[]).includes(c))) {
  throw new Error('model.json: unknown role category');
}

/** The shipped model's decision for a posting's title and department. */
export function predictRole(title: string, department?: string | null): ModelDecision {
  return predictWith(shipped, roleFeatures(title, department));
}
