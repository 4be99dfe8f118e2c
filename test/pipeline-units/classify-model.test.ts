import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  HELD_OUT_SETS,
  loadSet,
  loadTraining,
  TRAINING_SETS,
  trainModel,
} from '../../scripts/classifier/fit.js';
import { CLIENT_FACING_CATEGORIES } from '../../src/catalog/types.js';
import { explainRole } from '../../src/pipeline/classify/classify.js';
import { predictRole } from '../../src/pipeline/classify/model.js';

const shipped = JSON.parse(
  readFileSync(new URL('../../src/pipeline/classify/model.json', import.meta.url), 'utf8'),
) as unknown;

interface SetFile {
  sources: Record<string, { board: string; company?: string }>;
  items: Array<{ source: string }>;
}
const setFile = (name: string) =>
  JSON.parse(
    readFileSync(new URL(`../../bench/classification/${name}.json`, import.meta.url), 'utf8'),
  ) as SetFile;

const HELD_OUT: readonly string[] = HELD_OUT_SETS;
const SAME_COMPANIES = new Set([
  'company-holdout / company-holdout-3',
  'company-holdout-3 / company-holdout',
]);
/** Matches "<title>: <category>" when the category is client-facing. */
const CLIENT_FACING_END = new RegExp(`: (${CLIENT_FACING_CATEGORIES.join('|')})$`);

describe('the learned role model', () => {
  it('is the one npm run train:classifier makes from the training sets (model.json is current)', () => {
    expect(trainModel(loadTraining())).toEqual(shipped);
  });

  it('never learns from a held-out set, and no training set shares a company with the held-out companies', () => {
    for (const heldOut of HELD_OUT) expect(TRAINING_SETS).not.toContain(heldOut);
    expect(TRAINING_SETS).not.toContain('real-holdout');
    const companies = (f: SetFile) =>
      new Set(Object.values(f.sources).map((s) => (s.company ?? s.board).toLowerCase().replace(/\W/g, '')));
    for (const heldOut of HELD_OUT) {
      const held = setFile(heldOut);
      for (const name of [...TRAINING_SETS.filter((s) => s !== 'dev'), ...HELD_OUT]) {
        if (name === heldOut) continue;
        const other = setFile(name);
        const shared = [...companies(held)].filter((c) => companies(other).has(c));
        if (SAME_COMPANIES.has(`${heldOut} / ${name}`)) {
          expect(shared.sort()).toEqual(['braze', 'databricks', 'datadog']);
          continue;
        }
        expect(`${heldOut} / ${name}: ${shared.join(', ')}`).toBe(`${heldOut} / ${name}: `);
        expect(other.items.every((i) => i.source in other.sources)).toBe(true);
      }
      expect(held.items.every((i) => i.source in held.sources)).toBe(true);
    }
  });

  it('decides where the rules only guess, and its rule names the features that carried it', () => {
    const got = explainRole({ title: 'Ads Packages & Solutions Manager', department: 'Advertising' });
    expect(got.category).toBe('sales');
    expect(got.rule).toMatch(/^model:[dhmt]:[^+]+(\+[dhmt]:[^+]+)?$/);
  });

  it('never overrules a title rule, and never files a posting as client-facing', () => {
    expect(explainRole({ title: 'Forward Deployed Engineer' }).rule).toBe('title:fde-keyword');
    for (const name of [
      'dev',
      'real-dev',
      'real-history',
      'company-train',
      'company-holdout',
      'company-train-2',
      'company-holdout-2',
      'company-train-3',
      'company-holdout-3',
      'company-holdout-4',
      'real-holdout',
    ]) {
      for (const e of loadSet(name)) {
        const got = explainRole(e);
        if (!got.rule.startsWith('model:')) continue;
        expect(`${e.title}: ${got.category}`).not.toMatch(CLIENT_FACING_END);
      }
    }
    // The model itself is sure that a "Technical Delivery Manager" is professional services, a head noun whose
    // meaning changes from one company to the next; no rule reads the title, so it stays 'other'.
    const input = { title: 'Technical Delivery Manager' };
    expect(predictRole(input.title).category).toBe('professional_services');
    expect(predictRole(input.title).probability).toBeGreaterThan(0.9);
    expect(explainRole(input)).toEqual({ category: 'other', rule: 'default:other' });
    // A title some client-facing rule or function rule reads is never the model's to decide.
    const ruled = explainRole({ title: 'Senior Partner Manager', department: 'Customer' });
    expect(ruled.rule).toBe('title:sales');
  });

  it("does not carry one company's idiom to another: words alone do not decide without the head noun", () => {
    // "Member of Technical Staff" is a common engineering title in the training sets; a store's team member is not.
    expect(
      explainRole({ title: 'DashMart Team Member - Tempe', department: '112 Order Fulfillment' }),
    ).toEqual({
      category: 'other',
      rule: 'default:other',
    });
  });
});
