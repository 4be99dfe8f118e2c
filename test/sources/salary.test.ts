import { describe, expect, it } from 'vitest';
import { descriptionSalary, structuredSalary } from '../../src/sources/normalize/salary.js';

const range = (min: number, max: number, currency: string, period: string) => ({
  min,
  max,
  currency,
  period,
  source: 'description',
});

describe('pay stated in a description', () => {
  it.each([
    ['The base pay range is $280,000—$320,000 USD.', range(280000, 320000, 'USD', 'year')],
    ['Salary: €70k–90k plus equity', range(70000, 90000, 'EUR', 'year')],
    ['£50,000 - £60,000 depending on experience', range(50000, 60000, 'GBP', 'year')],
    ['Pay: $60/hour', range(60, 60, 'USD', 'hour')],
    ['$45 - $55 per hour, paid weekly', range(45, 55, 'USD', 'hour')],
    ['USD 120,000 - 150,000 per year', range(120000, 150000, 'USD', 'year')],
    ['between $150K and $200K annually', range(150000, 200000, 'USD', 'year')],
    ['Gehalt: €70.000 – €90.000 brutto', range(70000, 90000, 'EUR', 'year')],
    ['120 000 € - 140 000 €', range(120000, 140000, 'EUR', 'year')],
    ['SF: $150,000-$180,000. Elsewhere in the US: $130,000-$160,000.', range(130000, 180000, 'USD', 'year')],
    ['$8,000 - $9,500 per month', range(8000, 9500, 'USD', 'month')],
  ])('%s', (text, expected) => {
    expect(descriptionSalary(text)).toEqual(expected);
  });

  it.each([
    ['We raised $100M from great investors.'],
    ['Our customers drive $10-20M in revenue.'],
    ['A $1,000 learning stipend and a 401(k).'],
    ['$60 - $80 for each completed review'],
    ['CA$120,000 - CA$150,000'],
    ['$120,000 - $150,000 CAD'],
    ['US: $150,000 - $180,000; UK: £100,000 - £120,000'],
    ['$150,000 - $180,000 a year, or $70 - $90 per hour as a contractor'],
    ['Work 20-30 hours per week between 2024-2026'],
    ['¥8,000,000 - ¥10,000,000'],
    ['$20k signing bonus; total up to $150k'],
  ])('no range: %s', (text) => {
    expect(descriptionSalary(text)).toBeNull();
  });
});

describe('pay from vendor fields', () => {
  it('keeps the vendor range as entered, however wide, in any ISO currency', () => {
    expect(
      structuredSalary({ currency: 'usd', min: 10000, max: 125000, interval: 'year', text: null }),
    ).toEqual({ min: 10000, max: 125000, currency: 'USD', period: 'year', source: 'structured' });
    expect(
      structuredSalary({ currency: 'CAD', min: 120000, max: 150000, interval: null, text: null }),
    ).toEqual({ min: 120000, max: 150000, currency: 'CAD', period: 'year', source: 'structured' });
    expect(
      structuredSalary({ currency: 'USD', min: 32.34, max: 40.5, interval: 'hour', text: null }),
    ).toEqual({
      min: 32.34,
      max: 40.5,
      currency: 'USD',
      period: 'hour',
      source: 'structured',
    });
  });

  it('reads the summary when the vendor gives no numbers, and refuses what it cannot place', () => {
    expect(
      structuredSalary({ currency: null, min: null, max: null, interval: null, text: '$81K – $87K' }),
    ).toEqual({ min: 81000, max: 87000, currency: 'USD', period: 'year', source: 'structured' });
    // No period and too small to be a yearly salary: an hourly, daily or monthly rate, unknown which.
    expect(
      structuredSalary({ currency: 'USD', min: 4000, max: 5000, interval: null, text: null }),
    ).toBeNull();
    expect(
      structuredSalary({ currency: 'dollars', min: 1, max: 2, interval: 'hour', text: null }),
    ).toBeNull();
    expect(structuredSalary(undefined)).toBeNull();
  });
});
