import { describe, expect, it } from 'vitest';
import { jobPlaces } from '../../src/sources/normalize/job-places.js';
import { COUNTRY_NAMES_INDEX } from '../../src/sources/normalize/places.js';
import {
  countryOf,
  placeLabel,
  placeNamedBy,
  REGION_IDS,
  regionOf,
  regionsOfArea,
  regionsOfCountry,
} from '../../src/sources/normalize/regions.js';

/** The region table (src/sources/normalize/regions.ts) and the places a job derives from its location text. */

describe('region table', () => {
  it('puts every country of the gazetteer in a region, so a region filter can find its jobs', () => {
    for (const code of new Set(COUNTRY_NAMES_INDEX.values())) {
      expect(regionsOfCountry(code).length, code).toBeGreaterThan(0);
    }
  });

  it('nests dach, nordics and uk_ireland in europe, europe in emea, north_america and latam in americas', () => {
    expect([...regionsOfCountry('DE')].sort()).toEqual(['dach', 'emea', 'europe']);
    expect([...regionsOfCountry('SE')].sort()).toEqual(['emea', 'europe', 'nordics']);
    expect([...regionsOfCountry('IE')].sort()).toEqual(['emea', 'europe', 'uk_ireland']);
    expect([...regionsOfCountry('AE')]).toEqual(['emea']);
    expect([...regionsOfCountry('US')].sort()).toEqual(['americas', 'north_america']);
    expect([...regionsOfCountry('BR')].sort()).toEqual(['americas', 'latam']);
    expect([...regionsOfCountry('JP')]).toEqual(['apac']);
  });

  it('places a remote area only in the regions that hold all of it', () => {
    expect([...regionsOfArea('EMEA')]).toEqual(['emea']);
    expect([...regionsOfArea('Europe')].sort()).toEqual(['emea', 'europe']);
    expect([...regionsOfArea('EU')].sort()).toEqual(['emea', 'europe']);
    expect([...regionsOfArea('LATAM')].sort()).toEqual(['americas', 'latam']);
    expect([...regionsOfArea('Worldwide')]).toEqual([]);
    expect([...regionsOfArea('Asia')]).toEqual([]);
  });

  it('reads countries by code or name and regions by id or word', () => {
    expect(countryOf('de')).toBe('DE');
    expect(countryOf(' United Kingdom ')).toBe('GB');
    expect(countryOf('Atlantis')).toBeUndefined();
    expect(regionOf('north_america')).toBe('north_america');
    expect(regionOf('North America')).toBe('north_america');
    expect(regionOf('atlantis')).toBeUndefined();
    expect(REGION_IDS.map(placeLabel)).toContain('the UK and Ireland');
    expect(placeLabel('de')).toBe('Germany');
  });

  it('takes region and country words from a query, but not the short codes that are words too', () => {
    expect(placeNamedBy('europe')).toEqual({ region: 'europe' });
    expect(placeNamedBy('north america')).toEqual({ region: 'north_america' });
    expect(placeNamedBy('uk')).toEqual({ country: 'GB' });
    expect(placeNamedBy('germany')).toEqual({ country: 'DE' });
    for (const word of ['de', 'in', 'it', 'na', 'america', 'engineer'])
      expect(placeNamedBy(word), word).toBeUndefined();
  });
});

describe('a job’s places', () => {
  it.each([
    ['Berlin, Germany', { countries: ['DE'], regions: ['dach', 'emea', 'europe'], remoteScopes: [] }],
    [
      'Remote - US',
      {
        countries: ['US'],
        regions: ['americas', 'north_america'],
        remoteScopes: ['US', 'americas', 'north_america'],
      },
    ],
    ['Remote - EMEA', { countries: [], regions: ['emea'], remoteScopes: ['emea'] }],
    [
      'San Francisco, CA (Hybrid)',
      { countries: ['US'], regions: ['americas', 'north_america'], remoteScopes: [] },
    ],
    [
      'London, United Kingdom; Remote - Worldwide',
      { countries: ['GB'], regions: ['emea', 'europe', 'uk_ireland'], remoteScopes: ['worldwide'] },
    ],
    ['Remote', { countries: [], regions: [], remoteScopes: [] }],
    ['', { countries: [], regions: [], remoteScopes: [] }],
  ])('%s', (location, places) => {
    expect(jobPlaces(location)).toEqual(places);
    // The search matches lower-cased locations: they derive the same places.
    expect(jobPlaces(location.toLowerCase())).toEqual(places);
  });
});
