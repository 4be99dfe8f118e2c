/**
 * Fake Workday career sites (CXS API) on `{tenant}.wd{N}.myworkdayjobs.com`. Wire format from public clients'
 * recorded responses (see docs/sources.md, Workday): the listing `POST /wday/cxs/{tenant}/{site}/jobs` takes
 * `{appliedFacets, limit, offset, searchText}` with at most 20 per page and answers `{total, jobPostings: [{title,
 * externalPath, locationsText, postedOn, bulletFields}]}`; `GET /wday/cxs/{tenant}/{site}{externalPath}` answers
 * `{jobPostingInfo: {...}, hiringOrganization}`. Board tokens are `{tenant}.wd{N}/{site}`.
 */
import type { FakePosting } from './fake-ats-render.js';
import { cityOf, postedOf, slugOf, type VendorFake } from './fake-vendors.js';

const MAX_LIMIT = 20;
const DAY_MS = 86_400_000;

const reqId = (p: FakePosting) => `R-${p.id}`;
const pathOf = (p: FakePosting) => `/job/${slugOf(cityOf(p)) || 'remote'}/${slugOf(p.title)}_${reqId(p)}`;
const locationsText = (p: FakePosting) => (p.remote ? 'Remote' : (p.location ?? ''));

/** "Posted 3 Days Ago" as Workday words it, counted from the fake's clock (the request's arrival). */
function postedOn(p: FakePosting): string {
  const days = Math.max(0, Math.floor((Date.now() - Date.parse(postedOf(p))) / DAY_MS));
  if (days === 0) return 'Posted Today';
  if (days === 1) return 'Posted Yesterday';
  return days > 30 ? 'Posted 30+ Days Ago' : `Posted ${days} Days Ago`;
}

export const workdayFake: VendorFake = {
  provider: 'workday',
  hosts: ['.myworkdayjobs.com'],
  owns: (host) => /^[a-z0-9-]+\.wd\d+\.myworkdayjobs\.com$/.test(host),
  handle(req, io) {
    const [tenant, dc] = req.host.split('.');
    const [wday, cxs, , site, ...rest] = req.seg;
    if (wday !== 'wday' || cxs !== 'cxs' || !site) return io.notFound();
    const token = `${tenant}.${dc}/${site}`;
    if (rest.length === 1 && rest[0] === 'jobs' && req.method === 'POST') {
      const q = JSON.parse(req.body || '{}') as { limit?: number; offset?: number };
      const limit = q.limit ?? MAX_LIMIT;
      const offset = q.offset ?? 0;
      if (limit > MAX_LIMIT) {
        return io.send(400, JSON.stringify({ errorCode: 'HTTP_400', message: 'limit must not exceed 20' }));
      }
      return io.serve(token, (ps) =>
        JSON.stringify({
          total: ps.length,
          jobPostings: ps.slice(offset, offset + limit).map((p) => ({
            title: p.title,
            externalPath: pathOf(p),
            locationsText: locationsText(p),
            postedOn: postedOn(p),
            bulletFields: [reqId(p)],
          })),
        }),
      );
    }
    const path = `/${rest.join('/')}`;
    const raw = io.raw(`${token}${path}`);
    if (raw) return io.send(raw.status, raw.body);
    const one = io.board(token)?.find((p) => pathOf(p) === path);
    if (!one || req.method !== 'GET') return io.notFound();
    return io.send(
      200,
      JSON.stringify({
        jobPostingInfo: {
          id: `${one.id}abc`,
          title: one.title,
          jobDescription: one.descriptionHtml ?? '',
          location: locationsText(one),
          ...(one.remote ? { remoteType: 'Remote' } : {}),
          postedOn: postedOn(one),
          startDate: postedOf(one).slice(0, 10),
          timeType: 'Full time',
          jobReqId: reqId(one),
          jobPostingId: `${slugOf(one.title)}_${reqId(one)}`,
          jobPostingSiteId: site,
          country: { descriptor: 'United States of America', id: 'bc33aa3152ec42d4995f4791a106ed09' },
          canApply: true,
          posted: true,
          includeResumeParsing: true,
          externalUrl: `https://${req.host}/${site}${pathOf(one)}`,
          questionnaireId: null,
        },
        hiringOrganization: { name: 'Acme Holdings', url: '' },
        similarJobs: [],
      }),
    );
  },
};
