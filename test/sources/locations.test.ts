import { describe, expect, it } from 'vitest';
import { parseLocations } from '../../src/sources/normalize/locations.js';

const place = (name: string, city: string | null, region: string | null, country: string | null) => ({
  name,
  city,
  region,
  country,
  remote: false,
  remoteScope: null,
});
const remote = (name: string, scope: string | null, country: string | null = null) => ({
  name,
  city: null,
  region: null,
  country,
  remote: true,
  remoteScope: scope,
});

describe('location strings become places', () => {
  it.each([
    ['San Francisco, CA', [place('San Francisco, CA', 'San Francisco', 'CA', 'US')]],
    ['Toronto, ON, Canada', [place('Toronto, ON, Canada', 'Toronto', 'ON', 'CA')]],
    ['London, UK', [place('London, UK', 'London', null, 'GB')]],
    ['Berlin', [place('Berlin', 'Berlin', null, 'DE')]],
    ['Springfield, IL', [place('Springfield, IL', 'Springfield', 'IL', 'US')]],
    ['London, Ontario, Canada', [place('London, Ontario, Canada', 'London', 'ON', 'CA')]],
    ['Hybrid - London', [place('Hybrid - London', 'London', null, 'GB')]],
    ['Germany', [place('Germany', null, null, 'DE')]],
    ['Base Camp 7', [place('Base Camp 7', null, null, null)]],
    ['Remote - US', [remote('Remote - US', 'US', 'US')]],
    ['Remote (Europe)', [remote('Remote (Europe)', 'Europe')]],
    ['EMEA', [remote('EMEA', 'EMEA')]],
    ['Remote', [remote('Remote', null)]],
    ['United States - Remote', [remote('United States - Remote', 'United States', 'US')]],
  ])('%s', (text, expected) => {
    expect(parseLocations([text])).toEqual(expected);
  });

  it('splits lists, keeps the first of duplicates, and reads city lists', () => {
    expect(
      parseLocations([
        'San Francisco, CA | New York, NY',
        'San Francisco, CA; Remote - US',
        'New York City',
      ]).map((l) => l.name),
    ).toEqual(['San Francisco, CA', 'New York, NY', 'Remote - US']);
    expect(parseLocations(['San Francisco, New York, London']).map((l) => [l.city, l.country])).toEqual([
      ['San Francisco', 'US'],
      ['New York', 'US'],
      ['London', 'GB'],
    ]);
    expect(parseLocations(['  San\u00a0Francisco,\tCA  ', 'san francisco, ca'])).toEqual([
      place('San Francisco, CA', 'San Francisco', 'CA', 'US'),
    ]);
    expect(parseLocations([null, '', ' ; '])).toEqual([]);
  });
});
