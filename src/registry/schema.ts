/**
 * The registry of AI companies (registry/companies.yaml) and of the public sources it is built from
 * (registry/sources.yaml): one TypeBox schema each, the single source of the file format and of its types.
 * docs/registry.md says what counts as an AI company and how identity is checked.
 */
import { type Static, Type } from 'typebox';
import { COMPANY_CATEGORIES } from '../catalog/vocabulary.js';
import { PROVIDERS } from '../sources/types.js';

/** Vendors a registry board may name: those with an adapter in src/sources/. */
export const REGISTRY_VENDORS = PROVIDERS;
export type RegistryVendor = (typeof REGISTRY_VENDORS)[number];

/**
 * The second signal that tied a board to the company's domain (a name alone never does; docs/registry.md):
 * - `board-url`: the board's identifier spells the domain's word and the board list's own name for the board
 *   is the company's;
 * - `two-sources`: two independent sources list the board whose identifier spells the domain's word;
 * - `postings`: most of the board's own postings, as a source saved them, link to the company's domain;
 * - `vendor-api`: a source that confirmed the board against the vendor's own API gives a matching company name
 *   or URL (for sources of that kind; none of the pinned sources is one).
 */
export const EVIDENCE_KINDS = ['vendor-api', 'board-url', 'two-sources', 'postings'] as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

const DATE = '^\\d{4}-\\d{2}-\\d{2}$';
const DOMAIN = '^(?=.{4,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]{2,63}$';
const SOURCE_ID = '^[a-z0-9][a-z0-9-]{0,62}$';

export const RegistryBoard = Type.Object(
  {
    vendor: Type.Enum(REGISTRY_VENDORS, { description: 'The job-board vendor, named as the adapters are.' }),
    board: Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: '^\\S+$',
      description: "The identifier the vendor's adapter takes (docs/sources.md).",
      examples: ['anthropic'],
    }),
    lastSeen: Type.String({
      pattern: DATE,
      description: 'The date (YYYY-MM-DD) the board was last seen live in a source.',
      examples: ['2026-03-02'],
    }),
    evidence: Type.Enum(EVIDENCE_KINDS, {
      description: 'The second signal that tied the board to the company.',
    }),
    sources: Type.Array(Type.String({ pattern: SOURCE_ID }), {
      minItems: 1,
      description:
        "Ids of registry/sources.yaml behind the row: the lists that name the board and those giving the company's domain.",
    }),
  },
  { additionalProperties: false },
);
export type RegistryBoard = Static<typeof RegistryBoard>;

export const RegistryEntry = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, examples: ['Anthropic'] }),
    domain: Type.String({
      pattern: DOMAIN,
      description: "The company's registrable domain, lower case.",
      examples: ['anthropic.com'],
    }),
    category: Type.Enum(COMPANY_CATEGORIES),
    boards: Type.Array(RegistryBoard, { minItems: 1 }),
  },
  { additionalProperties: false },
);
export type RegistryEntry = Static<typeof RegistryEntry>;

export const RegistryDocument = Type.Array(RegistryEntry);

export const RegistrySource = Type.Object(
  {
    repository: Type.String({ pattern: '^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$', examples: ['owner/name'] }),
    paths: Type.Array(Type.String({ minLength: 1 }), {
      minItems: 1,
      description: 'Files read at the commit; a path ending in `/` stands for every file of that folder.',
    }),
    exclude: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), { description: 'Files of those folders left unread.' }),
    ),
    commit: Type.String({ pattern: '^[0-9a-f]{40}$' }),
    licence: Type.String({ minLength: 1, description: 'SPDX identifier of the licence at that commit.' }),
    contributes: Type.String({ minLength: 1, description: 'What the registry takes from the source.' }),
  },
  { additionalProperties: false },
);
export type RegistrySource = Static<typeof RegistrySource>;

export const SourcesDocument = Type.Record(Type.String({ pattern: SOURCE_ID }), RegistrySource);
export type SourcesDocument = Static<typeof SourcesDocument>;
