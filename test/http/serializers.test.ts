import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { type TSchema, Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { serializableSchema, serializerFor } from '../../src/http/documents/serializers.js';
import { CandidateSchema } from '../../src/http/routes/discovery/schemas.js';
import { CompanyDetailSchema, JobDetailSchema } from '../../src/http/schemas/catalog.js';

type Schema = Record<string, unknown>;
const compile = SerializerSelector()({}, {});
/** fast-json-stringify on a schema exactly as given. */
const fastJson = (schema: unknown) =>
  compile({ schema, method: 'GET', url: '/', httpStatus: '200' }) as (v: unknown) => string;
const asIs = (schema: TSchema) => fastJson(schema);
/** The rewrite must leave nothing for fast-json-stringify to pick with an Ajv validator at run time. */
const unions = (schema: TSchema) =>
  JSON.stringify(serializableSchema(schema as unknown as Schema)).match(/"anyOf"/g);

const company = {
  id: '3f6c1f9e-5d0a-4c1e-9a43-6f1f3c1d2b10',
  name: 'Anthropic',
  slug: 'anthropic',
  domain: 'anthropic.com',
  oneLiner: 'AI safety company',
  tags: [{ dimension: 'industry', value: 'Developer Tools', slug: 'developer-tools' }],
  activeJobCount: 3,
  website: 'https://www.anthropic.com',
  category: 'frontier-lab',
  description: 'Longer “quoted” text\nwith a line break',
  foundedYear: 2021,
  employeeCount: 1000,
  headquarters: 'San Francisco, CA',
  funding: { summary: 'Series F', totalUsd: 7_300_000_000 },
  socialLinks: { linkedin: 'https://www.linkedin.com/company/anthropicresearch' },
  logoUrl: null,
  researchSummary: null,
  active: true,
  sample: false,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-02T00:00:00.000Z',
};

const NULLABLE_COMPANY_FIELDS = [
  'website',
  'description',
  'foundedYear',
  'employeeCount',
  'headquarters',
  'logoUrl',
  'researchSummary',
] as const;

describe('response serializers', () => {
  it('write the same bytes as the declared schema for companies, with each nullable field null and set', () => {
    const declared = asIs(CompanyDetailSchema);
    const rewritten = serializerFor(CompanyDetailSchema);
    expect(rewritten(company)).toBe(declared(company));
    for (const field of NULLABLE_COMPANY_FIELDS) {
      const value = { ...company, [field]: null, funding: { summary: null, totalUsd: null } };
      expect(rewritten(value)).toBe(declared(value));
    }
    expect(unions(CompanyDetailSchema)).toBeNull();
  });

  it('write the same bytes for jobs and discovery candidates', () => {
    const job = {
      id: '9b2e7c1a-3d4f-4e5a-8b6c-7d8e9f0a1b2c',
      title: 'Forward Deployed Engineer',
      company: {
        id: company.id,
        name: 'Anthropic',
        slug: 'anthropic',
        domain: 'anthropic.com',
        oneLiner: 'x',
        website: null,
      },
      location: 'London',
      remote: false,
      roleCategory: 'forward-deployed-engineer',
      url: 'https://example.com/jobs/1',
      postedAt: '2026-11-20T10:00:00.000Z',
      description: 'text',
      department: null,
      workplace: 'onsite',
      salary: { min: 180000, max: 240000, currency: 'USD', period: 'year', source: 'description' },
      locations: [
        { name: 'London', city: 'London', region: null, country: 'GB', remote: false, remoteScope: null },
      ],
      places: { countries: ['GB'], regions: ['emea', 'europe', 'uk_ireland'], remoteScopes: [] },
      source: 'greenhouse',
      firstSeenAt: '2026-11-20T10:00:00.000Z',
      lastSeenAt: '2026-11-21T10:00:00.000Z',
      boardPostedAt: null,
      boardUpdatedAt: '2026-11-20T09:00:00.000Z',
      openDays: 1,
      reposts: 0,
      repostOf: null,
      active: true,
      sample: false,
      classification: { category: 'fde', rule: 'title:fde-keyword' },
    };
    expect(serializerFor(JobDetailSchema)(job)).toBe(asIs(JobDetailSchema)(job));
    const withDepartment = {
      ...job,
      department: 'Sales',
      salary: null,
      classification: { category: 'fde', rule: null },
    };
    expect(serializerFor(JobDetailSchema)(withDepartment)).toBe(asIs(JobDetailSchema)(withDepartment));
    expect(unions(JobDetailSchema)).toBeNull();
    expect(unions(CandidateSchema)).toBeNull();
  });

  it('flatten literal unions and object-or-null, and leave other unions as declared', () => {
    const status = Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]);
    expect(serializableSchema(status as unknown as Schema)).toEqual({ type: 'string' });
    const objectOrNull = Type.Union([Type.Object({ a: Type.Integer() }), Type.Null()]);
    const flat = serializableSchema(objectOrNull as unknown as Schema);
    expect(flat.type).toEqual(['object', 'null']);
    for (const v of [null, { a: 1 }]) expect(fastJson(flat)(v)).toBe(asIs(objectOrNull)(v));
    const mixed = Type.Union([Type.String(), Type.Integer()]);
    expect(serializableSchema(mixed as unknown as Schema)).toBe(mixed);
    // The declared schema is never modified: validation and the OpenAPI document read it.
    const before = JSON.stringify(CompanyDetailSchema);
    serializableSchema(CompanyDetailSchema as unknown as Schema);
    expect(JSON.stringify(CompanyDetailSchema)).toBe(before);
  });
});
