import { describe, expect, it } from 'vitest';
import { readLexicon } from '../../src/search/embedders/static.js';
import { QueryTermParser } from '../../src/search/query/query-terms.js';
import { titleFit } from '../../src/search/query/title-fit.js';

/**
 * Query units (src/search/query/query-terms.ts) and how well a title answers them
 * (src/search/query/title-fit.ts): pure functions.
 */

const parser = new QueryTermParser(readLexicon().lexicon);
const fitOf = (query: string, title: string, role = 'other', places: string[] = []) =>
  titleFit(parser.parse(query, places, false).units, title, role);

describe('QueryTermParser', () => {
  it('leaves out the places named, as one word or a pair, and spells out abbreviations', () => {
    expect(parser.parse('PM new york', ['new york', 'york'], false).text).toBe('product manager');
    expect(parser.parse('NYC FDE', ['new york'], false).text).toBe('forward deployed engineer');
    expect(parser.parse('remote solutions engineer jobs', ['remote'], false).text).toBe('solutions engineer');
  });

  it('reads role phrases as their categories, and "customer-facing" as the client-facing group', () => {
    const terms = parser.parse('customer-facing engineer', [], false);
    expect(new Set(terms.roles)).toEqual(
      new Set([
        'fde',
        'solutions_engineer',
        'sales_engineer',
        'csm',
        'tam',
        'implementation',
        'professional_services',
      ]),
    );
    expect(terms.others).toBe('engineer');
    expect(parser.parse('customer success london', ['london'], false).roles).toEqual(['csm']);
  });
});

describe('titleFit', () => {
  it('prefers the title holding the words together, in order, and nothing else', () => {
    const exact = fitOf('data scientist', 'Data Scientist');
    const longer = fitOf('data scientist', 'Data Scientist, Growth & Analytics');
    expect(exact.coverage).toBe(1);
    expect(exact.precision).toBeGreaterThan(longer.precision);
    expect(fitOf('product manager', 'Product Manager, Growth').order).toBe(1);
    expect(fitOf('product manager', 'Product Marketing Manager').order).toBe(0);
  });

  it('counts an abbreviation met as itself or spelled out, and a role phrase met by the role', () => {
    expect(fitOf('PM', 'Product Manager').coverage).toBe(1);
    expect(fitOf('PM', 'PM - Finance Transformation').coverage).toBe(1);
    expect(fitOf('customer-facing engineer', 'Deployment Engineer', 'fde').coverage).toBe(1);
    expect(fitOf('customer-facing engineer', 'Platform Engineer', 'engineering').coverage).toBe(0.5);
  });

  it('matches the last word as a prefix while it is being typed', () => {
    const units = parser.parse('kube', [], true).units;
    expect(titleFit(units, 'Kubernetes Platform Engineer', 'engineering').coverage).toBe(1);
    expect(fitOf('kube', 'Kubernetes Platform Engineer').coverage).toBe(0);
  });
});
