/**
 * `npm run train:classifier`: trains the role model from the labelled training sets (scripts/classifier/fit.ts)
 * and writes src/pipeline/classify/model.json, which the classifier ships. Deterministic: the same sets give the
 * same file (a test checks that the shipped file is current).
 *
 * `npm run train:classifier -- --report`: instead of writing, measures (1) company-grouped 5-fold
 * cross-validation on the training companies, rules alone against rules with the model, and (2) the learning
 * curve: the shipped combination trained on growing shares of the training companies, scored on each
 * company-held-out set (never trained on).
 */
import { writeFileSync } from 'node:fs';
import { isClientFacing, type RoleCategory } from '../src/catalog/types.js';
import { combine, explainByRules } from '../src/pipeline/classify/classify.js';
import { roleFeatures } from '../src/pipeline/classify/features.js';
import { predictWith, type RoleModel } from '../src/pipeline/classify/model.js';
import { type Example, HELD_OUT_SETS, loadSet, loadTraining, trainModel } from './classifier/fit.js';
import { nearestNeighbours } from './classifier/knn.js';

const MODEL_PATH = new URL('../src/pipeline/classify/model.json', import.meta.url);

interface Score {
  n: number;
  accuracy: number;
  cfPrecision: number;
  cfRecall: number;
}

/** Scores the classifier on examples, each read with the model modelFor gives it (null: rules alone). */
function score(examples: Example[], modelFor: (e: Example) => RoleModel | null): Score {
  let ok = 0;
  let predicted = 0;
  let actual = 0;
  let both = 0;
  for (const e of examples) {
    const rules = explainByRules(e);
    const model = modelFor(e);
    const got = model
      ? combine(rules, predictWith(model, roleFeatures(e.title, e.department))).category
      : rules.category;
    const want = e.category as RoleCategory;
    if (got === want) ok += 1;
    if (isClientFacing(got)) predicted += 1;
    if (isClientFacing(want)) actual += 1;
    if (isClientFacing(got) && isClientFacing(want)) both += 1;
  }
  const ratio = (a: number, b: number) => (b === 0 ? 1 : a / b);
  return {
    n: examples.length,
    accuracy: ratio(ok, examples.length),
    cfPrecision: ratio(both, predicted),
    cfRecall: ratio(both, actual),
  };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const row = (label: string, s: Score) =>
  `| ${label} | ${s.n} | ${pct(s.accuracy)} | ${pct(s.cfPrecision)} | ${pct(s.cfRecall)} |`;

function crossValidation(all: Example[]): string[] {
  const folds = 5;
  const groups = [...new Set(all.map((e) => e.group))].sort();
  const foldOf = new Map(groups.map((g, i) => [g, i % folds]));
  const models = Array.from({ length: folds }, (_, k) =>
    trainModel(all.filter((e) => foldOf.get(e.group) !== k)),
  );
  const tested = all.filter((e) => e.group.startsWith('company-train'));
  const rulesOnly = score(tested, () => null);
  const withModel = score(tested, (e) => models[foldOf.get(e.group) ?? 0] ?? null);
  return [
    `Company-grouped 5-fold cross-validation, scored on the company-train, -2 and -3 titles (${groups.length} groups):`,
    '| classifier | titles | accuracy | cf precision | cf recall |',
    '|---|---|---|---|---|',
    row('rules alone', rulesOnly),
    row('rules + model', withModel),
  ];
}

function learningCurve(all: Example[], heldOut: Example[]): string[] {
  const groups = [...new Set(all.map((e) => e.group))].sort();
  const lines = [
    '| training companies | training titles | model alone | 5-NN alone | rules + model | cf precision | cf recall |',
    '|---|---|---|---|---|---|---|',
  ];
  const rulesOnly = score(heldOut, () => null);
  lines.push(
    `| 0 (rules alone) | 0 | - | - | ${pct(rulesOnly.accuracy)} | ${pct(rulesOnly.cfPrecision)} | ${pct(rulesOnly.cfRecall)} |`,
  );
  for (const share of [0.1, 0.25, 0.5, 0.75, 1]) {
    const keep = new Set(groups.filter((_, i) => ((i * 7919) % 100) / 100 < share));
    const train = all.filter((e) => keep.has(e.group));
    const model = trainModel(train);
    const s = score(heldOut, () => model);
    const alone = heldOut.filter(
      (e) => predictWith(model, roleFeatures(e.title, e.department)).category === e.category,
    ).length;
    const knn = nearestNeighbours(train);
    const knnAlone = heldOut.filter((e) => knn.predict(e.title, e.department) === e.category).length;
    lines.push(
      `| ${keep.size} of ${groups.length} | ${train.length} | ${pct(alone / heldOut.length)} | ${pct(knnAlone / heldOut.length)} | ${pct(s.accuracy)} | ${pct(s.cfPrecision)} | ${pct(s.cfRecall)} |`,
    );
  }
  return lines;
}

const training = loadTraining();
if (process.argv.includes('--report')) {
  const curves = HELD_OUT_SETS.flatMap((name) => [
    '',
    `Learning curve, scored on ${name}:`,
    ...learningCurve(training, loadSet(name)),
  ]);
  console.log([...crossValidation(training), ...curves].join('\n'));
} else {
  const model = trainModel(training);
  writeFileSync(MODEL_PATH, `${JSON.stringify(model)}\n`);
  console.log(
    `model.json: ${Object.keys(model.weights).length} features from ${training.length} labelled titles`,
  );
}
