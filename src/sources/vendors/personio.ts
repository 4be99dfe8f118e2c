/**
 * Personio's public XML feed (docs/sources.md): `GET https://{company}.jobs.personio.de/xml?language=en`, one
 * unpaged document `<workzag-jobs><position>…</position></workzag-jobs>`. Each position carries its id, title
 * (`name`), office, department, `createdAt` and `jobDescriptions` (named sections of CDATA HTML). There is no URL
 * element: the public page is `https://{company}.jobs.personio.de/job/{id}`. A company without a feed is
 * redirected to Personio's own site (board_moved).
 */

import { fetchVendorText, subdomainToken } from '../http.js';
import { loadHtml } from '../normalize/html.js';
import { htmlToText, inferRemote, nonEmpty, parseDate } from '../normalize/text.js';
import { type NormalizedPosting, type SourceAdapter, SourceError } from '../types.js';

/** Personio's `2016-05-31T12:14:07+0200` offsets lack the colon Date.parse wants. */
const personioDate = (s: string | null) => parseDate(s?.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));

function parseFeed(xml: string, host: string, url: string): NormalizedPosting[] {
  const $ = loadHtml(xml, { xml: { xmlMode: true, decodeEntities: true } }, false);
  if ($('workzag-jobs').length === 0) {
    throw new SourceError(
      'malformed_payload',
      'personio',
      `personio feed from ${url} has no <workzag-jobs> root`,
      false,
    );
  }
  const out: NormalizedPosting[] = [];
  $('workzag-jobs > position').each((i, el) => {
    const pos = $(el);
    const field = (name: string) => nonEmpty(pos.children(name).first().text());
    const id = field('id');
    const title = field('name');
    if (!id || !title) {
      throw new SourceError(
        'malformed_payload',
        'personio',
        `personio feed from ${url} is malformed: position ${i} lacks an id or a name`,
        false,
      );
    }
    const location = field('office');
    const sections = pos
      .find('jobDescriptions > jobDescription')
      .map((_, d) => {
        const heading = nonEmpty($(d).children('name').text());
        const body = htmlToText($(d).children('value').text());
        return body ? (heading ? `${heading}\n\n${body}` : body) : '';
      })
      .get()
      .filter((t: string) => t.length > 0);
    out.push({
      externalId: id,
      title,
      location,
      remote: inferRemote(location),
      department: field('department'),
      postedAt: personioDate(field('createdAt')),
      url: `https://${host}/job/${encodeURIComponent(id)}`,
      descriptionText: sections.join('\n\n'),
    });
  });
  return out;
}

export const personio: SourceAdapter = {
  provider: 'personio',
  boardUrl: (token) => `https://${token.toLowerCase()}.jobs.personio.de/`,
  async countPostings(board, client) {
    return (await personio.fetchPostings(board, client)).length;
  },
  async fetchPostings(board, client) {
    const host = `${subdomainToken('personio', board.token)}.jobs.personio.de`;
    const url = `https://${host}/xml?language=en`;
    const { body } = await fetchVendorText('personio', client, url, {
      headers: { accept: 'application/xml, text/xml' },
    });
    return parseFeed(body, host, url);
  },
};
