import { Type } from 'typebox';
import { badRequest } from '../../errors.js';
import { WORLDWIDE } from '../../sources/normalize/job-places.js';
import { countryOf, REGION_IDS, regionOf } from '../../sources/normalize/regions.js';
import { jobFilter, type MaskBuilder } from './define.js';
import type { SetColumn } from './job-record.js';
import { listParam, optionalText, QueryText } from './params.js';

/**
 * The place filters of GET /jobs: country, region and remote_scope, over the places each job derives from its
 * location text (src/sources/normalize/job-places.ts, stored by migration 0170). A place is in a region when all
 * of it is, so a job remote within EMEA is in emea but not in europe; a job matches when any of its places does.
 */

/** Rows whose comma-joined codes in `column` hold any of `codes`. */
const anyOf = (m: MaskBuilder, column: SetColumn, codes: readonly string[]) =>
  m.where(column, (key) => key.split(',').some((c) => codes.includes(c)));

/** `column && codes` over jobs, which the column's GIN index answers. */
const overlaps =
  (column: string) => (v: readonly string[], to: { alias: string; param(v: unknown): string }) =>
    `${to.alias}.${column} && ${to.param(v)}::text[]`;

// Stryker disable next-line MethodExpression: equivalent, an unsorted key only keeps two memo entries of the same jobs
const sortedKey = (v: readonly string[]) => [...v].sort();

export const country = jobFilter({
  key: 'country',
  facet: 'country',
  params: {
    country: QueryText(
      'Comma-separated countries, any of them: ISO 3166-1 alpha-2 codes or English names, case-insensitive ' +
        '(e.g. DE, Germany, UK); a job matches when one of its places is in one, a remote place\u2019s scope ' +
        'included ("Remote - US" is in US); blank = no filter',
      undefined,
      500,
    ),
  },
  parse: (q) =>
    listParam(
      'country',
      q.country,
      countryOf,
      'the known countries (ISO 3166-1 alpha-2 codes or names, e.g. DE)',
    ),
  sql: overlaps('countries'),
  replica: { mask: (v, m) => anyOf(m, 'countries', v) },
  memoKey: sortedKey,
});

export const region = jobFilter({
  key: 'region',
  facet: 'region',
  params: {
    region: Type.Optional(
      Type.Enum(REGION_IDS, {
        description:
          'Jobs with a place inside this region (a remote place\u2019s scope included): a place is inside when all ' +
          'of it is, so "Remote - EMEA" is in emea but not in europe, while "Remote - Europe" and "Berlin, ' +
          'Germany" are in both; dach, nordics and uk_ireland lie in europe, europe in emea, north_america and ' +
          'latam in americas',
      }),
    ),
  },
  parse: (q) => (typeof q.region === 'string' ? [q.region] : undefined),
  sql: overlaps('regions'),
  replica: { mask: (v, m) => anyOf(m, 'regions', v) },
});

export const remoteScope = jobFilter({
  key: 'remoteScope',
  facet: 'remote_scope',
  params: {
    remote_scope: QueryText(
      'Remote jobs open within this place: a country (ISO 3166-1 alpha-2 code or name), a region (as region) or ' +
        `${WORLDWIDE} (remote from anywhere); "Remote - Germany" is within DE, dach, europe and emea. Blank = no ` +
        'filter',
      undefined,
      100,
    ),
  },
  parse(q): string[] | undefined {
    const text = optionalText(q.remote_scope);
    if (text === undefined) return undefined;
    const scope = text.toLowerCase() === WORLDWIDE ? WORLDWIDE : (countryOf(text) ?? regionOf(text));
    if (scope === undefined) {
      throw badRequest(
        `Invalid query parameter 'remote_scope': '${text}' is not a known country, a region ` +
          `(${REGION_IDS.join(', ')}) or ${WORLDWIDE}`,
      );
    }
    return [scope];
  },
  sql: overlaps('remote_scopes'),
  replica: { mask: (v, m) => anyOf(m, 'remoteScopes', v) },
});
