import { type TSchema, Type } from 'typebox';
import {
  CompanyCategorySchema,
  optionalText,
  RoleCategorySchema,
  slugListParam,
  slugParam,
} from '../../catalog/fields/params.js';
import { TAG_DIMENSIONS } from '../../catalog/types.js';
import { REGION_IDS } from '../../sources/normalize/regions.js';
import { PAY_PERIODS } from '../../sources/normalize/salary.js';
import { WORKPLACES } from '../../sources/normalize/workplace.js';

/**
 * Response and parameter schemas of the catalog routes (docs/catalog.md). Response schemas double as the
 * serializer, so a field missing here never reaches a client: list items carry exactly the documented fields (docs/catalog.md).
 */

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Timestamp = (description: string) =>
  Type.String({ format: 'date-time', description, examples: ['2026-11-20T09:30:00.000Z'] });
const Id = (description: string) =>
  Type.String({ format: 'uuid', description, examples: ['3f7c1c52-8a0e-4f57-9d6e-2b1c0e7a4d11'] });

export { CompanyCategorySchema, optionalText, RoleCategorySchema, slugListParam, slugParam };

const Ranges = (where: string) =>
  Type.Array(Type.Array(Type.Integer({ minimum: 0 }), { minItems: 2, maxItems: 2 }), {
    description: `[start, end) character offsets (UTF-16 code units) of matched words ${where}`,
    examples: [[[0, 9]]],
  });

export const JobListItemSchema = Type.Object(
  {
    id: Id('Job id'),
    title: Type.String({ examples: ['Forward Deployed Engineer'] }),
    company: Type.Object(
      {
        name: Type.String({ examples: ['Anthropic'] }),
        slug: Type.String({ description: 'Use with ?company= or /companies/:id', examples: ['anthropic'] }),
      },
      { description: 'The employer' },
    ),
    location: Type.String({ description: 'As the posting states it', examples: ['San Francisco, CA'] }),
    remote: Type.Boolean({ description: 'The posting allows remote work' }),
    roleCategory: RoleCategorySchema,
    url: Type.String({ description: 'The posting on the employer’s site or job board' }),
    postedAt: Timestamp('When the posting was published (ISO 8601, UTC)'),
    active: Type.Optional(
      Type.Boolean({
        description: 'Only with updated_since (delta sync): false once the posting has closed',
      }),
    ),
    updatedAt: Type.Optional(
      Timestamp('Only with updated_since: when the item last changed; with id, the cursor of the next page'),
    ),
    highlight: Type.Optional(
      Type.Object(
        { title: Ranges('in the title'), company: Ranges('in company.name') },
        {
          description:
            'Only with search: the words the query matched (as typed, as corrected for typos, or the last word as a prefix)',
        },
      ),
    ),
    explain: Type.Optional(
      Type.Object(
        {
          score: Type.Number({ description: 'The fused relevance score; the shortlist is ordered by it' }),
          lists: Type.Record(Type.String(), Type.Number(), {
            description:
              'What each ranked list contributed: keyword (title and company words, typo corrections), semantic ' +
              '(meaning), company (the company named), place (the place named), boost (role, place and ' +
              'company + role hints)',
            examples: [{ keyword: 0.0279, semantic: 0.0164, boost: 0.0082 }],
          }),
        },
        { description: 'Only with search and explain=true (token callers): why the job ranks where it does' },
      ),
    ),
  },
  { description: 'A job in a list' },
);

const SalarySchema = Type.Object(
  {
    min: Type.Number({
      description: 'Lowest pay of the range, in currency units per period',
      examples: [180000],
    }),
    max: Type.Number({
      description: 'Highest pay of the range (equals min for a single amount)',
      examples: [240000],
    }),
    currency: Type.String({ description: 'ISO 4217 code', examples: ['USD'] }),
    period: Type.Enum(PAY_PERIODS, { description: 'What one amount pays for', examples: ['year'] }),
    source: Type.Enum(['structured', 'description'], {
      description:
        "'structured': the job board's pay fields; 'description': a range stated in the description",
      examples: ['structured'],
    }),
  },
  { description: 'Pay range; null when the posting states none or states it ambiguously' },
);

const JobLocationSchema = Type.Object(
  {
    name: Type.String({ description: 'The place as the posting writes it', examples: ['San Francisco, CA'] }),
    city: Nullable(Type.String({ examples: ['San Francisco'] })),
    region: Nullable(Type.String({ description: 'US state or Canadian province code', examples: ['CA'] })),
    country: Nullable(Type.String({ description: 'ISO 3166-1 alpha-2 code', examples: ['US'] })),
    remote: Type.Boolean({ description: 'A remote place ("Remote - US", "EMEA")' }),
    remoteScope: Nullable(
      Type.String({ description: 'Where remote work is allowed, as stated', examples: ['US', 'EMEA'] }),
    ),
  },
  { description: 'One place of the posting, parsed where recognised (unrecognised parts are null)' },
);

/** What the country, region and remote_scope filters of GET /jobs match, derived from the locations. */
const JobPlacesSchema = Type.Object(
  {
    countries: Type.Array(Type.String({ description: 'ISO 3166-1 alpha-2 code' }), {
      description: 'Countries of the places, remote scopes included',
      examples: [['DE']],
    }),
    regions: Type.Array(Type.Enum(REGION_IDS), {
      description: 'Regions holding all of a place (a job remote within EMEA is in emea, not europe)',
      examples: [['dach', 'emea', 'europe']],
    }),
    remoteScopes: Type.Array(Type.String(), {
      description: 'Where the remote places are open: country codes, regions, or worldwide',
      examples: [[]],
    }),
  },
  { description: 'The places as the country, region and remote_scope filters match them' },
);

export const JobDetailSchema = Type.Object(
  {
    ...Type.Omit(JobListItemSchema, ['highlight', 'explain']).properties,
    description: Type.String({ description: 'Full text of the posting' }),
    department: Nullable(Type.String({ description: 'Department or team, when the posting names one' })),
    workplace: Type.Enum(WORKPLACES, {
      description:
        "remote (remote only), hybrid, onsite or unknown (not stated): the vendor's structured field first, else " +
        'the location text. `remote` is true exactly when this is remote',
      examples: ['hybrid'],
    }),
    salary: Nullable(SalarySchema),
    locations: Type.Array(JobLocationSchema, {
      description: 'The places of `location`, de-duplicated, in the order stated',
    }),
    places: JobPlacesSchema,
    source: Type.String({ description: 'Where the posting was collected: a job-board vendor, or sample' }),
    firstSeenAt: Timestamp('When the catalog first saw the posting'),
    lastSeenAt: Timestamp('When the catalog last saw the posting open'),
    boardPostedAt: Nullable(
      Timestamp(
        'When the job board says the posting was first published (Greenhouse first_published, Lever createdAt, ' +
          'Ashby publishedAt, ...); null when the vendor gives no such date, and postedAt is then firstSeenAt',
      ),
    ),
    boardUpdatedAt: Nullable(
      Timestamp(
        'When the job board says the posting was last edited; null when the vendor gives no such date',
      ),
    ),
    openDays: Type.Integer({
      minimum: 0,
      description:
        'Whole days from postedAt to lastSeenAt: how long the opening has been listed (or was, once closed)',
      examples: [12],
    }),
    reposts: Type.Integer({
      minimum: 0,
      description:
        'How many times the opening was closed and posted again under a new id (postedAt and firstSeenAt are ' +
        'then the first posting’s)',
      examples: [0],
    }),
    repostOf: Nullable(
      Type.String({ format: 'uuid', description: 'The id of the closed posting this one reposts, or null' }),
    ),
    active: Type.Boolean({
      description: 'false once the posting has closed; such jobs are no longer listed',
    }),
    sample: Type.Boolean({ description: 'true for the bundled sample postings (not real openings)' }),
    classification: Type.Object(
      {
        category: RoleCategorySchema,
        rule: Nullable(
          Type.String({
            description:
              'What decided the category: a stable rule id (title:<id>, department:<id>, description:<id>, ' +
              'default:other) or the learned model with its strongest features (model:<features>). Quote it ' +
              'when reporting a wrong category. Null for sample ' +
              'postings and jobs not scraped since rules were recorded.',
            examples: ['title:fde-keyword'],
          }),
        ),
      },
      { description: 'How the role category was decided' },
    ),
    company: Type.Object({
      id: Id('Company id'),
      name: Type.String({ examples: ['Anthropic'] }),
      slug: Type.String({ examples: ['anthropic'] }),
      domain: Type.String({ examples: ['anthropic.com'] }),
      oneLiner: Type.String({ description: 'Short description' }),
      website: Nullable(Type.String({ examples: ['https://www.anthropic.com'] })),
    }),
  },
  { description: 'One job with its full description and company details' },
);

export const CompanyTagSchema = Type.Object({
  dimension: Type.Enum(TAG_DIMENSIONS, { examples: ['industry'] }),
  value: Type.String({ description: 'Display value', examples: ['Developer Tools'] }),
  slug: Type.String({ description: 'Used in company filters', examples: ['developer-tools'] }),
});

export const CompanyListItemSchema = Type.Object(
  {
    id: Id('Company id'),
    name: Type.String({ examples: ['Anthropic'] }),
    slug: Type.String({ examples: ['anthropic'] }),
    domain: Type.String({ description: 'Company domain', examples: ['anthropic.com'] }),
    oneLiner: Type.String({
      description: 'Short description',
      examples: ['AI safety company building Claude'],
    }),
    tags: Type.Array(CompanyTagSchema, { description: 'Ordered by dimension, then value' }),
  },
  { description: 'A company in a list' },
);

export const CompanyDetailSchema = Type.Object(
  {
    ...CompanyListItemSchema.properties,
    activeJobCount: Type.Integer({ minimum: 0, description: 'Active jobs listed for the company' }),
    website: Nullable(Type.String({ examples: ['https://www.anthropic.com'] })),
    category: CompanyCategorySchema,
    description: Nullable(Type.String({ description: 'Longer description' })),
    foundedYear: Nullable(Type.Integer({ examples: [2021] })),
    employeeCount: Nullable(Type.Integer({ minimum: 0, description: 'Approximate headcount' })),
    headquarters: Nullable(Type.String({ examples: ['San Francisco, CA'] })),
    funding: Type.Object({
      summary: Nullable(
        Type.String({ description: 'Funding in words', examples: ['Series F, $7.3B total'] }),
      ),
      totalUsd: Nullable(Type.Integer({ minimum: 0, description: 'Total funding raised, in US dollars' })),
    }),
    socialLinks: Type.Record(Type.String(), Type.String(), {
      description: 'Profile URLs keyed by network (linkedin, x, github, ...)',
      examples: [{ linkedin: 'https://www.linkedin.com/company/anthropicresearch' }],
    }),
    logoUrl: Nullable(Type.String()),
    researchSummary: Nullable(
      Type.String({ description: 'Summary of the research dossier; null until one exists' }),
    ),
    active: Type.Boolean({
      description: 'false once the company is no longer tracked; it is then not listed',
    }),
    sample: Type.Boolean({ description: 'true for companies loaded from the bundled sample catalog' }),
    createdAt: Timestamp('When the company entered the catalog'),
    updatedAt: Timestamp('Last change to the company’s facts'),
  },
  { description: 'One company with its tags, active job count and full metadata' },
);

const TagEntry = Type.Object({
  value: Type.String({ examples: ['Series B'] }),
  slug: Type.String({ examples: ['series-b'] }),
});

export const TagListingSchema = Type.Object(
  Object.fromEntries(
    TAG_DIMENSIONS.map((d) => [
      d,
      Type.Array(TagEntry, { description: `Tags of dimension ${d}, sorted by value` }),
    ]),
  ),
  { description: 'Every dimension, always present; tags carried by at least one active company' },
);

export const StatsSchema = Type.Object({
  totalJobs: Type.Integer({ minimum: 0, description: 'Active jobs', examples: [1234] }),
  totalCompanies: Type.Integer({ minimum: 0, description: 'Active companies', examples: [48] }),
  newToday: Type.Integer({
    minimum: 0,
    description: 'Active jobs first seen since 00:00 UTC today',
    examples: [17],
  }),
});

/** `facets`: which facet counts meta.facets carries (see catalog/sql/facets.ts). */
export const FacetsParam = (names: readonly string[], example: string) =>
  Type.Optional(
    Type.String({
      maxLength: 500,
      description:
        `Comma-separated facets to count in meta.facets: ${names.join(', ')}. Each is counted over the rows all ` +
        'the other filters select, as if its own filter were absent (with search: over the shortlist). Unknown ' +
        'names are a 400.',
      examples: [example],
    }),
  );

/** Free-text search: at most 200 characters; blank means no search. */
export const SearchParam = (over: string, example: string) =>
  Type.Optional(
    Type.String({
      maxLength: 200,
      description: `Search over ${over}: a ranked shortlist of at most 100 results (meta.total is its size). Websearch syntax: "quoted phrase", or, -exclude; the last word also matches as a prefix. Blank = no search.`,
      examples: [example],
    }),
  );
