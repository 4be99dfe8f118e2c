import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/port.js';
import { checkItem, type DiscoverBody, type InvalidKey, type RejectedItem, type ValidItem } from './items.js';

/** The result of one POST /discover, as the route returns it. */
export interface DiscoverResult {
  label: string | null;
  received: number;
  inserted: number;
  duplicates: number;
  invalid: number;
  rejectedItems: RejectedItem[];
  invalidKeys: InvalidKey[];
}

export interface Submitter {
  /** request.caller.tokenId */
  tokenId: string;
  /** Arrival time (the injected clock). */
  at: Date;
}

/**
 * Appends a batch of sightings to the log. Every valid item is offered to one INSERT ... ON CONFLICT DO NOTHING
 * on the identity index, so concurrent identical submissions insert each sighting exactly once (the loser waits
 * on the index entry, then skips it). Items repeated inside the request are dropped before the insert: the
 * first occurrence counts as inserted (or as a duplicate of the log), the repeats as duplicates.
 */
export async function appendSightings(db: Db, body: DiscoverBody, who: Submitter): Promise<DiscoverResult> {
  const rejectedItems: RejectedItem[] = [];
  const invalidKeys: InvalidKey[] = [];
  const unique = new Map<string, ValidItem>();
  body.items.forEach((raw, index) => {
    const checked = checkItem(raw, index);
    if (checked.ok) {
      if (!unique.has(checked.item.hash)) unique.set(checked.item.hash, checked.item);
    } else if ('rejected' in checked) {
      rejectedItems.push(checked.rejected);
    } else {
      invalidKeys.push(checked.invalidKey);
    }
  });
  const received = body.items.length;
  const invalid = rejectedItems.length + invalidKeys.length;
  const batchId = randomUUID();
  const inserted = await db.transaction(async (tx) => {
    let count = 0;
    // Known sightings are dropped first, so a resubmitted batch does not ship its payloads to the database
    // again; the insert below still resolves races with ON CONFLICT.
    const known = new Set(
      unique.size === 0
        ? // Stryker disable next-line ArrayDeclaration: equivalent, with no valid item nothing is looked up in it
          []
        : (
            await tx.query<{ key_hash: string }>(
              'SELECT key_hash FROM sightings WHERE key_hash IN (SELECT jsonb_array_elements_text($1::jsonb))',
              [JSON.stringify([...unique.keys()])],
            )
          ).map((r) => r.key_hash),
    );
    const rows = [...unique.values()]
      .filter((i) => !known.has(i.hash))
      .map((i) => ({
        source: i.source,
        key: i.key,
        key_hash: i.hash,
        domain: i.domain,
        // Omitted rather than null: jsonb_to_record would turn a JSON null into the jsonb value 'null'.
        ...(i.payload ? { payload: i.payload } : {}),
      }));
    if (rows.length > 0) {
      // One statement for the whole batch; WITH ORDINALITY keeps the request's order as the log's arrival order.
      const done = await tx.query<{ n: number }>(
        `WITH ins AS (
           INSERT INTO sightings (batch_id, source, key, key_hash, domain, payload, label, token_id, received_at)
           SELECT $2, r.source, r.key, r.key_hash, r.domain, r.payload, $3, $4, $5
             FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS e(value, ord)
             CROSS JOIN LATERAL jsonb_to_record(e.value)
               AS r(source text, key jsonb, key_hash text, domain text, payload jsonb)
            ORDER BY e.ord
           ON CONFLICT (key_hash) DO NOTHING
           RETURNING 1)
         SELECT count(*)::int AS n FROM ins`,
        [JSON.stringify(rows), batchId, body.label, who.tokenId, who.at],
      );
      // Stryker disable next-line OptionalChaining: equivalent, an aggregate without GROUP BY returns one row
      count = done[0]?.n ?? 0;
    }
    // The sightings' foreign key to the batch is deferred, so the batch row is written once, with final counts.
    await tx.query(
      `INSERT INTO discovery_batches (id, label, token_id, received, inserted, duplicates, invalid, received_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [batchId, body.label, who.tokenId, received, count, received - invalid - count, invalid, who.at],
    );
    return count;
  });

  return {
    label: body.label,
    received,
    inserted,
    duplicates: received - invalid - inserted,
    invalid,
    rejectedItems,
    invalidKeys,
  };
}
