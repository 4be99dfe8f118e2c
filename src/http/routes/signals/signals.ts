import { Type } from 'typebox';
import { slugParam } from '../../../catalog/fields/params.js';
import { badRequest } from '../../../errors.js';
import { parseRange } from '../../../signals/periods.js';
import type { SignalsService } from '../../../signals/service.js';
import { dataOf, errorResponses } from '../../schemas/common.js';
import type { App } from '../../types.js';
import {
  askedCategories,
  categoriesOrAll,
  NewlyHiringSchema,
  RangeParams,
  roleParams,
  TimeToCloseReportSchema,
} from './schemas.js';

const MAX_DAYS = 365;
const MAX_COMPANIES = 100;

const NewlyQuery = Type.Object(
  {
    ...roleParams(),
    days: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_DAYS,
        default: 30,
        description: `Window in days, ending today (1–${MAX_DAYS})`,
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_COMPANIES,
        default: 50,
        description: `Companies at most (1–${MAX_COMPANIES})`,
      }),
    ),
  },
  { additionalProperties: false },
);

const CloseQuery = Type.Object(
  {
    ...RangeParams,
    ...roleParams(),
    company: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'Only this company (slug; an unknown slug matches nothing)',
        examples: ['anthropic'],
      }),
    ),
  },
  { additionalProperties: false },
);

/** GET /signals/newly-hiring: companies whose first opening in the categories falls in the window. */
export function newlyHiringRoute(app: App, signals: SignalsService, now: () => number): void {
  app.get(
    '/signals/newly-hiring',
    {
      config: { access: 'public', resource: 'companies', cache: true },
      schema: {
        operationId: 'listNewlyHiring',
        tags: ['signals'],
        summary: 'Companies that started hiring in a role category within the last days',
        description:
          'A company qualifies when its first job in the categories since we track it was an opening inside the ' +
          "window: jobs found on its first scrape (or a new board's) are coverage and disqualify it. Needs " +
          'role_category or client_facing=true. Most recent first, with the openings that did it.',
        querystring: NewlyQuery,
        response: { 200: dataOf(NewlyHiringSchema), ...errorResponses(400, 403) },
      },
    },
    async (request) => {
      const categories = askedCategories(request.query);
      if (!categories) {
        throw badRequest(
          "Missing query parameter 'role_category' (or client_facing=true): newly hiring in what?",
        );
      }
      const data = await signals.newlyHiring(
        categories,
        request.query.days ?? 30,
        now(),
        request.query.limit ?? 50,
      );
      return { data };
    },
  );
}

/** GET /signals/time-to-close: median days open of closed jobs, per category. */
export function timeToCloseRoute(app: App, signals: SignalsService, now: () => number): void {
  app.get(
    '/signals/time-to-close',
    {
      config: { access: 'public', resource: 'jobs', cache: true },
      schema: {
        operationId: 'getTimeToClose',
        tags: ['signals'],
        summary: 'Median days from first seen to closing, per role category',
        description:
          'Over jobs closed between from and to (default: the last 365 days) whose opening we saw: jobs found already ' +
          'open have no known start and are left out. Each closing counts once.',
        querystring: CloseQuery,
        response: { 200: dataOf(TimeToCloseReportSchema), ...errorResponses(400, 403) },
      },
    },
    async (request) => {
      // By month: the default span is the last 365 days and the longest five years.
      const range = parseRange({ ...request.query, interval: 'month' }, now());
      const slug = slugParam('company', request.query.company);
      return { data: await signals.timeToClose(range, categoriesOrAll(request.query), slug) };
    },
  );
}
