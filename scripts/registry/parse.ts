/** Readers of the source formats: CSV rows, Markdown lists and tables of links, the career-ops portal file. */
import { parse as parseDomain } from 'tldts';

/** RFC 4180 fields of one CSV document (quoted fields may hold commas, quotes and line breaks). */
export function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = '';
  };
  const endRow = () => {
    endField();
    rows.push(row);
    row = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (quoted) field += c;
    else if (c === ',') endField();
    else if (c === '\n') endRow();
    else if (c !== '\r') field += c;
  }
  if (field !== '' || row.length > 0) endRow();
  return rows.filter((r) => r.some((f) => f.trim() !== ''));
}

/** CSV rows as records keyed by the header row. */
export function csvRecords(text: string): Record<string, string>[] {
  const [header, ...rows] = csvRows(text);
  if (!header) return [];
  return rows.map((r) => Object.fromEntries(header.map((h, i) => [h.trim(), (r[i] ?? '').trim()])));
}

export interface ListedLink {
  name: string;
  url: string;
  /** The headings above the item, outermost first. */
  headings: string[];
}

/**
 * The first link of every list item and table row of a Markdown document, with the headings it sits under:
 * in an awesome list that link is the item itself (later links on the line are its references).
 */
export function listedLinks(markdown: string): ListedLink[] {
  const out: ListedLink[] = [];
  const headings: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.trimStart().startsWith('```')) fenced = !fenced;
    if (fenced) continue;
    const h = /^(#{1,6})\s+(.*)$/.exec(line);
    if (h?.[1] && h[2] !== undefined) {
      headings.length = h[1].length - 1;
      headings[h[1].length - 1] = h[2].trim();
      continue;
    }
    if (!/^\s*([-*+]|\d+\.|\|)\s/.test(line)) continue;
    const link = /\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/.exec(line);
    if (!link?.[1] || !link[2]) continue;
    const name = link[1].replace(/[*_`]/g, '').trim();
    if (name) out.push({ name, url: link[2], headings: headings.filter(Boolean) });
  }
  return out;
}

/** The registrable domain of a URL on a public (ICANN) suffix, lower case; null for hosting platforms' subdomains. */
export function registrableDomain(url: string): string | null {
  const p = parseDomain(url, { allowPrivateDomains: true });
  if (!p.domain || p.isIp || p.isPrivate || !p.isIcann) return null;
  return p.domain.toLowerCase();
}

/** A display name that is itself a domain ("Fireflies.ai", "Jinba.io"), lower case; null otherwise. */
export function domainInName(name: string): string | null {
  if (!/^[A-Za-z0-9][A-Za-z0-9-]*(\.[A-Za-z0-9-]+)+$/.test(name.trim())) return null;
  return registrableDomain(`https://${name.trim()}`) === name.trim().toLowerCase()
    ? name.trim().toLowerCase()
    : null;
}
