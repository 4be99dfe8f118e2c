import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { RoleCategory } from '../../src/catalog/types.js';
import { classifyRole, explainRole } from '../../src/pipeline/classify/classify.js';

interface Item {
  title: string;
  department?: string;
  category: RoleCategory;
}
const load = (name: string) =>
  (
    JSON.parse(readFileSync(new URL(`../../bench/classification/${name}.json`, import.meta.url), 'utf8')) as {
      items: Item[];
    }
  ).items;

describe('role classification', () => {
  it.each([
    ['Forward Deployed Engineer', null, 'fde'],
    ['Deployment Strategist', null, 'fde'],
    ['Applied AI Engineer (customer-facing)', null, 'fde'],
    ['Applied AI Engineer', null, 'engineering'],
    ['Solutions Architect', null, 'solutions_engineer'],
    ['Customer Engineer', null, 'sales_engineer'],
    ['Technical Account Manager', null, 'tam'],
    ['Implementation Consultant', null, 'implementation'],
    ['Engagement Manager', null, 'professional_services'],
    ['Customer Success Manager', null, 'csm'],
    ['Product Marketing Manager', null, 'marketing'],
    ['Recruiter, Forward Deployed Engineering', null, 'hr'],
    ['Software Engineer', 'Forward Deployed Engineering', 'fde'],
    ['Software Engineer', 'Sales', 'engineering'],
    ['Consultant', 'Professional Services', 'professional_services'],
    ['Head of Strategy', 'Operations', 'operations'],
    ['Wizard', null, 'other'],
    ['', null, 'other'],
  ] as const)('%s [%s] → %s', (title, dept, expected) => {
    expect(classifyRole(title, dept)).toBe(expected);
  });

  it('client-facing wins over a broad function in the same title (tie-break order)', () => {
    expect(classifyRole('Sales Engineer')).toBe('sales_engineer');
    expect(classifyRole('Pre-Sales Solutions Architect')).toBe('solutions_engineer');
    expect(explainRole('Professional Services Implementation Manager').category).toBe('implementation');
  });

  it('seniority words, locations, work-mode suffixes and parenthesised team names never change the category', () => {
    const variants = (t: string) => [
      `Senior ${t}`,
      `Staff ${t}`,
      `Principal ${t}`,
      `Lead ${t}`,
      `${t} (Remote)`,
      `${t} - London`,
      `${t}, EMEA`,
      `${t} | New York, NY`,
      `${t} (Platform Team)`,
      `${t} – Remote (US)`,
    ];
    const items = [...load('dev'), ...load('holdout')].filter((i) => !/[(,|–-]/.test(i.title));
    let checked = 0;
    for (const item of items) {
      const base = classifyRole(item.title, item.department);
      for (const v of variants(item.title)) {
        expect(`${v} → ${classifyRole(v, item.department)}`).toBe(`${v} → ${base}`);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(1500);
  });

  it('reaches 95% on the labelled sets, held-out part included', () => {
    for (const name of ['dev', 'holdout']) {
      const items = load(name);
      const correct = items.filter((i) => classifyRole(i.title, i.department) === i.category).length;
      expect(correct / items.length).toBeGreaterThanOrEqual(0.95);
    }
    expect(load('dev').length + load('holdout').length).toBeGreaterThanOrEqual(300);
  });
});
