import { type TSchema, Type } from 'typebox';
import type { Query } from '../../../catalog/fields/define.js';
import { JOB_FILTERS } from '../../../catalog/fields/job-filters.js';
import { ROLE_CATEGORIES } from '../../../catalog/vocabulary.js';
import { DEFAULT_SPAN_DAYS, INTERVALS, MAX_SPAN_DAYS } from '../../../signals/periods.js';
import { dataOf } from '../../schemas/common.js';

/** Query and response schemas of the hiring-signal operations. */

/** role_category and client_facing, exactly as GET /jobs declares them (catalog/fields/job-filters.ts). */
const ROLE_FILTER = JOB_FILTERS.find((d) => d.key === 'roleCategories') as Extract<
  (typeof JOB_FILTERS)[number],
  { key: 'roleCategories' }
>;
export const roleParams = () => ROLE_FILTER.params;
/** The categories a query asks for: role_category and/or client_facing; undefined when it names none. */
export const askedCategories = (q: Query): string[] | undefined => ROLE_FILTER.parse(q, 0);
/** The asked categories, or every category. */
export const categoriesOrAll = (q: Query): string[] => askedCategories(q) ?? [...ROLE_CATEGORIES];

const DateParam = (description: string, example: string) =>
  Type.Optional(
    Type.String({ maxLength: 10, description: `${description} (YYYY-MM-DD, UTC)`, examples: [example] }),
  );

export const RangeParams = {
  from: DateParam(
    `First day. Default: ${DEFAULT_SPAN_DAYS.day} days before 'to' by day, ${DEFAULT_SPAN_DAYS.week / 7} weeks by ` +
      `week, ${DEFAULT_SPAN_DAYS.month} days by month; rounded down to the start of its period. At most ` +
      `${MAX_SPAN_DAYS.day} days before 'to' by day, ${MAX_SPAN_DAYS.week} by week or month; after 'to' is a 400`,
    '2026-01-01',
  ),
  to: DateParam('Last day, inclusive. Default and maximum: today', '2026-11-20'),
};

export const SeriesParams = {
  ...RangeParams,
  interval: Type.Optional(
    Type.Enum(INTERVALS, {
      description: 'Period length: day, week (ISO, from Monday) or month; default week',
      examples: ['week'],
    }),
  ),
  ...roleParams(),
  by: Type.Optional(
    Type.Enum(['total', 'role_category'], {
      description:
        'total (default): one series over the categories counted, about 85 bytes a period (52 weeks: ~5 KB, ' +
        '366 days: ~31 KB); role_category: also byRoleCategory, as much again per category on record (up to ' +
        '~90 KB by week, ~400 KB by day). For one category, role_category=<it>: the total is its series',
      examples: ['role_category'],
    }),
  ),
  format: Type.Optional(
    Type.Enum(['json', 'svg'], {
      description: 'json (default) or svg: the series as a chart (image/svg+xml) to embed with <img src>',
      examples: ['svg'],
    }),
  ),
};

/** The trend's extra parameter: the role mix per period, only when asked for. */
export const ShareParam = {
  share: Type.Optional(
    Type.Enum(['client_facing'], {
      description:
        'client_facing: adds clientFacingOpened and clientFacingShare to each period (about 50 bytes a period)',
      examples: ['client_facing'],
    }),
  ),
};

const count = (description: string) => Type.Integer({ minimum: 0, description });

export const PointSchema = Type.Object({
  period: Type.String({ description: 'First day of the period (YYYY-MM-DD)', examples: ['2026-11-16'] }),
  opened: count('Jobs first seen in the period (not those found when a company or board was added)'),
  reopened: count('Jobs active again after closing'),
  closed: count('Jobs that went inactive'),
  active: count('Active jobs at the end of the period (or of `to`)'),
  partial: Type.Boolean({ description: 'The period is partly before tracking began or after `to`' }),
});

/** Per-category series, present only when by=role_category asks for them. */
const byRoleCategory = (description: string) =>
  Type.Optional(
    Type.Array(
      Type.Object({ roleCategory: Type.String({ examples: ['fde'] }), series: Type.Array(PointSchema) }),
      { description },
    ),
  );

const SeriesMeta = {
  interval: Type.Enum(INTERVALS),
  from: Type.String({ description: 'First day asked for', examples: ['2026-01-01'] }),
  to: Type.String({ description: 'Last day answered (at most today)', examples: ['2026-11-20'] }),
  trackedSince: Type.Union([Type.String(), Type.Null()], {
    description: 'First day on record; periods before it are absent, not zero. null: nothing on record',
    examples: ['2025-11-22'],
  }),
  roleCategories: Type.Array(Type.String(), { description: 'The categories counted' }),
};

export const TimeToCloseSchema = Type.Object({
  medianDays: Type.Union([Type.Number(), Type.Null()], {
    description: 'Median days from first seen to closing, of jobs whose opening was seen; null: none closed',
    examples: [34.5],
  }),
  closedJobs: count('Closings counted'),
});

const CompanyRefSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  slug: Type.String({ examples: ['anthropic'] }),
  name: Type.String({ examples: ['Anthropic'] }),
});

export const CompanyHiringSchema = Type.Object({
  company: CompanyRefSchema,
  ...SeriesMeta,
  series: Type.Array(PointSchema, { description: 'Totals over the categories counted' }),
  byRoleCategory: byRoleCategory('With by=role_category only: the same periods per category on record'),
  timeToClose: TimeToCloseSchema,
});

export const TrendsSchema = Type.Object({
  ...SeriesMeta,
  series: Type.Array(
    Type.Object({
      ...PointSchema.properties,
      clientFacingOpened: Type.Optional(
        count(
          'With share=client_facing only: opened in the seven client-facing categories (whatever the role filter)',
        ),
      ),
      clientFacingShare: Type.Optional(
        Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
          description:
            'With share=client_facing only: clientFacingOpened over opened in every category, the role mix; ' +
            'null when nothing opened',
          examples: [0.42],
        }),
      ),
    }),
  ),
  byRoleCategory: byRoleCategory(
    'With by=role_category only: the same periods per category counted with active jobs or events in the range',
  ),
});

export const NewlyHiringSchema = Type.Object({
  since: Type.String({ description: 'First day of the window', examples: ['2026-10-22'] }),
  roleCategories: Type.Array(Type.String()),
  companies: Type.Array(
    Type.Object({
      company: CompanyRefSchema,
      firstOpenedOn: Type.String({ description: 'The day of their first opening in the categories' }),
      jobs: Type.Array(
        Type.Object({
          id: Type.String({ format: 'uuid' }),
          title: Type.String(),
          roleCategory: Type.String(),
          openedAt: Type.String({ format: 'date-time' }),
          active: Type.Boolean(),
        }),
        { description: 'The openings from that day on (at most 5)' },
      ),
    }),
  ),
});

export const TimeToCloseReportSchema = Type.Object({
  from: Type.String(),
  to: Type.String(),
  roleCategories: Type.Array(Type.String()),
  overall: TimeToCloseSchema,
  byRoleCategory: Type.Array(Type.Object({ roleCategory: Type.String(), ...TimeToCloseSchema.properties })),
});

/** A 200 that is JSON, or an SVG chart with ?format=svg. */
export const jsonOrSvg = (schema: TSchema, description: string) => ({
  description,
  content: {
    'application/json': { schema: dataOf(schema) },
    'image/svg+xml': { schema: Type.String({ description: 'The series as an SVG chart (?format=svg)' }) },
  },
});
