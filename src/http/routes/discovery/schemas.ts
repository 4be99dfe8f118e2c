import { Type } from 'typebox';
import { CANDIDATE_STATUSES } from '../../../pipeline/discovery/candidates.js';
import {
  DOMAIN_REASONS,
  MAX_ITEMS,
  MAX_KEY_BYTES,
  MAX_LABEL,
  MAX_PAYLOAD_BYTES,
  MAX_SOURCE,
  REJECT_REASONS,
} from '../../../pipeline/discovery/items.js';
import { REJECTION_REASONS } from '../../../pipeline/discovery/validate.js';

/** Discovery request and response shapes: the OpenAPI document and the docs are generated from these. */

const FreeObject = (description: string) => Type.Object({}, { additionalProperties: true, description });

export const DiscoveryItemSchema = Type.Object(
  {
    source: Type.String({
      minLength: 1,
      maxLength: MAX_SOURCE,
      description: `Origin of the sighting, trimmed; 1 to ${MAX_SOURCE} characters; compared case-sensitively`,
      examples: ['hn-who-is-hiring'],
    }),
    key: FreeObject(
      `Identifies the sighting within its source: a non-empty object, at most ${MAX_KEY_BYTES} bytes as JSON. ` +
        'An optional `domain` (a domain or an http(s) URL) is normalized to the registrable public domain. ' +
        'Two keys are equal when they are equal after sorting object keys and normalizing `domain`.',
    ),
    payload: Type.Optional(FreeObject(`Free-form extra data, at most ${MAX_PAYLOAD_BYTES} bytes as JSON`)),
  },
  { description: 'A company sighting', additionalProperties: false },
);

export const DiscoverBodySchema = Type.Union(
  [
    Type.Object(
      {
        items: Type.Array(DiscoveryItemSchema, {
          maxItems: MAX_ITEMS,
          description: `At most ${MAX_ITEMS} items`,
        }),
        label: Type.Optional(
          Type.String({ maxLength: MAX_LABEL, description: `Batch label, at most ${MAX_LABEL} characters` }),
        ),
      },
      { additionalProperties: false },
    ),
    Type.Array(DiscoveryItemSchema, { maxItems: MAX_ITEMS }),
    DiscoveryItemSchema,
  ],
  {
    description:
      `{items, label?}, a bare array of items, or one bare item. More than ${MAX_ITEMS} items is a 400 and ` +
      'stores nothing; invalid items do not fail the request (they are reported per index).',
  },
);

export const RejectedItemSchema = Type.Object(
  {
    index: Type.Integer({ minimum: 0, description: 'Position of the item in the request' }),
    reason: Type.Enum(REJECT_REASONS, {
      description: 'Machine-readable cause: fix the item and resubmit it',
    }),
    message: Type.String({ description: 'Human-readable detail' }),
  },
  { description: 'A structurally invalid item; nothing of it was stored' },
);

export const InvalidKeySchema = Type.Object(
  {
    index: Type.Integer({ minimum: 0 }),
    key: FreeObject('The key as submitted'),
    reason: Type.Enum(DOMAIN_REASONS, { description: 'Why key.domain is not a public registrable domain' }),
    message: Type.String(),
  },
  { description: 'A well-formed item whose key.domain is not acceptable; nothing of it was stored' },
);

export const DiscoverResultSchema = Type.Object({
  label: Type.Union([Type.String(), Type.Null()], { description: 'The batch label (trimmed), or null' }),
  received: Type.Integer({ description: 'Items in the request' }),
  inserted: Type.Integer({ description: 'New sightings appended to the log' }),
  duplicates: Type.Integer({
    description: 'Valid items already in the log, or repeated earlier in this request',
  }),
  invalid: Type.Integer({ description: 'rejectedItems + invalidKeys' }),
  rejectedItems: Type.Array(RejectedItemSchema),
  invalidKeys: Type.Array(InvalidKeySchema),
});

export const CandidateSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  domain: Type.String({ description: 'Normalized registrable domain', examples: ['acme.ai'] }),
  status: Type.Enum(CANDIDATE_STATUSES, {
    description:
      'pending: awaiting validation (new, or reopened by new evidence); validating: claimed by a promote run; ' +
      'qualified: validated and handed to onboarding; onboarded: onboarding succeeded; rejected: failed ' +
      'validation (see reason); failed: onboarding failed; tracked: already a company, not onboarded again',
  }),
  evidence: Type.Object({
    sources: Type.Array(Type.String(), { description: 'Distinct sources that reported the domain, sorted' }),
    sightingCount: Type.Integer({ minimum: 0 }),
    firstSeenAt: Type.String({ format: 'date-time' }),
    lastSeenAt: Type.String({ format: 'date-time' }),
  }),
  reason: Type.Union([Type.String(), Type.Null()], {
    description:
      `Why it was last rejected (${REJECTION_REASONS.join(', ')}) or failed (onboarding_failed); kept when ` +
      'new evidence reopens the candidate, cleared when it is onboarded',
  }),
  reasonMessage: Type.Union([Type.String(), Type.Null()]),
  siteName: Type.Union([Type.String(), Type.Null()], { description: 'Company name read from the site' }),
  careersUrl: Type.Union([Type.String(), Type.Null()]),
  companyId: Type.Union([Type.String(), Type.Null()], {
    description: 'The catalog company, once tracked/onboarded',
  }),
  onboardWorkflowId: Type.Union([Type.String(), Type.Null()], {
    description: 'The onboarding run it was handed to',
  }),
  validationAttempts: Type.Integer({ minimum: 0 }),
  validatedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
