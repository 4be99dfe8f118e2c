/** Turning vendor HTML into the clean text stored as a posting's description, and small field helpers. */
import { loadHtml } from './html.js';

/** The parts of a parsed DOM node this module reads (cheerio's domhandler nodes, structurally). */
interface DomNode {
  type: string;
  name?: string;
  data?: string;
  children?: DomNode[];
}

const BLOCK = new Set([
  'p',
  'div',
  'section',
  'article',
  'header',
  'footer',
  'ul',
  'ol',
  'table',
  'tr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'pre',
  'hr',
  'dl',
  'dt',
  'dd',
  'figure',
  'main',
  'aside',
  'nav',
  'address',
]);
const SKIP = new Set(['script', 'style', 'noscript', 'template', 'iframe', 'svg', 'head']);

/** htmlparser2 instead of cheerio's default parse5: 2-3x faster, and lenient enough for vendor fragments. */
const FAST_PARSER = { xml: { xmlMode: false, decodeEntities: true } } as const;

const BASIC_ENTITIES: Record<string, string> = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' };

/**
 * Decodes one level of entity escaping (`&lt;p&gt;` → `<p>`), as Greenhouse's entity-escaped `content` needs.
 * Only the escaping entities and numeric references are decoded, in a single pass (so `&amp;lt;` → `&lt;`);
 * other named entities stay as they are and the HTML parser decodes them afterwards, which is the same result
 * as a full decode at a fraction of a DOM parse.
 */
export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(lt|gt|quot|apos|amp|#\d{1,7}|#x[0-9a-f]{1,6});/gi, (whole, name: string) => {
    if (name[0] !== '#') return BASIC_ENTITIES[name.toLowerCase()] ?? whole;
    const code =
      name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** HTML fragment → readable text: block elements become paragraphs, list items bullets, whitespace collapsed. */
export function htmlToText(html: string | null | undefined): string {
  if (!html) return '';
  const root = loadHtml(html, FAST_PARSER, false).root()[0] as unknown as DomNode;
  const out: string[] = [];
  const walk = (node: DomNode): void => {
    if (node.type === 'text') {
      out.push((node.data ?? '').replace(/\s+/g, ' '));
      return;
    }
    if (node.type !== 'tag' && node.type !== 'root') return;
    const name = node.name ?? '';
    if (SKIP.has(name)) return;
    if (name === 'br') {
      out.push('\n');
      return;
    }
    if (name === 'li') out.push('\n• ');
    else if (BLOCK.has(name)) out.push('\n\n');
    else if (name === 'td' || name === 'th') out.push(' ');
    for (const child of node.children ?? []) walk(child);
    if (BLOCK.has(name)) out.push('\n\n');
  };
  walk(root);
  return out
    .join('')
    .replace(/\u00a0/g, ' ')
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Plain text → the same normalised form (trimmed lines, at most one blank line). */
export function cleanText(text: string | null | undefined): string {
  if (!text) return '';
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Parses vendor dates: ISO-8601, epoch ms, `YYYY-MM-DD`, Recruitee's `YYYY-MM-DD HH:MM:SS UTC`. */
export function parseDate(value: unknown): Date | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number') {
    const d = new Date(value);
    return Number.isNaN(d.getTime()) ? null : d;
  }
  if (typeof value !== 'string') return null;
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}) UTC$/.exec(value.trim());
  const iso = m
    ? `${m[1]}T${m[2]}Z`
    : /^\d{4}-\d{2}-\d{2}$/.test(value.trim())
      ? `${value.trim()}T00:00:00Z`
      : value;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** Remote flag from free text when the vendor has none (Greenhouse): "Remote - US" → true, unknown → null. */
export function inferRemote(...texts: Array<string | null | undefined>): boolean | null {
  const joined = texts.filter(Boolean).join(' ').toLowerCase();
  if (joined === '') return null;
  if (/\b(remote|anywhere|work from home|distributed)\b/.test(joined)) return true;
  return null;
}

/** Joins non-empty, de-duplicated strings with '; ', or null when none remain. */
export function joinDistinct(values: Array<string | null | undefined>): string | null {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const v of values) {
    const t = v?.trim();
    if (t && !seen.has(t.toLowerCase())) {
      seen.add(t.toLowerCase());
      out.push(t);
    }
  }
  return out.length > 0 ? out.join('; ') : null;
}

/** Whitespace runs (tabs, NBSP, other Unicode spaces, zero-width spaces) → one space, trimmed: titles, places. */
export function normalizeSpace(s: string): string {
  return s.replace(/[\s\u00a0\u2000-\u200b\u202f\u205f\u3000\ufeff]+/g, ' ').trim();
}

export function nonEmpty(s: string | null | undefined): string | null {
  const t = s?.trim();
  return t ? t : null;
}

/** Vendor pay intervals ("per-year-salary", "1 YEAR", "yearly") → year | month | week | day | hour. */
export function normalizeInterval(value: string | null | undefined): string | null {
  const v = (value ?? '').toLowerCase();
  for (const unit of ['year', 'month', 'week', 'day', 'hour']) if (v.includes(unit)) return unit;
  if (v.includes('annual')) return 'year';
  return null;
}
