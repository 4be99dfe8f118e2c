/**
 * BambooHR's careers-site JSON (docs/sources.md; undocumented, what its own careers widget calls):
 * `GET https://{company}.bamboohr.com/careers/list` gives every opening in one `{meta, result: [...]}` without
 * description or date, and `GET .../careers/{id}/detail` gives `{result: {jobOpening: {description, datePosted}}}`.
 * Details cost one request per opening: fetched for new or changed openings only (see SourceAdapter.usesKnown), a
 * few at a time. An unknown company is redirected to BambooHR's own site (board_moved).
 */
import { type Static, Type } from 'typebox';
import { fetchVendorJson, mapLimit, subdomainToken } from '../http.js';
import { htmlToText, inferRemote, joinDistinct, nonEmpty, parseDate } from '../normalize/text.js';
import type { Workplace } from '../normalize/workplace.js';
import { Id, Nullable, OptBool, OptStr } from '../schema.js';
import type { KnownPostings, SourceAdapter } from '../types.js';

/** Detail requests in flight; the client's per-host spacing still applies. */
const DETAIL_CONCURRENCY = 4;

const Place = Nullable(
  Type.Object({ city: OptStr, state: OptStr, province: OptStr, country: OptStr, addressCountry: OptStr }),
);
const Opening = Type.Object({
  id: Id,
  jobOpeningName: Type.String(),
  departmentLabel: OptStr,
  employmentStatusLabel: OptStr,
  location: Place,
  atsLocation: Place,
  isRemote: OptBool,
  // "0" on-site, "1" remote, "2" hybrid, as public clients read it.
  locationType: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Null()])),
});
const List = Type.Object({ result: Type.Array(Opening) });
const Detail = Type.Object({
  result: Type.Object({
    jobOpening: Type.Object({ description: OptStr, datePosted: OptStr, jobOpeningShareUrl: OptStr }),
  }),
});
type Opening = Static<typeof Opening>;

const place = (p: Static<typeof Opening>['location']) =>
  p
    ? joinDistinct([p.city, p.state ?? p.province, p.country ?? p.addressCountry])?.replace(/; /g, ', ')
    : null;

/** `locationType` → the workplace. */
const BAMBOO_WORKPLACE: Readonly<Record<string, Workplace>> = { '0': 'onsite', '1': 'remote', '2': 'hybrid' };

function remoteOf(o: Opening, location: string | null): boolean | null {
  const type = o.locationType === null || o.locationType === undefined ? '' : String(o.locationType);
  if (type === '1' || o.isRemote === true) return true;
  if (type === '0' || type === '2') return false;
  return inferRemote(location);
}

export const bamboohr: SourceAdapter = {
  provider: 'bamboohr',
  boardUrl: (token) => `https://${token.toLowerCase()}.bamboohr.com/careers`,
  async countPostings(board, client) {
    const url = `https://${subdomainToken('bamboohr', board.token)}.bamboohr.com/careers/list`;
    return (await fetchVendorJson('bamboohr', client, url, List)).result.length;
  },
  usesKnown: true,
  async fetchPostings(board, client, known?: KnownPostings) {
    const base = `https://${subdomainToken('bamboohr', board.token)}.bamboohr.com/careers`;
    const list = await fetchVendorJson('bamboohr', client, `${base}/list`, List);
    return mapLimit(list.result, DETAIL_CONCURRENCY, async (o) => {
      const id = String(o.id);
      const title = o.jobOpeningName.trim();
      const stored = known?.get(id);
      const keep = stored && stored.descriptionText !== '' && stored.title === title ? stored : undefined;
      const detail = keep
        ? undefined
        : (await fetchVendorJson('bamboohr', client, `${base}/${encodeURIComponent(id)}/detail`, Detail))
            .result.jobOpening;
      const location = joinDistinct([place(o.location), place(o.atsLocation)]);
      return {
        externalId: id,
        title,
        location,
        remote: remoteOf(o, location),
        workplace:
          remoteOf(o, location) === true ? 'remote' : (BAMBOO_WORKPLACE[String(o.locationType)] ?? null),
        department: nonEmpty(o.departmentLabel),
        postedAt: parseDate(detail?.datePosted),
        url: keep?.url ?? nonEmpty(detail?.jobOpeningShareUrl) ?? `${base}/${encodeURIComponent(id)}`,
        descriptionText: keep?.descriptionText ?? htmlToText(detail?.description),
      };
    });
  },
};
