import { createHash } from 'node:crypto';
import { badRequest } from '../../errors.js';
import { DomainError, normalizeDomain } from '../domain.js';

/**
 * POST /discover input: the three body forms, the item rules and the canonical identity of a sighting.
 * Pure functions; the store (sightings.ts) only sees items that passed.
 */

/** Spec section 8: at most 200 items per request, label at most 200 characters. */
export const MAX_ITEMS = 200;
export const MAX_LABEL = 200;
export const MAX_SOURCE = 100;
/** Serialized (compact JSON, UTF-8) size caps. */
export const MAX_KEY_BYTES = 2048;
export const MAX_PAYLOAD_BYTES = 16_384;
/** Deeper JSON is refused: PostgreSQL's jsonb parser recurses, and no honest sighting nests this far. */
export const MAX_DEPTH = 32;

/** Why an item was refused as a whole (rejectedItems[].reason). */
export const REJECT_REASONS = [
  'item_not_object',
  'unknown_field',
  'source_missing',
  'source_invalid',
  'source_too_long',
  'key_missing',
  'key_not_object',
  'key_empty',
  'key_too_large',
  'key_invalid',
  'payload_not_object',
  'payload_too_large',
  'payload_invalid',
] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

/** Why key.domain is not acceptable (invalidKeys[].reason). */
export const DOMAIN_REASONS = [
  'domain_not_string',
  'domain_empty',
  'domain_invalid',
  'domain_ip_address',
  'domain_not_public',
  'domain_public_suffix',
] as const;
export type DomainReason = (typeof DOMAIN_REASONS)[number];

export interface RejectedItem {
  index: number;
  reason: RejectReason;
  message: string;
}

export interface InvalidKey {
  index: number;
  key: Record<string, unknown>;
  reason: DomainReason;
  message: string;
}

export interface ValidItem {
  index: number;
  source: string;
  /** Keys sorted recursively, domain normalized: what is stored and hashed. */
  key: Record<string, unknown>;
  domain: string | null;
  payload: Record<string, unknown> | null;
  /** sha256 hex of [source, canonical key]: the sighting's identity. */
  hash: string;
}

export interface DiscoverBody {
  items: unknown[];
  label: string | null;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const ITEM_FIELDS = new Set(['source', 'key', 'payload']);
const ENVELOPE_FIELDS = new Set(['items', 'label']);

/** Lone UTF-16 surrogates and NUL cannot be stored in PostgreSQL text or jsonb. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE = { test: (s: string): boolean => s.includes('\0') || LONE_SURROGATE.test(s) };

/**
 * The three accepted shapes: `{items, label?}`, a bare array of items, or one bare item. An object is the
 * envelope exactly when it has an `items` field. Anything else is a malformed body (400); the item cap is
 * checked here so an oversized request stores nothing.
 */
export function parseDiscoverBody(body: unknown): DiscoverBody {
  let items: unknown[];
  let label: string | null = null;
  if (Array.isArray(body)) {
    items = body;
  } else if (isObject(body) && 'items' in body) {
    for (const field of Object.keys(body)) {
      if (!ENVELOPE_FIELDS.has(field)) throw badRequest(`Unknown field '${field}'; expected items and label`);
    }
    if (!Array.isArray(body.items))
      throw badRequest("Invalid field 'items': must be an array of discovery items");
    items = body.items;
    label = parseLabel(body.label);
  } else if (isObject(body)) {
    items = [body];
  } else {
    throw badRequest(
      'Malformed body: send {"items": [...], "label": "..."}, an array of discovery items, or a single item',
    );
  }
  if (items.length > MAX_ITEMS) {
    throw badRequest(
      `Too many items: at most ${MAX_ITEMS} discovery items per request, got ${items.length}; split the batch`,
    );
  }
  return { items, label };
}

function parseLabel(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw badRequest("Invalid field 'label': must be a string");
  if (UNSTORABLE.test(value)) throw badRequest("Invalid field 'label': contains NUL or unpaired surrogates");
  const label = value.trim();
  // Counted in code points, as a person reads characters.
  const length = [...label].length;
  if (length > MAX_LABEL) {
    throw badRequest(`Invalid field 'label': at most ${MAX_LABEL} characters, got ${length}`);
  }
  return label.length > 0 ? label : null;
}

/** Recursively sorted object keys; arrays keep their order (it is meaningful). */
export function canonicalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalize);
  if (isObject(value)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = canonicalize(value[k]);
    return out;
  }
  return value;
}

export function sightingHash(source: string, canonicalKey: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([source, canonicalKey]))
    .digest('hex');
}

/**
 * True when a JSON value cannot be stored as jsonb or is suspiciously deep: strings (keys included) with NUL or
 * unpaired surrogates, or nesting past MAX_DEPTH. JSON.stringify escapes both characters, so strings are
 * inspected directly.
 */
function unstorable(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return UNSTORABLE.test(value);
  if (typeof value !== 'object' || value === null) return false;
  if (depth >= MAX_DEPTH) return true;
  for (const [k, v] of Object.entries(value)) {
    if (UNSTORABLE.test(k) || unstorable(v, depth + 1)) return true;
  }
  return false;
}

/**
 * True when a JSON value nests deeper than `max`. Iterative, so it answers for any depth the JSON parser
 * accepts (V8's parser is iterative too); it runs before anything recursive (serializing, canonicalizing) sees
 * the value, which a few thousand levels would take past the stack.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [v, depth] = next;
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/** Maps normalizeDomain's refusals (domain.ts) onto reasons a client can branch on. */
export function domainReason(message: string): DomainReason {
  if (/is empty/.test(message)) return 'domain_empty';
  if (/IP address/.test(message)) return 'domain_ip_address';
  if (/is a public suffix/.test(message)) return 'domain_public_suffix';
  if (/single label|does not end in a public suffix/.test(message)) return 'domain_not_public';
  return 'domain_invalid';
}

type Checked =
  | { ok: true; item: ValidItem }
  | { ok: false; rejected: RejectedItem }
  | { ok: false; invalidKey: InvalidKey };

const reject = (index: number, reason: RejectReason, message: string): Checked => ({
  ok: false,
  rejected: { index, reason, message },
});

const bytes = (v: unknown): number => Buffer.byteLength(JSON.stringify(v), 'utf8');

/** Applies the item rules to items[index]; structural problems first, then the key's domain. */
export function checkItem(raw: unknown, index: number): Checked {
  if (!isObject(raw)) return reject(index, 'item_not_object', 'A discovery item must be a JSON object');
  const unknown = Object.keys(raw).find((f) => !ITEM_FIELDS.has(f));
  if (unknown !== undefined) {
    return reject(index, 'unknown_field', `Unknown field '${unknown}'; an item has source, key and payload`);
  }

  if (raw.source === undefined || raw.source === null)
    return reject(index, 'source_missing', "'source' is required");
  if (typeof raw.source !== 'string') return reject(index, 'source_invalid', "'source' must be a string");
  const source = raw.source.trim();
  if (source.length === 0) return reject(index, 'source_invalid', "'source' must not be empty");
  if (UNSTORABLE.test(source))
    return reject(index, 'source_invalid', "'source' contains NUL or unpaired surrogates");
  if ([...source].length > MAX_SOURCE) {
    return reject(index, 'source_too_long', `'source' must be at most ${MAX_SOURCE} characters`);
  }

  if (raw.key === undefined || raw.key === null) return reject(index, 'key_missing', "'key' is required");
  if (!isObject(raw.key)) return reject(index, 'key_not_object', "'key' must be a JSON object");
  if (Object.keys(raw.key).length === 0)
    return reject(index, 'key_empty', "'key' must have at least one field");
  if (nestsDeeperThan(raw.key, MAX_DEPTH)) {
    return reject(index, 'key_invalid', `'key' nests deeper than ${MAX_DEPTH} levels`);
  }
  const keySize = bytes(raw.key);
  if (keySize > MAX_KEY_BYTES) {
    return reject(index, 'key_too_large', `'key' is ${keySize} bytes serialized; at most ${MAX_KEY_BYTES}`);
  }
  if (unstorable(raw.key)) {
    return reject(
      index,
      'key_invalid',
      `'key' contains NUL, unpaired surrogates or nests deeper than ${MAX_DEPTH}`,
    );
  }

  let payload: Record<string, unknown> | null = null;
  if (raw.payload !== undefined && raw.payload !== null) {
    if (!isObject(raw.payload)) return reject(index, 'payload_not_object', "'payload' must be a JSON object");
    if (nestsDeeperThan(raw.payload, MAX_DEPTH)) {
      return reject(index, 'payload_invalid', `'payload' nests deeper than ${MAX_DEPTH} levels`);
    }
    const size = bytes(raw.payload);
    if (size > MAX_PAYLOAD_BYTES) {
      return reject(
        index,
        'payload_too_large',
        `'payload' is ${size} bytes serialized; at most ${MAX_PAYLOAD_BYTES}`,
      );
    }
    if (unstorable(raw.payload)) {
      return reject(
        index,
        'payload_invalid',
        `'payload' contains NUL, unpaired surrogates or nests deeper than ${MAX_DEPTH}`,
      );
    }
    payload = raw.payload;
  }

  let domain: string | null = null;
  if ('domain' in raw.key) {
    const given = raw.key.domain;
    if (typeof given !== 'string') {
      return invalidKey(index, raw.key, 'domain_not_string', "'key.domain' must be a string");
    }
    try {
      domain = normalizeDomain(given);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      return invalidKey(index, raw.key, domainReason(err.message), `'key.domain' ${err.message}`);
    }
  }
  const key = canonicalize(domain === null ? raw.key : { ...raw.key, domain }) as Record<string, unknown>;
  return { ok: true, item: { index, source, key, domain, payload, hash: sightingHash(source, key) } };
}

function invalidKey(
  index: number,
  key: Record<string, unknown>,
  reason: DomainReason,
  message: string,
): Checked {
  return { ok: false, invalidKey: { index, key, reason, message } };
}
