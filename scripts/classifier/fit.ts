/**
 * Training of the role model (src/pipeline/classify/model.ts): multinomial logistic regression over the features
 * of src/pipeline/classify/features.ts, fitted by AdaGrad on the cross-entropy with an L2 penalty, in a fixed
 * order (seeded shuffle), so the same sets always give the same model.json. Small weights are dropped to keep the shipped file small.
 */
import { readFileSync } from 'node:fs';
import { ROLE_CATEGORIES } from '../../src/catalog/types.js';
import { roleFeatures } from '../../src/pipeline/classify/features.js';
import type { RoleModel } from '../../src/pipeline/classify/model.js';

export interface Example {
  title: string;
  department?: string;
  category: string;
  /** The company (or set) the title comes from; cross-validation holds out whole groups. */
  group: string;
}

/** The labelled sets the shipped model learns from; the held-out sets are never read here. */
export const TRAINING_SETS = [
  'dev',
  'real-dev',
  'real-history',
  'company-train',
  'company-train-2',
  'company-train-3',
] as const;

/**
 * The sets of whole companies held out: never trained on, each scored by the learning curve. company-holdout-3
 * holds further titles of three company-holdout companies (held out there too); no other two share a company.
 */
export const HELD_OUT_SETS = [
  'company-holdout',
  'company-holdout-2',
  'company-holdout-3',
  'company-holdout-4',
] as const;

export function loadSet(name: string): Example[] {
  const url = new URL(`../../bench/classification/${name}.json`, import.meta.url);
  const data = JSON.parse(readFileSync(url, 'utf8')) as {
    items: Array<{ title: string; department?: string; category: string; source?: string }>;
  };
  return data.items.map((i) => ({
    title: i.title,
    department: i.department,
    category: i.category,
    group: `${name}:${i.source ?? name}`,
  }));
}

export const loadTraining = (): Example[] => TRAINING_SETS.flatMap((s) => loadSet(s));

export interface FitOptions {
  epochs: number;
  rate: number;
  l2: number;
  /** Weights smaller than this in absolute value are not shipped. */
  prune: number;
  /** Features seen in fewer training titles are not used. */
  minCount: number;
}
export const FIT: FitOptions = { epochs: 15, rate: 0.3, l2: 1e-3, prune: 0.1, minCount: 2 };

function shuffled<T>(xs: T[], seed: number): T[] {
  const out = [...xs];
  let s = seed >>> 0;
  for (let i = out.length - 1; i > 0; i -= 1) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

export function trainModel(examples: Example[], opts: FitOptions = FIT): RoleModel {
  const classes = [...ROLE_CATEGORIES] as string[];
  const k = classes.length;
  const all = examples.map((e) => ({
    f: roleFeatures(e.title, e.department),
    y: classes.indexOf(e.category),
  }));
  // A feature seen in one title only says nothing about other companies' titles: leave it out.
  const seen = new Map<string, number>();
  for (const r of all) for (const f of r.f) seen.set(f, (seen.get(f) ?? 0) + 1);
  const rows = all.map((r) => ({ f: r.f.filter((f) => (seen.get(f) ?? 0) >= opts.minCount), y: r.y }));
  const w = new Map<string, Float64Array>();
  const g2 = new Map<string, Float64Array>();
  const bias = new Float64Array(k);
  const biasG2 = new Float64Array(k);
  const col = (m: Map<string, Float64Array>, f: string) => {
    const v = m.get(f) ?? new Float64Array(k);
    m.set(f, v);
    return v;
  };
  for (let epoch = 0; epoch < opts.epochs; epoch += 1) {
    for (const { f, y } of shuffled(rows, 20261129 + epoch)) {
      const s = Float64Array.from(bias);
      for (const name of f) {
        const v = col(w, name);
        for (let c = 0; c < k; c += 1) s[c] = (s[c] ?? 0) + (v[c] ?? 0);
      }
      const top = Math.max(...s);
      const e = s.map((x) => Math.exp(x - top));
      const z = e.reduce((a, b) => a + b, 0);
      for (let c = 0; c < k; c += 1) {
        const grad = (e[c] ?? 0) / z - (c === y ? 1 : 0);
        biasG2[c] = (biasG2[c] ?? 0) + grad * grad;
        bias[c] = (bias[c] ?? 0) - (opts.rate * grad) / Math.sqrt((biasG2[c] ?? 0) + 1e-8);
        for (const name of f) {
          const v = col(w, name);
          const acc = col(g2, name);
          const gc = grad + opts.l2 * (v[c] ?? 0);
          acc[c] = (acc[c] ?? 0) + gc * gc;
          v[c] = (v[c] ?? 0) - (opts.rate * gc) / Math.sqrt((acc[c] ?? 0) + 1e-8);
        }
      }
    }
  }
  const round = (x: number) => Math.round(x * 100) / 100;
  const weights: RoleModel['weights'] = {};
  for (const name of [...w.keys()].sort()) {
    const kept: number[] = [];
    (w.get(name) ?? []).forEach((x, c) => {
      if (Math.abs(x) >= opts.prune) kept.push(c, round(x));
    });
    if (kept.length > 0) weights[name] = kept;
  }
  return { classes, bias: [...bias].map(round), weights };
}
