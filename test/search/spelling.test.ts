import { describe, expect, it } from 'vitest';
import { lexemeOf } from '../../src/search/keyword-index/lexemes.js';
import { editDistance, Spelling } from '../../src/search/query/spelling.js';

/** The vocabulary's corrections, with document frequencies given per lexeme. */
function vocabulary(titles: Record<string, number>, companyWords: string[] = []) {
  const s = new Spelling();
  const df = new Map<string, number>();
  for (const [word, count] of Object.entries(titles)) {
    s.add(word, lexemeOf(word), true);
    df.set(lexemeOf(word), (df.get(lexemeOf(word)) ?? 0) + count);
  }
  for (const word of companyWords) {
    s.add(word, lexemeOf(word), false);
    df.set(lexemeOf(word), (df.get(lexemeOf(word)) ?? 0) + 3);
  }
  const frequency = (l: string) => df.get(l) ?? 0;
  return (word: string) => s.correct(word, lexemeOf(word), frequency(lexemeOf(word)), frequency)?.to;
}

describe('edit distance (optimal string alignment)', () => {
  it.each([
    ['sucess', 'success', 1],
    ['solutons', 'solutions', 1],
    ['recieve', 'receive', 1],
    ['engineer', 'engineer', 0],
    ['kubernetes', 'kuberentse', 2],
    ['abc', 'xyz', 3],
  ])('%s -> %s is %i', (a, b, d) => {
    expect(editDistance(a, b, 3)).toBe(d);
  });

  it('stops past the cap', () => {
    expect(editDistance('platform', 'customer', 1)).toBe(2);
  });
});

describe('Spelling', () => {
  const correct = vocabulary(
    {
      solutions: 40,
      success: 30,
      customer: 50,
      engineer: 90,
      platform: 10,
      kubernetes: 5,
      sales: 20,
      scales: 1,
    },
    ['anthropic', 'modal', 'adept'],
  );

  it('corrects a word 1 edit away from 4 characters, 2 from 8', () => {
    expect(correct('sucess')).toBe('success');
    expect(correct('solutons')).toBe('solutions');
    expect(correct('kubrenetes')).toBe('kubernetes');
    expect(correct('kubernets')).toBeUndefined(); // its lexeme is Kubernetes' own: it matches as typed
    expect(correct('kuberntes')).toBe('kubernetes');
    expect(correct('engeneer')).toBe('engineer');
    expect(correct('custmer')).toBe('customer');
  });

  it('allows only as many edits as the length earns', () => {
    expect(correct('sucss')).toBeUndefined(); // 2 edits, 5 characters
    expect(correct('sle')).toBeUndefined(); // under 4 characters: never
  });

  it('leaves known words alone, and corrects a rare one only to a far more frequent word', () => {
    expect(correct('engineer')).toBeUndefined();
    expect(correct('scales')).toBeUndefined(); // 1 document against 20: both may be meant
  });

  it('corrects to words met only in company names from 8 characters only', () => {
    expect(correct('antropic')).toBe('anthropic');
    expect(correct('model')).toBeUndefined();
    expect(correct('adopt')).toBeUndefined();
  });

  it('picks the most frequent of the closest words', () => {
    // "accunt" is 1 edit from both.
    expect(vocabulary({ account: 30, accent: 2 })('accunt')).toBe('account');
    expect(vocabulary({ account: 2, accent: 30 })('accunt')).toBe('accent');
  });
});
