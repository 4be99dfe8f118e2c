/**
 * Greenhouse Job Board API (docs/sources.md): one unpaged call returns the whole board with
 * `content=true`; `content` is HTML escaped as entities, so it is unescaped once and then read as HTML.
 */
import { type Static, Type } from 'typebox';
import type { HttpClient } from '../../net/types.js';
import { boardSegment, fetchVendorJson } from '../http.js';
import { descriptionFromHtml } from '../normalize/description.js';
import {
  decodeEntities,
  inferRemote,
  joinDistinct,
  nonEmpty,
  normalizeSpace,
  parseDate,
} from '../normalize/text.js';
import { type Workplace, workplaceOf } from '../normalize/workplace.js';
import { Id, Nullable, OptNum, OptStr } from '../schema.js';
import type { BoardRef, NormalizedPosting, Salary, SourceAdapter } from '../types.js';

const Job = Type.Object({
  id: Id,
  title: Type.String(),
  absolute_url: Type.String(),
  updated_at: OptStr,
  first_published: OptStr,
  location: Nullable(Type.Object({ name: OptStr })),
  content: OptStr,
  departments: Nullable(Type.Array(Type.Object({ name: OptStr }))),
  offices: Nullable(Type.Array(Type.Object({ name: OptStr, location: OptStr }))),
  /** Custom fields the employer shows on postings: `{name, value, value_type}`; value is a string, list or null. */
  metadata: Nullable(Type.Array(Type.Object({ name: OptStr, value: Type.Optional(Type.Unknown()) }))),
  /** Pay transparency ranges, in cents: sent by boards that publish pay. */
  pay_input_ranges: Nullable(
    Type.Array(Type.Object({ min_cents: OptNum, max_cents: OptNum, currency_type: OptStr, title: OptStr })),
  ),
  requisition_id: OptStr,
});
type GreenhouseJob = Static<typeof Job>;
const Board = Type.Object({ jobs: Type.Array(Job) });

function apiHost(board: BoardRef): string {
  // EU boards live on job-boards.eu.greenhouse.io; sources disagree whether the API host differs, so only
  // boards seen on an EU host use the EU API host (docs/sources.md).
  return /\.eu\.greenhouse\.io/i.test(board.url) ? 'boards-api.eu.greenhouse.io' : 'boards-api.greenhouse.io';
}

/** A metadata field naming the work arrangement ("Location Type", "Workplace Type", "Remote Status", ...). */
const WORKPLACE_FIELD = /location type|workplace|work type|work arrangement|remote/i;

/**
 * The employer's structured work arrangement: "Remote" → true, "Hybrid" / "On-Site" / "In Office" → false; a
 * yes/no field about remote work ("Remote Eligible": "Yes") answers directly.
 */
function metadataRemote(j: GreenhouseJob): boolean | null {
  for (const field of j.metadata ?? []) {
    if (!field.name || !WORKPLACE_FIELD.test(field.name)) continue;
    const values = (Array.isArray(field.value) ? field.value : [field.value]).filter(
      (v): v is string => typeof v === 'string',
    );
    if (/remote/i.test(field.name)) {
      if (values.some((v) => /^(yes|true)$/i.test(v.trim()))) return true;
      if (values.some((v) => /^(no|false)$/i.test(v.trim()))) return false;
    }
    if (values.some((v) => /\bremote\b/i.test(v))) return true;
    if (values.some((v) => /hybrid|on-?\s?site|office/i.test(v))) return false;
  }
  return null;
}

/** The metadata's work arrangement as a workplace ("Hybrid", "On-Site", "Remote"), or null. */
function metadataWorkplace(j: GreenhouseJob): Workplace | null {
  const remote = metadataRemote(j);
  if (remote === true) return 'remote';
  for (const field of j.metadata ?? []) {
    if (!field.name || !WORKPLACE_FIELD.test(field.name)) continue;
    const values = Array.isArray(field.value) ? field.value : [field.value];
    for (const v of values) if (typeof v === 'string' && workplaceOf(v)) return workplaceOf(v);
  }
  return null;
}

/** Pay ranges in one currency → the span they cover (ranges per location or level); cents become units. */
function payRange(j: GreenhouseJob): Salary | undefined {
  const ranges = (j.pay_input_ranges ?? []).filter((r) => r.min_cents != null || r.max_cents != null);
  const [first] = ranges;
  if (!first || ranges.some((r) => r.currency_type !== first.currency_type)) return undefined;
  const cents = (key: 'min_cents' | 'max_cents') =>
    ranges.map((r) => r[key]).filter((v): v is number => typeof v === 'number');
  const mins = cents('min_cents');
  const maxes = cents('max_cents');
  return {
    currency: nonEmpty(first.currency_type)?.toUpperCase() ?? null,
    min: mins.length > 0 ? Math.min(...mins) / 100 : null,
    max: maxes.length > 0 ? Math.max(...maxes) / 100 : null,
    interval: null,
    text: null,
  };
}

const Listing = Type.Object({ jobs: Type.Array(Type.Object({ id: Id })) });

export const greenhouse: SourceAdapter = {
  provider: 'greenhouse',
  boardUrl: (token) => `https://boards.greenhouse.io/${encodeURIComponent(token)}`,
  async countPostings(board, client) {
    // Without content=true the list is a fraction of the size: enough to confirm the board exists.
    const url = `https://${apiHost(board)}/v1/boards/${boardSegment('greenhouse', board.token)}/jobs`;
    return (await fetchVendorJson('greenhouse', client, url, Listing)).jobs.length;
  },
  async fetchPostings(board: BoardRef, client: HttpClient): Promise<NormalizedPosting[]> {
    const url = `https://${apiHost(board)}/v1/boards/${boardSegment('greenhouse', board.token)}/jobs?content=true`;
    const data = await fetchVendorJson('greenhouse', client, url, Board);
    return data.jobs.map((j) => {
      const officeNames = (j.offices ?? []).map((o) => o.name);
      const salary = payRange(j);
      return {
        externalId: String(j.id),
        title: normalizeSpace(j.title),
        location:
          nonEmpty(j.location?.name) ?? joinDistinct((j.offices ?? []).map((o) => o.location ?? o.name)),
        remote: metadataRemote(j) ?? inferRemote(j.location?.name, ...officeNames),
        workplace: metadataWorkplace(j),
        department: joinDistinct((j.departments ?? []).map((d) => d.name)),
        postedAt: parseDate(j.first_published),
        updatedAt: parseDate(j.updated_at),
        url: j.absolute_url,
        descriptionText: descriptionFromHtml(decodeEntities(j.content ?? '')),
        ...(salary ? { salary } : {}),
        requisitionId: nonEmpty(j.requisition_id),
      };
    });
  },
};
